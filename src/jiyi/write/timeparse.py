"""Time expressions → absolute spans, resolved against the MESSAGE's timestamp.

"明天" in a message sent on 2025-03-05 means 2025-03-06 forever, whenever the message
is processed, so every function here takes the reference time explicitly and never
reads the clock. The same code serves extraction (a plan's ``valid_from``) and query
understanding (``上个月`` → a window), so both sides agree on what a phrase means.

A :class:`TimeSpan` is ``[start, end)`` — end exclusive — in aware UTC, with a
granularity. Calendar arithmetic happens in ``tz`` (default: the reference's zone,
i.e. UTC for validated messages), so pass the user's zone when it is known.

Conventions (each is a choice; tests pin them):
- weeks start on Monday. ``下周三``/"next Wednesday" is the Wednesday of next week,
  ``这周五``/"this Friday" of this week, ``上周二``/"last Tuesday" of last week.
- a bare Chinese weekday (``周四``) is in the week of the last day mentioned in the
  same text, else this week; a bare English weekday ("on Friday") is the next one on or
  after today, or the last one on or before today when the sentence is in the past
  tense. ``周末``/"the weekend" is Saturday–Sunday of the week chosen the same way.
- a month and day without a year (``5月3日``, "May 8") take the year that puts the
  date nearest to the reference; a bare month (``五月``, "in May") the reference year;
  "last May" the latest May before this month, "next May" the first after it.
- a bare day of month (``26号``) is in the month of the last date mentioned in the
  same text (``12月16号到19号``), else the reference month.
- ``N个月前``/"3 months ago" is the whole month it lands in; likewise weeks and years;
  days are days. Clock times (``下午3点``, "at 3pm") are one-hour spans.
- ``X到Y``/"X to Y" becomes one span from X's start to Y's end.
- lunar dates (春节, 中秋) are not resolved; fixed solar holidays are (国庆, 五一,
  元旦, 618, 双十一, Christmas, Halloween…), nearest occurrence.
- anything after ``每``/"every" is a habit, not a date, and is skipped.
"""

from __future__ import annotations

import calendar
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta, timezone, tzinfo

from jiyi.clock import ensure_utc
from jiyi.text.wordlists import words

__all__ = ["TimeSpan", "cn_to_int", "find_time_expressions", "resolve_time"]


@dataclass(slots=True, frozen=True)
class TimeSpan:
    """An absolute time window ``[start, end)`` named by ``text`` at ``offset`` in the source."""

    start: datetime
    end: datetime
    granularity: str  # minute | hour | daypart | day | weekend | week | month | holiday | year
    text: str
    offset: int = 0

    def contains(self, when: datetime) -> bool:
        return self.start <= ensure_utc(when) < self.end

    @property
    def end_offset(self) -> int:
        return self.offset + len(self.text)


# ---------------------------------------------------------------- numbers

_CN_DIGITS = {"零": 0, "〇": 0, "一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5,
              "六": 6, "七": 7, "八": 8, "九": 9}
_CN_UNITS = {"十": 10, "百": 100, "千": 1000}
_EN_NUMS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6,
            "seven": 7, "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12,
            "fifteen": 15, "twenty": 20, "thirty": 30, "couple": 2, "a couple of": 2,
            "couple of": 2, "a few": 3, "few": 3}


def cn_to_int(s: str) -> int:
    """``"二十八"`` → 28, ``"两"`` → 2, ``"二〇二五"`` → 2025, ``"12"`` → 12 (ValueError otherwise)."""
    s = s.strip()
    if s.isdigit():
        return int(s)
    if len(s) > 1 and all(c in _CN_DIGITS for c in s):
        return int("".join(str(_CN_DIGITS[c]) for c in s))
    total = num = 0
    for c in s:
        if c in _CN_DIGITS:
            num = _CN_DIGITS[c]
        elif c in _CN_UNITS:
            total += (num or 1) * _CN_UNITS[c]
            num = 0
        elif c.isdigit():
            num = num * 10 + int(c)
        else:
            raise ValueError(f"not a number: {s!r}")
    return total + num


def _en_num(s: str) -> int:
    s = " ".join(s.lower().split())
    return int(s) if s.isdigit() else _EN_NUMS[s]


# ---------------------------------------------------------------- calendar helpers

def _month_add(y: int, m: int, k: int) -> tuple[int, int]:
    i = y * 12 + (m - 1) + k
    return i // 12, i % 12 + 1


def _day(d: date) -> tuple[datetime, datetime]:
    start = datetime(d.year, d.month, d.day)
    return start, start + timedelta(days=1)


def _days(d0: date, d1: date) -> tuple[datetime, datetime]:
    """Whole days d0..d1 inclusive."""
    return datetime(d0.year, d0.month, d0.day), datetime(d1.year, d1.month, d1.day) + timedelta(days=1)


def _month(y: int, m: int) -> tuple[datetime, datetime]:
    ny, nm = _month_add(y, m, 1)
    return datetime(y, m, 1), datetime(ny, nm, 1)


def _monday(d: date) -> date:
    return d - timedelta(days=d.weekday())


def _safe_date(y: int, m: int, d: int) -> date | None:
    if not (1 <= m <= 12) or not (1 <= d <= calendar.monthrange(y, m)[1]):
        return None
    return date(y, m, d)


def _nearest_year(today: date, m: int) -> int:
    """The year whose month ``m`` is nearest to ``today`` (ties: this year)."""
    return min((today.year, today.year - 1, today.year + 1),
               key=lambda y: abs((y * 12 + m) - (today.year * 12 + today.month)))


