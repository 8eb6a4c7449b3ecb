"""The IVF index of large users: recall against exact search, persistence, staleness, fallbacks.

Thresholds are lowered (``ann_min_rows``, ``PROBE_MIN_ROWS``) so that a few hundred
rows exercise the same code paths as 100k do.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from matrix_support import clustered, matrix_of

from jiyi.records import Kind, MemoryRecord, Scope
from jiyi.stores.protocol import ChangeSet, RecordFilter, Upsert
from jiyi.stores.sqlite import ivf
from jiyi.stores.sqlite import vectors as vectors_module
from jiyi.stores.sqlite.store import SQLiteStore

ALICE = Scope("acme", "alice")
DIM = 16


def test_ivf_recall_at_10_against_exact_is_at_least_099() -> None:
    x = clustered(20_000, 32, seed=1)
    m = matrix_of(x)
    cent = ivf.train(x, ivf.n_clusters(len(x)))
    m.install_clusters(cent, ivf.assign(x, cent))
    queries = clustered(100, 32, seed=2)
    recalls, scanned_less = [], 0
    for q in queries:
        exact = {m.ids[i] for i in np.argsort(-(m.matrix[: m.n] @ q))[:10]}
        mask, count = m._mask(RecordFilter())
        used = m._search_clusters(q, 10, mask, count)
        scanned_less += used is not None
        got = {i for i, _ in m.search(q, 10, RecordFilter())}
        recalls.append(len(exact & got) / 10)
    assert scanned_less == len(queries)  # the index answered, not the exact fallback
    assert np.mean(recalls) >= 0.99


def test_ivf_scores_are_exact_cosines_and_ranked() -> None:
    x = clustered(5_000, DIM, seed=3)
    m = matrix_of(x)
    cent = ivf.train(x, ivf.n_clusters(len(x)))
    m.install_clusters(cent, ivf.assign(x, cent))
    q = x[17]
    hits = m.search(q, 50, RecordFilter())
    assert hits[0][0] == "m17" and hits[0][1] == pytest.approx(1.0, abs=1e-5)
    scores = [s for _, s in hits]
    assert scores == sorted(scores, reverse=True)
    for mid, s in hits:
        assert s == pytest.approx(float(x[int(mid[1:])] @ q), abs=1e-5)


@pytest.fixture
def small_probe(monkeypatch: pytest.MonkeyPatch) -> None:
    """Let a few hundred rows use the index instead of falling back to an exact scan."""
    monkeypatch.setattr(ivf, "PROBE_MIN_ROWS", 32)


def put_rows(store: SQLiteStore, x: np.ndarray, start: int = 0, **kw: object) -> list[str]:
    ids = [f"m{start + i}" for i in range(len(x))]
    t = __import__("datetime").datetime(2025, 1, 1, tzinfo=__import__("datetime").timezone.utc)
    ups = [Upsert(MemoryRecord(id=i, tenant=ALICE.tenant, user_id=ALICE.user_id, content=i, kind=Kind.FACT,
                               created_at=t, updated_at=t, **kw), {"content": v}, i)
           for i, v in zip(ids, x)]
    store.apply(ChangeSet(ALICE, ups))
    return ids


def exact_top(store: SQLiteStore, q: np.ndarray, k: int) -> list[str]:
    ids = [r.id for r in store.list(ALICE, RecordFilter())]
    vecs = store.vectors(ALICE, ids)
    return sorted(ids, key=lambda i: -float(vecs[i] @ q))[:k]


def open_store(path: Path, **kw: object) -> SQLiteStore:
    kw.setdefault("ann_min_rows", 300)
    kw.setdefault("background_index", False)
    return SQLiteStore(path, **kw)  # type: ignore[arg-type]


def test_index_is_built_persisted_and_reused_by_a_new_process(tmp_path: Path, small_probe: None) -> None:
    x = clustered(800, DIM, seed=4)
    store = open_store(tmp_path / "a.db")
    put_rows(store, x)
    q = clustered(1, DIM, seed=5)[0]
    first = [i for i, _ in store.vector_search(ALICE, q, 10, RecordFilter())]
    assert store._cache.builds == 1
    files = list((tmp_path / "a.db.index").glob("*.npz"))
    assert len(files) == 1 and "alice" not in files[0].name
    store.close()

    again = open_store(tmp_path / "a.db")
    second = [i for i, _ in again.vector_search(ALICE, q, 10, RecordFilter())]
    matrix = again._cache.get(("acme", "alice", "content"), 1)
    assert matrix is not None and matrix.clusters is not None and matrix.tail == 0
    assert again._cache.builds == 0  # restored from the file, not rebuilt
    assert second == first
    assert len(set(second) & set(exact_top(again, q, 10))) >= 9
    again.close()


def test_rows_changed_while_closed_leave_their_saved_cluster(tmp_path: Path, small_probe: None) -> None:
    x = clustered(800, DIM, seed=6)
    store = open_store(tmp_path / "b.db")
    put_rows(store, x)
    store.vector_search(ALICE, x[0], 5, RecordFilter())
    store.close()
    writer = open_store(tmp_path / "b.db", ann_min_rows=10**9)  # never indexes: just writes
    moved = -x[0]  # far from where m0 was clustered
    put_rows(writer, moved[None, :], start=0)
    writer.close()
    store = open_store(tmp_path / "b.db")
    hits = store.vector_search(ALICE, moved, 3, RecordFilter())
    assert hits[0][0] == "m0" and hits[0][1] == pytest.approx(1.0, abs=1e-5)
    matrix = store._cache.get(("acme", "alice", "content"), 2)
    assert matrix is not None and matrix.clusters is not None and matrix.tail == 1
    store.close()


def test_a_stale_index_is_rebuilt_and_new_rows_are_found_meanwhile(
        tmp_path: Path, small_probe: None, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(vectors_module, "REBUILD_MIN_TAIL", 50)
    store = open_store(tmp_path / "c.db")
    put_rows(store, clustered(600, DIM, seed=7))
    store.vector_search(ALICE, clustered(1, DIM, seed=8)[0], 5, RecordFilter())
    assert store._cache.builds == 1
    extra = clustered(40, DIM, seed=9)
    put_rows(store, extra, start=600)  # tail of 40: below the rebuild threshold
    assert store._cache.builds == 1
    assert store.vector_search(ALICE, extra[3], 1, RecordFilter())[0][0] == "m603"
    put_rows(store, clustered(80, DIM, seed=10), start=640)  # tail of 120 > max(50, 10%): rebuild
    assert store._cache.builds == 2
    matrix = store._cache.get(("acme", "alice", "content"), 3)
    assert matrix is not None and matrix.tail == 0
    assert store.vector_search(ALICE, extra[3], 1, RecordFilter())[0][0] == "m603"
    store.close()


def test_background_build_then_exact_results_for_selective_filters(tmp_path: Path, small_probe: None) -> None:
    store = open_store(tmp_path / "d.db", background_index=True)
    x = clustered(700, DIM, seed=11)
    put_rows(store, x[:690])
    put_rows(store, x[690:], start=690, session_id="rare")
    q = x[695]
    store.vector_search(ALICE, q, 5, RecordFilter())  # schedules the build
    store.wait_for_indexes()
    matrix = store._cache.get(("acme", "alice", "content"), 2)
    assert matrix is not None and matrix.clusters is not None
    only = store.vector_search(ALICE, q, 10, RecordFilter(session_id="rare"))
    assert sorted(i for i, _ in only) == sorted(f"m{i}" for i in range(690, 700))
    store.close()


def test_unreadable_index_file_is_ignored_and_replaced(tmp_path: Path, small_probe: None) -> None:
    store = open_store(tmp_path / "e.db")
    x = clustered(500, DIM, seed=12)
    put_rows(store, x)
    store.vector_search(ALICE, x[1], 5, RecordFilter())
    (path,) = (tmp_path / "e.db.index").glob("*.npz")
    store.close()
    path.write_bytes(b"not an index")
    again = open_store(tmp_path / "e.db")
    assert again.vector_search(ALICE, x[1], 1, RecordFilter())[0][0] == "m1"
    assert again._cache.builds == 1 and ivf.load(path, DIM) is not None
    again.close()


def test_forgetting_a_user_deletes_their_index_files(tmp_path: Path, small_probe: None) -> None:
    store = open_store(tmp_path / "f.db")
    put_rows(store, clustered(400, DIM, seed=13))
    store.vector_search(ALICE, clustered(1, DIM, seed=14)[0], 5, RecordFilter())
    assert list((tmp_path / "f.db.index").glob("*.npz"))
    store.delete_user(ALICE)
    assert not list((tmp_path / "f.db.index").glob("*.npz"))
    assert store.vector_search(ALICE, clustered(1, DIM, seed=14)[0], 5, RecordFilter()) == []
    store.close()


def test_small_users_stay_exact(tmp_path: Path) -> None:
    store = open_store(tmp_path / "g.db", ann_min_rows=1000)
    x = clustered(300, DIM, seed=15)
    put_rows(store, x)
    q = clustered(1, DIM, seed=16)[0]
    assert [i for i, _ in store.vector_search(ALICE, q, 10, RecordFilter())] == exact_top(store, q, 10)
    assert store._cache.builds == 0 and not (tmp_path / "g.db.index").exists()
    store.close()


def test_ivf_ranking_lists_k_with_sampled_statistics_close_to_the_exact_ones() -> None:
    x = clustered(20_000, DIM, seed=4)
    m = matrix_of(x)
    queries = clustered(20, DIM, seed=5)
    exact = [m.ranking(q, 10, RecordFilter(), deep=500) for q in queries]
    cent = ivf.train(x, ivf.n_clusters(len(x)))
    m.install_clusters(cent, ivf.assign(x, cent))
    mask, count = m._mask(RecordFilter())
    for q, ex in zip(queries, exact):
        assert m._search_clusters(q, 10, mask, count) is not None  # the index answered
        probed = m.ranking(q, 10, RecordFilter(), deep=500)
        assert len(probed.hits) == 10 and probed.hits == m.search(q, 10, RecordFilter())
        assert probed.stats is not None and ex.stats is not None
        sd = ex.stats.var ** 0.5
        assert probed.stats.count == ex.stats.count == 20_000
        assert abs(probed.stats.mean - ex.stats.mean) < 0.1 * sd  # ~sd/√(sampled rows): 512 sampled
        assert abs(probed.stats.var ** 0.5 - sd) < 0.1 * sd
        assert abs(probed.stats.floor - ex.stats.floor) < 0.1 * sd


def test_ivf_statistics_count_only_rows_passing_the_filter() -> None:
    x = clustered(20_000, DIM, seed=6)
    m = matrix_of(x)
    m.kind[: m.n : 3] = 1  # every third row is another kind
    cent = ivf.train(x, ivf.n_clusters(len(x)))
    m.install_clusters(cent, ivf.assign(x, cent))
    flt = RecordFilter(kinds=(Kind.FACT,))
    kept = m.kind[: m.n] == 0
    q = clustered(1, DIM, seed=7)[0]
    got = m.ranking(q, 10, flt, deep=500)
    scores = (m.matrix[: m.n] @ q)[kept]
    assert got.stats is not None and got.stats.count == int(kept.sum())
    assert abs(got.stats.mean - float(scores.mean())) < 0.05 * float(scores.std())
    assert all(m.kind[m.index[i]] == 0 for i, _ in got.hits)


def test_weighted_floor_is_the_rank_deep_score_of_the_weighted_rows() -> None:
    rng = np.random.default_rng(8)
    for _ in range(300):
        exact = rng.standard_normal(int(rng.integers(0, 800))).astype(np.float32) + float(rng.uniform(-1, 1))
        sample = rng.standard_normal(int(rng.integers(1, 200))).astype(np.float32)
        weight, deep = float(rng.uniform(1, 30)), int(rng.integers(1, 1200))
        values = np.concatenate([exact, sample])
        rows = np.concatenate([np.ones(len(exact)), np.full(len(sample), weight)])
        order = np.argsort(-values, kind="stable")  # the oracle: walk down until deep rows are above
        at = min(int(np.searchsorted(np.cumsum(rows[order]), deep - 1e-9)), len(values) - 1)
        assert vectors_module._weighted_floor(exact, sample, weight, deep) == float(values[order[at]])
