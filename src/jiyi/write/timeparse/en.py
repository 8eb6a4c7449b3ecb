"""English time expressions: tomorrow, next Wednesday, last month, May 8, 3 weeks ago, 3pm.

A bare weekday ("on Friday") looks forward unless its sentence is in the past tense
(:meth:`~jiyi.write.timeparse.spans.Ctx.past`).
"""

from __future__ import annotations

import calendar
import re
from datetime import timedelta

from jiyi.text.wordlists import words
from jiyi.write.timeparse.numbers import en_num, opt_int
from jiyi.write.timeparse.spans import (
    EN_PARTS,
    RECENT_DAYS,
    Ctx,
    Res,
    Rule,
    Tod,
    day_span,
    daypart_res,
    group,
    holiday,
    maybe_group,
    monday_of,
    month_add,
    month_part,
    nearest_date,
    nearest_year,
    nth_weekday,
    safe_date,
    shift,
    ymd,
)

_EN_MONTHS = {m.lower(): i for i, m in enumerate(calendar.month_name) if m}
_EN_MONTHS.update({m.lower(): i for i, m in enumerate(calendar.month_abbr) if m})
_EN_MONTHS["sept"] = 9
EN_WEEKDAYS = {d.lower(): i for i, d in enumerate(calendar.day_name)}
#: short names of the weekdays, read only after a word that makes them days ("next tues", "on sat")
_EN_WD_SHORT = {"mon": 0, "tue": 1, "tues": 1, "wed": 2, "weds": 2, "thu": 3, "thur": 3, "thurs": 3, "fri": 4,
                "sat": 5, "sun": 6}

_MON = r"(?P<mon>january|february|march|april|may|june|july|august|september|october|november|december" \
       r"|jan|feb|mar|apr|jun|jul|aug|sept|sep|oct|nov|dec)(?![a-z])\.?"
_ENN = r"(?P<n>\d+|a couple of|couple of|a few|an?|one|two|three|four|five|six|seven|eight|nine|ten" \
       r"|eleven|twelve|fifteen|twenty|thirty)"
_ORD = r"(?:st|nd|rd|th)?"
_EN_REL_DAYS = {"today": 0, "tonight": 0, "tomorrow": 1, "tmr": 1, "tmrw": 1, "yesterday": -1,
                "after tomorrow": 2, "before yesterday": -2}


#: chat's and dialects' words for these days: Scots "the morra" / "the morn" (tomorrow), "the day" (today) is left out
#: (it is English's "the day" too); British "tomoz", "2moro"
_SLANG_DAYS = {"tonite": "tonight", "2nite": "tonight", "the morra": "tomorrow", "the morn": "tomorrow",
               "tomoz": "tomorrow", "2moro": "tomorrow", "2morrow": "tomorrow", "yday": "yesterday"}


def _en_rel_day(m: re.Match[str], c: Ctx) -> Res:
    w = " ".join((maybe_group(m, "w") or group(m, "w2")).lower().split())
    w = re.sub(r"\btmrw?$", "tomorrow", w)  # the day after tmr
    w = _SLANG_DAYS.get(w, w)
    d = c.today + timedelta(days=_EN_REL_DAYS[w])
    return daypart_res(d, "tonight", EN_PARTS) if w == "tonight" else Res(*day_span(d), "day")


#: other words for a part of the day (Australian "arvo")
_EN_PART_WORDS = {"arvo": "afternoon"}


def _en_day_part(m: re.Match[str], c: Ctx) -> Res:
    """this morning / last night / tomorrow evening / yesterday afternoon."""
    w, p = group(m, "w").lower(), group(m, "p").lower()
    p = _EN_PART_WORDS.get(p, p)
    return daypart_res(c.today + timedelta(days={"this": 0, "tomorrow": 1}.get(w, -1)), p, EN_PARTS)


#: a day named as where something was put: "moved my appt to this friday", "pushed it till this sat"
_TARGET_BEFORE = re.compile(r"(?i)\b(?:to|till|until|for)\s+$")