def _nearest(today: date, m: int, d: int) -> date | None:
    """The date (m, d) in the year nearest to ``today``."""
    options = [x for x in (_safe_date(today.year + k, m, d) for k in (0, -1, 1)) if x]
    return min(options, key=lambda x: abs((x - today).days)) if options else None


# ---------------------------------------------------------------- matching machinery

@dataclass(slots=True)
class _Res:
    start: datetime  # naive, local to the resolution zone
    end: datetime
    gran: str
    part: str | None = None  # daypart context, for clock times that follow (今晚8点)


@dataclass(slots=True, frozen=True)
class _Tod:
    """A time of day that needs a date: a daypart (下午), a clock (3点), or both."""

    hour: int | None
    minute: int | None
    part: str | None
    spoken: bool = False  # 两点 (1-5 without a daypart means afternoon) vs 02:00
    weak: bool = False  # 两点 with no daypart or 钟/半/分: only a time when next to a date
    explicit: bool = False  # 晚上8点 / 3pm: a time even with no date in the text (today)


@dataclass(slots=True)
class _Ctx:
    text: str
    now: datetime
    today: date
    anchor_day: date | None = None  # last day-level date resolved in this text
    anchor_month: tuple[int, int] | None = None
    _past_cache: dict[int, bool] = field(default_factory=dict)

    def past(self, pos: int) -> bool:
        """Is the sentence around ``pos`` in the past tense (English cues)?"""
        if pos not in self._past_cache:
            lo = max(self.text.rfind(c, 0, pos) for c in ".!?\n") + 1
            hi = min((i for i in (self.text.find(c, pos) for c in ".!?\n") if i >= 0), default=len(self.text))
            self._past_cache[pos] = bool(_EN_PAST.search(self.text[lo:hi]))
        return self._past_cache[pos]

    def remember(self, res: _Res) -> None:
        if res.gran in ("day", "daypart", "hour", "minute", "weekend", "holiday"):
            self.anchor_day = res.start.date()
        if res.gran not in ("year", "week"):
            self.anchor_month = (res.start.year, res.start.month)


Handler = Callable[[re.Match[str], _Ctx], "_Res | _Tod | None"]

_EN_PAST = re.compile(
    r"\b(?:was|were|did|had|went|got|came|saw|made|took|gave|told|said|felt|met|bought|found|left|"
    r"ago|last|yesterday|\w{3,}ed)\b", re.IGNORECASE)
_HABIT_BEFORE = re.compile(r"(?:每个?|每逢|every\s+|each\s+|[\d一二两三四五六七八九十几]个)$", re.IGNORECASE)

# Chinese building blocks
_N = r"(?:\d{1,4}|[零〇一二两三四五六七八九十百]{1,4})"
_REL = r"(?P<pre>上上个?|下下个?|上个|下个|这个|上|下|这|本)"
_WD = {"一": 0, "二": 1, "三": 2, "四": 3, "五": 4, "六": 5, "日": 6, "天": 6, "末": 7,
       "1": 0, "2": 1, "3": 2, "4": 3, "5": 4, "6": 5, "7": 6}
_REL_WEEKS = {"上上": -2, "上上个": -2, "上": -1, "上个": -1, "这": 0, "这个": 0, "本": 0,
              "下": 1, "下个": 1, "下下": 2, "下下个": 2}
_REL_DAYS = {"大前天": -3, "前天": -2, "昨天": -1, "昨日": -1, "昨儿": -1, "昨儿个": -1,
             "今天": 0, "今日": 0, "今儿": 0, "今儿个": 0, "明天": 1, "明日": 1, "明儿": 1,
             "明儿个": 1, "后天": 2, "大后天": 3}
_REL_YEARS = {"大前年": -3, "前年": -2, "去年": -1, "今年": 0, "明年": 1, "后年": 2}
_ZH_PARTS: dict[str, tuple[int, int]] = {
    "凌晨": (0, 6), "清晨": (5, 9), "早上": (5, 10), "早晨": (5, 10), "一早": (5, 10),
    "上午": (8, 12), "中午": (11, 14), "下午": (13, 18), "傍晚": (17, 19),
    "晚上": (18, 24), "夜里": (19, 24), "晚": (18, 24), "夜": (19, 24), "早": (5, 10),
    "深夜": (22, 26), "半夜": (23, 27),
}
_PM_PARTS = {"下午", "傍晚", "晚上", "夜里", "晚", "夜", "深夜", "afternoon", "evening", "night",
             "tonight"}
_HOLIDAYS: dict[str, tuple[int, int, int]] = {  # name -> (month, day, length in days)
    "元旦": (1, 1, 1), "情人节": (2, 14, 1), "妇女节": (3, 8, 1), "劳动节": (5, 1, 5),
    "五一": (5, 1, 5), "儿童节": (6, 1, 1), "618": (6, 18, 1), "国庆节": (10, 1, 7), "国庆": (10, 1, 7),
    "双十一": (11, 11, 1), "双11": (11, 11, 1), "双十二": (12, 12, 1), "平安夜": (12, 24, 1),
    "圣诞节": (12, 25, 1), "圣诞": (12, 25, 1), "christmas eve": (12, 24, 1), "christmas": (12, 25, 1),
    "new year's eve": (12, 31, 1), "new year's day": (1, 1, 1), "valentine's day": (2, 14, 1),
    "halloween": (10, 31, 1), "independence day": (7, 4, 1),
}
_EN_MONTHS = {m.lower(): i for i, m in enumerate(calendar.month_name) if m}
_EN_MONTHS.update({m.lower(): i for i, m in enumerate(calendar.month_abbr) if m})
_EN_MONTHS["sept"] = 9
_EN_WD = {d.lower(): i for i, d in enumerate(calendar.day_name)}
_EN_PARTS: dict[str, tuple[int, int]] = {
    "morning": (6, 12), "noon": (12, 13), "afternoon": (12, 18), "evening": (18, 22),
    "night": (18, 24), "tonight": (18, 24),
}
_MON = r"(?P<mon>january|february|march|april|may|june|july|august|september|october|november|december" \
       r"|jan|feb|mar|apr|jun|jul|aug|sept|sep|oct|nov|dec)\.?"
