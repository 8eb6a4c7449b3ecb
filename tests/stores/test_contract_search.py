"""The Store contract, search routes: one suite, run against every backend in ``conftest.BACKENDS``.

Vector (both channels), keyword, session-keyword, entity and recency searches, and the
rankings with score statistics. Records, scopes, filters and lookups are in
``test_contract.py``; the job queue, caches and state in ``test_contract_queue.py``.
"""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np
import pytest

from jiyi.records import Kind, Status
from jiyi.stores.protocol import ChangeSet, Ranking, RecordFilter, Store, Upsert

# -- search routes -------------------------------------------------------------------------


def test_vector_search_ranks_by_cosine(store: Store, data) -> None:
    angles = {"same": (1, 0), "near": (1, 0.5), "far": (0.2, 1), "opposite": (-1, 0)}
    data.put(store, *(data.upsert(data.record(i), data.vec(*w)) for i, w in angles.items()))
    query = data.vec(1, 0)
    hits = store.vector_search(data.alice, query, 10, RecordFilter())
    assert [i for i, _ in hits] == ["same", "near", "far", "opposite"]
    for i, score in hits:
        assert score == pytest.approx(float(data.vec(*angles[i]) @ query), abs=1e-5)
    assert [i for i, _ in store.vector_search(data.alice, query, 2, RecordFilter())] == [
        "same",
        "near",
    ]
    assert store.vector_search(data.alice, query, 0, RecordFilter()) == []
    assert store.vector_search(data.bob, query, 5, RecordFilter()) == []


def test_vector_search_follows_writes_after_a_search(store: Store, data) -> None:
    data.put(
        store,
        data.upsert(data.record("a"), data.vec(1, 0.1)),
        data.upsert(data.record("b"), data.vec(1, 0.2)),
    )
    assert [i for i, _ in store.vector_search(data.alice, data.vec(1), 5, RecordFilter())] == [
        "a",
        "b",
    ]
    data.put(store, data.upsert(data.record("c"), data.vec(1)))
    data.put(store, store.get(data.alice, "a").replace(status=Status.SUPERSEDED))
    store.apply(ChangeSet(data.alice, purge_ids=["b"]))
    assert [i for i, _ in store.vector_search(data.alice, data.vec(1), 5, RecordFilter())] == ["c"]
    assert [i for i, _ in store.vector_search(data.alice, data.vec(1), 5, RecordFilter(statuses=None))] == ["c", "a"]


def test_vector_search_stays_exact_through_many_purges_and_additions(store: Store, data) -> None:
    data.put(store, *(data.upsert(data.record(f"m{n}"), data.vec(1, n / 10)) for n in range(100)))
    assert len(store.vector_search(data.alice, data.vec(1), 200, RecordFilter())) == 100
    store.apply(ChangeSet(data.alice, purge_ids=[f"m{n}" for n in range(100) if n % 5]))
    data.put(store, data.upsert(data.record("new"), data.vec(1, 0.05)))
    hits = store.vector_search(data.alice, data.vec(1), 200, RecordFilter())
    assert [i for i, _ in hits] == ["m0", "new", "m5", "m10", "m15"] + [
        f"m{n}" for n in range(20, 100, 5)
    ]
    for i, score in hits:
        np.testing.assert_allclose(
            score, store.vectors(data.alice, [i])[i] @ data.vec(1), atol=1e-5
        )


def test_vector_search_top_k_matches_a_full_sort(store: Store, data) -> None:
    rng = np.random.default_rng(7)
    vecs = rng.normal(size=(150, data.dim)).astype(np.float32)
    vecs /= np.linalg.norm(vecs, axis=1, keepdims=True)
    data.put(
        store, *(data.upsert(data.record(f"r{n}"), v) for n, v in enumerate(vecs)), history=False
    )
    query = vecs[0] + vecs[1]
    query /= np.linalg.norm(query)
    expected = [f"r{n}" for n in np.argsort(-(vecs @ query), kind="stable")[:10]]
    assert [i for i, _ in store.vector_search(data.alice, query, 10, RecordFilter())] == expected


def _check_ranking(ranked: Ranking, full: list[tuple[str, float]], k: int, deep: int) -> None:
    """A ranking is the top k with the statistics of every score, or (no statistics) the top ``deep``."""
    if ranked.stats is None:
        assert ranked.hits == full[:deep]
        return
    scores = np.array([s for _, s in full])
    assert [i for i, _ in ranked.hits] == [i for i, _ in full[:k]]
    assert ranked.stats.count == len(full)
    assert ranked.stats.mean == pytest.approx(scores.mean(), abs=1e-6)
    assert ranked.stats.var == pytest.approx(scores.var(), abs=1e-6)
    assert ranked.stats.floor == pytest.approx(scores[min(deep, len(scores)) - 1], abs=1e-6)


