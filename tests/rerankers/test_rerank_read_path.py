"""The reranker in the read path: Memory → recall → a real local /rerank server.

The fake server scores as the test says; a search must follow those scores, and a
failing, garbled or slow server must leave the fused order (the one a Memory without
reranker gives) with the failure counted and visible.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import pytest
from fake_rerank import Answer, FakeRerank

from jiyi.memory import Memory
from jiyi.read.recall import RecallTrace

QUERY = "which city do I live in"


def _order(mem: Memory, query: str = QUERY, **kw: object) -> list[str]:
    return [h.id for h in mem.search(query, user_id="u1", **kw)]  # type: ignore[arg-type]


def _favour(word: str) -> Callable[[str, str], float]:
    return lambda _query, doc: 10.0 if word in doc.lower() else 0.0


def test_hits_follow_the_rerank_scores(rerank_memory: Callable[..., Memory], fake_rerank: FakeRerank) -> None:
    mem = rerank_memory(weights={"rerank": 20.0})  # the reranker decides among its candidates
    plain = rerank_memory(reranker=None)  # same file, no reranker: the fused order
    assert "bicycle" not in plain.search(QUERY, user_id="u1")[0].content
    fake_rerank.score = _favour("bicycle")
    hits = mem.search(QUERY, user_id="u1")
    assert "bicycle" in hits[0].content
    assert hits[0].scores["rerank"] == 10.0 and hits[0].scores["rerank_z"] > 0
    assert all(h.scores["rerank_z"] < 0 for h in hits if "bicycle" not in h.content)
    fake_rerank.score = _favour("chengdu")
    assert "Chengdu" in mem.search("what do I like to eat", user_id="u1")[0].content


def test_default_weight_lifts_what_the_reranker_favours(rerank_memory: Callable[..., Memory],
                                                        fake_rerank: FakeRerank) -> None:
    mem = rerank_memory()
    plain = [h.content for h in rerank_memory(reranker=None).search(QUERY, user_id="u1")]
    fake_rerank.score = _favour("bicycle")
    hits = [h.content for h in mem.search(QUERY, user_id="u1")]
    before = min(i for i, c in enumerate(plain) if "bicycle" in c)
    after = min(i for i, c in enumerate(hits) if "bicycle" in c)
    assert after < before


def test_build_context_uses_the_reranker(rerank_memory: Callable[..., Memory], fake_rerank: FakeRerank) -> None:
    mem = rerank_memory(weights={"rerank": 20.0})
    assert "bicycle" not in rerank_memory(reranker=None).build_context(QUERY, user_id="u1", limit=1)
    fake_rerank.score = _favour("bicycle")
    assert "bicycle" in mem.build_context(QUERY, user_id="u1", limit=1)


def test_partial_answer_ranks_the_scored_first(rerank_memory: Callable[..., Memory],
                                               fake_rerank: FakeRerank) -> None:
    mem = rerank_memory(weights={"rerank": 20.0})
    fake_rerank.score, fake_rerank.keep = _favour("hangzhou"), 1
    hits = mem.search(QUERY, user_id="u1")
    # the turn it scored is first (or the fact extracted from it, which takes a turn's place: recall.novel_first)
    assert "Hangzhou" in hits[0].content and ("rerank" in hits[0].scores or "took_place_of_turn" in hits[0].scores)
    unscored = [h for h in hits if "rerank" not in h.scores]
    assert unscored and all(h.scores["rerank_z"] == min(x.scores["rerank_z"] for x in hits) for h in unscored)


@pytest.mark.parametrize("answer", [
    Answer(raw=b'{"results": [{"index": 0, "relevance'),
    Answer(body={"results": "nope"}),
    Answer(429, {"error": "rate limited"}),
    Answer(500, {"error": "boom"}),
])
def test_failure_keeps_the_fused_order(rerank_memory: Callable[..., Memory], fake_rerank: FakeRerank,
                                       answer: Answer) -> None:
    mem = rerank_memory(weights={"rerank": 20.0})
    fused = _order(rerank_memory(reranker=None))
    fake_rerank.score = _favour("bicycle")
    fake_rerank.push(answer)
    trace = RecallTrace()
    hits = mem.search(QUERY, user_id="u1", trace=trace)
    assert [h.id for h in hits] == fused
    assert all(h.scores["rerank_failed"] == 1.0 and "rerank" not in h.scores for h in hits)
    assert trace.rerank is not None and trace.rerank.failed
    assert mem.stats()["reranker"]["failures"] == 1
    # the server recovers: the next search is reranked (a failure is not cached)
    assert "bicycle" in mem.search(QUERY, user_id="u1")[0].content
    assert {k: v for k, v in mem.stats()["reranker"].items() if k != "breaker"} == {
        "name": "api", "calls": 2, "failures": 1, "timeouts": 0, "cache_hits": 0}


def test_slow_server_search_returns_in_fused_order(rerank_memory: Callable[..., Memory],
                                                    fake_rerank: FakeRerank) -> None:
    mem = rerank_memory(reranker_timeout=0.3)
    fused = _order(rerank_memory(reranker=None))
    fake_rerank.score = _favour("bicycle")
    fake_rerank.push(Answer(body={"results": [{"index": 0, "relevance_score": 1}]}, delay=10))
    trace = RecallTrace()
    t0 = time.perf_counter()
    hits = mem.search(QUERY, user_id="u1", trace=trace)
    elapsed = time.perf_counter() - t0
    assert elapsed < 5  # the server answers after 10 s; the search gave up at its 0.3 s timeout
    assert [h.id for h in hits] == fused and hits[0].scores["rerank_failed"] == 1.0
    assert trace.rerank is not None and "timed out" in (trace.rerank.failed or "")
    assert mem.stats()["reranker"]["timeouts"] == 1


def test_results_are_cached_per_query_and_candidates(rerank_memory: Callable[..., Memory],
                                                     fake_rerank: FakeRerank) -> None:
    mem = rerank_memory()
    first = _order(mem)
    assert _order(mem) == first
    assert len(fake_rerank.requests) == 1 and mem.stats()["reranker"]["cache_hits"] == 1
    _order(mem, "a different question about bicycles")
    assert len(fake_rerank.requests) == 2
    mem.add("My cousin moved to another city, Suzhou", user_id="u1", sync=True)  # the candidate set changes
    _order(mem)
    assert len(fake_rerank.requests) == 3


def test_only_the_best_candidates_are_sent(rerank_memory: Callable[..., Memory], fake_rerank: FakeRerank) -> None:
    mem = rerank_memory(reranker_candidates=2)
    hits = mem.search(QUERY, user_id="u1", limit=10)
    sent = fake_rerank.requests[0].json
    assert len(sent["documents"]) == 2 and sent["top_n"] == 2 and sent["query"] == QUERY
    assert sum(1 for h in hits if "rerank" in h.scores) <= 2


def test_rerank_weight_zero_leaves_the_order(rerank_memory: Callable[..., Memory], fake_rerank: FakeRerank) -> None:
    mem = rerank_memory(weights={"rerank": 0.0})
    fake_rerank.score = _favour("bicycle")
    assert _order(mem) == _order(rerank_memory(reranker=None))