_ENN = r"(?P<n>\d+|a couple of|couple of|a few|an?|one|two|three|four|five|six|seven|eight|nine|ten" \
       r"|eleven|twelve|fifteen|twenty|thirty)"
_ORD = r"(?:st|nd|rd|th)?"


# ---------------------------------------------------------------- Chinese handlers

def _g(m: re.Match[str], name: str) -> str | None:
    """Group ``name`` of ``m``, None if the pattern has no such group (handlers serve several)."""
    return m.group(name) if name in m.re.groupindex else None


def _r(m: re.Match[str], name: str) -> str:
    """A group the pattern always fills ("" if it did not, which handlers treat as no match)."""
    return _g(m, name) or ""


def _zh_past_after(text: str, pos: int) -> bool:
    """Does the clause after ``pos`` read as past (了/过 without a future marker before it)?"""
    clause = re.split(r"[，,。！？!?；;\n]", text[pos:pos + 30], maxsplit=1)[0]
    m = re.search(r"[了过]", clause)
    return m is not None and not re.search(r"要|会|打算|准备|想|得|就要|快", clause[: m.start()])


def _zh_rel_day(m: re.Match[str], c: _Ctx) -> _Res:
    w = _g(m, "w") or ""
    if w == "明后天":
        return _Res(*_days(c.today + timedelta(days=1), c.today + timedelta(days=2)), "day")
    return _Res(*_day(c.today + timedelta(days=_REL_DAYS[w])), "day")


def _part_res(d: date, part: str, table: dict[str, tuple[int, int]]) -> _Res:
    h0, h1 = table[part]
    start = datetime(d.year, d.month, d.day)
    return _Res(start + timedelta(hours=h0), start + timedelta(hours=h1), "daypart", part)


def _zh_short_part(m: re.Match[str], c: _Ctx) -> _Res:
    """今晚 / 明早 / 昨夜 / 今晨."""
    d = c.today + timedelta(days={"今": 0, "明": 1, "昨": -1}[_r(m, "d")])
    part = {"早": "早上", "晨": "早上", "晚": "晚上", "夜": "夜里"}[_r(m, "p")]
    return _part_res(d, part, _ZH_PARTS)


def _week_of(c: _Ctx, pre: str | None) -> date:
    if pre is not None:
        return _monday(c.today) + timedelta(weeks=_REL_WEEKS[pre])
    return _monday(c.anchor_day or c.today)


def _zh_week(m: re.Match[str], c: _Ctx) -> _Res:
    pre, wd = _g(m, "pre"), _g(m, "wd")
    monday = _week_of(c, pre)
    if wd is None:
        return _Res(*_days(monday, monday + timedelta(days=6)), "week")
    i = _WD[wd]
    first = monday + timedelta(days=5 if i == 7 else i)
    bare = pre is None and c.anchor_day is None
    if bare and first > c.today and _zh_past_after(c.text, m.end()):
        first -= timedelta(weeks=1)
    if i == 7:
        return _Res(*_days(first, first + timedelta(days=1)), "weekend")
    return _Res(*_day(first), "day")


def _month_part(y: int, mo: int, part: str | None) -> _Res:
    start, end = _month(y, mo)
    if not part:
        return _Res(start, end, "month")
    lo, hi = {"初": (1, 11), "上旬": (1, 11), "中": (11, 21), "中旬": (11, 21), "early": (1, 11),
              "mid": (11, 21), "mid-": (11, 21)}.get(part, (21, 0))
    s = start + timedelta(days=lo - 1)
    e = end if hi == 0 else start + timedelta(days=hi - 1)
    return _Res(s, e, "day")


def _ymd(y: int, mo: int | None, d: int | None, part: str | None = None) -> _Res | None:
    if mo is None:
        return _Res(datetime(y, 1, 1), datetime(y + 1, 1, 1), "year")
    if not 1 <= mo <= 12:
        return None
    if d is None:
        return _month_part(y, mo, part)
    day = _safe_date(y, mo, d)
    return _Res(*_day(day), "day") if day else None


def _opt_int(s: str | None) -> int | None:
    return None if s is None else cn_to_int(s)


def _zh_abs_year(m: re.Match[str], c: _Ctx) -> _Res | None:
    return _ymd(cn_to_int(_r(m, "y")), _opt_int(_g(m, "m")), _opt_int(_g(m, "d")), _g(m, "mp"))


def _zh_rel_year(m: re.Match[str], c: _Ctx) -> _Res | None:
    y = c.today.year + _REL_YEARS[_g(m, "ry") or "今年"]
    yp = _g(m, "yp")
    if yp in ("初", "年初"):
        return _Res(datetime(y, 1, 1), datetime(y, 3, 1), "month")
    if yp:
        return _Res(datetime(y, 12, 1), datetime(y + 1, 1, 1), "month")
    return _ymd(y, _opt_int(_g(m, "m")), _opt_int(_g(m, "d")), _g(m, "mp"))


def _zh_month_day(m: re.Match[str], c: _Ctx) -> _Res | None:
    mo, d = cn_to_int(_r(m, "m")), _opt_int(_g(m, "d"))
    if not 1 <= mo <= 12:
        return None
    if d is None:
        return _month_part(_nearest_year(c.today, mo), mo, _g(m, "mp"))
    day = _nearest(c.today, mo, d)
    return _Res(*_day(day), "day") if day else None


