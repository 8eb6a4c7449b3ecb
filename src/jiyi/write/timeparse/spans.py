"""Time spans and the calendar arithmetic every language's handlers share.

A handler resolves one match into a :class:`Res` (naive datetimes, local to the
resolution zone) or a :class:`Tod` (a time of day still looking for its date); the
engine turns the survivors into :class:`TimeSpan` objects in aware UTC.
"""

from __future__ import annotations

import calendar
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta

from jiyi.clock import ensure_utc


@dataclass(slots=True, frozen=True)
class TimeSpan:
    """An absolute time window ``[start, end)`` named by ``text`` at ``offset`` in the source."""

    start: datetime
    end: datetime
    granularity: str  # minute | hour | daypart | day | weekend | week | month | holiday | year
    text: str
    offset: int = 0

    def contains(self, when: datetime) -> bool:
        """Is ``when`` (naive = UTC) inside the span?"""
        return self.start <= ensure_utc(when) < self.end

    @property
    def end_offset(self) -> int:
        return self.offset + len(self.text)


# ---------------------------------------------------------------- calendar helpers

def month_add(y: int, m: int, k: int) -> tuple[int, int]:
    """(year, month) ``k`` months after ``y``-``m``."""
    i = y * 12 + (m - 1) + k
    return i // 12, i % 12 + 1


def day_span(d: date) -> tuple[datetime, datetime]:
    """The whole day ``d``."""
    start = datetime(d.year, d.month, d.day)
    return start, start + timedelta(days=1)


def days_span(d0: date, d1: date) -> tuple[datetime, datetime]:
    """Whole days d0..d1 inclusive."""
    return datetime(d0.year, d0.month, d0.day), datetime(d1.year, d1.month, d1.day) + timedelta(days=1)


def month_span(y: int, m: int) -> tuple[datetime, datetime]:
    """The whole month ``y``-``m``."""
    ny, nm = month_add(y, m, 1)
    return datetime(y, m, 1), datetime(ny, nm, 1)


def monday_of(d: date) -> date:
    """The Monday of ``d``'s week (weeks start on Monday)."""
    return d - timedelta(days=d.weekday())


def nth_weekday(y: int, m: int, weekday: int, n: int) -> date | None:
    """The ``n``-th ``weekday`` (0 = Monday) of ``y``-``m``, counted from 1; -1 is the last. None past the month."""
    days = [d for d in range(1, calendar.monthrange(y, m)[1] + 1) if date(y, m, d).weekday() == weekday]
    return date(y, m, days[n - 1 if n > 0 else n]) if -len(days) <= n <= len(days) and n else None


def safe_date(y: int, m: int, d: int) -> date | None:
    """``date(y, m, d)``, or None when there is no such day (2月30日)."""
    if not (1 <= m <= 12) or not (1 <= d <= calendar.monthrange(y, m)[1]):
        return None
    return date(y, m, d)


def nearest_year(today: date, m: int) -> int:
    """The year whose month ``m`` is nearest to ``today`` (ties: this year)."""
    return min((today.year, today.year - 1, today.year + 1),
               key=lambda y: abs((y * 12 + m) - (today.year * 12 + today.month)))


def nearest_date(today: date, m: int, d: int) -> date | None:
    """The date (m, d) in the year nearest to ``today``."""
    options = [x for x in (safe_date(today.year + k, m, d) for k in (0, -1, 1)) if x]
    return min(options, key=lambda x: abs((x - today).days)) if options else None


# ---------------------------------------------------------------- matching machinery

@dataclass(slots=True)
class Res:
    """A resolved window (naive, local to the resolution zone) and its granularity."""

    start: datetime  # naive, local to the resolution zone
    end: datetime
    gran: str
    part: str | None = None  # daypart context, for clock times that follow (今晚8点)