def _en_weekday(m: re.Match[str], c: Ctx) -> Res | None:
    if maybe_group(m, "pl"):
        return None  # "on Mondays" is a habit
    pre = (maybe_group(m, "pre") or "").lower()
    wd = group(m, "wd").lower()
    i = EN_WEEKDAYS[wd] if wd in EN_WEEKDAYS else _EN_WD_SHORT[wd]
    if pre in ("this", "coming") and (not c.past_clause(m.start()) or _TARGET_BEFORE.search(c.text, 0, m.start())):
        # "this friday" said on a Sunday is the coming one: English weeks begin on Sunday, and a
        # plan is never for a day already gone
        return Res(*day_span(c.today + timedelta(days=(i - c.today.weekday()) % 7)), "day")
    if pre in ("next", "this", "last", "past", "coming"):
        weeks = {"next": 1, "last": -1, "past": -1}.get(pre, 0)
        return Res(*day_span(monday_of(c.today) + timedelta(weeks=weeks, days=i)), "day")
    if c.anchor_day is not None:
        return Res(*day_span(c.anchor_day + timedelta(days=(i - c.anchor_day.weekday()) % 7)), "day")
    if c.past(m.start()) and not _AHEAD_IN_CLAUSE.search(c.text[slice(*c.clause(m.start(), m.end(), ".!?\n,;"))]):
        return Res(*day_span(c.today - timedelta(days=(c.today.weekday() - i) % 7)), "day")
    return Res(*day_span(c.today + timedelta(days=(i - c.today.weekday()) % 7)), "day")


def _en_weekday_week(m: re.Match[str], c: Ctx) -> Res:
    """"Friday week" / "a week on Friday" said on Monday the 16th: Friday the 27th, a week after the coming one."""
    i = EN_WEEKDAYS[(maybe_group(m, "wd") or group(m, "wd2")).lower()]
    return Res(*day_span(c.today + timedelta(days=(i - c.today.weekday()) % 7 + 7)), "day")


#: a clause of its own that looks ahead, whatever the sentence before it did ("signed w tidewell, start monday")
_AHEAD_IN_CLAUSE = re.compile(r"(?i)\b(?:start(?:s|ing)?|begin(?:s|ning)?|from|till|until|due|gonna|will|'ll|"
                              r"kicks?\s+off|onboarding)\b")


_EN_ORDINALS = {"first": 1, "1st": 1, "second": 2, "2nd": 2, "third": 3, "3rd": 3, "fourth": 4, "4th": 4,
                "fifth": 5, "5th": 5, "last": -1}


def _en_nth_weekday(m: re.Match[str], c: Ctx) -> Res | None:
    """"the 2nd saturday of this month", "the last friday of november", "first monday of next month"."""
    n, i = _EN_ORDINALS[group(m, "o").lower()], EN_WEEKDAYS[group(m, "wd").lower()]
    if mon := maybe_group(m, "mon"):
        mo = _EN_MONTHS[mon.lower().rstrip(".")]
        y = nearest_year(c.today, mo)
    else:
        y, mo = month_add(c.today.year, c.today.month, {"next": 1, "last": -1}.get((maybe_group(m, "pre") or "").lower(),
                                                                                    0))
    day = nth_weekday(y, mo, i, n)
    return Res(*day_span(day), "day") if day else None


def _en_rel_unit(m: re.Match[str], c: Ctx) -> Res:
    pre, unit = group(m, "pre").lower(), group(m, "u").lower()
    k = {"next": 1, "coming": 1, "last": -1, "past": -1, "previous": -1}.get(pre, 0)
    if unit == "year":
        return shift(c, k, "year")
    if unit == "month":
        return shift(c, k, "month")
    return shift(c, k, unit)


def _en_month_end(m: re.Match[str], c: Ctx) -> Res:
    pre = (maybe_group(m, "pre") or "").strip().lower()
    y, mo = month_add(c.today.year, c.today.month, {"next": 1, "last": -1}.get(pre, 0))
    return month_part(y, mo, "初" if group(m, "part").lower() != "end" else "底")


_AFTER_NEXT = re.compile(r"\s+after\s+next\b", re.IGNORECASE)


def _en_the_weekend(m: re.Match[str], c: Ctx) -> Res:
    if _AFTER_NEXT.match(m.string, m.end()):  # "the weekend after next"
        return shift(c, 2, "weekend")
    if c.today.weekday() < 5 and c.past(m.start()):
        return shift(c, -1, "weekend")
    return shift(c, 0, "weekend")


#: "in N years" after these in its clause looks back over a stretch ("my first salmon in 4 years", "haven't seen
#: him in ages", "best pizza in 10 years"): no day ahead
_LOOKS_BACK = re.compile(r"(?i)\b(?:first|best|worst|longest|only|once|never|ever|haven'?t|hasn'?t|hadn'?t|"
                         r"didn'?t|not|no|\w{3,}est)\b[^.!?;,\n]*$")
