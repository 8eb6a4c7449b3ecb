"""What is ahead, for a query that asks what is coming up (``build_context`` only).

"最近有啥安排", "接下来有啥行程", "anything coming up I should prep for?" name no event: their words resemble every
plan and none, so search ranks the plans it finds by chance, and a plan three weeks out may not be among them.
Such a query asks for the user's agenda: the events still ahead, soonest first, whatever their words.
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta

from jiyi.read.gate import known_at, lapsed
from jiyi.records import Kind, MemoryRecord, Scope, Status, Visibility
from jiyi.stores.protocol import RecordFilter, Store
from jiyi.text.ended import ENDED_KEY
from jiyi.text.script import simplified

#: a query asking what is ahead: a time ahead and a word for plans, or "coming up", "on my calendar"
_ASKS_AHEAD = re.compile(
    r"(?:最近|接下来|近期|这几天|这阵子|这周|这礼拜|这个月|下周|下个月|未来|之后|年底前|月底前)[^，,。.?？!！]{0,10}"
    r"(?:安排|计划|行程|活动|聚会|聚餐|日程|约|考试|演出|表演|比赛|节目|饭局|会议|要准备|要忙|要做|deadline|ddl|事情?要)|"
    r"有(?:啥|什么|哪些|没有|冇|乜)(?:安排|计划|行程|活动|聚会|日程|演出|表演|比赛|节目|饭局)|"
    r"(?i:\b(?:coming\s+up|upcoming|on\s+(?:my|the)\s+calendar|on\s+my\s+schedule|what'?s\s+next|"
    r"(?:anything|what'?s|what\s+is|something)\s+on\s+(?:for\s+[\w\s]{1,20}?\s+)?(?:this|next|later\s+this)\s+"
    r"(?:week|month|weekend)|"
    r"(?:plans?|schedule)\s+(?:for\s+)?(?:this|next)\s+(?:week|month|weekend))\b)")
#: how far ahead the agenda looks, and how many events it shows at most
HORIZON = timedelta(days=90)
AHEAD = 5
#: how many events are read to find them
SCAN = 300


def asks_ahead(query: str) -> bool:
    """Does ``query`` ask what is coming up ("最近有啥安排", "anything coming up I should prep for")?"""
    return _ASKS_AHEAD.search(simplified(query)) is not None


def ahead(store: Store, scope: Scope, *, at: datetime) -> list[MemoryRecord]:
    """The user's events not over at ``at`` that begin within :data:`HORIZON`, soonest first, at most
    :data:`AHEAD`: known by then, not ended, not sensitive."""
    return [r for r in events_ahead(store, scope, at=at) if not r.metadata.get(ENDED_KEY)][:AHEAD]


def events_ahead(store: Store, scope: Scope, *, at: datetime, session_id: str | None = None) -> list[MemoryRecord]:
    """``scope``'s events (of ``session_id`` only, when given) not over at ``at`` that begin within :data:`HORIZON`,
    soonest first: known by then, not sensitive."""
    flt = RecordFilter(kinds=(Kind.EVENT,), statuses=(Status.ACTIVE,), include_sensitive=False, session_id=session_id)
    coming = [r for r in store.list(scope, flt, SCAN) if r.visibility is Visibility.NORMAL and known_at(r, at)
              and not lapsed(r, at) and r.valid_from is not None and r.valid_from <= at + HORIZON]
    return sorted(coming, key=lambda r: (r.valid_from or at, r.id))
