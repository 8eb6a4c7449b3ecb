"""The read path: analyse → routes → fuse → gate → rank → hits (SPEC §3).

Returns hits with every score component, and (for the debugger) what each route found.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timezone, tzinfo

from jiyi.read.agents import bot_questions_follow, collapse_repeats, is_pleasantry_turn
from jiyi.read.boosts import (
    candidate_boosts,
    lapsed_turn_penalty,
    outdated_drops,
    renumbered_lifts,
    successor_lifts,
)
from jiyi.read.followup import conversation_cue
from jiyi.read.fuse import ZERO_FILLED, fuse_arrays
from jiyi.read.gate import asked_categories, level_opens, time_opens
from jiyi.read.masked import MASKED_KEY, MASKED_RANK, MASKED_RELEVANCE, masked_line, speaks_of
from jiyi.read.query import QueryInfo, analyze_query
from jiyi.read.rank import Shaper, squash
from jiyi.read.recent import RecentTurn
from jiyi.read.rerank import RerankReport, RerankStep
from jiyi.read.routes import (
    ROUTE_K,
    context_route,
    entity_route,
    keyword_route,
    recency_route,
    vector_route,
)
from jiyi.read.standing import body_decides, cared_for, query_topic
from jiyi.read.standing import lifts as standing_lifts
from jiyi.records import Hit, Kind, MemoryRecord, Scope, Status
from jiyi.stores.protocol import Pairs, Ranking, RecordFilter, ScoreStats, SessionScores, Store
from jiyi.text.ended import ENDED_KEY
from jiyi.write.embed import CachedEmbedder

log = logging.getLogger("jiyi.read")

#: How many of the best fused candidates are fetched, gated and adjusted.
CANDIDATES = 50


@dataclass(slots=True)
class RecallRequest:
    query: str
    limit: int = 10
    kinds: tuple[Kind, ...] | None = None
    at: datetime | None = None
    include_sensitive: bool = False
    session_id: str | None = None
    agent_id: str | None = None
    created_after: datetime | None = None
    created_before: datetime | None = None
    recent: tuple[RecentTurn, ...] = ()  # the conversation before the query, oldest first
    for_prompt: bool = False  # for a bot's prompt (build_context): what ended a memory found ranks above it
    masked_lines: bool = False  # (for a prompt) a secret's or an unasked sensitive line may come with values hidden


@dataclass(slots=True)
class RecallTrace:
    """What happened inside one recall, for debugging and the web debugger."""

    query: QueryInfo | None = None
    routes: dict[str, Sequence[tuple[str, float]]] = field(default_factory=dict)
    timings_ms: dict[str, float] = field(default_factory=dict)
    sessions: SessionScores | None = None  # the session-keyword scores, when that boost ran
    rerank: RerankReport | None = None  # what the reranker did, when one is configured


def recall(
    store: Store,
    embedder: CachedEmbedder,
    scope: Scope,
    req: RecallRequest,
    *,
    now: datetime,
    weights: Mapping[str, float],
    half_lives: Mapping[str, float],
    trace: RecallTrace | None = None,
    tz: tzinfo = timezone.utc,
    rerank: RerankStep | None = None,
) -> list[Hit]:
    """Ranked hits for ``req`` in ``scope`` only; ``tz`` is the user's zone (昨天 / 上周 in the query)."""
    tr = trace if trace is not None else RecallTrace()
    at = req.at or now
    timer = _Timer(tr.timings_ms)
    with timer("analyze"):
        info = analyze_query(req.query, ref=at, tz=tz)
    tr.query = info
    with timer("embed"):
        qvec = embedder.embed_query(req.query)
    cue = None
    if req.recent:
        with timer("recent"):
            cue = conversation_cue(req.query, info.tokens, req.recent, embedder)
    if cue is not None:  # the conversation before the query (read/followup.py)
        weights = {**weights, **{r: weights.get(r, 0.0) * cue.lean for r in ("recent_vector", "recent_keyword")}}
    statuses = (Status.ACTIVE, Status.SUPERSEDED, Status.EXPIRED) if req.at else \
        (Status.ACTIVE, Status.EXPIRED) if info.asks_past else (Status.ACTIVE,)
    flt = RecordFilter(kinds=req.kinds, statuses=statuses, session_id=req.session_id, agent_id=req.agent_id,
                       created_after=req.created_after, created_before=req.created_before)
    ranked: dict[str, Ranking] = {}
    with timer("vector"):
        ranked["vector"] = vector_route(store, scope, qvec, flt)
    with timer("context"):
        ranked["context"] = context_route(store, scope, qvec, flt) if weights.get("context", 0) > 0 else Ranking([])
    with timer("keyword"):
        ranked["keyword"] = keyword_route(store, scope, info.tokens, flt)
    if cue is not None and cue.vector is not None and weights.get("recent_vector", 0) > 0:
        with timer("recent_vector"):
            ranked["recent_vector"] = vector_route(store, scope, cue.vector, flt)
    if cue is not None and cue.tokens and weights.get("recent_keyword", 0) > 0:
        with timer("recent_keyword"):
            ranked["recent_keyword"] = keyword_route(store, scope, cue.tokens, flt)
    routes = {name: r.hits for name, r in ranked.items()}
    stats = {name: r.stats for name, r in ranked.items() if r.stats is not None}
    if weights.get("recency", 0) > 0:
        with timer("recency"):
            routes["recency"] = recency_route(store, scope, flt)
    fetched: dict[str, MemoryRecord] = {}
    if weights.get("entity", 0) > 0:
        with timer("entity"):
            fetched = {r.id: r for r in store.get_many(scope, _top_ids(routes, 5))}
            seed_entities = [e for r in fetched.values() for e in r.entities]
            routes["entity"] = entity_route(store, scope, [*info.names, *seed_entities], flt)
    tr.routes = routes
    if weights.get("session_keyword", 0) > 0 and info.tokens:
        with timer("session_keyword"):
            tr.sessions = store.session_keyword_search(scope, info.tokens, flt)
    care: list[str] = []
    topic: str | None = None
    if weights.get("standing_topic", 0) > 0:
        with timer("topic"):
            qvec = embedder.embed_query(req.query)
            body = body_decides(qvec, embedder.model)
            topic = query_topic(qvec, embedder, body)
            care = cared_for(store, scope, topic, req.query, body=body)
    with timer("rank"):
        hits = _rank(store, scope, routes, stats, info, req, flt, fetched, at=at, historical=req.at is not None,
                     weights=weights, half_lives=half_lives, sessions=tr.sessions, rerank=rerank, trace=tr,
                     care=care, body=topic == "body")
    if log.isEnabledFor(logging.DEBUG):  # (the list is built only for the debug log)
        log.debug("recall %r: %s", req.query, [(h.content[:40], round(h.score, 4)) for h in hits])
    return hits


