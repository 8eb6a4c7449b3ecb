"""The rerank step of the read path: the best fused candidates rescored by a Reranker.

The read path fetches twice ``candidates`` fused candidates, gates and adjusts them
(boosts, time, speaker…), and sends the ``candidates`` best by that total to the
reranker in one call (the text each memory is indexed by: "Name: text" for a turn).
Choosing by the total rather than the fused relevance alone, from a pool twice as wide,
lets the reranker see evidence that the session and keyword boosts lift (measured in
docs/retrieval.md: LoCoMo R@10 at AUC 0.9, 50 candidates, 0.821 → 0.836; zh 0.918 → 0.929).
Its scores become z units over the candidates it scored (mean 0, standard deviation 1)
and join the total as ``w_rerank · z``, so the weight reads like every other weight
("worth this many standard deviations of relevance") whatever scale the backend uses.
A candidate it did not score (beyond the top N, or left out of a partial answer) gets
one below the lowest z it gave: nothing the reranker judged falls below something it
did not.

A timeout (``timeout`` seconds, the call runs on a small thread pool so a hung server
cannot hold the search) or any failure adds nothing: the fused order stands, the
failure is logged, counted in :attr:`RerankStep.stats`, and noted in the report that
the recall trace and every hit's ``rerank_failed`` carry. Successful answers are kept
in a small LRU keyed by the query and the texts sent.
"""

from __future__ import annotations

import logging
import math
import threading
import time
from collections import OrderedDict
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from jiyi.clock import Clock
from jiyi.records import MemoryRecord
from jiyi.rerankers.breaker import CircuitBreaker
from jiyi.rerankers.protocol import Reranker
from jiyi.write.episodes import index_text

if TYPE_CHECKING:
    from jiyi.config import Settings

log = logging.getLogger("jiyi.read.rerank")

CACHE_SIZE = 256


@dataclass(slots=True)
class RerankReport:
    """What the reranker did in one search (the trace's ``rerank``; the debugger shows it)."""

    backend: str
    sent: int = 0
    scores: dict[str, float] = field(default_factory=dict)  # memory id → the backend's own score
    z: dict[str, float] = field(default_factory=dict)  # memory id → z over the scored candidates
    floor: float = 0.0  # the z of a candidate left unscored (one below the lowest)
    failed: str | None = None
    cached: bool = False
    ms: float = 0.0

    def z_of(self, memory_id: str) -> float:
        """The candidate's z, or the floor; 0 when the rerank failed (nothing is added then)."""
        if self.failed is not None:
            return 0.0
        return self.z.get(memory_id, self.floor)

    def parts(self, memory_id: str) -> dict[str, float]:
        """The hit's score parts: ``rerank`` (raw) and ``rerank_z``, or ``rerank_failed``."""
        if self.failed is not None:
            return {"rerank_failed": 1.0}
        out = {"rerank_z": self.z_of(memory_id)}
        if memory_id in self.scores:
            out["rerank"] = self.scores[memory_id]
        return out


