"""The recall debugger: one message in, everything recall did with it out.

It runs ``Memory.search`` with a ``RecallTrace`` (every route's candidates with
their raw scores, the query analysis, the time spent per stage, the reranker's scores
when one is configured) and
``Memory.build_context`` with the same query, so what it shows is exactly what a bot
would get. Like any search, these count as hits on the memories they return.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from jiyi.memory import Memory
from jiyi.read.recall import RecallTrace
from jiyi.read.tokencount import count_tokens
from jiyi.records import Hit, MemoryRecord

#: Per-memory shaping components, shown after the per-route ones (which sort by name: vector_raw, …).
_SHAPING = ("freshness", "importance", "confidence", "time_match", "outdated")


@dataclass(slots=True, frozen=True)
class Candidate:
    rank: int
    id: str
    score: float
    record: MemoryRecord | None
    chosen: bool


@dataclass(slots=True, frozen=True)
class RouteView:
    name: str
    ms: float | None
    candidates: list[Candidate]


@dataclass(slots=True, frozen=True)
class RerankView:
    """What the reranker did: its candidates by its own score (raw and in z units), or why it failed."""

    backend: str
    sent: int
    ms: float
    cached: bool
    failed: str | None
    candidates: list[tuple[Candidate, float]]  # (candidate with the raw score, its z)


@dataclass(slots=True)
class DebugResult:
    query: str
    tokens: tuple[str, ...] = ()
    names: tuple[str, ...] = ()
    spans: list[str] = field(default_factory=list)
    wants_sensitive: bool = False
    routes: list[RouteView] = field(default_factory=list)
    rerank: RerankView | None = None
    hits: list[Hit] = field(default_factory=list)
    components: list[str] = field(default_factory=list)
    timings: dict[str, float] = field(default_factory=dict)
    context: str = ""
    context_tokens: int = 0
    budget: int = 0


def run_debug(mem: Memory, *, user_id: str, message: str, budget: int, limit: int,
              include_sensitive: bool, per_route: int = 15) -> DebugResult:
    """Recall ``message`` for ``user_id`` and explain it; InvalidInput for a bad message or budget."""
    trace = RecallTrace()
    hits = mem.search(message, user_id=user_id, limit=limit, include_sensitive=include_sensitive, trace=trace)
    context = mem.build_context(message, user_id=user_id, budget_tokens=budget, limit=max(limit, 20),
                                include_sensitive=include_sensitive)
    out = DebugResult(query=message, hits=hits, context=context, budget=budget,
                      context_tokens=count_tokens(context) if context else 0,
                      timings={k: round(v, 2) for k, v in trace.timings_ms.items()})
    if trace.query is not None:
        out.tokens, out.names = trace.query.tokens, trace.query.names
        out.wants_sensitive = trace.query.wants_sensitive
        out.spans = [f"{s.text}: {s.start:%Y-%m-%d %H:%M} – {s.end:%Y-%m-%d %H:%M}" for s in trace.query.spans]
    chosen = {h.id for h in hits}
    reranked = sorted(trace.rerank.scores.items(), key=lambda p: -p[1]) if trace.rerank is not None else []
    records = _records(mem, user_id, [mid for found in trace.routes.values() for mid, _ in found[:per_route]]
                       + [mid for mid, _ in reranked])
    for name, found in trace.routes.items():
        cands = [Candidate(i + 1, mid, score, records.get(mid), mid in chosen)
                 for i, (mid, score) in enumerate(found[:per_route])]
        out.routes.append(RouteView(name, out.timings.get(name), cands))
    if trace.rerank is not None:
        rr = trace.rerank
        out.rerank = RerankView(rr.backend, rr.sent, round(rr.ms, 2), rr.cached, rr.failed,
                                [(Candidate(i + 1, mid, score, records.get(mid), mid in chosen), rr.z_of(mid))
                                 for i, (mid, score) in enumerate(reranked)])
    keys = {k for h in hits for k in h.scores}
    out.components = sorted(keys - set(_SHAPING)) + [k for k in _SHAPING if k in keys]
    return out


def _records(mem: Memory, user_id: str, ids: list[str]) -> dict[str, MemoryRecord]:
    out: dict[str, MemoryRecord] = {}
    for mid in dict.fromkeys(ids):
        rec = mem.get(mid, user_id=user_id)
        if rec is not None:
            out[mid] = rec
    return out
