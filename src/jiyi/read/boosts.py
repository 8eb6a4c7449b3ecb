"""Adjustments that look at the candidate set as a whole, not at one memory.

- **next turn**: a turn whose *reply* (the next turn, said by someone else) matches
  the query gets part of the reply's relevance; a user's next statement of their own is
  another topic and lends nothing (a question and its answer belong together; the bot's confirmation of a
  detail points at the user's turn that gave it). Episodes carry the id of the turn
  before them (``metadata["prev_id"]``), so the pairs are found inside the candidates.
- **session**: turns of the session that holds the best match get lifted (questions
  are about an episode of a life, and its turns come together). z-score of each
  candidate's best session relevance, over the candidates.
- **session keywords**: turns of a session whose text as a whole matches the query's
  words far better than the user's other sessions (BM25 with sessions as documents,
  z-scored over all the user's sessions) get lifted by how far the session stands
  out beyond ``session_keyword_shift`` standard deviations. The words of a question
  spread over the turns of the conversation it is about ("Melanie … pottery … kids"),
  which no single turn's BM25 sees.
- **speaker**: the query names the person who said it ("What did Caroline…").
- **successor**: a turn whose statement was superseded (``metadata["outdated_by"]``)
  hands its relevance to the memory that replaced it, which then ranks just above it:
  the question the old turn answers is answered by the new memory now.
- **lapsed**: a plan past its ``expires_at``, and the turn it came from ("今天中午想吃兰州
  拉面" three months ago) when that says nothing still current, rank lower, the more so
  the longer ago it lapsed (all of ``lapsed`` a week on, when the plan leaves search),
  unless the query names its time or asks about the past or a date ("约的是哪一天",
  "when did…": recall.py skips it then).
- **current**: for questions about the present state (``wants_current``), newer
  memories among the candidates close to the best rank higher (recency 0–1, by
  when each was said).

Each function returns ``{memory_id: weighted adjustment}`` for the candidates it touches.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from datetime import datetime

from jiyi.read.gate import lapsed_share
from jiyi.read.rank import in_spans
from jiyi.records import Kind, MemoryRecord, Status
from jiyi.stores.protocol import SessionScores
from jiyi.text.ended import ENDED_KEY
from jiyi.text.renumbered import renumbers
from jiyi.write.timeparse import TimeSpan

Scored = Sequence[tuple[MemoryRecord, float]]  # gated candidates with their fused relevance


def next_turn_boost(cands: Scored, weight: float) -> dict[str, float]:
    """``weight`` × the relevance of each candidate's next turn (the lowest relevance if absent)."""
    if weight <= 0 or not cands:
        return {}
    by_source = {rec.source_ids[0]: rec for rec, _ in cands if len(rec.source_ids) == 1}
    rel = {rec.id: r for rec, r in cands}
    nxt: dict[str, float] = {}
    for rec, r in cands:
        prev = rec.metadata.get("prev_id")
        turn = by_source.get(prev) if isinstance(prev, str) else None
        if turn is not None and _voice(turn) != _voice(rec):  # a reply, not the same person going on
            nxt[turn.id] = max(r, nxt.get(turn.id, -math.inf))
    floor = min(rel.values())
    return {mid: weight * nxt.get(mid, floor) for mid in rel}


def _voice(rec: MemoryRecord) -> tuple[object, object]:
    """Who said a turn: its role and speaker name."""
    return rec.metadata.get("role"), rec.speaker


def session_boost(cands: Scored, weight: float) -> dict[str, float]:
    """``weight`` × z-score (over the candidates) of the best relevance in each one's session."""
    if weight <= 0 or len(cands) < 2:
        return {}
    best: dict[str, float] = {}
    for rec, r in cands:
        if rec.session_id is not None:
            best[rec.session_id] = max(r, best.get(rec.session_id, -math.inf))
    if len(best) < 2:
        return {}
    values = [best[rec.session_id] for rec, _ in cands if rec.session_id is not None]
    mean = sum(values) / len(values)
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / len(values)) or 1.0
    return {rec.id: weight * (best[rec.session_id] - mean) / sd for rec, _ in cands if rec.session_id is not None}