def _population(store: Store, scope: Scope, routes: Mapping[str, Sequence[tuple[str, float]]],
                stats: Mapping[str, ScoreStats], flt: RecordFilter) -> dict[str, int]:
    """How many memories each route ranked: every row its store scored, or a list shorter than its k.

    Zero-filled routes rank every memory passing the filter (the unmatched score 0).
    """
    out: dict[str, int] = {}
    total: int | None = None
    for route, found in routes.items():
        if route not in ZERO_FILLED and (route in stats or len(found) < ROUTE_K.get(route, 0)):
            out[route] = stats[route].count if route in stats else len(found)
            continue
        if total is None:
            total = store.count(scope, flt)
        out[route] = total
    return out


def _rank(store: Store, scope: Scope, routes: dict[str, Sequence[tuple[str, float]]],
          stats: Mapping[str, ScoreStats], info: QueryInfo,
          req: RecallRequest, flt: RecordFilter, fetched: dict[str, MemoryRecord], *, at: datetime,
          historical: bool, weights: Mapping[str, float], half_lives: Mapping[str, float],
          sessions: SessionScores | None = None, rerank: RerankStep | None = None,
          trace: RecallTrace | None = None, care: Sequence[str] = (), body: bool = False) -> list[Hit]:
    """Fuse, keep the best ``CANDIDATES`` that pass the gate, adjust, squash, sort.

    ``fetched`` holds records this search already read (the entity route's seeds): they
    are not fetched and decoded again. ``stats`` holds the store's statistics of the
    routes that listed only the fusion depth.
    """
    fusion = fuse_arrays(routes, weights, _population(store, scope, routes, stats, flt), stats=stats)
    pool = fusion.best(max(CANDIDATES, req.limit, 2 * rerank.candidates if rerank is not None else 0))
    show_sensitive = True if req.include_sensitive else asked_categories(info.text, body=body)  # what was asked
    floor = fusion.floor

    def admit(ids: Sequence[str]) -> list[tuple[MemoryRecord, float]]:
        fetched.update((r.id, r) for r in store.get_many(scope, [i for i in ids if i not in fetched]))
        out = []
        for i in ids:
            if (rec := fetched.get(i)) is None or is_pleasantry_turn(rec):
                continue
            relevance = fusion.relevance(rec.id, floor)
            if not level_opens(rec, show_sensitive) and (  # a prompt may show its line with the values hidden
                    not req.masked_lines or relevance < MASKED_RELEVANCE or (rec := masked_line(rec)) is None
                    or not speaks_of(info.text, rec.content)):
                continue
            if time_opens(rec, at=at, historical=historical) or info.asks_past and _past_evidence(
                    rec, at=at, historical=historical):
                out.append((rec, relevance))
        return out

    cands = admit(pool)
    have = {rec.id for rec, _ in cands}
    keys = ("outdated_by", ENDED_KEY) if req.for_prompt else ("outdated_by",)  # what replaced or ended it says what is now
    missing = {s for rec, _ in cands for key in keys if isinstance(s := rec.metadata.get(key), str) and s not in have}
    if missing:
        cands += admit(sorted(missing))
    if care:  # standing facts the query's topic calls for (read/standing.py)
        have = {rec.id for rec, _ in cands}
        cands += admit([i for i in care if i not in have])
    cands, repeats = collapse_repeats(cands)
    boosts = candidate_boosts(cands, info.text, info.wants_current, weights, sessions)
    for rec, _ in cands:
        if rec.metadata.get(MASKED_KEY):  # a hidden value's line takes the room other lines leave
            boosts[rec.id]["masked"] = MASKED_RANK
    if weights.get("lapsed", 0.0) > 0 and not info.asks_past:
        turns = list(dict.fromkeys(s for rec, _ in cands if rec.kind is Kind.EPISODE for s in rec.source_ids))
        derived = store.find_by_sources(scope, turns) if turns else {}
        for mid, v in lapsed_turn_penalty(cands, derived, at, weights["lapsed"], info.spans).items():
            boosts[mid]["lapsed"] = v
    shaper = Shaper(at=at, spans=info.spans, weights=weights, half_lives=half_lives)
    totals: dict[str, float] = {}
    relevances: dict[str, float] = {}
    for rec, relevance in cands:
        totals[rec.id] = relevance + shaper.adjust(rec) + sum(boosts[rec.id].values())
        relevances[rec.id] = relevance
    rr = rerank.run(req.query, [(rec, totals[rec.id]) for rec, _ in cands]) if rerank is not None else None
    if rr is not None:  # the reranker saw the best by total so far (read/rerank.py)
        if trace is not None:
            trace.rerank, trace.timings_ms["rerank"] = rr, rr.ms
        for rec, _ in cands:
            totals[rec.id] += weights.get("rerank", 0.0) * rr.z_of(rec.id)
    lifts = successor_lifts(cands, totals, enders=req.for_prompt)
    for mid, lift in lifts.items():
        totals[mid] += lift
    for mid, lift in renumbered_lifts(cands, totals).items():
        totals[mid] += lift
    drops = outdated_drops(cands, totals)
    for mid, drop in drops.items():
        totals[mid] += drop
    topic = standing_lifts([rec for rec, _ in cands if rec.id in care], totals) if care else {}
    for mid, lift in topic.items():
        totals[mid] += lift
    hits = [Hit(rec, squash(totals[rec.id]), {"total": totals[rec.id]}) for rec, _ in cands]
    hits.sort(key=lambda h: (-h.scores["total"], h.id))
    shown = bot_questions_follow(novel_first(hits)[: max(0, req.limit)])
    # every score part, for the hits returned only (the other candidates' were never read)
    shown_ids = [h.id for h in shown]
    raw = _raw_scores(routes, set(shown_ids))
    z_names = [f"{route}_z" for route in fusion.routes]
    out = []
    for h, z in zip(shown, fusion.parts_rows(shown_ids)):
        parts = {name: found[h.id] for name, found in raw.items() if h.id in found}
        parts.update(zip(z_names, z))
        parts["relevance"] = relevances[h.id]
        parts.update(boosts[h.id])
        parts.update(shaper.facts(h.record))
        if h.id in lifts:
            parts["successor"] = lifts[h.id]
        if h.id in drops:
            parts["below_successor"] = drops[h.id]
        if h.id in topic:
            parts["standing_topic"] = topic[h.id]
        if h.id in repeats:
            parts["repeats"] = float(repeats[h.id])
        if rr is not None:
            parts.update(rr.parts(h.id))
        parts.update(h.scores)  # the total, and what novel_first noted
        out.append(Hit(h.record, h.score, parts))
    return out