def test_rankings_are_short_lists_with_statistics_or_the_deep_list(store: Store, data) -> None:
    rng = np.random.default_rng(11)
    vecs = rng.normal(size=(60, data.dim)).astype(np.float32)
    vecs /= np.linalg.norm(vecs, axis=1, keepdims=True)
    words = ["tea", "coffee", "cake", "walk"]
    data.put(store, *(data.upsert(data.record(f"r{n}", minute=n, status=Status.SUPERSEDED if n % 7 == 0
                                              else Status.ACTIVE), v,
                                  " ".join(words[: 1 + n % 4] + [f"w{n}"]))
                      for n, v in enumerate(vecs)), history=False)
    flt = RecordFilter()  # active only: the statistics cover the filtered rows
    query = vecs[3]
    for k, deep in ((5, 20), (5, 100)):
        full = store.vector_search(data.alice, query, 1000, flt)
        assert len(full) == store.count(data.alice, flt)
        _check_ranking(store.vector_ranking(data.alice, query, k, flt, deep=deep), full, k, deep)
        full = store.keyword_search(data.alice, ["cake", "walk"], 1000, flt)
        _check_ranking(store.keyword_ranking(data.alice, ["cake", "walk"], k, flt, deep=deep), full, k, deep)
    assert store.vector_ranking(data.alice, query, 5, RecordFilter(agent_id="none"), deep=20).hits == []
    assert store.keyword_ranking(data.alice, ["absent"], 5, flt, deep=20).hits == []


def test_vector_channels_are_separate(store: Store, data) -> None:
    data.put(store, data.upsert(data.record("ep"), data.vec(1), context=data.vec(0, 1)))
    assert store.vector_search(data.alice, data.vec(0, 1), 5, RecordFilter())[0][
        1
    ] == pytest.approx(0, abs=1e-6)
    ctx = store.vector_search(data.alice, data.vec(0, 1), 5, RecordFilter(), channel="context")
    assert ctx[0][0] == "ep" and ctx[0][1] == pytest.approx(1, abs=1e-5)


def test_keyword_search_with_chinese_tokens(store: Store, data) -> None:
    data.put(
        store,
        data.upsert(data.record("peanut"), keywords="用户 对 花生 过敏"),
        data.upsert(data.record("coffee"), keywords="用户 喜欢 咖啡"),
        data.upsert(data.record("both"), keywords="用户 喝 咖啡 吃 花生"),
        data.upsert(data.record("none")),
        # unrelated rows, so that BM25's IDF of the query terms is positive, as in a real store
        *(data.upsert(data.record(f"filler{n}"), keywords=f"用户 提到 话题{n}") for n in range(4)),
    )
    hits = store.keyword_search(data.alice, ["花生", "咖啡"], 10, RecordFilter())
    assert hits[0][0] == "both" and {i for i, _ in hits} == {"peanut", "coffee", "both"}
    assert all(a[1] >= b[1] for a, b in itertools.pairwise(hits)) and hits[0][1] > hits[-1][1]
    assert [i for i, _ in store.keyword_search(data.alice, ["过敏"], 10, RecordFilter())] == [
        "peanut"
    ]
    assert store.keyword_search(data.alice, ["花"], 10, RecordFilter()) == []  # whole tokens only
    assert [
        i for i, _ in store.keyword_search(data.alice, ["花生", "咖啡"], 1, RecordFilter())
    ] == ["both"]


def test_keyword_search_with_english_tokens_and_hostile_ones(store: Store, data) -> None:
    data.put(
        store,
        data.upsert(data.record("en"), keywords="user allergic peanuts café"),
        data.upsert(data.record("other"), keywords="user likes tea"),
    )
    assert [i for i, _ in store.keyword_search(data.alice, ["Peanuts"], 5, RecordFilter())] == [
        "en"
    ]
    assert [i for i, _ in store.keyword_search(data.alice, ["cafe"], 5, RecordFilter())] == ["en"]
    for hostile in (['"'], ["AND"], ["NEAR("], ["*"], ["peanuts OR tea"], [""], ["，"], []):
        assert store.keyword_search(data.alice, hostile, 5, RecordFilter()) == []