def session_keyword_boost(cands: Scored, found: SessionScores | None, weight: float,
                          shift: float) -> dict[str, float]:
    """``weight`` × max(0, z − ``shift``) of each candidate's session in the session BM25."""
    if weight <= 0 or found is None or not found.scores or found.sessions < 2:
        return {}
    n = found.sessions
    if found.mean is not None and found.variance is not None:
        mean, var = found.mean, found.variance
    else:  # every matching session listed: the rest scored 0
        values = list(found.scores.values())
        mean = sum(values) / n
        var = (sum((v - mean) ** 2 for v in values) + (n - len(values)) * mean ** 2) / n
    sd = math.sqrt(var) if var > 1e-12 else 1.0
    out: dict[str, float] = {}
    for rec, _ in cands:
        score = found.scores.get(rec.session_id or "")
        if score is not None and (z := (score - mean) / sd - shift) > 0:
            out[rec.id] = weight * z
    return out


def speaker_boost(cands: Scored, query: str, weight: float) -> dict[str, float]:
    """``weight`` for memories whose speaker the query names (by the name they said it under), unless
    every candidate has that speaker."""
    if weight <= 0:
        return {}
    speakers = {name for rec, _ in cands if (name := rec.display_name)}
    named = {s for s in speakers if names_in(s, query)}
    if not named:
        return {}
    hit = {rec.id for rec, _ in cands if rec.display_name in named}
    if len(hit) == len(cands):
        return {}
    return {mid: weight for mid in hit}


def names_in(speaker: str, query: str) -> bool:
    """Does ``query`` mention ``speaker`` (whole word for Latin names, substring for CJK)?"""
    name = speaker.strip()
    if not name:
        return False
    if name.isascii():
        first = name.split()[0]
        pattern = rf"\b(?:{re.escape(name)}|{re.escape(first)})\b" if len(first) >= 3 else rf"\b{re.escape(name)}\b"
        return re.search(pattern, query, re.IGNORECASE) is not None
    return name in query


def current_boost(cands: Scored, weight: float, window: float = 0.0) -> dict[str, float]:
    """``weight`` × recency in 0–1 (newest = 1) among the candidates that answer the question.

    Recency is when a memory was *said* (:func:`said_at`), not when its event happens.
    ``window`` > 0 orders only the candidates whose relevance is within ``window`` of
    the best: the turns that state the value, old and new, are all close to the top,
    and a recent turn about something else must not jump over them.
    """
    if weight <= 0 or len(cands) < 2:
        return {}
    if window > 0:
        best = max(r for _, r in cands)
        cands = [(rec, r) for rec, r in cands if r >= best - window]
    when = {rec.id: said_at(rec).timestamp() for rec, _ in cands}
    lo, hi = min(when.values()), max(when.values())
    if hi <= lo:
        return {}
    return {mid: weight * (t - lo) / (hi - lo) for mid, t in when.items()}


def said_at(rec: MemoryRecord) -> datetime:
    """When a memory was said: a turn's own time; an extracted fact's record time (not the event's)."""
    if rec.kind is Kind.EPISODE:
        return rec.valid_from or rec.created_at
    return rec.created_at


def candidate_boosts(cands: Scored, query: str, wants_current: bool, weights: Mapping[str, float],
                     sessions: SessionScores | None = None) -> dict[str, dict[str, float]]:
    """id → {adjustment name: value}. Session groups by relevance after the next-turn share."""
    out: dict[str, dict[str, float]] = {rec.id: {} for rec, _ in cands}
    nxt = next_turn_boost(cands, weights.get("next", 0.0))
    for mid, v in nxt.items():
        out[mid]["next"] = v
    lifted = [(rec, r + nxt.get(rec.id, 0.0)) for rec, r in cands]
    for name, found in (("session", session_boost(lifted, weights.get("session", 0.0))),
                        ("session_keyword", session_keyword_boost(cands, sessions,
                                                                  weights.get("session_keyword", 0.0),
                                                                  weights.get("session_keyword_shift", 0.0))),
                        ("speaker", speaker_boost(cands, query, weights.get("speaker", 0.0))),
                        ("current", current_boost(lifted, weights.get("current", 0.0),
                                                  weights.get("current_window", 0.0)) if wants_current else {})):
        for mid, v in found.items():
            out[mid][name] = v
    return out


#: How far above the outdated turn its successor lands.
SUCCESSOR_MARGIN = 0.01
#: How far below its successor an outdated turn is then put (no tie between the old and the new).
OUTDATED_GAP = 0.5