#: …unless what follows says it is ahead ("my first day is in 2 weeks")
_AHEAD = re.compile(r"(?i)\b(?:is|are|was|'s|will|starts?|begins?|comes?|due|happens?|opens?|gonna|going)\b|'ll\b")


def _en_offset(m: re.Match[str], c: Ctx) -> Res | None:
    n = en_num(group(m, "n"))
    back = _LOOKS_BACK.search(c.text[:m.start()]) if maybe_group(m, "dir") is None else None
    if back is not None and not _AHEAD.search(back.group(0)):
        return None
    direction = (maybe_group(m, "dir") or "later").lower()
    sign = -1 if direction in ("ago", "before", "earlier") else 1
    unit = group(m, "u").lower()
    base = {"from tomorrow": 1, "from yesterday": -1}.get(" ".join(direction.split()), 0)
    days = {"day": 1, "week": 7, "fortnight": 14}.get(unit)
    if days and (base or direction.startswith("from")):  # "a week from today / tomorrow": that day, to the day
        return shift(c, sign * days * n + base, "day")
    if unit == "fortnight":  # "a fortnight later"
        return shift(c, sign * 14 * n, "day")
    return shift(c, sign * n, unit)


_MONTH_ABBR = words("jan feb mar apr jun jul aug sep sept oct nov dec")
_MAY_VERB = re.compile(r"\s+(?:i|you|we|he|she|it|they|be|have|not)\b", re.IGNORECASE)


#: what puts a name, not a month, after it: "I'm June", "call me April", "hi May"
_NAME_BEFORE = re.compile(r"(?:\bi['\u2019]?m|\bi\s+am|\bcall\s+me|\bname\s+is|\bname['\u2019]s|\bthis\s+is|\bnamed"
                          r"|\bcalled|\bmeet|\bhi|\bhello|\bhey|\bdear|\bthanks|\bthank\s+you|\bwith|\bmy\s+"
                          r"(?:friend|sister|daughter|wife|mom|aunt|cousin|niece|girlfriend|colleague|coworker))[,\s]*$",
                          re.IGNORECASE)
#: what puts a name before it: "June said", "April thinks", "May's car"
_NAME_AFTER = re.compile(r"(?:['\u2019]s\b|\s+(?:said|says|told|asked|thinks|thought|wants|likes|loves|and\s+i\b))",
                         re.IGNORECASE)


def _month_alone_ok(m: re.Match[str], raw: str) -> bool:
    """A month name with no day, year or modifier: "in May" yes, "I may go" / "Jan" / "I'm June" no.

    April, May, June and August are given names too: after "I'm" / "call me" / "hi" or
    before "said" / "'s" a bare one is a person, not a month.
    """
    low = raw.lower().rstrip(".")
    if low in _MONTH_ABBR or (raw.islower() and low in ("may", "march")):
        return False
    if _NAME_BEFORE.search(m.string, 0, m.start()) or _NAME_AFTER.match(m.string, m.end()):
        return False
    return not (low == "may" and _MAY_VERB.match(m.string, m.end()))


def _en_month(m: re.Match[str], c: Ctx) -> Res | None:
    raw, pre = group(m, "mon"), (maybe_group(m, "pre") or "").lower()
    mo = _EN_MONTHS[raw.lower().rstrip(".")]
    d, y = opt_int(maybe_group(m, "d")), opt_int(maybe_group(m, "y"))
    if d is None and y is None and not pre and not _month_alone_ok(m, raw):
        return None
    if y is not None:
        return ymd(y, mo, d)
    if d is not None:
        day = nearest_date(c.today, mo, d)
        return Res(*day_span(day), "day") if day else None
    if pre == "last":
        y = c.today.year if mo < c.today.month else c.today.year - 1
    elif pre == "next":
        y = c.today.year if mo > c.today.month else c.today.year + 1
    elif pre == "this":
        y = c.today.year
    else:
        y = nearest_year(c.today, mo)
        if (y, mo) > (c.today.year, c.today.month) and c.past_clause(m.start()):
            y -= 1  # "left in august", said in June: the August gone by
    return month_part(y, mo, pre if pre in ("early", "mid", "mid-") else ("底" if pre == "late" else None))


def _en_year(m: re.Match[str], c: Ctx) -> Res | None:
    return ymd(int(group(m, "core")), None, None)


