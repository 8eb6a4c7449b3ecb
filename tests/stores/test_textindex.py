"""The SQLite store's in-memory keyword/entity index: FTS5's matching, per-user BM25, patched = reloaded."""

from __future__ import annotations

import math
import random
import sqlite3
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from jiyi.records import Kind, Scope, Status
from jiyi.stores.protocol import ChangeSet, RecordFilter, Upsert
from jiyi.stores.sqlite.store import SQLiteStore
from jiyi.stores.sqlite.textindex import K1, B, _best
from jiyi.stores.sqlite.unicode61 import Unicode61

ALICE = Scope("acme", "alice")
ANY = RecordFilter(statuses=None)
WORDS = ["花生", "咖啡", "用户", "杭州", "peanut", "coffee", "user", "café", "x1", "ÄRGER", "ﬁle", "²"]


def _fts5_terms(conn: sqlite3.Connection, text: str) -> list[str]:
    conn.execute("DELETE FROM t")
    conn.execute("INSERT INTO t (rowid, k) VALUES (1, ?)", (text,))
    return [r[0] for r in conn.execute("SELECT term FROM v ORDER BY offset")]


def test_unicode61_splits_and_folds_like_fts5() -> None:
    conn = sqlite3.connect(":memory:")
    conn.execute("CREATE VIRTUAL TABLE t USING fts5 (k, tokenize = 'unicode61 remove_diacritics 2')")
    conn.execute("CREATE VIRTUAL TABLE v USING fts5vocab (t, 'instance')")
    ours = Unicode61()
    r = random.Random(5)
    pools = [range(0x20, 0x250), range(0x300, 0x370), range(0x2000, 0x2070), range(0x3000, 0x3040),
             range(0x4E00, 0x4E40), range(0xFF00, 0xFF70), [0x1F600, 0x2603, 0xE000, 0xAA, 0xB2, 0x1C4]]
    texts = ["Peanuts café ÉCOLE naïve", "用户 对 花生 过敏", "iPhone15 CA1234 ＡＢＣ", "a.b-c_d e'f"]
    texts += ["".join(chr(r.choice(r.choice(pools))) for _ in range(12)) for _ in range(400)]
    for text in texts:
        assert ours.terms(text) == _fts5_terms(conn, text), repr(text)


def _put(store: SQLiteStore, data, scope: Scope, rows: list[tuple[str, str | None, tuple[str, ...]]],
         **fields: object) -> None:
    changes = ChangeSet(scope)
    for mid, keywords, entities in rows:
        rec = data.record(mid, scope=scope, entities=entities, **fields)
        changes.upserts.append(Upsert(rec, None, keywords))
    store.apply(changes)


def _corpus(seed: int, n: int) -> list[tuple[str, str, tuple[str, ...]]]:
    r = random.Random(seed)
    return [(f"d{seed}-{i}", " ".join(r.choices(WORDS, k=r.randint(1, 8))), tuple(r.sample(WORDS[:6], 2)))
            for i in range(n)]


def _reference_bm25(docs: dict[str, str], tokens: list[str], tok: Unicode61) -> dict[str, float]:
    """Textbook BM25 with FTS5's IDF floor, one document collection (this user's)."""
    terms = {d: Counter(tok.terms(t)) for d, t in docs.items()}
    lengths = {d: sum(c.values()) for d, c in terms.items()}
    avgdl = sum(lengths.values()) / len(docs)
    out: dict[str, float] = {}
    for q in dict.fromkeys(t for token in tokens for t in tok.terms(token)):
        df = sum(1 for c in terms.values() if q in c)
        if not df:
            continue
        idf = max(math.log((len(docs) - df + 0.5) / (df + 0.5)), 1e-6)
        for d, c in terms.items():
            if c[q]:
                tf = c[q]
                score = idf * tf * (K1 + 1) / (tf + K1 * (1 - B + B * lengths[d] / avgdl))
                out[d] = out.get(d, 0.0) + score
    return out


def test_keyword_scores_are_bm25_over_this_users_rows_only(tmp_path: Path, data) -> None:
    store = SQLiteStore(tmp_path / "s.db")
    try:
        mine = _corpus(1, 60)
        _put(store, data, ALICE, mine)
        query = ["花生", "Peanut", "cafe"]
        expected = _reference_bm25({m: kw for m, kw, _ in mine}, query, Unicode61())
        got = store.keyword_search(ALICE, query, 1000, ANY)
        assert dict(got) == pytest.approx(expected, rel=1e-9)
        assert [s for _, s in got] == sorted((s for _, s in got), reverse=True)
        for u in range(5):  # other users' rows, full of the same words, change nothing
            _put(store, data, Scope("acme", f"other{u}"), _corpus(10 + u, 200))
        assert store.keyword_search(ALICE, query, 1000, ANY) == got
        assert [i for i, _ in store.keyword_search(ALICE, query, 7, ANY)] == [i for i, _ in got[:7]]
    finally:
        store.close()


def test_matches_are_fts5_matches(tmp_path: Path, data) -> None:
    store = SQLiteStore(tmp_path / "s.db")
    try:
        _put(store, data, ALICE, _corpus(2, 80) + [("phrase", "a b c user coffee", ())])
        conn = sqlite3.connect(tmp_path / "s.db")
        for query in (["花生"], ["ärger"], ["file"], ["2"], ["user coffee"], ["coffee user"], ["咖啡", "x1"]):
            expr = " OR ".join('"' + q.replace('"', '""') + '"' for q in query)
            want = {r[0] for r in conn.execute(
                "SELECT m.id FROM memories_fts JOIN memories m ON m.rid = memories_fts.rowid "
                "WHERE memories_fts MATCH ? AND m.user_id = 'alice'", (f"keywords:({expr})",))}
            assert {i for i, _ in store.keyword_search(ALICE, query, 1000, ANY)} == want, query
        conn.close()
    finally:
        store.close()


