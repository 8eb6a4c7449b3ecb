"""The engine: scan every rule, attach times of day to their dates, merge ranges.

Rules are tried in priority order (Chinese, numeric, English, other languages' day words); matches are kept
leftmost-longest, earlier rules winning ties. A time of day (下午3点, "at 3pm") joins
the date next to it; a lone one takes the last day named, else today, unless it reads
as a habit (每天7点起). ``X到Y`` / "X to Y" becomes one span.
"""

from __future__ import annotations

import dataclasses
import re
from datetime import datetime, timedelta, timezone, tzinfo

from jiyi.clock import ensure_utc
from jiyi.text.script import simplified
from jiyi.write.timeparse.en import EN_RULES, EN_WEEKDAYS
from jiyi.write.timeparse.lunar import FESTIVALS
from jiyi.write.timeparse.numbers import NUMERIC_RULES
from jiyi.write.timeparse.other import OTHER_RULES
from jiyi.write.timeparse.spans import (
    EN_PARTS,
    HOLIDAYS,
    ZH_PARTS,
    Ctx,
    Handler,
    Res,
    TimeSpan,
    Tod,
    clock_24h,
    day_span,
    daypart_res,
)
from jiyi.write.timeparse.zh import ZH_RULES, ZH_WEEKDAYS

_HABIT_BEFORE = re.compile(r"(?:每个?|每逢|(?<![相重])逢|every\s+|each\s+|[\d一二两三四五六七八九十几]个)$", re.IGNORECASE)

_ATTACH_GAP = re.compile(r"^\s*(?:的|,|，|at|on|in\s+the|around|about|大约|左右)?\s*$", re.IGNORECASE)
_RANGE_GAP = re.compile(r"^\s*(?:到|至|~|～|-|—|–|to|until|till|through|thru)\s*$", re.IGNORECASE)
_HABIT_NEAR = re.compile(r"每|天天|一般|通常|平时|经常|总是|习惯|usually|always|every|often|normally|each",
                         re.IGNORECASE)

_Item = tuple[int, int, "Res | Tod"]

#: every rule in priority order, with the script its text must contain ("" = any)
_RULES: list[tuple[re.Pattern[str], Handler, bool, str]] = [(*rule, "han") for rule in ZH_RULES] + [(*rule, "") for rule in NUMERIC_RULES] + [
    (*rule, "latin") for rule in EN_RULES] + [(*rule, "") for rule in OTHER_RULES]
_HAS_HAN = re.compile(r"[\u4e00-\u9fff]")
_HAS_LATIN = re.compile(r"[A-Za-z]")


def _scan(text: str) -> list[tuple[int, int, re.Match[str], Handler, bool]]:
    """Leftmost-longest non-overlapping matches over every rule (earlier rules win ties)."""
    found: list[tuple[int, int, int, re.Match[str], Handler, bool]] = []
    han, latin = bool(_HAS_HAN.search(text)), bool(_HAS_LATIN.search(text))
    for prio, (pattern, handler, habit, script) in enumerate(_RULES):
        if (script == "han" and not han) or (script == "latin" and not latin):
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


def _apply_tod(res: Res, tod: Tod) -> Res | None:
    """A date (or daypart) refined by a time of day: 明天 + 下午3点 → 15:00-16:00."""
    day = res.start.replace(hour=0, minute=0)
    part = tod.part or res.part
    if tod.hour is None:
        table = ZH_PARTS if part in ZH_PARTS else EN_PARTS
        return daypart_res(day.date(), part, table) if part in table else None
    hm = clock_24h(tod.hour, tod.minute or 0, part, bare_pm=tod.spoken)
    if hm is None:
        return None
    start = day + timedelta(hours=hm[0], minutes=hm[1])
    return Res(start, start + timedelta(hours=1), "minute" if tod.minute else "hour", part)


def _standalone_tod(text: str, s: int, tod: Tod, c: Ctx,
                    out: list[tuple[int, int, Res]]) -> Res | None:
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
    return _apply_tod(Res(*day_span(dated or c.today), "day"), tod)


def _attach(text: str, items: list[_Item], c: Ctx) -> list[tuple[int, int, Res]]:
    """Merge times of day into the adjacent date; resolve or drop lone ones."""
    out: list[tuple[int, int, Res]] = []
    pending: tuple[int, int, Tod] | None = None
    for s, e, val in items:
        if isinstance(val, Tod):
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


