"""Operator statistics for one tenant: counts by kind and status, growth, queue, errors.

Counts come from ``Memory.get_all`` over every user of the tenant (the public API),
queue depth and errors from ``Memory.stats``, and the maintenance preview from
``Memory.gc(dry_run=True)``, which changes nothing.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta, timezone, tzinfo

from jiyi.clock import to_local
from jiyi.memory import Memory
from jiyi.records import GcReport
from jiyi.web.listing import KINDS, STATUSES

GROWTH_DAYS = 60


@dataclass(slots=True, frozen=True)
class Bar:
    x: float
    y: float
    height: float
    day: date
    added: int
    total: int


@dataclass(slots=True)
class TenantStats:
    users: int
    total: int
    by_kind_status: dict[str, dict[str, int]]
    kind_totals: dict[str, int]
    status_totals: dict[str, int]
    growth: list[Bar]
    growth_max: int
    line: str  # SVG polyline points of the running total
    engine: dict[str, object] = field(default_factory=dict)


def tenant_stats(mem: Memory, *, now: datetime, days: int = GROWTH_DAYS, tz: tzinfo = timezone.utc) -> TenantStats:
    """Everything on the stats page except the gc preview (that one runs on request); days are days in ``tz``."""
    users = mem.users()
    matrix: Counter[tuple[str, str]] = Counter()
    per_day: Counter[date] = Counter()
    before = 0
    first = (to_local(now, tz) - timedelta(days=days - 1)).date()
    for uid in users:
        for rec in mem.get_all(user_id=uid, status=None):
            matrix[(rec.kind.value, rec.status.value)] += 1
            day = to_local(rec.created_at, tz).date()
            if day < first:
                before += 1
            else:
                per_day[day] += 1
    table = {k: {s: matrix[(k, s)] for s in STATUSES} for k in KINDS}
    bars = _bars(per_day, first, days, before)
    return TenantStats(users=len(users), total=sum(matrix.values()), by_kind_status=table,
                       kind_totals={k: sum(table[k].values()) for k in KINDS},
                       status_totals={s: sum(table[k][s] for k in KINDS) for s in STATUSES},
                       growth=bars, growth_max=max(per_day.values(), default=0), line=_line(bars),
                       engine=dict(mem.stats()))


def _bars(per_day: Counter[date], first: date, days: int, before: int) -> list[Bar]:
    """One bar per day (height: added that day) on a 600×120 SVG, with the running total."""
    peak = max(per_day.values(), default=0) or 1
    width = 600 / days
    bars, total = [], before
    for i in range(days):
        day = first + timedelta(days=i)
        added = per_day.get(day, 0)
        total += added
        height = round(110 * added / peak, 1)
        bars.append(Bar(round(i * width, 2), round(115 - height, 1), height, day, added, total))
    return bars


def _line(bars: list[Bar]) -> str:
    """The running total scaled to the chart's height (its own scale: the last point is the top)."""
    top = max((b.total for b in bars), default=0) or 1
    step = 600 / max(len(bars), 1)
    return " ".join(f"{b.x + step * 0.4:.1f},{115 - 110 * b.total / top:.1f}" for b in bars)


def gc_preview(mem: Memory, *, now: datetime) -> GcReport:
    """What ``gc`` would do now (a dry run: nothing changes)."""
    return mem.gc(dry_run=True, now=now)