#: a deadline before a holiday: "by christmas", "until thanksgiving" name the one ahead, not the nearest
_BY = re.compile(r"\b(?:by|until|till|til|before)\s+$", re.IGNORECASE)


def _en_holiday(m: re.Match[str], c: Ctx) -> Res | None:
    pre = (maybe_group(m, "pre") or "").lower() or None
    if pre is None and _BY.search(m.string, max(0, m.start() - 10), m.start()):
        pre = "coming"
    name = re.sub(r"\s+", " ", group(m, "hol").lower().replace("\u2019", "'"))
    return holiday(c, re.sub(r"^(mother|father)s? day$", r"\1's day", name), None, pre)


#: what puts a bare "the 11th" on the calendar: "on the 11th", "until the 3rd", "from the 3rd to the 5th"
_NTH_DATE_BEFORE = re.compile(r"\b(?:on|by|until|till|til|since|from|to|before|after|through|thru)\s+$", re.IGNORECASE)
#: what makes "the 11th" something else: a floor, a century, a district, a place in a row
_NTH_NOT_DATE_AFTER = re.compile(
    r"\s+(?:floor|storey|story|century|grade|time|times|place|row|round|street|st|avenue|ave|district|arrondissement"
    r"|ward|precinct|birthday|anniversary|edition|percentile|generation|person|one|hole|inning|lap|chapter|level"
    r"|house|term|amendment|pick)\b", re.IGNORECASE)


_MONTHLY = re.compile(r"\b(?:every|each)\s+month\b|\bmonthly\b|\ba\s+month\b", re.IGNORECASE)


def _en_the_nth(m: re.Match[str], c: Ctx) -> Res | None:
    """A bare day of month ("the 11th") only with a month named before it in the text or a
    preposition of time ("on the 11th"); "apartment in the 11th" / "the 5th floor" are no dates."""
    if _NTH_NOT_DATE_AFTER.match(m.string, m.end()):
        return None
    if c.anchor_month is None and not _NTH_DATE_BEFORE.search(m.string, max(0, m.start() - 12), m.start()):
        return None
    lo, hi = c.clause(m.start(), m.end(), ".!?\n;")
    if _MONTHLY.search(m.string, lo, hi):
        return None  # "rent due on the 5th every month": a day of every month, none in particular
    y, mo = c.anchor_month or (c.today.year, c.today.month)
    day = safe_date(y, mo, int(group(m, "d")))
    if day and c.anchor_month is None and day <= c.today - RECENT_DAYS and not c.past_clause(m.start()):
        day = safe_date(*month_add(y, mo, 1), int(group(m, "d")))  # "dentist on the 5th", said on the 13th
    return Res(*day_span(day), "day") if day else None


def _en_clock(m: re.Match[str], c: Ctx) -> Tod | None:
    if maybe_group(m, "noon"):
        return Tod(12, 0, None) if group(m, "noon").lower() == "noon" else Tod(0, 0, None)
    h = en_num(group(m, "h"))
    mi = int(group(m, "mi")) if maybe_group(m, "mi") else None
    ap = (maybe_group(m, "ap") or "").lower().replace(".", "")
    if ap and not 1 <= h <= 12:
        return None
    if ap == "pm" and h < 12:
        h += 12
    elif ap == "am" and h == 12:
        h = 0
    return Tod(h, mi, None, spoken=not ap, explicit=bool(ap))


def _en_part(m: re.Match[str], c: Ctx) -> Tod:
    return Tod(None, None, (maybe_group(m, "p") or group(m, "p2")).lower())


_EN_UNITS = r"(?P<u>minute|hour|day|weekend|week|fortnight|month|year)s?"
_EN_CLOCK_WORDS = "one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve"

_I = re.IGNORECASE