def _merge_ranges(text: str, spans: list[tuple[int, int, Res]]) -> list[tuple[int, int, Res]]:
    """``X到Y`` / "X to Y" → one span from X's start to Y's end."""
    out: list[tuple[int, int, Res]] = []
    for s, e, res in spans:
        if out:
            ps, pe, prev = out[-1]
            if _RANGE_GAP.match(text[pe:s]) and res.start >= prev.start:
                clock = res.gran in ("hour", "minute") and res.start > prev.start
                end = res.start if clock else max(prev.end, res.end)  # 9:00-12:00 ends at 12:00
                out[-1] = (ps, e, Res(prev.start, end, prev.gran, prev.part))
                continue
        out.append((s, e, res))
    return out


_WEEK_DAY_GAP = re.compile(r"^\s*(?:on|of|,|，|的|the)?\s*(?:on\s+)?$", re.IGNORECASE)
_WEEKDAY_WORD = re.compile(r"(?i)^(?:on\s+)?(?:(?:周|星期|礼拜)[一二三四五六日天]|(?:mon|tues|wednes|thurs|fri|satur|sun)day)$")


def _merge_week_day(text: str, spans: list[tuple[int, int, Res]]) -> list[tuple[int, int, Res]]:
    """"next week on Friday" / "Friday of next week" / 下周的周五 → that Friday of that week.

    A bare weekday alone resolves to the nearest one; next to a week it names that week's.
    """
    out: list[tuple[int, int, Res]] = []
    for s, e, res in spans:
        if out:
            ps, pe, prev = out[-1]
            pair = (prev, res) if prev.gran == "week" else (res, prev)
            week, day = pair
            day_text = text[s:e] if day is res else text[ps:pe]
            if (week.gran == "week" and day.gran == "day" and _WEEK_DAY_GAP.match(text[pe:s])
                    and _WEEKDAY_WORD.match(day_text.strip())):
                start = week.start + timedelta(days=(day.start.weekday() - week.start.weekday()) % 7)
                out[-1] = (ps, e, Res(start, start + timedelta(days=1), "day", day.part))
                continue
        out.append((s, e, res))
    return out


#: a day named by its distance from today (今天, 明晚, tomorrow): a weekday right after it names the same day
_RELATIVE_DAY = re.compile(r"(?i)^(?:大?[前昨今明后]|[今明昨后]个|外后[天日])(?:天|日|儿|早|晚|晚上|早上|上午|下午|中午)?$|"
                           r"^(?:today|tomorrow|yesterday|tonight)$")
_APPOSITION_GAP = re.compile(r"^\s*[,，(（]?\s*(?:is|是|就是|也就是|即)?\s*$", re.IGNORECASE)


def _merge_day_apposition(text: str, spans: list[tuple[int, int, Res]]) -> list[tuple[int, int, Res]]:
    """今天周日 / 明天（周六） / "tomorrow, Saturday": one day told twice is one expression, the relative day's; "Friday
    18th Dec" / 周五12月18号 one too, the date's."""
    out: list[tuple[int, int, Res]] = []
    for s, e, res in spans:
        if out:
            ps, pe, prev = out[-1]
            if (prev.gran == "day" and res.gran == "day" and _RELATIVE_DAY.match(text[ps:pe].strip())
                    and _APPOSITION_GAP.match(text[pe:s]) and _WEEKDAY_WORD.match(text[s:e].strip())):
                close = ")" if text[pe:s].strip() in ("(", "（") and text[e:e + 1] in ")）" else ""
                out[-1] = (ps, e + len(close), prev)
                continue
            if (prev.gran == "day" and res.gran == "day" and _WEEKDAY_WORD.match(text[ps:pe].strip())
                    and _APPOSITION_GAP.match(text[pe:s]) and re.search(r"\d", text[s:e])):
                out[-1] = (ps, e, res)  # "Friday 18th Dec", 周五12月18号: the date says which Friday
                continue
        out.append((s, e, res))
    return out


#: a weekday something recurs on: "tuesdays", "every thursday", 每周二, 每个星期四
_RECURRING_DAY = re.compile(r"(?i)\b(?P<en>mon|tues|wednes|thurs|fri|satur|sun)days\b|\bevery\s+(?P<every>mon|tues|wednes|thurs|"
                            r"fri|satur|sun)day\b|每个?(?:周|星期|礼拜)(?P<zh>[一二三四五六日天])")