def _zh_rel_month(m: re.Match[str], c: _Ctx) -> _Res | None:
    y, mo = _month_add(c.today.year, c.today.month, _REL_WEEKS[_g(m, "pre") or "这"])
    d = _opt_int(_g(m, "d"))
    if d is None:
        return _month_part(y, mo, _g(m, "mp"))
    day = _safe_date(y, mo, d)
    return _Res(*_day(day), "day") if day else None


def _zh_bare_day(m: re.Match[str], c: _Ctx) -> _Res | None:
    y, mo = c.anchor_month or (c.today.year, c.today.month)
    day = _safe_date(y, mo, cn_to_int(_r(m, "d")))
    return _Res(*_day(day), "day") if day else None


_UNIT_ZH = {"天": "day", "日": "day", "周": "week", "星期": "week", "礼拜": "week", "月": "month",
            "年": "year", "小时": "hour", "钟头": "hour", "分钟": "minute"}


def _shift(c: _Ctx, n: float, unit: str) -> _Res:
    """The ``unit``-sized bucket ``n`` units away from the reference (negative = past)."""
    if unit in ("hour", "minute"):
        t = c.now + timedelta(hours=n) if unit == "hour" else c.now + timedelta(minutes=n)
        t = t.replace(second=0, microsecond=0, minute=t.minute if unit == "minute" else 0)
        return _Res(t, t + (timedelta(hours=1) if unit == "hour" else timedelta(minutes=1)), unit)
    if unit == "day" or (unit == "month" and n != int(n)):
        days = n * 30 if unit == "month" else n
        return _Res(*_day(c.today + timedelta(days=round(days))), "day")
    if unit in ("week", "weekend"):
        monday = _monday(c.today + timedelta(weeks=n))
        if unit == "weekend":
            return _Res(*_days(monday + timedelta(days=5), monday + timedelta(days=6)), "weekend")
        return _Res(*_days(monday, monday + timedelta(days=6)), "week")
    if unit == "month":
        return _Res(*_month(*_month_add(c.today.year, c.today.month, int(n))), "month")
    if n != int(n):
        return _Res(*_month(*_month_add(c.today.year, c.today.month, round(n * 12))), "month")
    y = c.today.year + int(n)
    return _Res(datetime(y, 1, 1), datetime(y + 1, 1, 1), "year")


def _zh_offset(m: re.Match[str], c: _Ctx) -> _Res | None:
    raw = _r(m, "n")
    n: float = 0.5 if raw == "半" else cn_to_int(raw)
    if _g(m, "half"):
        n += 0.5
    sign = -1 if _r(m, "dir").endswith("前") else 1
    return _shift(c, sign * n, _UNIT_ZH[_g(m, "u") or _g(m, "u2") or ""])


def _holiday(c: _Ctx, name: str, year_shift: int | None, pre: str | None = None) -> _Res | None:
    mo, d, length = _HOLIDAYS[name] if name != "thanksgiving" else (11, 0, 1)

    def on(y: int) -> date:
        if name == "thanksgiving":
            first = date(y, 11, 1)
            return first + timedelta(days=(3 - first.weekday()) % 7 + 21)
        return date(y, mo, d)

    if year_shift is not None:
        day = on(c.today.year + year_shift)
    elif pre == "last":
        day = max(x for x in (on(c.today.year + k) for k in (-1, 0)) if x < c.today)
    elif pre == "next":
        day = min(x for x in (on(c.today.year + k) for k in (0, 1)) if x > c.today)
    else:
        day = min((on(c.today.year + k) for k in (0, -1, 1)), key=lambda x: abs((x - c.today).days))
    gran = "holiday" if length > 1 else "day"
    return _Res(*_days(day, day + timedelta(days=length - 1)), gran)


def _zh_holiday(m: re.Match[str], c: _Ctx) -> _Res | None:
    ry = _g(m, "ry")
    return _holiday(c, _r(m, "hol"), _REL_YEARS[ry] if ry else None)


def _clock(h: int, mi: int, part: str | None, bare_pm: bool) -> tuple[int, int] | None:
    """24-hour (h, m) from a spoken clock and its daypart; None if impossible."""
    if not (0 <= h <= 24 and 0 <= mi <= 59):
        return None
    if (part in _PM_PARTS and h < 12) or (part in ("中午", "noon") and 1 <= h <= 3):
        h += 12
    elif part in ("晚上", "夜里", "深夜", "night") and h == 12:
        h = 24
    elif part is None and bare_pm and 1 <= h <= 5:
        h += 12  # "明天两点开会": afternoon unless said otherwise
    return h, mi


def _zh_tod(m: re.Match[str], c: _Ctx) -> _Tod | None:
    part, h = _g(m, "part") or None, _g(m, "h")
    if h is None:
        return _Tod(None, None, part)
    suffix = _g(m, "half") or _g(m, "q") or _g(m, "mi") or _g(m, "sfx")
    mi = 30 if _g(m, "half") else {"一刻": 15, "三刻": 45}.get(_g(m, "q") or "", None)
    if mi is None:
        mi = cn_to_int(_r(m, "mi")) if _g(m, "mi") else 0
    # "一点" alone is more often "a little" than 1 o'clock: weak unless next to a date
    weak = part is None and not h.isdigit() and not suffix
    return _Tod(cn_to_int(h), mi if (_g(m, "half") or _g(m, "q") or _g(m, "mi")) else None, part,
                spoken=True, weak=weak, explicit=part is not None)


def _colon_tod(m: re.Match[str], c: _Ctx) -> _Tod | None:
    h, mi = int(_r(m, "h")), int(_r(m, "mi"))
    return _Tod(h, mi, None) if h <= 24 and mi <= 59 else None


