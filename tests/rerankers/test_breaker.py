"""A hung reranker costs at most one timeout per cooling period: after N failures in a row the
circuit opens and searches skip the reranker (no request goes out), then one search probes it;
each state change is logged once, and the state is in ``stats()``."""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import timedelta

import pytest
from fake_rerank import Answer, FakeRerank

from jiyi.clock import FrozenClock
from jiyi.memory import Memory
from jiyi.read.recall import RecallTrace

QUERY = "which city do I live in"
HUNG = Answer(body={"results": []}, delay=30)  # answers long after the search gave up


def search(mem: Memory) -> RecallTrace:
    trace = RecallTrace()
    mem.search(QUERY, user_id="u1", trace=trace)
    return trace


def breaker_lines(caplog: pytest.LogCaptureFixture) -> list[tuple[int, str]]:
    return [(r.levelno, r.getMessage()) for r in caplog.records if r.name == "jiyi.rerankers.breaker"]


def test_a_hung_reranker_is_skipped_then_probed(rerank_memory: Callable[..., Memory], fake_rerank: FakeRerank,
                                                clock: FrozenClock, caplog: pytest.LogCaptureFixture) -> None:
    mem = rerank_memory(reranker_timeout=0.3, reranker_breaker_failures=2, reranker_breaker_cooldown=60)
    caplog.set_level(logging.DEBUG)
    fake_rerank.push(HUNG, HUNG, HUNG)
    for _ in range(2):
        assert "timed out" in (search(mem).rerank.failed or "")  # type: ignore[union-attr]
    assert mem.stats()["reranker"]["breaker"]["state"] == "open"
    for _ in range(5):  # open: no request, no timeout; the fused order stands
        trace = search(mem)
        assert trace.rerank is not None and (trace.rerank.failed or "").startswith("skipped")
    assert len(fake_rerank.requests) == 2
    stats = mem.stats()["reranker"]
    assert stats["breaker"]["skipped"] == 5 and stats["timeouts"] == 2 and "probe_at" in stats["breaker"]
    warnings = [r for r in caplog.records if r.name == "jiyi.read.rerank" and r.levelno >= logging.WARNING]
    assert warnings == []  # no line per failed search
    assert [lvl for lvl, _ in breaker_lines(caplog)] == [logging.WARNING]  # opened, logged once

    start = clock.now()
    clock.set(start + timedelta(seconds=61))  # cooling over: one probe, still hung → open again
    assert "timed out" in (search(mem).rerank.failed or "")  # type: ignore[union-attr]
    assert (search(mem).rerank.failed or "").startswith("skipped")  # type: ignore[union-attr]
    assert len(fake_rerank.requests) == 3 and mem.stats()["reranker"]["breaker"]["opened"] == 2

    clock.set(start + timedelta(seconds=122))  # the server is back: the probe closes the circuit
    assert search(mem).rerank.failed is None  # type: ignore[union-attr]
    assert mem.stats()["reranker"]["breaker"]["state"] == "closed"
    assert [m.split(":")[0] for _, m in breaker_lines(caplog)] == [
        "reranker api circuit open", "reranker api circuit half-open", "reranker api circuit open",
        "reranker api circuit half-open", "reranker api circuit closed"]


def test_breaker_off_keeps_calling(rerank_memory: Callable[..., Memory], fake_rerank: FakeRerank) -> None:
    mem = rerank_memory(reranker_timeout=0.3, reranker_breaker_failures=0)
    fake_rerank.push(HUNG, HUNG, HUNG)
    for _ in range(3):
        assert "timed out" in (search(mem).rerank.failed or "")  # type: ignore[union-attr]
    assert len(fake_rerank.requests) == 3 and mem.stats()["reranker"]["breaker"]["state"] == "closed"


def test_a_success_resets_the_count(rerank_memory: Callable[..., Memory], fake_rerank: FakeRerank) -> None:
    mem = rerank_memory(reranker_breaker_failures=2)
    fake_rerank.push(Answer(500, {"error": "boom"}))
    search(mem)
    mem.search("a different question", user_id="u1")  # succeeds: the failures in a row start again
    fake_rerank.push(Answer(500, {"error": "boom"}))
    mem.search("a third question", user_id="u1")
    assert mem.stats()["reranker"]["breaker"]["state"] == "closed"
