"""The memories table: parse its filters from the query string, filter, count and page.

``Memory.get_all`` lists by kind and status; the panel's other filters (text, time
range, sensitivity) apply here, over the user's records. That keeps the panel on the
public ``Memory`` API (no second path to the store) at the cost of reading a user's
whole list per page view, which is fine for the thousands of memories one person has.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import date, datetime, time, timedelta, timezone, tzinfo
from typing import Any
from urllib.parse import urlencode

from jiyi.memory import Memory
from jiyi.records import Kind, MemoryRecord, Status, Visibility

KINDS = tuple(k.value for k in Kind)
STATUSES = tuple(s.value for s in Status)
SENSITIVE = ("", "only", "hide")
PER_PAGE = (25, 50, 100)


@dataclass(slots=True, frozen=True)
class ListQuery:
    """The table's state, as it travels in the URL (bookmarkable, works without JS)."""

    q: str = ""
    kinds: tuple[str, ...] = ()
    status: str = "active"  # "" = every status
    sensitive: str = ""  # "" all · "only" · "hide"
    since: date | None = None
    until: date | None = None
    page: int = 1
    per_page: int = PER_PAGE[0]
    errors: tuple[str, ...] = field(default=(), compare=False)

    @classmethod
    def parse(cls, params: Mapping[str, Sequence[str]]) -> ListQuery:
        """From ``{name: [values]}``; bad values fall back to defaults and are reported in ``errors``."""
        errors: list[str] = []

        def one(name: str) -> str:
            values = params.get(name) or [""]
            return str(values[-1]).strip()

        kinds = tuple(k for k in params.get("kind", []) if k in KINDS)
        status = one("status") if "status" in params else "active"
        if status not in ("", *STATUSES):
            errors.append("status")
            status = "active"
        sensitive = one("sensitive") if one("sensitive") in SENSITIVE else ""
        since, until = _date(one("since"), "since", errors), _date(one("until"), "until", errors)
        page = _int(one("page"), 1, 1, 1_000_000)
        per_page = _int(one("per_page"), PER_PAGE[0], 1, 1000)
        if per_page not in PER_PAGE:
            per_page = PER_PAGE[0]
        return cls(one("q")[:200], kinds, status, sensitive, since, until, page, per_page, tuple(errors))

    def params(self, **changes: Any) -> str:
        """The query string for this state with ``changes`` (``page`` resets unless given)."""
        state = replace(self, **({"page": 1} | changes))
        pairs: list[tuple[str, str]] = []
        if state.q:
            pairs.append(("q", state.q))
        pairs += [("kind", k) for k in state.kinds]
        pairs.append(("status", state.status))
        for name in ("sensitive",):
            if getattr(state, name):
                pairs.append((name, getattr(state, name)))
        if state.since:
            pairs.append(("since", state.since.isoformat()))
        if state.until:
            pairs.append(("until", state.until.isoformat()))
        if state.per_page != PER_PAGE[0]:
            pairs.append(("per_page", str(state.per_page)))
        if state.page != 1:
            pairs.append(("page", str(state.page)))
        return urlencode(pairs)


@dataclass(slots=True, frozen=True)
class ListPage:
    rows: list[MemoryRecord]
    total: int
    status_counts: dict[str, int]
    page: int
    pages: int


def list_memories(mem: Memory, user_id: str, lq: ListQuery, tz: tzinfo = timezone.utc) -> ListPage:
    """One page of the user's memories matching ``lq``, newest first, and per-status counts.

    ``since`` / ``until`` are whole days in ``tz`` (the tenant's time zone), as the table shows them.
    """
    records = mem.get_all(user_id=user_id, kinds=lq.kinds or None, status=None)
    matching = [r for r in records if _matches(r, lq, tz)]
    counts = Counter(r.status.value for r in matching)
    if lq.status:
        matching = [r for r in matching if r.status.value == lq.status]
    pages = max(1, -(-len(matching) // lq.per_page))
    page = min(lq.page, pages)
    start = (page - 1) * lq.per_page
    return ListPage(matching[start:start + lq.per_page], len(matching), dict(counts), page, pages)


def _matches(rec: MemoryRecord, lq: ListQuery, tz: tzinfo) -> bool:
    if lq.q:
        needle = lq.q.casefold()
        haystack = " ".join([rec.content, rec.slot or "", *rec.entities]).casefold()
        if needle not in haystack and needle != rec.id:
            return False
    if lq.sensitive == "only" and rec.visibility is not Visibility.SENSITIVE:
        return False
    if lq.sensitive == "hide" and rec.visibility is Visibility.SENSITIVE:
        return False
    if lq.since and rec.created_at < _start_of(lq.since, tz):
        return False
    return not (lq.until and rec.created_at >= _start_of(lq.until + timedelta(days=1), tz))


def _start_of(day: date, tz: tzinfo) -> datetime:
    return datetime.combine(day, time.min, tzinfo=tz)


def _date(text: str, name: str, errors: list[str]) -> date | None:
    if not text:
        return None
    try:
        return date.fromisoformat(text)
    except ValueError:
        errors.append(name)
        return None


def _int(text: str, default: int, low: int, high: int) -> int:
    try:
        value = int(text)
    except ValueError:
        return default
    return min(max(value, low), high)


def is_greyed(rec: MemoryRecord, now: datetime) -> bool:
    """No longer true or no longer recalled: expired, past its validity, or not active."""
    if rec.status is not Status.ACTIVE:
        return True
    if rec.expires_at is not None and rec.expires_at <= now:
        return True
    return rec.valid_until is not None and rec.valid_until <= now
