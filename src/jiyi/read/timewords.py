"""Relative time words in a raw turn, resolved against when it was said ("明天" → "明天（1月11日）").

A turn shown weeks later in a block must not say "明天" as if it were today's: each time
expression without a number of its own (明天, 下周三, 这周末, tomorrow, next Friday) gets the
local date it meant, in brackets after it. Expressions that already carry a date are left.
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta, timezone, tzinfo
from functools import lru_cache

from jiyi.write.timeparse import TimeSpan, find_time_expressions

#: Granularities that name a day (a week or a month is left as said).
_DAYLIKE = frozenset({"day", "daypart", "hour", "minute", "weekend"})
#: an expression that carries its own date (10月3日, 3号, 12/3, "Dec 3", "the 3rd"); a clock time (10am, 3点)
#: or a count (3天后) leaves the day to the relative words, which are resolved
_DATED = re.compile(r"(?i)\d+\s*(?:月|日|号)|\d{1,4}\s*[/.-]\s*\d{1,2}|\b\d{1,2}(?:st|nd|rd|th)\b|"
                    r"\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?\s+\d|\d\s+(?:jan|feb|mar|apr|"
                    r"may|jun|jul|aug|sep|sept|oct|nov|dec)")
_MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")


#: a part of the day said alone at a clause's start ("晚上请她吃顿好的"): that evening, the day it was said
_ZH_BARE_PART = re.compile(r"(?:^|(?<=[，,。！!？?\s]))(?:今天)?(?P<p>早上|上午|中午|下午|傍晚|晚上|夜里|半夜)(?![好安]|\d|[零一二两三四五六七八九十]+点)")
_HABITUAL = re.compile(r"每|一般|经常|平时|通常|总是|天天|有时")
#: a day named in a list that recurs: 每周二和周六晚上 / 每周三、周五 / "every tuesday and saturday night"
_RECURRING_BEFORE = re.compile(r"(?i)(?:每(?:个)?(?:周|星期|礼拜)|逢|\bevery\b|\beach\b)[^，,。.!！?？]{0,10}?(?:和|跟|与|及|、|/|\band\b|\bor\b|,)\s*$")


def resolve_time_words(text: str, said: datetime, *, lang: str, tz: tzinfo = timezone.utc,
                       at: datetime | None = None) -> str:
    """``text`` with each relative day expression followed by the local date it meant at ``said``; given ``at``, in a
    turn that told of several days ahead, each one over by then said to be past ("11月20号（已过去）幼儿园开放日…
    12月18号还有个新年演出": the other is still ahead)."""
    found = find_time_expressions(text, said, tz=tz)
    spans = [s for s in found
             if s.granularity in _DAYLIKE and not _DATED.search(s.text) and text[s.offset:s.end_offset] == s.text
             and not _RECURRING_BEFORE.search(text[:s.offset])]
    over = _some_over(text, found, said, at) if at is not None else []
    if lang == "zh" and not spans and not over and not _HABITUAL.search(text) and (m := _ZH_BARE_PART.search(text)):
        day = said.astimezone(tz)
        return f"{text[:m.end()]}（{day.month}月{day.day}日）{text[m.end():]}"  # 晚上（10月13日）请她吃…
    out, last = [], 0
    for s in sorted({*spans, *over}, key=lambda s: s.offset):
        if s.offset < last:
            continue
        notes = [_day_note(s, tz, lang)] if s in spans else []
        notes += [_PASSED[lang]] if s in over else []
        out += [text[last:s.end_offset], f"（{'，'.join(notes)}）" if lang == "zh" else f" ({', '.join(notes)})"]
        last = s.end_offset
    return "".join(out) + text[last:]


_PASSED = {"zh": "已过去", "en": "past"}


def _day_note(span: TimeSpan, tz: tzinfo, lang: str) -> str:
    """The local date ``span`` meant; its first and last day when it covers several (月底 → 11月21日至30日)."""
    first, last = span.start.astimezone(tz), (span.end - timedelta(seconds=1)).astimezone(tz)
    zh = lang == "zh"

    def day(d: datetime) -> str:
        return f"{d.month}月{d.day}日" if zh else f"{_MONTHS[d.month - 1]} {d.day}"

    if first.date() == last.date():
        return day(first)
    end = (f"{last.day}日" if zh else str(last.day)) if first.month == last.month else day(last)
    return f"{day(first)}{'至' if zh else '–'}{end}"


def _some_over(text: str, found: list[TimeSpan], said: datetime, at: datetime) -> list[TimeSpan]:
    """Of the days ahead ``text`` told of when ``said``, those over by ``at``, when some others are not (all over:
    :func:`plan_passed` says so of the whole turn)."""
    ahead = [s for s in found if s.granularity != "year" and s.start > said and text[s.offset:s.end_offset] == s.text]
    over = [s for s in ahead if s.end + MOMENT_GRACE <= at]
    return over if len(over) < len(ahead) else []


#: How long after the day a turn's time words named it still counts as current news.
MOMENT_GRACE = timedelta(days=2)
#: A turn that starts something lasting ("从今天开始吃素", "starting today I'm off sugar") is no passing moment.
_STARTS = re.compile(r"(?i)开始|起(?:我|就|不|每)|以后|往后|从此|from\s+now\s+on|starting\s+(?:today|tomorrow|tonight)|"
                     r"\bfrom\s+(?:today|tomorrow)\b|\bfor\s+good\b|\banymore\b")


def moment_passed(text: str, said: datetime, at: datetime, *, tz: tzinfo = timezone.utc) -> bool:
    """Does ``text`` (said at ``said``) tell of a day its own relative words name (今晚, 明天, "this arvo",
    "tomorrow"), every one of which was over by ``at`` (:data:`MOMENT_GRACE` after it), and nothing lasting?"""
    if _HABITUAL.search(text) or _STARTS.search(text):
        return False
    found = find_time_expressions(text, said, tz=tz)
    spans = [s for s in found if s.granularity in _DAYLIKE and not _DATED.search(s.text)]
    if spans and all(s.end + MOMENT_GRACE <= at for s in spans):
        return True
    return _all_ahead_and_over(found, said, at, text)  # a plan for a time ahead, whatever its words (国庆, 下个月中旬)


#: a day said as a deadline ("11月30号截止", "月底前交", "due friday"): once it is over, nothing of it is ahead
_DEADLINE = re.compile(r"\s*(?:之?前|以前)?\s*(?:截止|截至|为止|交齐|要交|必须交)|\s*(?:之?前|以前)(?:交|报|提交|缴)|"
                       r"(?i:\s*(?:is\s+)?(?:the\s+)?(?:deadline|cut-?off)\b)")  # (matched at the span's end)
_DUE = re.compile(r"(?i)\b(?:due|deadline|by)\s*(?:on\s+|is\s+)?$")


def _grace(span: TimeSpan, text: str) -> timedelta:
    """How long after ``span`` its turn still counts as news: none for a deadline (its day is the last one)."""
    if text and (_DEADLINE.match(text, span.end_offset) or _DUE.search(text[:span.offset])):
        return timedelta(0)
    return MOMENT_GRACE


def _all_ahead_and_over(found: list[TimeSpan], said: datetime, at: datetime, text: str = "") -> bool:
    ahead = [s for s in found if s.granularity != "year" and not _around(s, said)]
    return bool(ahead) and all(s.start > said and s.end + _grace(s, text) <= at for s in ahead)


def _around(span: TimeSpan, said: datetime) -> bool:
    """Is ``span`` the week or month the turn was said in (本月报销单…, "this month's rent")? It frames, plans nothing."""
    return span.granularity in ("week", "month") and span.start <= said < span.end


@lru_cache(maxsize=4096)  # (a block is rendered again for each line it tries)
def plan_passed(text: str, said: datetime, at: datetime, *, tz: tzinfo = timezone.utc) -> bool:
    """Does ``text`` (said at ``said``) tell of times ahead of it (明天, 下个月中旬, 8月11日, "on oct 11"), all of
    them over by ``at``? The plan it tells is past, whatever lasting thing it also says ("I'm a physical
    therapist in Austin, training for the marathon on oct 11"). Not a habit, nor something that starts then."""
    if _HABITUAL.search(text) or _STARTS.search(text):
        return False
    return _all_ahead_and_over(find_time_expressions(text, said, tz=tz), said, at, text)