def _iso_day(m: re.Match[str], c: _Ctx) -> _Res | None:
    return _ymd(int(_r(m, "y")), int(_r(m, "m")), _opt_int(_g(m, "d")))


# ---------------------------------------------------------------- English handlers

_EN_REL_DAYS = {"today": 0, "tonight": 0, "tomorrow": 1, "tmr": 1, "tmrw": 1, "yesterday": -1,
                "after tomorrow": 2, "before yesterday": -2}


def _en_rel_day(m: re.Match[str], c: _Ctx) -> _Res:
    w = " ".join((_g(m, "w") or _r(m, "w2")).lower().split())
    d = c.today + timedelta(days=_EN_REL_DAYS[w])
    return _part_res(d, "tonight", _EN_PARTS) if w == "tonight" else _Res(*_day(d), "day")


def _en_day_part(m: re.Match[str], c: _Ctx) -> _Res:
    """this morning / last night / tomorrow evening / yesterday afternoon."""
    w, p = _r(m, "w").lower(), _r(m, "p").lower()
    return _part_res(c.today + timedelta(days={"this": 0, "tomorrow": 1}.get(w, -1)), p, _EN_PARTS)


def _en_weekday(m: re.Match[str], c: _Ctx) -> _Res | None:
    if _g(m, "pl"):
        return None  # "on Mondays" is a habit
    pre = (_g(m, "pre") or "").lower()
    i = _EN_WD[_r(m, "wd").lower()]
    if pre in ("next", "this", "last", "past", "coming"):
        weeks = {"next": 1, "last": -1, "past": -1}.get(pre, 0)
        return _Res(*_day(_monday(c.today) + timedelta(weeks=weeks, days=i)), "day")
    if c.anchor_day is not None:
        return _Res(*_day(c.anchor_day + timedelta(days=(i - c.anchor_day.weekday()) % 7)), "day")
    if c.past(m.start()):
        return _Res(*_day(c.today - timedelta(days=(c.today.weekday() - i) % 7)), "day")
    return _Res(*_day(c.today + timedelta(days=(i - c.today.weekday()) % 7)), "day")


def _en_rel_unit(m: re.Match[str], c: _Ctx) -> _Res:
    pre, unit = _r(m, "pre").lower(), _r(m, "u").lower()
    k = {"next": 1, "coming": 1, "last": -1, "past": -1, "previous": -1}.get(pre, 0)
    if unit == "year":
        return _shift(c, k, "year")
    if unit == "month":
        return _shift(c, k, "month")
    return _shift(c, k, unit)


def _en_the_weekend(m: re.Match[str], c: _Ctx) -> _Res:
    if c.today.weekday() < 5 and c.past(m.start()):
        return _shift(c, -1, "weekend")
    return _shift(c, 0, "weekend")


def _en_offset(m: re.Match[str], c: _Ctx) -> _Res | None:
    n = _en_num(_r(m, "n"))
    direction = (_g(m, "dir") or "later").lower()
    sign = -1 if direction in ("ago", "before", "earlier") else 1
    return _shift(c, sign * n, _r(m, "u").lower())


_MONTH_ABBR = words("jan feb mar apr jun jul aug sep sept oct nov dec")
_MAY_VERB = re.compile(r"\s+(?:i|you|we|he|she|it|they|be|have|not)\b", re.IGNORECASE)


def _month_alone_ok(m: re.Match[str], raw: str) -> bool:
    """A month name with no day, year or modifier: "in May" yes, "I may go" / "Jan" no."""
    low = raw.lower().rstrip(".")
    if low in _MONTH_ABBR or (raw.islower() and low in ("may", "march")):
        return False
    return not (low == "may" and _MAY_VERB.match(m.string, m.end()))


def _en_month(m: re.Match[str], c: _Ctx) -> _Res | None:
    raw, pre = _r(m, "mon"), (_g(m, "pre") or "").lower()
    mo = _EN_MONTHS[raw.lower().rstrip(".")]
    d, y = _opt_int(_g(m, "d")), _opt_int(_g(m, "y"))
    if d is None and y is None and not pre and not _month_alone_ok(m, raw):
        return None
    if y is not None:
        return _ymd(y, mo, d)
    if d is not None:
        day = _nearest(c.today, mo, d)
        return _Res(*_day(day), "day") if day else None
    if pre == "last":
        y = c.today.year if mo < c.today.month else c.today.year - 1
    elif pre == "next":
        y = c.today.year if mo > c.today.month else c.today.year + 1
    elif pre == "this":
        y = c.today.year
    else:
        y = _nearest_year(c.today, mo)
    return _month_part(y, mo, pre if pre in ("early", "mid", "mid-") else ("底" if pre == "late" else None))


def _en_year(m: re.Match[str], c: _Ctx) -> _Res | None:
    return _ymd(int(_r(m, "core")), None, None)


def _en_holiday(m: re.Match[str], c: _Ctx) -> _Res | None:
    pre = (_g(m, "pre") or "").lower() or None
    return _holiday(c, _r(m, "hol").lower().replace("\u2019", "'"), None, pre)


def _en_the_nth(m: re.Match[str], c: _Ctx) -> _Res | None:
    y, mo = c.anchor_month or (c.today.year, c.today.month)
    day = _safe_date(y, mo, int(_r(m, "d")))
    return _Res(*_day(day), "day") if day else None


def _en_clock(m: re.Match[str], c: _Ctx) -> _Tod | None:
    if _g(m, "noon"):
        return _Tod(12, 0, None) if _r(m, "noon").lower() == "noon" else _Tod(0, 0, None)
    h = _en_num(_r(m, "h"))
    mi = int(_r(m, "mi")) if _g(m, "mi") else None
    ap = (_g(m, "ap") or "").lower().replace(".", "")
    if ap and not 1 <= h <= 12:
        return None
    if ap == "pm" and h < 12:
        h += 12
    elif ap == "am" and h == 12:
        h = 0
    return _Tod(h, mi, None, spoken=not ap, explicit=bool(ap))


