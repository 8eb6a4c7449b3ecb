"""Habits are not dates: "周末喜欢喝咖啡", "周一都去游泳", "I usually hike at the weekend".

The time parser reads 周末 / 周一 / "Friday" / "the weekend" as the next such day, which
is right for a plan (周末去爬山) and wrong for a habit: "周末喜欢喝咖啡" stored as
"用户2026年12月5日至6日喜欢喝咖啡" is a one-off event that lapses next week. A weekday or
weekend named bare (no 这/下/上/本, this/next/last) in a clause that says how the user
usually is (喜欢 / 一般 / 都 / 习惯 / usually / like / love…) names a recurring time:
its span is dropped, so the clause stays a preference or behaviour with the words
as said, no date and no expiry. Spans after 每 / every are already skipped by the
parser.

A bare date (no year) is also read in the tense it is told in: the parser takes the
nearest one, and a clause told as done moves one ahead of the message back a year
(:func:`told_as_past`, "5月去了日本" said in December), while a clause told as upcoming
moves one already over to the next year, or a bare day (3号) to the next month
(:func:`told_as_coming`, "12月20号去看演唱会" said in March).
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Sequence
from datetime import datetime, timedelta

from jiyi.write.timeparse import TimeSpan
from jiyi.write.timeparse.spans import month_add

_BARE_ZH = re.compile(r"^(?:周|星期|礼拜)(?:[一二三四五六日天末]|末)(?:的)?(?:早上|上午|中午|下午|晚上|夜里)?$")
_BARE_EN = re.compile(r"(?i)^(?:the\s+)?(?:weekends?|(?:mon|tues|wednes|thurs|fri|satur|sun)days?)"
                      r"(?:\s+(?:mornings?|afternoons?|evenings?|nights?))?$")
_CUE_ZH = re.compile(r"喜欢|爱|讨厌|习惯|一般|通常|经常|常常|总是|老是|总会|都会|都(?!没|不是)|平时|平常|偶尔|有时|一向|向来|每"
                     r"|在(?:练|学|上\S{0,2}课|健身|跑步)|打工|兼职"  # 周末在练滑板 / 周末在奶茶铺打工: kept up, on weekends
                     r"|以后|往后|今后|从此|(?:改|换|调|挪)(?:成|到|在)")  # 以后改成周五打: a routine moved, from now on
_CUE_EN = re.compile(r"(?i)\b(?:usually|always|often|normally|typically|generally|tend\s+to|like|love|enjoy|prefer|"
                     r"hate|sometimes|never|rarely|every|each|on\s+(?:weekends|\w+days))\b")
_CLAUSE_EDGE = re.compile(r"[，,。！？!?；;\n]|\.(?=\s)")  # ("got the offer. start date nov 2": two sentences)
#: the clause edges, and a space between Chinese words (chat cuts its clauses with them)
_SPACE_EDGE = re.compile(_CLAUSE_EDGE.pattern + r"|(?<=[\u4e00-\u9fff])\s+(?=[\u4e00-\u9fff\d])")


def _between(text: str, span: TimeSpan, edge: re.Pattern[str]) -> str:
    """The part of ``text`` around ``span`` between two of ``edge`` (matched on the whole text: the lookarounds)."""
    before = [m.end() for m in edge.finditer(text) if m.end() <= span.offset]
    after = edge.search(text, span.end_offset)
    return text[(before[-1] if before else 0):(after.start() if after else len(text))]


def _clause_around(text: str, span: TimeSpan) -> str:
    """The clause ``span`` is said in. Chat cuts Chinese clauses with spaces too (签了青梧科技 11月入职: 了 is the
    signing's, not the start's): the part between spaces is the clause when it says more than the time."""
    clause = _between(text, span, _CLAUSE_EDGE)
    if _SPACE_EDGE.search(clause):
        part = _between(text, span, _SPACE_EDGE)
        if len(re.findall(r"[\u4e00-\u9fff]", part.replace(span.text, " ", 1))) >= 2:
            return part
    return clause


#: a day of the month alone ("the 5th", 15号), and a clause that says it comes every month
_MONTH_DAY = re.compile(r"(?i)^(?:on\s+)?(?:the\s+)?\d{1,2}(?:st|nd|rd|th)?$|^[\d一二三四五六七八九十]{1,3}[号日]$")
_MONTHLY = re.compile(r"(?i)\b(?:every|each|a|per)\s+month\b|\bmonthly\b|每个?月|月月")


#: a word after a bare weekend or weekday that makes it a noun's modifier ("weekend market", "saturday job"),
#: not the words that go on with a time ("the weekend was", "saturday with my sister")
_EN_NOUN_AFTER = re.compile(r"(?i)\s+(?!(?:and|or|with|to|at|in|on|for|so|but|because|if|i|we|you|he|she|they|it|my|our|"
                            r"his|her|their|the|a|an|then|after|before|too|as|off|away|was|were|is|are|be|been|will|would|"
                            r"can|could|should|might|must|had|has|have|do|did|does|not|never|also|just|really|again|"
                            r"mornings?|afternoons?|evenings?|nights?|morning|till|until|from|by|of|when|while|instead|"
                            r"though|tho|lol|haha|now|there|here|is|'s|im|i'm)\b)[a-z]{3,}\b")


#: a day left by a routine moved in the same message: "周三不打了" beside "以后改成周五打"
_ZH_STOPS = re.compile(r"^(?:就|都|也)?不(?:再)?[\u4e00-\u9fff]{1,2}了")
_ZH_MOVED = re.compile(r"(?:以后|往后|今后|从此)[^，,。！？!?]{0,6}?(?:改|换|调|挪)(?:成|到|在)|(?:改|换|调|挪)(?:成|到)(?:每)?(?:周|星期|礼拜)")


def is_recurring(text: str, span: TimeSpan) -> bool:
    """Does ``span`` name a recurring day (周末 in 周末喜欢喝咖啡, "rent due on the 5th every month") rather than one
    date?"""
    words = span.text.strip()
    if _MONTH_DAY.match(words) and _MONTHLY.search(_clause_around(text, span)):
        return True
    if not (_BARE_ZH.match(words) or _BARE_EN.match(words)):
        return False
    if _EN_NOUN_AFTER.match(text, span.end_offset) and not re.search(r"\s", words.removeprefix("the ").strip()):
        return True  # "the weekend market", "a saturday job": a kind of thing, no day
    clause = _clause_around(text, span)
    rest = clause.replace(span.text, " ", 1)
    cue = _CUE_ZH if re.search(r"[\u4e00-\u9fff]", clause) else _CUE_EN
    if _ZH_STOPS.match(rest.strip()) and _ZH_MOVED.search(text):
        return True  # 以后改成周五打 周三不打了: the Wednesdays the routine leaves, no one Wednesday
    return bool(cue.search(rest)) or bool(re.match(r"(?i)^(?:the\s+)?(?:weekends|\w+days)\b", words))


def one_off(text: str, spans: Sequence[TimeSpan]) -> list[TimeSpan]:
    """``spans`` without the recurring ones."""
    return [s for s in spans if not is_recurring(text, s)]


# ---------------------------------------------------------------- a bare month told in the past tense

_BARE_DATE = re.compile(r"(?i)^(?:in\s+|on\s+)?(?:(?:early|mid|late)[\s-]+)?(?:january|february|march|april|may|june|july|"
                        r"august|september|october|november|december|jan|feb|mar|apr|jun|jul|aug|sept?|oct|nov|dec)"
                        r"\.?(?:\s+\d{1,2}(?:st|nd|rd|th)?)?$|^[\d一二三四五六七八九十]{1,3}月(?:[\d一二三四五六七八九十]{1,3}[日号])?"
                        r"(?:初|中旬|下旬|底|末)?$")
_ZH_PAST_TOLD = re.compile(r"了|过(?!年|节|敏|来|去|生日|日子|周末|夜|马路)|已经|那时|当时|"
                           r"是[^，,。！？!?]{0,12}?[去来到买做办看搬回飞生]的")  # 是7月28号到的温哥华: the 是…的 of what was
#: a booking names a day ahead whatever its tense (买了12月20号的票 / "got tickets for Oct 12")
_ZH_BOOKED = (r"|的?票|预约|预订|订了|报了?名|挂了?号|约了"
              # (so does a plan moved to it: 推迟到12月4号 / push 到12月4號 因为场地出了问题)
              r"|(?:推迟|延期|延后|顺延|改|挪|推|提前|调|(?i:push(?:ed)?\s*))(?:到|至|成|在)")
_EN_BOOKED = (r"|tickets?\s+(?:to|for)|booked|reserved|registered\s+for|signed\s+up\s+for|an?\s+appointment|"
              r"a\s+reservation"
              r"|(?:pushed|moved|postponed|rescheduled|delayed|changed|bumped)\s+(?:back\s+)?(?:to|for|till|until)")
_ZH_FUTURE_TOLD = re.compile(r"要|会|打算|准备|想|计划|将|得" + _ZH_BOOKED)
#: (a participle after get / be is no past: "is getting married december 12", "will be finished by May 3")
_EN_PAST_TOLD = re.compile(r"(?i)\b(?:was|were|went|did|had|(?<!be\s)got|came|saw|made|took|met|visited|"
                           r"(?<!getting\s)(?<!get\s)(?<!be\s)(?<!being\s)\w{3,}ed)\b")
#: an English clause about what is coming: a future form, or the progressive of a plan ("I'm flying…")
_EN_FUTURE_CUE = re.compile(r"(?i)\b(?:will|going\s+to|gonna|plan|planning|'ll|want\s+to|need\s+to|have\s+to|"
                            r"(?:i'm|i\s+am|we're|we\s+are)\s+\w+ing|is\s+on|are\s+on|next|upcoming|coming\s+up)\b")
_EN_FUTURE_TOLD = re.compile(r"(?i)\b(?:will|going\s+to|gonna|plan|planning|'ll|want\s+to|next" + _EN_BOOKED + r")\b")


def _year_back(dt: datetime) -> datetime:
    return _years_on(dt, -1)


def _years_on(dt: datetime, k: int) -> datetime:
    try:
        return dt.replace(year=dt.year + k)
    except ValueError:  # 29 February
        return dt.replace(year=dt.year + k, day=28)


_BARE_DAY = re.compile(r"(?i)^(?:on\s+)?(?:the\s+)?\d{1,2}(?:st|nd|rd|th)$|^[\d一二三四五六七八九十]{1,3}[日号]$")
#: how long ago a bare date may be and still be recounted without a past-tense word
#: (周六我们去看展, said on Monday, is last Saturday); older, it is the next one
RECOUNTED = timedelta(days=14)


def told_as_past(text: str, spans: Sequence[TimeSpan], ref: datetime) -> list[TimeSpan]:
    """A bare month or date ahead of ``ref`` in a clause told in the past ("I went to Japan in May",
    said in December; 5月去了日本) is the last one, not the next: moved back a year."""
    out: list[TimeSpan] = []
    for span in spans:
        if span.start > ref and _BARE_DATE.match(span.text.strip()):
            clause = _clause_around(text, span).replace(span.text, " ", 1)
            zh = bool(re.search(r"[\u4e00-\u9fff]", clause))
            past = (_ZH_PAST_TOLD if zh else _EN_PAST_TOLD).search(clause)
            future = (_ZH_FUTURE_TOLD if zh else _EN_FUTURE_TOLD).search(clause)
            if past and not future:
                span = dataclasses.replace(span, start=_year_back(span.start), end=_year_back(span.end))
        out.append(span)
    return out


def told_as_coming(text: str, spans: Sequence[TimeSpan], ref: datetime) -> list[TimeSpan]:
    """A bare month or date already over at ``ref`` in a clause told as upcoming is the next one.

    "12月20号去看演唱会" / "I'm flying to Oslo on January 3rd", said in March, is next December /
    next January, not the one before. Upcoming: a future word (要 / 打算 / will / going to), or,
    for a day and month, no past-tense word and the date more than :data:`RECOUNTED` ago (a bare
    month without a future word stays the nearest: 就6月那个… names one gone by).
    """
    out: list[TimeSpan] = []
    for span in spans:
        if span.end <= ref and _BARE_DATE.match(span.text.strip()):
            clause = _clause_around(text, span).replace(span.text, " ", 1)
            zh = bool(re.search(r"[\u4e00-\u9fff]", clause))
            past = (_ZH_PAST_TOLD if zh else _EN_PAST_TOLD).search(clause)
            future = (_ZH_FUTURE_TOLD if zh else _EN_FUTURE_CUE).search(clause)
            dated = span.granularity == "day"  # 12月20号: a day named is a plan; a bare 6月 may name a past purchase
            if future and not past or dated and not past and ref - span.end > RECOUNTED:
                while span.end <= ref:
                    span = dataclasses.replace(span, start=_years_on(span.start, 1), end=_years_on(span.end, 1))
        elif span.end <= ref and _BARE_DAY.match(span.text.strip()):  # 26号要去面试, said on the 28th: next month's
            clause = _clause_around(text, span).replace(span.text, " ", 1)
            zh = bool(re.search(r"[\u4e00-\u9fff]", clause))
            past = (_ZH_PAST_TOLD if zh else _EN_PAST_TOLD).search(clause)
            if (_ZH_FUTURE_TOLD if zh else _EN_FUTURE_CUE).search(clause) and not past:
                span = _next_month_with(span, ref)
        out.append(span)
    return out


def _next_month_with(span: TimeSpan, ref: datetime) -> TimeSpan:
    """``span`` (one day of a month) in the first month after it that has that day and ends after ``ref``."""
    for k in range(1, 13):
        y, m = month_add(span.start.year, span.start.month, k)
        try:
            start = span.start.replace(year=y, month=m)
        except ValueError:  # no 31st in that month
            continue
        if start + (span.end - span.start) > ref:
            return dataclasses.replace(span, start=start, end=start + (span.end - span.start))
    return span
