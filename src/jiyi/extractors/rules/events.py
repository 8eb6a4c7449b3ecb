"""Events: what the user did or plans on a date no fact pattern claimed.

An event gets ``valid_from``/``valid_until`` from its time expressions, resolved
against the message's timestamp in the user's zone. A plan (not told as done) also
gets ``expires_at`` at the end of the last day it names, however far ahead: once
that time is over it is no longer current, and ``gc`` lapses it. A same-day or
next-day plan (今天中午想吃面) has a lower importance: useful today, noise next week.
Habits on recurring days (周末喜欢…) never become events (:mod:`.recurring`).
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta, timezone
from typing import TYPE_CHECKING

from jiyi.extractors.rules.content import group_source, group_statement
from jiyi.extractors.rules.drafts import Clause, Draft
from jiyi.records import Kind
from jiyi.text.person import third_person
from jiyi.text.relations import name_at_start
from jiyi.text.smalltalk import is_smalltalk
from jiyi.write.timeparse import TimeSpan

if TYPE_CHECKING:
    from jiyi.extractors.rules.message import MessageExtraction

_ZH_PAST = re.compile(r"了|过(?!年|节|两天|几天|敏|来|去)|已经|刚才")  # 过敏 / 过来 tell no past
_ZH_FUTURE = re.compile(r"要|会|打算|准备|想|计划|将|得|提醒|记得|叫我")
_EN_PAST_CUE = re.compile(r"(?i)\b(?:was|were|went|did|had|got|came|saw|made|took|\w{3,}ed)\b")
_EN_FUTURE_CUE = re.compile(r"(?i)\b(?:will|going\s+to|gonna|plan|planning|'ll|want\s+to|need\s+to|have\s+to)\b")
#: what happens around the user, not something the user does or plans (今天天气不错 is no event of theirs)
_NOT_DONE = re.compile(r"(?i)^\s*(?:的)?(?:天气|天儿|气温|外面(?:在)?(?:下雨|下雪|刮风))|^\s*(?:the\s+)?weather\b")
#: a short clause that still says something: a deed done (车卖了) or an amount (四万二), not 对了 / 算了
_TERSE_SAYS = re.compile(r"^(?!(?:对|好|算|行|完|得|罢)了$)(?:.+了|[\d一二三四五六七八九十百千万两]+[万千百块元]?[\d一二三四五六七八九]?)$")
_EVALUATIVE = re.compile(r"^(?:挺|很|太|真|好|超|蛮|特别|非常|还挺|it\s+was|it's|that's|so\b)", re.IGNORECASE)


def events(work: MessageExtraction) -> list[Draft]:
    """One event per sentence: the first timed clause plus the clauses that continue it."""
    out: list[Draft] = []
    for sentence in sorted({c.sentence for c in work.clauses}):
        clauses = [c for c in work.clauses if c.sentence == sentence]
        start = next((i for i, c in enumerate(clauses) if work.qualifying(c) and not c.consumed
                      and not c.question and c.subject != "bot" and not _NOT_DONE.match(c.body)
                      and (c.subject != "other" or _named_other(c.text))), None)
        if start is None:
            continue
        group = [clauses[start]]
        for c in clauses[start + 1:]:
            if c.consumed or c.question or c.subject in ("bot", "other") or c.subject != group[0].subject:
                break
            group.append(c)
        for c in reversed(clauses[:start]):  # 这次是去见华恒集团的人，谈明年的合同
            if (c.consumed or c.question or c.subject in ("bot", "other") or len(c.text) < 6 and not _TERSE_SAYS.search(c.text)
                    or _EVALUATIVE.match(c.text) or is_smalltalk(c.text)):
                break
            group.insert(0, c)
        out.append(_event(work, group))
    return [d for d in out if d.content]


#: a clause about someone else that names them first, not by a pronoun ("Aisling's wedding is on 9 January", "Raj's
#: farewell drinks are Fri 27 Nov", 小美下周去北京): their day, which the user's plans meet
_NAMED_EN = re.compile(r"^\s*(?!(?:He|She|They|It|His|Her|Their|Its|This|That|There|The|My|Our|Your)\b)[A-Z][\w'-]+")


#: someone else's doing that takes the user along ("圣诞节他带我去哈尔滨", "she's taking me to Kyoto"): the user's day too
_WITH_ME = re.compile(r"[带陪约请接送领喊叫][我俺]|[跟和同与][我俺](?:一起|一块)?|(?i:\b(?:me|us)\b)")


def _named_other(text: str) -> bool:
    """Does ``text`` open with someone's name (a capitalised word; a Chinese given name, 小美, 马俊), or take the user
    along?"""
    if _NAMED_EN.match(text) or _WITH_ME.search(text):
        return True
    head = text.lstrip()
    return bool(head) and not head.isascii() and (name := name_at_start(head, False)) is not None \
        and head.startswith(name)


def _event(work: MessageExtraction, group: list[Clause]) -> Draft:
    parts = [work.content(c) for c in group]
    first = group[0]
    if (work.lang == "zh" and first.subject == "rel" and first.rel and first.inherited
            and not parts[0].startswith("用户")):  # 我老婆住在杭州，下个月来上海: her plan, not the user's
        parts[0] = third_person(f"我的{first.rel}", "zh") + (first.rel_name or "") + parts[0]
    text = group_statement(parts, work.lang, users=first.subject != "other")  # (someone else's day: theirs)
    spans = [s for c in group for s in work.qualifying(c)]
    raw = " ".join(c.text for c in group)
    if all(_opens_a_state(work, s) for s in spans):  # "lived in chengdu since 2019": true since then, and now
        draft = Draft(Kind.FACT, text, None, [], 0.6, 0.8, valid_from=min(s.start for s in spans))
        draft.source, draft.source_at = group_source(group), group[0].start
        return draft
    draft = Draft(Kind.EVENT, text, None, [], 0.6, 0.8, valid_from=min(s.start for s in spans),
                  valid_until=max(s.end for s in spans))
    draft.expires_at = _expiry(work, spans, raw)
    if draft.expires_at is not None and _near(work, spans):
        draft.importance = 0.4
    draft.source = group_source(group)
    draft.source_at = group[0].start
    return draft


#: a time that opens a state still holding: since 2019, 自从上个月, 从十月起 / 从十月开始 (…以来)
_EN_SINCE = re.compile(r"(?i)\b(?:ever\s+)?since\s+(?:the\s+)?$")
_ZH_FROM = re.compile(r"(?:自从|自打|打从|从|由)\s*$")  # (由: Cantonese and formal 从)
_ZH_ON = re.compile(r"^\s*(?:起|开始|以来|以后|之后|到现在|至今)")


def _opens_a_state(work: MessageExtraction, span: TimeSpan) -> bool:
    """Does ``span`` say when a state began that holds still (a time already come, after since / 自从 / 从…起)?"""
    if span.start > work.ref:
        return False  # 从下周开始: a plan
    before, after = work.text[max(0, span.offset - 8):span.offset], work.text[span.end_offset:span.end_offset + 4]
    if work.lang == "zh":
        return bool(_ZH_FROM.search(before) and (_ZH_ON.match(after) or before.rstrip().endswith(("自从", "自打"))))
    return bool(_EN_SINCE.search(before))


def _expiry(work: MessageExtraction, spans: list[TimeSpan], raw: str) -> datetime | None:
    """When a plan stops being current: the end of the last day it names, in the user's zone.

    Every plan gets one, however far ahead (下周三 / next Friday / 周末 / 12月3日到5日) and
    whenever it was said (今天中午想吃面 said at 18:00 lapses at midnight too). An event
    told as done (去了 / went), or whose time was already over when it was told (昨天看电影),
    gets none: it stays true as history, and its ``valid_until`` says when it ended.
    """
    end = max(s.end for s in spans)
    if work.lang == "zh":
        past, future = _ZH_PAST.search(raw), _ZH_FUTURE.search(raw)
    else:
        past, future = _EN_PAST_CUE.search(raw), _EN_FUTURE_CUE.search(raw)
    if past and not future:
        return None
    if end <= work.ref and not future:
        return None
    last = max(end, work.ref).astimezone(work.tz) - timedelta(microseconds=1)
    return (last.replace(hour=0, minute=0, second=0, microsecond=0) + timedelta(days=1)).astimezone(timezone.utc)


def _near(work: MessageExtraction, spans: list[TimeSpan]) -> bool:
    """Is the plan for today or tomorrow (useful now, noise next week: a lower importance)?"""
    local = work.ref.astimezone(work.tz)
    horizon = local.replace(hour=0, minute=0, second=0, microsecond=0) + timedelta(days=2)
    return all(s.granularity in ("day", "daypart", "hour", "minute") and s.end <= horizon for s in spans)