def test_session_keyword_search_scores_sessions_as_documents(store: Store, data) -> None:
    """Words spread over a session's turns make it match; N counts every session, the user's only."""
    def turn(mid: str, session: str, words: str, **kw: Any) -> Upsert:
        return data.upsert(data.record(mid, session_id=session, kind=Kind.EPISODE, **kw), keywords=words)

    data.put(
        store,
        turn("a1", "trip", "we went camping"), turn("a2", "trip", "the lake was cold"),
        turn("a3", "trip", "kids loved the lake"),
        turn("b1", "work", "meeting about the lake project"), turn("b2", "work", "deadline friday"),
        turn("c1", "art", "pottery class"), turn("c2", "art", "painted a vase"),
        turn("d1", "gone", "camping lake lake", status=Status.DELETED),
        data.upsert(data.record("nosession"), keywords="camping lake"),
    )
    data.put(store, data.upsert(data.record("bob1", scope=data.bob, session_id="bobs", kind=Kind.EPISODE),
                                keywords="camping lake camping lake"))
    found = store.session_keyword_search(data.alice, ["camping", "lake"], RecordFilter())
    assert found.sessions == 3  # trip, work, art: not the deleted row's session, not Bob's
    assert set(found.scores) == {"trip", "work"}
    assert found.scores["trip"] > found.scores["work"] > 0
    only_art = store.session_keyword_search(data.alice, ["Pottery", "vase"], RecordFilter())
    assert set(only_art.scores) == {"art"}
    assert store.session_keyword_search(data.alice, ["nothing"], RecordFilter()).scores == {}
    assert store.session_keyword_search(data.alice, [], RecordFilter()).scores == {}
    assert store.session_keyword_search(data.bob, ["lake"], RecordFilter()).sessions == 1
    assert store.session_keyword_search(data.alice_elsewhere, ["lake"], RecordFilter()).scores == {}
    kinds = store.session_keyword_search(data.alice, ["lake"], RecordFilter(kinds=(Kind.FACT,)))
    assert kinds.scores == {} and kinds.sessions == 0
    # the moments cover every session searched (art scores 0); k lists only the best
    values = [found.scores["trip"], found.scores["work"], 0.0]
    mean = sum(values) / 3
    assert found.mean == pytest.approx(mean)
    assert found.variance == pytest.approx(sum((v - mean) ** 2 for v in values) / 3)
    best = store.session_keyword_search(data.alice, ["camping", "lake"], RecordFilter(), k=1)
    assert best.scores == {"trip": pytest.approx(found.scores["trip"])} and best.sessions == 3
    assert best.mean == pytest.approx(mean) and best.variance == pytest.approx(found.variance)


def test_entity_search_counts_shared_entities_case_insensitively(store: Store, data) -> None:
    data.put(
        store,
        data.record("one", entities=("Beijing",), minute=1),
        data.record("two", entities=("beijing", "CA1234"), minute=0),
        data.record("zero", entities=("上海",)),
    )
    hits = store.entity_search(data.alice, ["BEIJING", "ca1234", "nowhere"], 10, RecordFilter())
    assert hits == [("two", 2.0), ("one", 1.0)]
    assert store.entity_search(data.alice, [], 10, RecordFilter()) == []
    assert [i for i, _ in store.entity_search(data.alice, ["上海"], 10, RecordFilter())] == ["zero"]


def test_recent_is_newest_first_with_epoch_scores(store: Store, data) -> None:
    data.put(
        store,
        data.record("old", minute=0),
        data.record("new", minute=10),
        data.record("mid", minute=5),
    )
    hits = store.recent(data.alice, 2, RecordFilter())
    assert hits == [("new", data.at(10).timestamp()), ("mid", data.at(5).timestamp())]


def test_equal_times_rank_the_last_stored_first(store: Store, data) -> None:
    """Every turn of a session shares its date: order must follow storage, not random ids."""
    ids = ["zz", "mm", "aa", "qq"]
    data.put(store, *(data.record(i, entities=("cat",)) for i in ids[:2]))
    for i in ids[2:]:
        data.put(store, data.record(i, entities=("cat",)))
    newest_first = ids[::-1]
    assert [i for i, _ in store.recent(data.alice, 10, RecordFilter())] == newest_first
    assert [r.id for r in store.list(data.alice, RecordFilter())] == newest_first
    assert [
        i for i, _ in store.entity_search(data.alice, ["cat"], 10, RecordFilter())
    ] == newest_first
    data.put(
        store, store.get(data.alice, "zz").replace(importance=0.9)
    )  # an update keeps its place
    assert [r.id for r in store.list(data.alice, RecordFilter())] == newest_first
