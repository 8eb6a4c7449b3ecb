"""A user's memories on a time axis, with superseded chains folded into "was → now".

Each memory sits at the time it is *about* (``valid_from``, the world time) or,
failing that, when it was recorded. A chain of values of one slot (住在上海 → 住在北京)
shows once, at its newest value, with the older ones before the arrow; the older ones
are not repeated elsewhere. Expired events and memories that are no longer valid are
greyed (the template's job, from ``greyed``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime, timezone, tzinfo

from jiyi.clock import to_local
from jiyi.records import Kind, MemoryRecord, Status
from jiyi.web.listing import is_greyed

#: Statuses shown on the timeline; deleted and merged ones only on request.
SHOWN = (Status.ACTIVE, Status.SUPERSEDED, Status.EXPIRED, Status.ARCHIVED)


@dataclass(slots=True)
class TimelineItem:
    record: MemoryRecord
    when: datetime
    greyed: bool
    was: list[MemoryRecord] = field(default_factory=list)  # older values, oldest first


@dataclass(slots=True)
class TimelineGroup:
    label: str  # "2026-11"
    items: list[TimelineItem]


@dataclass(slots=True, frozen=True)
class AxisDot:
    x: float  # 0–1000 on the SVG axis
    kind: str
    greyed: bool
    title: str
    anchor: str


@dataclass(slots=True, frozen=True)
class Axis:
    dots: list[AxisDot]
    ticks: list[tuple[float, str]]


def when_of(rec: MemoryRecord) -> datetime:
    return rec.valid_from or rec.created_at


def build_timeline(records: Sequence[MemoryRecord], *, now: datetime, include_deleted: bool = False,
                   kinds: Sequence[str] = (), tz: tzinfo = timezone.utc) -> list[TimelineGroup]:
    """Month groups (months of the zone ``tz``), newest first; chains folded at their newest member."""
    shown = set(SHOWN) | ({Status.DELETED, Status.MERGED} if include_deleted else set())
    recs = [r for r in records if r.status in shown and (not kinds or r.kind.value in kinds)]
    by_id = {r.id: r for r in recs}
    older: dict[str, list[MemoryRecord]] = {}
    folded: set[str] = set()
    for rec in recs:
        newest = _chain_head(rec, by_id)
        if newest is not rec:
            older.setdefault(newest.id, []).append(rec)
            folded.add(rec.id)
    items = [TimelineItem(r, when_of(r), is_greyed(r, now) or _past_event(r, now),
                          sorted(older.get(r.id, []), key=when_of))
             for r in recs if r.id not in folded]
    items.sort(key=lambda i: (i.when, i.record.id), reverse=True)
    groups: list[TimelineGroup] = []
    for item in items:
        label = to_local(item.when, tz).strftime("%Y-%m")
        if not groups or groups[-1].label != label:
            groups.append(TimelineGroup(label, []))
        groups[-1].items.append(item)
    return groups


def _chain_head(rec: MemoryRecord, by_id: dict[str, MemoryRecord]) -> MemoryRecord:
    """Follow ``superseded_by`` to the newest shown value (cycle-safe)."""
    seen = {rec.id}
    while rec.status is Status.SUPERSEDED and rec.superseded_by in by_id and rec.superseded_by not in seen:
        rec = by_id[rec.superseded_by]
        seen.add(rec.id)
    return rec


def _past_event(rec: MemoryRecord, now: datetime) -> bool:
    """An event with a date but no end, more than a day ago (one with an end is ``is_greyed``'s)."""
    if rec.kind is not Kind.EVENT or rec.valid_from is None or rec.valid_until is not None:
        return False
    return (now - rec.valid_from).days >= 1


def build_axis(groups: Sequence[TimelineGroup], tz: tzinfo = timezone.utc) -> Axis:
    """Dots for every shown memory across the covered range, with month ticks (at most 12 labelled).

    Dates on the axis (titles, month starts, tick labels) are wall-clock dates in ``tz``.
    """
    items = [i for g in groups for i in g.items]
    if not items:
        return Axis([], [])
    lo, hi = to_local(min(i.when for i in items), tz), to_local(max(i.when for i in items), tz)
    span = max((hi - lo).total_seconds(), 86400.0)

    def x(t: datetime) -> float:
        return round(20 + 960 * (t - lo).total_seconds() / span, 1)

    dots = [AxisDot(x(i.when), i.record.kind.value, i.greyed, f"{to_local(i.when, tz):%Y-%m-%d} {i.record.content[:60]}",
                    f"m-{i.record.id}") for i in items]
    months: list[datetime] = []
    cur = lo.replace(day=1, hour=0, minute=0, second=0, microsecond=0)
    while cur <= hi:
        if cur >= lo:
            months.append(cur)
        cur = cur.replace(year=cur.year + 1, month=1) if cur.month == 12 else cur.replace(month=cur.month + 1)
    step = max(1, -(-len(months) // 12))
    ticks = [(x(m), m.strftime("%Y-%m")) for m in months[::step]]
    if not ticks:
        ticks = [(x(lo), lo.strftime("%Y-%m-%d"))]
    return Axis(dots, ticks)