@dataclass(slots=True, frozen=True)
class Tod:
    """A time of day that needs a date: a daypart (下午), a clock (3点), or both."""

    hour: int | None
    minute: int | None
    part: str | None
    spoken: bool = False  # 两点 (1-5 without a daypart means afternoon) vs 02:00
    weak: bool = False  # 两点 with no daypart or 钟/半/分: only a time when next to a date
    explicit: bool = False  # 晚上8点 / 3pm: a time even with no date in the text (today)


@dataclass(slots=True)
class Ctx:
    """What handlers know while scanning one text: the reference and the last date named."""

    text: str
    now: datetime
    today: date
    anchor_day: date | None = None  # last day-level date resolved in this text
    anchor_month: tuple[int, int] | None = None
    lunar_month: int | None = None  # last lunar month named in this text (timeparse/lunar.py)
    _past_cache: dict[int, bool] = field(default_factory=dict)

    def past(self, pos: int) -> bool:
        """Is the sentence around ``pos`` in the past tense (English cues)?"""
        if pos not in self._past_cache:
            lo = max(self.text.rfind(c, 0, pos) for c in ".!?\n") + 1
            hi = min((i for i in (self.text.find(c, pos) for c in ".!?\n") if i >= 0), default=len(self.text))
            self._past_cache[pos] = bool(_EN_PAST.search(self.text[lo:hi]))
        return self._past_cache[pos]

    def past_clause(self, pos: int) -> bool:
        """Is the clause around ``pos`` in the past tense ("signed up for it, first one is this friday": no)?"""
        lo, hi = self.clause(pos, pos, ".!?\n,;")
        return bool(_EN_PAST.search(_ARRANGED.sub(" ", self.text[lo:hi])))

    def clause(self, start: int, end: int, cuts: str) -> tuple[int, int]:
        """Where the clause holding ``text[start:end]`` begins and ends, cut by any character of ``cuts``."""
        lo = max(self.text.rfind(c, 0, start) for c in cuts) + 1
        hi = min((i for i in (self.text.find(c, end) for c in cuts) if i >= 0), default=len(self.text))
        return lo, hi

    def remember(self, res: Res) -> None:
        """Make ``res`` the anchor for bare weekdays and days of month that follow."""
        if res.gran in ("day", "daypart", "hour", "minute", "weekend", "holiday"):
            self.anchor_day = res.start.date()
        if res.gran not in ("year", "week"):
            self.anchor_month = (res.start.year, res.start.month)


#: Resolves one regex match; None when the match is not a time after all.
Handler = Callable[[re.Match[str], Ctx], "Res | Tod | None"]
#: (pattern, handler, skipped after 每/every: a habit, not a date)
Rule = tuple[re.Pattern[str], Handler, bool]

_EN_PAST = re.compile(
    r"\b(?:was|were|did|had|went|got|came|saw|made|took|gave|told|said|felt|met|bought|found|left|"
    r"ago|last|yesterday|\w{3,}ed)\b", re.IGNORECASE)

#: a past act that sets up something ahead ("booked a haircut this friday", "scheduled a call for this thursday"):
#: the time it names is the arrangement's, still to come
_ARRANGED = re.compile(r"\b(?:booked|scheduled|rescheduled|reserved|arranged|planned|registered|signed\s+up|set\s+up|"
                       r"made\s+(?:an?\s+)?(?:appointment|appt|reservation|booking))\b", re.IGNORECASE)