def _en_part(m: re.Match[str], c: _Ctx) -> _Tod:
    return _Tod(None, None, (_g(m, "p") or _r(m, "p2")).lower())


# ---------------------------------------------------------------- rule table

_ZH_PART_RE = "|".join(sorted((k for k in _ZH_PARTS if len(k) > 1), key=len, reverse=True))
_HOL_ZH = "元旦|情人节|妇女节|劳动节|五一|儿童节|国庆节|国庆|双十一|双11|双十二|平安夜|圣诞节|圣诞|(?<!\\d)618(?![\\d元块号])"
_MP = r"(?P<mp>初|上旬|中旬|下旬|中|底|末)"
_DAY_ZH = rf"(?:(?P<d>{_N})[日号])"
_EN_UNITS = r"(?P<u>minute|hour|day|weekend|week|month|year)s?"
_EN_CLOCK_WORDS = "one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve"

_I = re.IGNORECASE
_RULES: list[tuple[re.Pattern[str], Handler, bool]] = [
    # (pattern, handler, skipped after 每/every)
    (re.compile(r"(?P<w>明后天|大前天|大后天|前天|昨天|昨日|昨儿个|昨儿|今天|今日|今儿个|今儿|明天|明日|明儿个|明儿|后天)"),
     _zh_rel_day, False),
    (re.compile(r"(?P<d>[今明昨])(?P<p>早|晨|晚|夜)(?:上|晨|里)?"), _zh_short_part, False),
    (re.compile(rf"{_REL}?(?:周|星期|礼拜)(?P<wd>一(?![直起样定般共下些点次个切])|[二三四五六日天末1-7])"),
     _zh_week, True),
    (re.compile(rf"{_REL}(?:周|星期|礼拜)(?!一(?![直起样定般共下些点次个切])|[二三四五六日天末1-7])"), _zh_week, True),
    (re.compile(r"(?<![今明去前后\d])(?P<yp>年初|年底|年末)"), _zh_rel_year, False),
    (re.compile(r"(?<![上下这本个\d零〇一二两三四五六七八九十正腊冬])月(?P<mp>初|底|末)"), _zh_rel_month, False),
    (re.compile(rf"(?P<y>(?:19|20)\d{{2}}|[〇零一二三四五六七八九]{{4}})年(?:(?P<m>{_N})月份?(?:{_DAY_ZH}|{_MP})?)?"),
     _zh_abs_year, False),
    (re.compile(rf"(?P<ry>大前年|前年|去年|今年|明年|后年)(?:(?P<m>{_N})月份?(?:{_DAY_ZH}|{_MP})?"
                r"|(?P<yp>年初|年底|年末|初|底|末))?"), _zh_rel_year, False),
    (re.compile(rf"(?<![\d年])(?P<m>{_N})月份?(?:{_DAY_ZH}|{_MP})?"), _zh_month_day, True),
    (re.compile(rf"{_REL}月(?:{_DAY_ZH}|{_MP})?"), _zh_rel_month, True),
    (re.compile(r"(?<![\d号弄路街栋幢室楼元座门第A-Za-z月几])(?P<d>\d{1,2}(?=[号日])|[一二三四五六七八九十]{1,3}(?=号))[号日]"
                r"(?![线楼房室门床院A-Za-z\d])"), _zh_bare_day, True),
    (re.compile(rf"(?P<n>{_N}|半)(?:个(?P<more>多)?(?P<u>月|星期|礼拜|小时|钟头)|(?P<more2>多)?"
                r"(?P<u2>天|日|周|年|星期|礼拜|小时|钟头|分钟))(?P<half>半)?(?P<dir>之前|以前|前|之后|以后|后)"),
     _zh_offset, False),
    (re.compile(rf"(?P<ry>去年|今年|明年)?(?P<hol>{_HOL_ZH})"), _zh_holiday, False),
    (re.compile(rf"(?P<part>{_ZH_PART_RE})(?:(?P<h>\d{{1,2}}|[零一二两三四五六七八九十]{{1,3}})(?:点|點|时)(?!点)"
                r"(?:(?P<half>半)|(?P<q>一刻|三刻)|(?P<mi>\d{1,2}|[零一二三四五六七八九十]{1,3})分?)?(?P<sfx>钟|整)?)?"),
     _zh_tod, False),
    (re.compile(r"(?<![\d.])(?P<part>)(?P<h>\d{1,2}|[零一二两三四五六七八九十]{1,3})(?:点|點)(?!点)"
                r"(?:(?P<half>半)|(?P<q>一刻|三刻)|(?P<mi>\d{1,2}|[零一二三四五六七八九十]{1,3})分?)?(?P<sfx>钟|整)?"),
     _zh_tod, False),
    (re.compile(r"(?<![\d:])(?P<h>\d{1,2})[:：](?P<mi>\d{2})(?![\d:])"), _colon_tod, False),
    (re.compile(r"(?<!\d)(?P<y>(?:19|20)\d{2})[-/.](?P<m>\d{1,2})[-/.](?P<d>\d{1,2})(?!\d)"), _iso_day, False),
    (re.compile(r"(?<![\d/-])(?P<y>(?:19|20)\d{2})-(?P<m>\d{1,2})(?![-/\d])"), _iso_day, False),
    (re.compile(r"(?<![\d/])(?P<m>\d{1,2})/(?P<d>\d{1,2})/(?P<y>(?:19|20)\d{2})(?!\d)"), _iso_day, False),
    # English (see _EN_START)
    (re.compile(r"\bthe\s+day\s+(?P<w>after\s+tomorrow|before\s+yesterday)\b|\b(?P<w2>today|tonight|tomorrow"
                r"|tmrw?|yesterday)\b", _I), _en_rel_day, False),
    (re.compile(r"\b(?P<w>this|last|tomorrow|yesterday)\s+(?P<p>morning|afternoon|evening|night)\b", _I),
     _en_day_part, False),
    (re.compile(r"\b(?:(?P<pre>next|this|last|coming|past)\s+)?(?P<wd>monday|tuesday|wednesday|thursday|friday"
                r"|saturday|sunday)(?P<pl>s)?\b", _I), _en_weekday, True),
    (re.compile(r"\b(?:this\s+(?=past\b))?(?P<pre>next|this|last|past|coming|previous)\s+(?P<u>week|weekend|month|year)\b",
                _I), _en_rel_unit, False),
    (re.compile(r"\bthe\s+weekend\b", _I), _en_the_weekend, False),
    (re.compile(rf"\b{_ENN}\s+{_EN_UNITS}\s+(?P<dir>ago|later|from\s+now|before|earlier)\b", _I), _en_offset, False),
    (re.compile(rf"\bin\s+{_ENN}\s+{_EN_UNITS}\b(?!\s+(?:ago|later|before|earlier|from))", _I), _en_offset, False),
    (re.compile(rf"\b(?:(?P<pre>last|next|this|early|mid-|mid|late)\s*)?{_MON}(?:\s+(?P<d>\d{{1,2}}){_ORD}\b)?"
                r"(?:,?\s+(?P<y>(?:19|20)\d{2})\b)?", _I), _en_month, True),
    (re.compile(rf"\b(?:the\s+)?(?P<d>\d{{1,2}}){_ORD}\s+(?:of\s+)?{_MON}(?:,?\s+(?P<y>(?:19|20)\d{{2}}))?\b(?P<pre>)", _I),
     _en_month, False),
    (re.compile(r"\b(?:in|since|during|by|of|until|from|before|after|around)\s+(?P<core>(?:19|20)\d{2})\b(?![-/.]\d)",
                _I), _en_year, False),
    (re.compile(r"\b(?:(?P<pre>last|next|this)\s+)?(?P<hol>christmas\s+eve|christmas|new\s+year['\u2019]s\s+eve"
                r"|new\s+year['\u2019]s\s+day|valentine['\u2019]s\s+day|halloween|independence\s+day|thanksgiving)\b",
                _I), _en_holiday, False),
    (re.compile(r"\bthe\s+(?P<d>\d{1,2})(?:st|nd|rd|th)\b", _I), _en_the_nth, True),
    (re.compile(r"\b(?P<h>\d{1,2})(?::(?P<mi>\d{2}))?\s*(?P<ap>a\.?m\.?|p\.?m\.?)(?![a-z])", _I), _en_clock, False),
    (re.compile(rf"\b(?P<h>\d{{1,2}}|{_EN_CLOCK_WORDS})\s+o['\u2019]?clock\b", _I), _en_clock, False),
    (re.compile(r"\b(?P<noon>noon|midnight)\b", _I), _en_clock, False),
    (re.compile(r"\b(?:in\s+the\s+)?(?P<p>morning|afternoon|evening)\b|\bat\s+(?P<p2>night)\b", _I),
     _en_part, False),
]