def _past_evidence(rec: MemoryRecord, *, at: datetime, historical: bool) -> bool:
    """A lapsed plan (or a turn about one) for a question about the past: what happened is evidence.

    It passes the gate as if it had not expired ("when did I go to…", "…去过…吗"); the
    ranking still lowers it unless the question asks about the past (boosts.lapsed_turn_penalty).
    """
    if rec.kind not in (Kind.EVENT, Kind.EPISODE) or (rec.expires_at is None and rec.status is not Status.EXPIRED):
        return False
    alive = rec.replace(expires_at=None, status=Status.ACTIVE if rec.status is Status.EXPIRED else rec.status)
    return time_opens(alive, at=at, historical=historical)


def _raw_scores(routes: Mapping[str, Sequence[tuple[str, float]]], ids: set[str]) -> dict[str, dict[str, float]]:
    """``{"<route>_raw": {id: score}}`` of ``ids`` in each route's list (a store's ``Pairs``: no tuples)."""
    out: dict[str, dict[str, float]] = {}
    for route, found in routes.items():
        if isinstance(found, Pairs):
            out[f"{route}_raw"] = {found.ids[i]: float(found.scores[i])
                                   for i in [i for i, mid in enumerate(found.ids) if mid in ids]}
        else:
            out[f"{route}_raw"] = {mid: score for mid, score in found if mid in ids}
    return out