ZH_PARTS: dict[str, tuple[int, int]] = {
    "凌晨": (0, 6), "清晨": (5, 9), "早上": (5, 10), "早晨": (5, 10), "一早": (5, 10),
    "上午": (8, 12), "中午": (11, 14), "下午": (13, 18), "傍晚": (17, 19),
    "晚上": (18, 24), "夜里": (19, 24), "晚": (18, 24), "夜": (19, 24), "早": (5, 10),
    "深夜": (22, 26), "半夜": (23, 27),
    # Cantonese: 朝早 morning, 晏昼 midday, 下昼 afternoon, 挨晚 dusk, 夜晚 / 晚黑 evening
    "朝早": (5, 10), "晏昼": (11, 15), "下昼": (13, 18), "挨晚": (17, 19), "夜晚": (18, 24), "晚黑": (18, 24),
    # 北方话: 头晌 / 前晌 / 上半晌 morning, 晌午 noon, 后晌 / 下半晌 afternoon, 傍黑 / 擦黑 dusk
    "头晌": (8, 12), "前晌": (8, 12), "上半晌": (8, 12), "晌午": (11, 14), "后晌": (13, 18), "下半晌": (13, 18),
    "傍黑": (17, 19), "擦黑": (17, 19),
}
PM_PARTS = {"下午", "傍晚", "晚上", "夜里", "晚", "夜", "深夜", "晏昼", "下昼", "挨晚", "夜晚", "晚黑", "后晌", "下半晌", "傍黑", "擦黑", "afternoon", "evening", "night",
            "tonight"}
HOLIDAYS: dict[str, tuple[int, int, int]] = {  # name -> (month, day, length in days)
    "元旦": (1, 1, 1), "情人节": (2, 14, 1), "妇女节": (3, 8, 1), "劳动节": (5, 1, 5),
    "五一": (5, 1, 5), "儿童节": (6, 1, 1), "618": (6, 18, 1), "国庆节": (10, 1, 7), "国庆": (10, 1, 7), "十一": (10, 1, 7),
    "双十一": (11, 11, 1), "双11": (11, 11, 1), "双十二": (12, 12, 1), "平安夜": (12, 24, 1),
    "圣诞节": (12, 25, 1), "圣诞": (12, 25, 1), "christmas eve": (12, 24, 1), "christmas": (12, 25, 1),
    "new year's eve": (12, 31, 1), "new year's day": (1, 1, 1), "valentine's day": (2, 14, 1),
    "halloween": (10, 31, 1), "independence day": (7, 4, 1),
}
EN_PARTS: dict[str, tuple[int, int]] = {
    "morning": (6, 12), "noon": (12, 13), "afternoon": (12, 18), "evening": (18, 22),
    "night": (18, 24), "tonight": (18, 24),
}


# ---------------------------------------------------------------- shared resolvers

def maybe_group(m: re.Match[str], name: str) -> str | None:
    """Group ``name`` of ``m``, None if the pattern has no such group (handlers serve several)."""
    return m.group(name) if name in m.re.groupindex else None


def group(m: re.Match[str], name: str) -> str:
    """A group the pattern always fills ("" if it did not, which handlers treat as no match)."""
    return maybe_group(m, name) or ""


def daypart_res(d: date, part: str, table: dict[str, tuple[int, int]]) -> Res:
    """Day ``d`` narrowed to the hours of ``part`` (下午 / evening) from ``table``."""
    h0, h1 = table[part]
    start = datetime(d.year, d.month, d.day)
    return Res(start + timedelta(hours=h0), start + timedelta(hours=h1), "daypart", part)


def month_part(y: int, mo: int, part: str | None) -> Res:
    """The month, or its 初/中/底 (early/mid/late) third."""
    start, end = month_span(y, mo)
    if not part:
        return Res(start, end, "month")
    lo, hi = {"初": (1, 11), "上旬": (1, 11), "中": (11, 21), "中旬": (11, 21), "early": (1, 11),
              "mid": (11, 21), "mid-": (11, 21)}.get(part, (21, 0))
    s = start + timedelta(days=lo - 1)
    e = end if hi == 0 else start + timedelta(days=hi - 1)
    return Res(s, e, "day")


def ymd(y: int, mo: int | None, d: int | None, part: str | None = None) -> Res | None:
    """A year, month (or part of one) or day, whichever is the finest given; None if impossible."""
    if mo is None:
        return Res(datetime(y, 1, 1), datetime(y + 1, 1, 1), "year")
    if not 1 <= mo <= 12:
        return None
    if d is None:
        return month_part(y, mo, part)
    day = safe_date(y, mo, d)
    return Res(*day_span(day), "day") if day else None