# ---------------------------------------------------------------- engine

_ATTACH_GAP = re.compile(r"^\s*(?:的|,|，|at|on|in\s+the|around|about|大约|左右)?\s*$", re.IGNORECASE)
_RANGE_GAP = re.compile(r"^\s*(?:到|至|~|～|-|—|–|to|until|till|through|thru)\s*$", re.IGNORECASE)
_HABIT_NEAR = re.compile(r"每|天天|一般|通常|平时|经常|总是|习惯|usually|always|every|often|normally|each",
                         re.IGNORECASE)

_Item = tuple[int, int, "_Res | _Tod"]


_EN_START = next(i for i, (p, _, _) in enumerate(_RULES) if p.pattern.startswith(r"\bthe\s+day"))
_ZH_ONLY = frozenset(i for i, (_, h, _) in enumerate(_RULES[:_EN_START]) if h not in (_colon_tod, _iso_day))
_HAS_HAN = re.compile(r"[\u4e00-\u9fff]")
_HAS_LATIN = re.compile(r"[A-Za-z]")


def _scan(text: str) -> list[tuple[int, int, re.Match[str], Handler, bool]]:
    """Leftmost-longest non-overlapping matches over every rule (earlier rules win ties)."""
    found: list[tuple[int, int, int, re.Match[str], Handler, bool]] = []
    han, latin = bool(_HAS_HAN.search(text)), bool(_HAS_LATIN.search(text))
    for prio, (pattern, handler, habit) in enumerate(_RULES):
        if (prio in _ZH_ONLY and not han) or (prio >= _EN_START and not latin):
            continue
        for m in pattern.finditer(text):
            s, e = (m.start("core"), m.end("core")) if "core" in pattern.groupindex else m.span()
            if e > s:
                found.append((s, e, prio, m, handler, habit))
    found.sort(key=lambda f: (f[0], f[0] - f[1], f[2]))
    out: list[tuple[int, int, re.Match[str], Handler, bool]] = []
    last_end = -1
    for s, e, _, m, handler, habit in found:
        if s >= last_end:
            out.append((s, e, m, handler, habit))
            last_end = e
    return out