class RerankStep:
    """A reranker with a time limit, a cache and counters; one per :class:`~jiyi.memory.Memory`."""

    def __init__(self, reranker: Reranker, *, candidates: int = 50, timeout: float = 2.0,
                 cache_size: int = CACHE_SIZE, breaker_failures: int = 3, breaker_cooldown: float = 30.0,
                 clock: Clock | None = None) -> None:
        self.reranker = reranker
        self.breaker = CircuitBreaker(f"reranker {self.name}", failures=breaker_failures,
                                      cooldown=breaker_cooldown, clock=clock)
        self.candidates = max(1, candidates)
        self.timeout = timeout
        self._cache: OrderedDict[tuple[str, tuple[str, ...]], list[float]] = OrderedDict()
        self._cache_size = cache_size
        self._lock = threading.Lock()
        self._counts = {"calls": 0, "failures": 0, "timeouts": 0, "cache_hits": 0}
        self._pool = ThreadPoolExecutor(max_workers=4, thread_name_prefix="jiyi-rerank")

    @property
    def name(self) -> str:
        return str(getattr(self.reranker, "name", type(self.reranker).__name__))

    @property
    def stats(self) -> dict[str, Any]:
        """``calls`` (searches that asked), ``failures`` (of which ``timeouts``), ``cache_hits``, and
        the circuit ``breaker``'s state (``skipped``: calls it kept from the backend)."""
        with self._lock:
            counts: dict[str, Any] = dict(self._counts)
        return {**counts, "breaker": self.breaker.snapshot()}

    def close(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)
        getattr(self.reranker, "close", lambda: None)()

    def check(self) -> dict[str, object]:
        """One tiny real rerank, within the timeout (``jiyi doctor``): ``ok``, ``ms`` and ``error`` if not ok."""
        t0 = time.perf_counter()
        report = RerankReport(self.name)
        scores = self._ask("我住在哪里 where do I live", ("我住在杭州 I live in Hangzhou", "今天下雨 it rains today"),
                           report, count=False)
        out: dict[str, object] = {"name": self.name, "ok": scores is not None,
                                  "ms": round((time.perf_counter() - t0) * 1000.0, 1)}
        if scores is None:
            out["error"] = report.failed
        else:
            out["scores"] = [round(s, 4) for s in scores]
        return out

    def run(self, query: str, cands: Sequence[tuple[MemoryRecord, float]]) -> RerankReport:
        """Score the best ``candidates`` of ``(record, score so far)``; never raises."""
        t0 = time.perf_counter()
        top = sorted(cands, key=lambda c: (-c[1], c[0].id))[: self.candidates]
        report = RerankReport(self.name, sent=len(top))
        if not top:
            return report
        texts = tuple(index_text(rec) for rec, _ in top)
        key = (query, texts)
        self._count("calls")
        with self._lock:
            scores = self._cache.get(key)
            if scores is not None:
                self._cache.move_to_end(key)
                self._counts["cache_hits"] += 1
        report.cached = scores is not None
        if scores is None and not self.breaker.allow():
            report.failed = f"skipped: the circuit is open after repeated failures ({self.breaker.snapshot().get('last_error')})"
        elif scores is None:
            scores = self._ask(query, texts, report)
        report.ms = (time.perf_counter() - t0) * 1000.0
        if scores is None:
            return report
        with self._lock:
            self._cache[key] = scores
            while len(self._cache) > self._cache_size:
                self._cache.popitem(last=False)
        _fill(report, [rec.id for rec, _ in top], scores)
        return report

    def _ask(self, query: str, texts: tuple[str, ...], report: RerankReport, *,
             count: bool = True) -> list[float] | None:
        future = self._pool.submit(self.reranker.rerank, query, list(texts))
        timed_out = False
        try:
            scores = [float(s) for s in future.result(timeout=self.timeout)]
            if len(scores) != len(texts):
                raise ValueError(f"{len(scores)} scores for {len(texts)} texts")
            if not any(math.isfinite(s) for s in scores):
                raise ValueError("no text was scored")
            if count:
                self.breaker.success()
            return scores
        except FutureTimeout:
            future.cancel()
            timed_out = True
            reason = f"timed out after {self.timeout:g}s (JIYI_RERANKER_TIMEOUT)"
        except Exception as exc:  # noqa: BLE001 (any failure of any backend: the fused order stands)
            reason = f"{type(exc).__name__}: {exc}"[:300]
        report.failed = reason
        if count:
            self._count("failures")
            if timed_out:
                self._count("timeouts")
            self.breaker.failure(reason)  # logs once when the circuit opens
        # one line per failure only without a breaker; with one, its state changes are the log
        log.log(logging.DEBUG if self.breaker.threshold else logging.WARNING,
                "reranker %s failed (%s); keeping the fused order", self.name, reason)
        return None

    def _count(self, key: str) -> None:
        with self._lock:
            self._counts[key] += 1


def _fill(report: RerankReport, ids: Sequence[str], scores: Sequence[float]) -> None:
    """Raw scores and their z over the scored ones; the floor for the rest."""
    scored = {mid: float(s) for mid, s in zip(ids, scores) if math.isfinite(s)}
    values = list(scored.values())
    mean = sum(values) / len(values)
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / len(values))
    report.scores = scored
    report.z = {mid: (v - mean) / sd if sd > 1e-12 else 0.0 for mid, v in scored.items()}
    report.floor = min(report.z.values()) - 1.0


def step_from_settings(settings: Settings, reranker: Reranker | None = None,
                       clock: Clock | None = None) -> RerankStep | None:
    """The configured step: ``reranker`` if given, else the backend ``settings.reranker`` names, else None."""
    if reranker is None:
        if not settings.reranker:
            return None
        from jiyi import registry

        reranker = registry.create("reranker", settings.reranker, settings)
    return RerankStep(reranker, candidates=settings.reranker_candidates, timeout=settings.reranker_timeout,
                      breaker_failures=settings.reranker_breaker_failures,
                      breaker_cooldown=settings.reranker_breaker_cooldown, clock=clock)