def shift(c: Ctx, n: float, unit: str) -> Res:
    """The ``unit``-sized bucket ``n`` units away from the reference (negative = past)."""
    if unit in ("hour", "minute"):
        t = c.now + timedelta(hours=n) if unit == "hour" else c.now + timedelta(minutes=n)
        t = t.replace(second=0, microsecond=0, minute=t.minute if unit == "minute" else 0)
        return Res(t, t + (timedelta(hours=1) if unit == "hour" else timedelta(minutes=1)), unit)
    if unit == "day" or (unit == "month" and n != int(n)):
        days = n * 30 if unit == "month" else n
        return Res(*day_span(c.today + timedelta(days=round(days))), "day")
    if unit in ("week", "weekend"):
        monday = monday_of(c.today + timedelta(weeks=n))
        if unit == "weekend":
            return Res(*days_span(monday + timedelta(days=5), monday + timedelta(days=6)), "weekend")
        return Res(*days_span(monday, monday + timedelta(days=6)), "week")
    if unit == "month":
        return Res(*month_span(*month_add(c.today.year, c.today.month, int(n))), "month")
    if n != int(n):
        return Res(*month_span(*month_add(c.today.year, c.today.month, round(n * 12))), "month")
    y = c.today.year + int(n)
    return Res(datetime(y, 1, 1), datetime(y + 1, 1, 1), "year")


#: a day of the month said alone (5号, "on the 5th") that passed this long ago or more is next month's, unless told as
#: past: a week back is still spoken of as this month's ("12号体检" on the 13th)
RECENT_DAYS = timedelta(days=7)
#: holidays on the nth weekday of a month: name -> (month, weekday with Monday 0, n)
NTH_WEEKDAY_HOLIDAYS: dict[str, tuple[int, int, int]] = {
    "thanksgiving": (11, 3, 4), "母亲节": (5, 6, 2), "mother's day": (5, 6, 2), "父亲节": (6, 6, 3),
    "father's day": (6, 6, 3)}


def holiday(c: Ctx, name: str, year_shift: int | None, pre: str | None = None) -> Res | None:
    """A fixed solar holiday (or one on the nth weekday of its month: Thanksgiving, 母亲节): that year's,
    last/next, else the nearest."""
    mo, d, length = HOLIDAYS.get(name, (0, 0, 1))

    def on(y: int) -> date:
        if name in NTH_WEEKDAY_HOLIDAYS:
            month, weekday, n = NTH_WEEKDAY_HOLIDAYS[name]
            first = date(y, month, 1)
            return first + timedelta(days=(weekday - first.weekday()) % 7 + 7 * (n - 1))
        return date(y, mo, d)

    if year_shift is not None:
        day = on(c.today.year + year_shift)
    elif pre == "last":
        day = max(x for x in (on(c.today.year + k) for k in (-1, 0)) if x < c.today)
    elif pre == "next":
        day = min(x for x in (on(c.today.year + k) for k in (0, 1)) if x > c.today)
    elif pre == "coming":  # a deadline ("by christmas"): the one still ahead
        day = min(x for x in (on(c.today.year + k) for k in (0, 1)) if x >= c.today)
    else:
        day = min((on(c.today.year + k) for k in (0, -1, 1)), key=lambda x: abs((x - c.today).days))
    gran = "holiday" if length > 1 else "day"
    return Res(*days_span(day, day + timedelta(days=length - 1)), gran)


def clock_24h(h: int, mi: int, part: str | None, bare_pm: bool) -> tuple[int, int] | None:
    """24-hour (h, m) from a spoken clock and its daypart; None if impossible."""
    if not (0 <= h <= 24 and 0 <= mi <= 59):
        return None
    if (part in PM_PARTS and h < 12) or (part in ("中午", "noon") and 1 <= h <= 3):
        h += 12
    elif part in ("晚上", "夜里", "深夜", "night") and h == 12:
        h = 24
    elif part is None and bare_pm and 1 <= h <= 5:
        h += 12  # "明天两点开会": afternoon unless said otherwise
    return h, mi