def _apply_tod(res: _Res, tod: _Tod) -> _Res | None:
    """A date (or daypart) refined by a time of day: 明天 + 下午3点 → 15:00-16:00."""
    day = res.start.replace(hour=0, minute=0)
    part = tod.part or res.part
    if tod.hour is None:
        table = _ZH_PARTS if part in _ZH_PARTS else _EN_PARTS
        return _part_res(day.date(), part, table) if part in table else None
    hm = _clock(tod.hour, tod.minute or 0, part, bare_pm=tod.spoken)
    if hm is None:
        return None
    start = day + timedelta(hours=hm[0], minutes=hm[1])
    return _Res(start, start + timedelta(hours=1), "minute" if tod.minute else "hour", part)


def _standalone_tod(text: str, s: int, tod: _Tod, c: _Ctx,
                    out: list[tuple[int, int, _Res]]) -> _Res | None:
    """A clock time with no date of its own: the last day named before it, else today.

    Habits (每天7点起, I get up at 7am every day) are not times.
    """
    if tod.hour is None or tod.weak:
        return None
    sentence_start = max(text.rfind(ch, 0, s) for ch in "。！？!?\n") + 1
    if _HABIT_NEAR.search(text[sentence_start:s + 24]):
        return None
    dated = next((r.start.date() for _, _, r in reversed(out) if r.gran in ("day", "daypart", "hour", "minute")),
                 None)
    if dated is None and not tod.explicit:
        return None  # "改成6点半起床": a bare clock with no day anywhere is not an event
    return _apply_tod(_Res(*_day(dated or c.today), "day"), tod)


def _attach(text: str, items: list[_Item], c: _Ctx) -> list[tuple[int, int, _Res]]:
    """Merge times of day into the adjacent date; resolve or drop lone ones."""
    out: list[tuple[int, int, _Res]] = []
    pending: tuple[int, int, _Tod] | None = None
    for s, e, val in items:
        if isinstance(val, _Tod):
            prev = out[-1] if out else None
            if prev and prev[2].gran in ("day", "daypart") and _ATTACH_GAP.match(text[prev[1]:s]):
                merged = _apply_tod(prev[2], val)
                if merged is not None:
                    out[-1] = (prev[0], e, merged)
                    continue
            if prev and prev[2].gran in ("hour", "minute", "daypart") and _RANGE_GAP.match(text[prev[1]:s]):
                merged = _apply_tod(prev[2], val)
                if merged is not None:
                    out.append((s, e, merged))
                    continue
            if pending is not None:
                lone = _standalone_tod(text, pending[0], pending[2], c, out)
                if lone is not None:
                    out.append((pending[0], pending[1], lone))
            pending = (s, e, val)
            continue
        if pending is not None:
            ps, pe, tod = pending
            merged = _apply_tod(val, tod) if val.gran == "day" and _ATTACH_GAP.match(text[pe:s]) else None
            if merged is not None:
                out.append((ps, e, merged))
                pending = None
                continue
            lone = _standalone_tod(text, ps, tod, c, out)
            if lone is not None:
                out.append((ps, pe, lone))
            pending = None
        out.append((s, e, val))
    if pending is not None:
        lone = _standalone_tod(text, pending[0], pending[2], c, out)
        if lone is not None:
            out.append((pending[0], pending[1], lone))
    return out


def _merge_ranges(text: str, spans: list[tuple[int, int, _Res]]) -> list[tuple[int, int, _Res]]:
    """``X到Y`` / "X to Y" → one span from X's start to Y's end."""
    out: list[tuple[int, int, _Res]] = []
    for s, e, res in spans:
        if out:
            ps, pe, prev = out[-1]
            if _RANGE_GAP.match(text[pe:s]) and res.start >= prev.start:
                clock = res.gran in ("hour", "minute") and res.start > prev.start
                end = res.start if clock else max(prev.end, res.end)  # 9:00-12:00 ends at 12:00
                out[-1] = (ps, e, _Res(prev.start, end, prev.gran, prev.part))
                continue
        out.append((s, e, res))
    return out


def find_time_expressions(text: str, ref: datetime, *, tz: tzinfo | None = None) -> list[TimeSpan]:
    """Every time expression in ``text``, resolved against ``ref``, in order of appearance.

    ``ref`` is the message's timestamp (or "now" for a query); ``tz`` the zone whose
    calendar "today" refers to (default ``ref``'s zone, UTC for naive values).
    Returned datetimes are aware UTC; ``end`` is exclusive.
    """
    if not text:
        return []
    ref = ensure_utc(ref) if ref.tzinfo is None else ref
    zone = tz or ref.tzinfo or timezone.utc
    local = ref.astimezone(zone)
    ctx = _Ctx(text=text, now=local.replace(tzinfo=None), today=local.date())
    items: list[_Item] = []
    for s, e, m, handler, habit in _scan(text):
        if habit and _HABIT_BEFORE.search(text[max(0, s - 6):s]):
            continue
        try:
            val = handler(m, ctx)
        except (ValueError, KeyError, OverflowError):
            val = None
        if val is None:
            continue
        if isinstance(val, _Res):
            ctx.remember(val)
        items.append((s, e, val))
    spans = _merge_ranges(text, _attach(text, items, ctx))
    return [_to_span(text, s, e, res, zone) for s, e, res in spans]


def resolve_time(text: str, ref: datetime, *, tz: tzinfo | None = None) -> TimeSpan | None:
    """The first time expression in ``text`` (see :func:`find_time_expressions`), or None."""
    spans = find_time_expressions(text, ref, tz=tz)
    return spans[0] if spans else None


def _to_span(text: str, s: int, e: int, res: _Res, zone: tzinfo) -> TimeSpan:
    def utc(dt: datetime) -> datetime:
        return dt.replace(tzinfo=zone).astimezone(timezone.utc)

    return TimeSpan(utc(res.start), utc(res.end), res.gran, text[s:e], s)