def novel_first(hits: Sequence[Hit]) -> list[Hit]:
    """Hits that bring a source turn not already behind a better hit, then the repeats.

    A fact extracted from a turn and the turn itself say the same thing; the second
    of them goes after every hit that adds something, keeping its order there. When
    the repeat is a memory distilled from exactly the turn(s) of a raw turn ranked
    above it, the two trade places: the statement ("用户搬到了杭州") serves a prompt
    better than the chat line it came from, and the turns covered at each rank stay
    the same. Scores are then capped so that they never rise down the list.
    """
    seen: set[str] = set()
    fresh: list[Hit] = []
    repeats: list[Hit] = []
    turn_at: dict[frozenset[str], int] = {}  # sources of a raw turn in ``fresh`` → its index
    for h in hits:
        sources = frozenset(h.source_ids)
        if sources and sources <= seen:
            j = turn_at.pop(sources, None) if h.kind is not Kind.EPISODE else None
            if j is not None:
                turn = fresh[j]
                fresh[j] = Hit(h.record, turn.score, {**h.scores, "took_place_of_turn": turn.score})
                h = turn
            repeats.append(h)
        else:
            if h.kind is Kind.EPISODE and sources:
                turn_at[sources] = len(fresh)
            fresh.append(h)
        seen |= sources
    return _descending([*fresh, *repeats])


def _descending(hits: Sequence[Hit]) -> list[Hit]:
    """Cap each score at the one before it (the order was decided above; scores follow it)."""
    out: list[Hit] = []
    ceiling = float("inf")
    for h in hits:
        if h.score > ceiling:
            h = Hit(h.record, ceiling, {**h.scores, "capped_from": h.score})
        ceiling = h.score
        out.append(h)
    return out


def _top_ids(routes: Mapping[str, Sequence[tuple[str, float]]], n: int) -> list[str]:
    ids: dict[str, None] = {}
    for route in ("vector", "keyword", "context"):
        for mid, _ in routes.get(route, [])[:n]:
            ids[mid] = None
    return list(ids)


class _Timer:
    def __init__(self, sink: dict[str, float]) -> None:
        self._sink = sink

    def __call__(self, name: str) -> _Span:
        return _Span(self._sink, name)


class _Span:
    def __init__(self, sink: dict[str, float], name: str) -> None:
        self._sink, self._name = sink, name

    def __enter__(self) -> None:
        self._t = time.perf_counter()

    def __exit__(self, *exc: object) -> None:
        self._sink[self._name] = (time.perf_counter() - self._t) * 1000.0


HitCallback = Callable[[Scope, list[str]], None]