#: (pattern, handler, skipped after 每/every), tried only on text with Latin letters
EN_RULES: list[Rule] = [
    (re.compile(r"\b(?:the\s+)?(?P<o>first|1st|second|2nd|third|3rd|fourth|4th|fifth|5th|last)\s+(?P<wd>monday|tuesday"
                r"|wednesday|thursday|friday|saturday|sunday)\s+(?:of|in)\s+(?:(?P<pre>this|next|last)\s+month\b|"
                + _MON + ")", _I), _en_nth_weekday, False),
    (re.compile(r"\b(?:the\s+)?day\s+(?P<w>after\s+(?:tomorrow|tmrw?)|before\s+yesterday)\b|\b(?P<w2>today|tonight|tomorrow"
                r"|tmrw?|yesterday|tonite|2nite|the\s+morra|the\s+morn(?!ing)|tomoz|2moro|2morrow|yday)\b", _I), _en_rel_day, False),
    # the end or the start of a month: "end of the month", "by the end of next month", "start of next month"
    (re.compile(r"\b(?P<part>end|beginning|start)\s+of\s+(?:the\s+|this\s+)?(?P<pre>next\s+|last\s+)?month\b", _I),
     _en_month_end, False),
    (re.compile(r"\b(?P<w>this|last|tomorrow|yesterday)\s+(?P<p>morning|afternoon|evening|night|arvo)\b", _I),
     _en_day_part, False),
    # British "Friday week", "a week on Friday": the one after the coming Friday
    (re.compile(r"\b(?:(?P<wd>monday|tuesday|wednesday|thursday|friday|saturday|sunday)\s+week\b(?!['\u2019]s|\s*(?:end|day))|"
                r"a\s+week\s+(?:on|from|this|come)\s+(?P<wd2>monday|tuesday|wednesday|thursday|friday|saturday|sunday))\b",
                _I), _en_weekday_week, True),
    (re.compile(r"\b(?:(?P<pre>next|this|last|coming|past)\s+)?(?P<wd>monday|tuesday|wednesday|thursday|friday"
                r"|saturday|sunday)(?P<pl>s)?\b", _I), _en_weekday, True),
    (re.compile(r"\b(?:(?P<pre>next|this|last|coming)|on|by|until|till|before|after)\s+"
                r"(?P<wd>mon|tues?|weds?|thu|thurs?|fri|sat|sun)\b\.?(?!\s*(?:ago|night\b))", _I), _en_weekday, True),
    (re.compile(r"\b(?:this\s+(?=past\b))?(?P<pre>next|this|last|past|coming|previous)\s+(?P<u>week|weekend|month|year)\b",
                _I), _en_rel_unit, False),
    (re.compile(r"\bthe\s+weekend\b", _I), _en_the_weekend, False),
    (re.compile(rf"\b{_ENN}\s+{_EN_UNITS}\s+(?P<dir>ago|later|from\s+(?:now|today|tomorrow|yesterday)|before|earlier)\b", _I),
     _en_offset, False),
    (re.compile(rf"\bin\s+{_ENN}\s+{_EN_UNITS}\b(?!\s+(?:ago|later|before|earlier|from))", _I), _en_offset, False),
    (re.compile(rf"\b(?:(?P<pre>last|next|this|early|mid-|mid|late)\s*)?{_MON}(?:\s+(?P<d>\d{{1,2}}){_ORD}\b)?"
                r"(?:,?\s+(?P<y>(?:19|20)\d{2})\b)?", _I), _en_month, True),
    (re.compile(rf"\b(?:the\s+)?(?P<d>\d{{1,2}}){_ORD}\s+(?:of\s+)?{_MON}(?:,?\s+(?P<y>(?:19|20)\d{{2}}))?\b(?P<pre>)", _I),
     _en_month, False),
    (re.compile(r"\b(?:in|since|during|by|of|until|from|before|after|around)\s+(?P<core>(?:19|20)\d{2})\b(?![-/.]\d)",
                _I), _en_year, False),
    (re.compile(r"\b(?:(?P<pre>last|next|this)\s+)?(?P<hol>christmas\s+eve|christmas|new\s+year['\u2019]s\s+eve"
                r"|new\s+year['\u2019]s\s+day|valentine['\u2019]s\s+day|halloween|independence\s+day|thanksgiving"
                r"|mother['\u2019]?s\s+day|father['\u2019]?s\s+day)\b",
                _I), _en_holiday, False),
    (re.compile(r"\bthe\s+(?P<d>\d{1,2})(?:st|nd|rd|th)\b", _I), _en_the_nth, True),
    (re.compile(r"\b(?P<h>\d{1,2})(?::(?P<mi>\d{2}))?\s*(?P<ap>a\.?m\.?|p\.?m\.?)(?![a-z])", _I), _en_clock, False),
    (re.compile(rf"\b(?P<h>\d{{1,2}}|{_EN_CLOCK_WORDS})\s+o['\u2019]?clock\b", _I), _en_clock, False),
    (re.compile(r"\b(?P<noon>noon|midnight)\b", _I), _en_clock, False),
    (re.compile(r"\b(?:in\s+the\s+)?(?P<p>morning|afternoon|evening)\b|\bat\s+(?P<p2>night)\b", _I),
     _en_part, False),
]