def test_patched_index_answers_like_a_reloaded_one(tmp_path: Path, data) -> None:
    path = tmp_path / "s.db"
    live = SQLiteStore(path)
    try:
        _put(live, data, ALICE, _corpus(3, 50), kind=Kind.EPISODE)
        live.keyword_search(ALICE, ["花生"], 10, ANY)  # load the index, so later writes patch it
        live.entity_search(ALICE, ["花生"], 10, ANY)
        _put(live, data, ALICE, [("d3-1", None, ("杭州",)), ("d3-2", "咖啡 咖啡", ()), ("new", "花生 user", ("花生",))],
             status=Status.SUPERSEDED)
        _put(live, data, ALICE, [("d3-4", "peanut", ()), ("d3-4", None, ("拿铁",))], kind=Kind.FACT)
        changes = ChangeSet(ALICE, purge_ids=["d3-5", "d3-6"])
        live.apply(changes)
        fresh = SQLiteStore(path)
        try:
            for flt in (ANY, RecordFilter(), RecordFilter(kinds=(Kind.FACT,))):
                for words in (["花生"], ["咖啡", "peanut"], ["user", "杭州"], ["coffee"]):
                    assert live.keyword_search(ALICE, words, 100, flt) == fresh.keyword_search(ALICE, words, 100, flt)
                    assert live.entity_search(ALICE, words, 100, flt) == fresh.entity_search(ALICE, words, 100, flt)
            assert [i for i, _ in live.entity_search(ALICE, ["拿铁"], 10, ANY)] == ["d3-4"]
            assert "d3-1" in {i for i, _ in live.entity_search(ALICE, ["杭州"], 100, ANY)}
            assert "d3-1" not in {i for i, _ in live.entity_search(ALICE, ["花生", "咖啡"], 100, RecordFilter())}
            assert "d3-5" not in {i for i, _ in live.keyword_search(ALICE, WORDS, 100, ANY)}
        finally:
            fresh.close()
    finally:
        live.close()


def test_best_of_many_ties_is_the_head_of_a_full_lexsort() -> None:
    rng = np.random.default_rng(3)
    for _ in range(300):
        n = int(rng.integers(1, 400))
        shared = -rng.integers(1, 4, n).astype(np.float64)  # few distinct values: ties everywhere
        created = -rng.integers(0, 20, n).astype(np.float64)
        rid = -rng.permutation(n).astype(np.int64)
        k = int(rng.integers(1, 60))
        expected = np.lexsort((rid, created, shared))[:k]
        assert _best(k, rid, created, shared).tolist() == expected.tolist()



def test_sum_by_row_is_unique_and_bincount() -> None:
    from jiyi.stores.sqlite.textindex import _sum_by_row

    rng = np.random.default_rng(4)
    for _ in range(100):
        rows = np.concatenate([rng.choice(500, int(rng.integers(0, 200)), replace=False)
                               for _ in range(int(rng.integers(1, 5)))]).astype(np.int32)
        values = rng.random(len(rows))
        uniq, inverse = np.unique(rows, return_inverse=True)
        got_rows, sums = _sum_by_row(rows, values)
        assert got_rows.tolist() == uniq.tolist()
        np.testing.assert_allclose(sums, np.bincount(inverse, weights=values, minlength=len(uniq)), rtol=1e-13)


def test_remembered_phrase_matches_follow_every_write(tmp_path: Path, data) -> None:
    store = SQLiteStore(tmp_path / "m.db")
    _put(store, data, ALICE, [("a", "花生 过敏", ()), ("b", "咖啡", ())])
    assert [m for m, _ in store.keyword_search(ALICE, ["花生"], 10, ANY)] == ["a"]
    _put(store, data, ALICE, [("c", "花生 酱", ())])  # a new row with the word
    assert sorted(m for m, _ in store.keyword_search(ALICE, ["花生"], 10, ANY)) == ["a", "c"]
    _put(store, data, ALICE, [("a", "咖啡", ())])  # rewritten without it
    assert [m for m, _ in store.keyword_search(ALICE, ["花生"], 10, ANY)] == ["c"]
    store.close()


def test_remembered_filter_masks_follow_every_write(tmp_path: Path, data) -> None:
    store = SQLiteStore(tmp_path / "f.db")
    active, in_s1 = RecordFilter(), RecordFilter(statuses=None, session_id="s1")
    _put(store, data, ALICE, [("a", "花生 过敏", ("花生",)), ("b", "花生 酱", ("花生",))], session_id="s1")
    for flt in (active, in_s1):  # remembered per filter
        assert sorted(m for m, _ in store.keyword_search(ALICE, ["花生"], 10, flt)) == ["a", "b"]
    _put(store, data, ALICE, [("a", None, ("花生",))], status=Status.SUPERSEDED, session_id="s2")
    assert [m for m, _ in store.keyword_search(ALICE, ["花生"], 10, active)] == ["b"]
    assert [m for m, _ in store.entity_search(ALICE, ["花生"], 10, in_s1)] == ["b"]
    assert sorted(m for m, _ in store.keyword_search(ALICE, ["花生"], 10, ANY)) == ["a", "b"]
    store.close()