#: …and the week is when it begins ("first one is next week", 下周开始): not a trip beside a habit
_FIRST_ONE = re.compile(r"(?i)\bfirst\b|\bstart(?:s|ing)?\b|\bbegins?\b|开始|第一(?:次|节|课)|首次|开课")


def _first_of_recurring(text: str, spans: list[tuple[int, int, Res]], ctx: Ctx) -> list[tuple[int, int, Res]]:
    """A class on tuesdays whose "first one is next week" (每周二上课 下周开始) starts on that week's Tuesday:
    a week ahead, beside one weekday something recurs on, is narrowed to that day. What is said right after
    the recurring day (its hour, "tuesdays 7pm"; its second day, 每个礼拜二礼拜四) is the habit's, never a date."""
    recurring = list(_RECURRING_DAY.finditer(text))
    # "tuesdays 7pm", 每个礼拜二礼拜四: the habit's hour or second day, not a date
    spans = [(s, e, res) for s, e, res in spans
             if not any(m.end() <= s <= m.end() + 2 and not text[m.end():s].strip(" ,，") for m in recurring)]
    days = {m.group("en") or m.group("every") or m.group("zh") for m in recurring}
    if len(days) != 1 or not _FIRST_ONE.search(text):
        return spans
    day = days.pop().lower()
    weekday = ZH_WEEKDAYS[day] if day in ZH_WEEKDAYS else EN_WEEKDAYS[day + "day"]
    out = []
    for s, e, res in spans:
        if res.gran == "week" and res.start.date() > ctx.today:
            start = res.start + timedelta(days=(weekday - res.start.weekday()) % 7)
            res = Res(start, start + timedelta(days=1), "day", res.part)
        out.append((s, e, res))
    return out


#: a day said not to be the one ("下个礼拜三，不是这个礼拜三", "Friday, not Thursday")
_DENIED_BEFORE = re.compile(r"(?:不是|并非|而非|而不是|(?i:\bnot|\bisn'?t|\brather\s+than|\binstead\s+of))\s*$")
#: … or taken back right after it for another ("下周3 不对 下周四", "Saturday — no wait, Friday")
_TAKEN_BACK = re.compile(r"(?:不对|说错了|记错了|搞错了|口误|(?i:no\s+wait|wait\s+no|no,?\s+sorry|sorry|oops|"
                         r"i\s+mean|actually|\bno\b))[\s,，.。!！?？—–:：-]*(?:是|应该是|改成|(?i:it'?s|make\s+it))?[\s,，:：]*$")
_DAY_GRANS = ("day", "daypart", "hour", "minute", "weekend")


#: a holiday's name before what is held for it ("Christmas do", 圣诞聚餐, 中秋晚会): the event's name, when a day is named
_HOLIDAY_EVENT = re.compile(r"(?i)\s*(?:'s\s+)?(?:do|party|parties|dinner|lunch|drinks|markets?|fair|concert|show|bash|"
                            r"event|meal|meetup|social|gala)\b|\s*(?:聚餐|晚会|聚会|派对|活动|年会|联欢|饭局|团建)")


def _names_an_event(text: str, s: int, e: int) -> bool:
    """Is ``text[s:e]`` a holiday's name before what is held for it ("Christmas do", 中秋晚会)?"""
    said = text[s:e].strip()
    return (said.lower() in HOLIDAYS or said in FESTIVALS) and _HOLIDAY_EVENT.match(text, e) is not None


def _unmeant(text: str, spans: list[tuple[int, int, Res]]) -> list[tuple[int, int]]:
    """Where ``spans`` name a day said only to be denied or taken back, another day named beside it, or a holiday
    that names an event held on another day named ("Christmas do: Friday 18th Dec")."""
    days = [sp for sp in spans if sp[2].gran in _DAY_GRANS]
    if len(days) < 2:
        return []
    drop: set[int] = set()
    for k, (s, e, res) in enumerate(days):
        if _DENIED_BEFORE.search(text, max(0, s - 12), s) or _names_an_event(text, s, e):
            drop.add(s)
        elif k + 1 < len(days) and days[k + 1][0] - e <= 16 and _TAKEN_BACK.search(text, e, days[k + 1][0]) \
                and not _DENIED_BEFORE.search(text, e, days[k + 1][0]):
            drop.add(s)  # (the correction the last words before the next day: "下周3去义乌 不对 下周四")
    return [] if len(drop) >= len(days) else [(s, e) for s, e, _ in spans if s in drop]


