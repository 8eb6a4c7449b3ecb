"""Ranking: fused relevance plus named, additive adjustments, squashed to 0–1.

    total = Σ_route w·z(route score)                        (fuse.py)
          + w_next·relevance(next turn)                     (boosts.py: an answer's question)
          + w_session·z(best relevance in the session)      (boosts.py)
          + w_speaker  if the query names the memory's speaker
          + w_time     if the memory falls in a time window the query names
          + w_current·recency   for "now / 现在 / still" questions
          + w_imp·(importance−½) + w_conf·(confidence−½) + w_fresh·freshness
          − w_outdated if a newer memory superseded what this turn said
          − w_lapsed  if the plan this turn stated is past its expiry   (boosts.py)
          − w_assistant for the bot's own turns, − w_summary for session digests
    score = 1 / (1 + e^(−total / SCORE_SCALE))

Everything is in z-score units of the fused relevance, so each weight reads as "worth
this many standard deviations of relevance". Every part is returned so a hit can
explain itself. The weights were measured on the dev sets (docs/retrieval.md).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from datetime import datetime, timedelta

from jiyi.records import Kind, MemoryRecord
from jiyi.write.timeparse import TimeSpan

DEFAULT_WEIGHTS: dict[str, float] = {
    # route weights for z-score fusion
    "vector": 1.0,  # single turn / memory, "Name: text"
    "context": 1.0,  # episode with the turn before it
    "keyword": 0.4,  # BM25 over jieba / stemmed tokens
    "entity": 0.0,
    "recency": 0.0,
    "recent_vector": 1.0,  # the conversation before the query (read/followup.py), × how much the query leans on it
    "recent_keyword": 0.5,
    "buffer": 0.5,  # short-term buffer: a full word match scores 1.25× the best stored hit (buffered.py)
    # candidate-set adjustments (boosts.py)
    "next": 0.2,
    "session": 1.0,
    "session_keyword": 1.0,  # BM25 of the candidate's session as a whole (sessions as documents) …
    "session_keyword_shift": 2.0,  # … counted only beyond this many standard deviations above the mean
    "speaker": 0.8,
    "rerank": 2.0,  # the reranker's score in z units over its candidates (read/rerank.py), when one is set
    "standing_topic": 1.0,  # on/off: a standing fact the query's topic calls for in the top five (standing.py)
    "current": 3.0,
    "current_window": 2.5,  # … among candidates within this much relevance of the best
    # per-memory shaping
    "importance": 0.0,
    "confidence": 0.0,
    "freshness": 0.0,
    "time": 4.0,  # 0.6 before issue 17 (LoCoMo R@10 by weight: 0.6 0.751, 1.5 0.755, 2.5 0.759, 4 0.762, 6 0.761)
    "outdated": 0.5,
    "lapsed": 10.0,  # a turn whose plan passed its expiry, for queries not naming its time (boosts.py)
    "assistant": 1.0,  # the bot's own turns: they mostly echo what the user said
    "summary": 0.0,  # session digests: they point at no turn in particular
    # the prompt block's order only (curate.py): a bot's view, not evidence recall
    "block_importance": 4.0,
    "block_freshness": 2.0,
    "block_time": 3.0,  # in the time window the query names
}

#: Events are usually talked about a little after they happen ("last week I…").
TIME_SLACK = timedelta(days=7)


def freshness(rec: MemoryRecord, at: datetime, half_lives: Mapping[str, float]) -> float:
    """exp(−age/half-life) from when the memory became true (or was recorded)."""
    start = rec.valid_from or rec.created_at
    age_days = max(0.0, (at - start).total_seconds() / 86400.0)
    half_life = half_lives.get(rec.kind.value, 180.0)
    return math.exp(-age_days * math.log(2) / max(half_life, 1e-6))


def in_spans(rec: MemoryRecord, spans: Sequence[TimeSpan], slack: timedelta = TIME_SLACK) -> bool:
    """Does the memory's world time fall inside (or just after) a span the query named?"""
    when = rec.valid_from or rec.created_at
    return any(s.start <= when < s.end + slack for s in spans)


class Shaper:
    """The per-memory adjustment to the total, and the named facts behind it.

    Built once per search (the weights and the query's time spans). :meth:`adjust` runs
    for every candidate and computes only the parts whose weight is not 0; :meth:`facts`
    runs for the hits returned.
    """

    __slots__ = (
        "at",
        "half_lives",
        "spans",
        "w_assistant",
        "w_conf",
        "w_fresh",
        "w_imp",
        "w_outdated",
        "w_summary",
        "w_time",
    )

    def __init__(self, *, at: datetime, spans: Sequence[TimeSpan], weights: Mapping[str, float],
                 half_lives: Mapping[str, float]) -> None:
        self.at, self.spans, self.half_lives = at, spans, half_lives
        self.w_imp, self.w_conf = weights.get("importance", 0.0), weights.get("confidence", 0.0)
        self.w_fresh, self.w_time = weights.get("freshness", 0.0), weights.get("time", 0.0)
        self.w_outdated, self.w_assistant = weights.get("outdated", 0.0), weights.get("assistant", 0.0)
        self.w_summary = weights.get("summary", 0.0)

    def adjust(self, rec: MemoryRecord) -> float:
        """The weighted parts of ``rec``, summed in a fixed order (a part weighted 0 adds nothing)."""
        total = 0.0
        if self.w_imp:
            total += self.w_imp * (rec.importance - 0.5)
        if self.w_conf:
            total += self.w_conf * (rec.confidence - 0.5)
        if self.w_fresh:
            total += self.w_fresh * freshness(rec, self.at, self.half_lives)
        if self.w_time and self.spans and in_spans(rec, self.spans):
            total += self.w_time
        meta = rec.metadata
        if meta and self.w_outdated and meta.get("outdated_by"):
            total -= self.w_outdated
        if meta and self.w_assistant and meta.get("role") == "assistant":
            total -= self.w_assistant
        if self.w_summary and rec.kind is Kind.SUMMARY:
            total -= self.w_summary
        return total

    def facts(self, rec: MemoryRecord) -> dict[str, float]:
        """What the parts looked at, weighted or not (a hit's explanation)."""
        return {"freshness": freshness(rec, self.at, self.half_lives), "importance": rec.importance,
                "confidence": rec.confidence, "time_match": float(bool(self.spans) and in_spans(rec, self.spans)),
                "outdated": float(bool(rec.metadata.get("outdated_by")))}


#: Totals of good matches run 5–15 (sums of z-scores): scaled so the 0–1 score still spreads.
SCORE_SCALE = 4.0


def squash(total: float) -> float:
    """The logistic of the scaled total: a 0–1 score that keeps the order (thresholds, display)."""
    total /= SCORE_SCALE
    if total >= 0:
        return 1.0 / (1.0 + math.exp(-total))
    e = math.exp(total)
    return e / (1.0 + e)
