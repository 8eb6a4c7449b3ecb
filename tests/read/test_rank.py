"""Per-memory shaping: the adjustment every candidate gets and the facts a returned hit shows."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from jiyi.read.rank import DEFAULT_WEIGHTS, Shaper
from jiyi.records import Kind, MemoryRecord
from jiyi.write.timeparse import TimeSpan

T = datetime(2024, 6, 1, tzinfo=timezone.utc)
SPAN = TimeSpan(T - timedelta(days=30), T - timedelta(days=20), "day", "上个月")


def record(mid: str, *, kind: Kind = Kind.EPISODE, days_ago: int = 0, **meta: object) -> MemoryRecord:
    return MemoryRecord(id=mid, tenant="t", user_id="u", content=mid, kind=kind, created_at=T, updated_at=T,
                        valid_from=T - timedelta(days=days_ago), importance=0.9, confidence=0.3,
                        metadata=dict(meta))


RECORDS = [
    record("plain"),
    record("in-span", days_ago=25),
    record("outdated", outdated_by="m9"),
    record("bot", role="assistant", days_ago=400),
    record("digest", kind=Kind.SUMMARY, days_ago=3),
]


@pytest.mark.parametrize("rec", RECORDS, ids=lambda r: r.id)
def test_adjust_is_the_weighted_sum_of_the_facts(rec: MemoryRecord) -> None:
    weights = {"importance": 0.3, "confidence": 0.2, "freshness": 0.7, "time": 0.6, "outdated": 0.5,
               "assistant": 1.0, "summary": 0.4}
    shaper = Shaper(at=T, spans=[SPAN], weights=weights, half_lives={"episode": 30.0})
    f = shaper.facts(rec)
    expected = (0.3 * (f["importance"] - 0.5) + 0.2 * (f["confidence"] - 0.5) + 0.7 * f["freshness"]
                + 0.6 * f["time_match"] - 0.5 * f["outdated"]
                - (1.0 if rec.metadata.get("role") == "assistant" else 0.0)
                - (0.4 if rec.kind is Kind.SUMMARY else 0.0))
    assert shaper.adjust(rec) == pytest.approx(expected)
    assert f["time_match"] == (1.0 if rec.id == "in-span" else 0.0)
    assert f["outdated"] == (1.0 if rec.id == "outdated" else 0.0)
    assert 0.0 < f["freshness"] <= 1.0


def test_a_part_weighted_zero_adds_nothing_but_is_still_shown() -> None:
    rec = record("old", days_ago=365)
    shaper = Shaper(at=T, spans=[], weights=DEFAULT_WEIGHTS, half_lives={})  # freshness weighted 0
    assert shaper.adjust(rec) == 0.0
    assert shaper.facts(rec)["freshness"] == pytest.approx(0.5 ** (365 / 180))