def find_time_expressions(text: str, ref: datetime, *, tz: tzinfo | None = None) -> list[TimeSpan]:
    """Every time expression in ``text``, resolved against ``ref``, in order of appearance.

    ``ref`` is the message's timestamp (or "now" for a query); ``tz`` the zone whose
    calendar "today" refers to (default ``ref``'s zone, UTC for naive values).
    Returned datetimes are aware UTC; ``end`` is exclusive. Traditional characters are read as simplified
    (下個月 is 下个月: text/script.py); each span's ``text`` is as typed.
    """
    if not text:
        return []
    read = simplified(text)
    if read != text:
        return [dataclasses.replace(s, text=text[s.offset:s.end_offset]) for s in find_time_expressions(read, ref, tz=tz)]
    ref = ensure_utc(ref) if ref.tzinfo is None else ref
    zone = tz or ref.tzinfo or timezone.utc
    local = ref.astimezone(zone)
    spans = _resolved(text, local)
    if unmeant := _unmeant(text, spans):  # read again without them: they anchor no weekday after them
        blank = list(text)
        for s, e in unmeant:
            blank[s:e] = " " * (e - s)
        spans = _resolved("".join(blank), local)
    ctx = Ctx(text=text, now=local.replace(tzinfo=None), today=local.date())
    return [_to_span(text, s, e, _night_before(text, s, e, res, ctx), zone) for s, e, res in spans]


def _resolved(text: str, local: datetime) -> list[tuple[int, int, Res]]:
    """Every time expression of ``text`` resolved at ``local`` (naive spans, local to its zone)."""
    ctx = Ctx(text=text, now=local.replace(tzinfo=None), today=local.date())
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
        if isinstance(val, Res):
            ctx.remember(val)
        items.append((s, e, val))
    spans = _merge_day_apposition(text, _merge_week_day(text, _attach(text, items, ctx)))
    return _first_of_recurring(text, _merge_ranges(text, spans), ctx)


#: the small hours: an evening told then as over is the one that just ended
_SMALL_HOURS = 5
#: a Chinese clause that tells what happened (走的, 睡了, 刚…, 已经…)
_ZH_DONE = re.compile(r"的(?:[，,。.！!？?\s]|$)|了|过|刚|已经")
#: a word naming the day outright: the evening is that day's, whatever the hour said
_NAMED_DAY = re.compile(r"(?i)明|昨|前天|后天|tomorrow|yesterday|\d+\s*(?:号|日|月|/)")


def _night_before(text: str, s: int, e: int, res: Res, ctx: Ctx) -> Res:
    """An evening said in the small hours as over ("晚上十点多走的" at 00:25, "went to bed at 11 tonight") is
    the evening that just ended, the day before the calendar's today; a plan ("晚上十点去接你") stays ahead."""
    if not (ctx.now.hour < _SMALL_HOURS and res.start.date() == ctx.today and res.start.hour >= 18
            and res.gran in ("daypart", "hour", "minute") and not _NAMED_DAY.search(text[s:e])):
        return res
    lo, hi = ctx.clause(s, e, "，,。.!！?？;；\n")
    clause = text[lo:hi]
    done = _ZH_DONE.search(clause[e - lo:]) if re.search(r"[\u4e00-\u9fff]", clause) else ctx.past_clause(s)
    if not done:
        return res
    return Res(res.start - timedelta(days=1), res.end - timedelta(days=1), res.gran, res.part)


def resolve_time(text: str, ref: datetime, *, tz: tzinfo | None = None) -> TimeSpan | None:
    """The first time expression in ``text`` (see :func:`find_time_expressions`), or None."""
    spans = find_time_expressions(text, ref, tz=tz)
    return spans[0] if spans else None


def _to_span(text: str, s: int, e: int, res: Res, zone: tzinfo) -> TimeSpan:
    def utc(dt: datetime) -> datetime:
        return dt.replace(tzinfo=zone).astimezone(timezone.utc)

    return TimeSpan(utc(res.start), utc(res.end), res.gran, text[s:e], s)
