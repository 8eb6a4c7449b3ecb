"""Ranking: fused relevance shaped by importance, freshness, confidence and named times.

    score = relevance · (1 + w_imp·(importance−½) + w_conf·(confidence−½) + w_fresh·freshness)
            · (1 + w_time if the memory falls in a time window the query names)

freshness = exp(−age_days / half_life(kind)): events fade in weeks, preferences in months.
Every factor is returned so a hit can explain itself.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from datetime import datetime

from jiyi.records import MemoryRecord
from jiyi.write.timeparse import TimeSpan

DEFAULT_WEIGHTS: dict[str, float] = {
    # route weights for fusion
    "vector": 1.0,
    "context": 0.6,
    "keyword": 0.5,
    "entity": 0.25,
    "recency": 0.05,
    "buffer": 0.5,
    # shaping
    "importance": 0.2,
    "confidence": 0.1,
    "freshness": 0.1,
    "time": 0.5,
    "outdated": 0.5,  # turns whose memory was superseded keep (1 - this) of their score
}


def freshness(rec: MemoryRecord, at: datetime, half_lives: Mapping[str, float]) -> float:
    """exp(−age/half-life) from when the memory became true (or was recorded)."""
    start = rec.valid_from or rec.created_at
    age_days = max(0.0, (at - start).total_seconds() / 86400.0)
    half_life = half_lives.get(rec.kind.value, 180.0)
    return math.exp(-age_days * math.log(2) / max(half_life, 1e-6))


def in_spans(rec: MemoryRecord, spans: Sequence[TimeSpan]) -> bool:
    """Does the memory's world time fall inside any span the query named?"""
    when = rec.valid_from or rec.created_at
    return any(s.start <= when < s.end for s in spans)


def shape_score(
    rec: MemoryRecord,
    relevance: float,
    *,
    at: datetime,
    spans: Sequence[TimeSpan],
    weights: Mapping[str, float],
    half_lives: Mapping[str, float],
) -> tuple[float, dict[str, float]]:
    """Final score and its named parts."""
    fresh = freshness(rec, at, half_lives)
    factor = (1.0 + weights["importance"] * (rec.importance - 0.5)
              + weights["confidence"] * (rec.confidence - 0.5)
              + weights["freshness"] * fresh)
    timed = 1.0 + weights["time"] if spans and in_spans(rec, spans) else 1.0
    outdated = weights["outdated"] if rec.metadata.get("outdated_by") else 0.0
    score = relevance * factor * timed * (1.0 - outdated)
    return score, {"relevance": relevance, "freshness": fresh, "importance": rec.importance,
                   "confidence": rec.confidence, "time_match": timed - 1.0, "outdated": outdated}