def successor_lifts(cands: Scored, totals: Mapping[str, float], *, enders: bool = False) -> dict[str, float]:
    """How much to add to each successor so that it ranks above every turn it outdated, and, with ``enders`` (a
    bot's prompt, not evidence search), every memory or turn it ended by its words ("那台朗逸我给我侄子了 我现在骑电瓶车
    上班" above "开了十一年的老朗逸"): it tells what is now."""
    lifts: dict[str, float] = {}
    for rec, _ in cands:
        ender = rec.metadata.get(ENDED_KEY) if enders else None
        for new in (rec.metadata.get("outdated_by"), ender):
            if not isinstance(new, str) or new not in totals:
                continue
            need = totals[rec.id] + SUCCESSOR_MARGIN - totals[new]
            if need > lifts.get(new, 0.0):
                lifts[new] = need
    return lifts


#: what the user says of themselves that a newer one may give new numbers of: a turn, or a memory of theirs
_SAID_OF_ONESELF = frozenset({Kind.EPISODE, Kind.FACT, Kind.BEHAVIOR, Kind.PREFERENCE})
#: the best-ranked turns looked at for new numbers said of an older one's (a price raised, an hour moved)
RENUMBERED_TOP = 30


def renumbered_lifts(cands: Scored, totals: Mapping[str, float]) -> dict[str, float]:
    """How much to add to a turn that gives new numbers in an older turn's frames ("粉涨了一块 二两16 三两19" after
    "粉的价钱 二两15块 三两18块": :func:`jiyi.text.renumbered.renumbers`), or a newer memory that does so of an older
    one of its kind, so that it ranks above it, among the :data:`RENUMBERED_TOP` best-ranked of the user's."""
    turns = sorted((rec for rec, _ in cands if rec.kind in _SAID_OF_ONESELF and rec.metadata.get("role") != "assistant"),
                   key=lambda r: -totals[r.id])[:RENUMBERED_TOP]
    lifts: dict[str, float] = {}
    for old in turns:
        for new in turns:
            if (new.speaker or None) != (old.speaker or None) or (new.valid_from or new.created_at) <= \
                    (old.valid_from or old.created_at) or totals[new.id] > totals[old.id]:
                continue
            need = totals[old.id] + SUCCESSOR_MARGIN - totals[new.id]
            if need > lifts.get(new.id, 0.0) and old.kind is new.kind and renumbers(
                    new.content, old.content, told_as_change=new.kind is Kind.EPISODE):
                lifts[new.id] = need
    return lifts


def outdated_drops(cands: Scored, totals: Mapping[str, float]) -> dict[str, float]:
    """How much to take from each outdated turn so that it ranks :data:`OUTDATED_GAP` below its successor."""
    out: dict[str, float] = {}
    for rec, _ in cands:
        new = rec.metadata.get("outdated_by")
        if isinstance(new, str) and new in totals and (gap := totals[rec.id] - (totals[new] - OUTDATED_GAP)) > 0:
            out[rec.id] = -gap
    return out


def lapsed_turn_penalty(cands: Scored, derived: Mapping[str, Sequence[MemoryRecord]], at: datetime,
                        weight: float, spans: Sequence[TimeSpan] = ()) -> dict[str, float]:
    """``−weight`` × how over it is (:func:`~jiyi.read.gate.lapsed_share`) for a plan past its
    ``expires_at`` and for the turn it was made from (unless something current was made
    from it too), except when the query names their time (``spans``: "9月3号中午吃的啥").

    ``derived`` maps a message id to the memories made from it (``Store.find_by_sources``).
    """
    if weight <= 0:
        return {}
    out: dict[str, float] = {}
    for rec, _ in cands:
        if spans and in_spans(rec, spans):
            continue
        if rec.kind is not Kind.EPISODE:
            if (share := lapsed_share(rec, at)) > 0:
                out[rec.id] = -weight * share
            continue
        made = [m for sid in rec.source_ids for m in derived.get(sid, ()) if m.kind is not Kind.EPISODE]
        over = max((lapsed_share(m, at) for m in made), default=0.0)
        if over > 0 and not any(m.status is Status.ACTIVE and (m.expires_at is None or m.expires_at > at)
                                for m in made):
            out[rec.id] = -weight * over
    return out
