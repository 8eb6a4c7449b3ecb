"""Birthdays and anniversaries: facts that recur every year, not events on one date.

"我的生日是五月二十日" is true every year, so it is a ``fact`` in ``user/birthday``
whose content keeps the month and day as said (用户的生日是5月20日): no year is
invented and no ``valid_from``/``expires_at`` is set. A year the user gives (我是1990年
5月20日出生的) is kept. A relative's goes to ``relation/<role>/birthday`` when the role
is single-valued (mother, wife…); a child's or friend's gets no slot, since a second
daughter's birthday must not replace the first's. Wedding and other anniversaries
work the same way (``user/wedding_anniversary``, ``user/anniversary``).

Only a calendar month and day count. A birthday named by a relative day (明天是我生日,
我妈下周三生日) stays a dated event: it says when this year's falls, and the calendar
day may be a lunar one that moves every year. So does one in a dated past (去年5月20日).
"""

from __future__ import annotations

import calendar
import re
from typing import TYPE_CHECKING

from jiyi.extractors.rules.drafts import Clause, Draft, fact
from jiyi.text.person import third_person, tidy_zh
from jiyi.text.relations import REL_EN, REL_ZH, REL_ZH_RE, SINGLE_VALUED, alternation
from jiyi.write.timeparse import cn_to_int
from jiyi.write.timeparse.lunar import lunar_month_day

if TYPE_CHECKING:
    from jiyi.extractors.rules.message import MessageExtraction

_N = r"(?:\d{1,2}|[一二三四五六七八九十]{1,3})"
_ZH_DATE = re.compile(rf"(?:(?P<y>(?:19|20)\d{{2}})年)?(?<![去今明前后]年)(?P<lunar>农历|阴历)?"
                      rf"(?P<m>{_N})月(?P<d>{_N})(?:日|号)?")
_MONTHS_EN = "|".join(m for m in calendar.month_name if m)
_EN_DATE = re.compile(rf"(?i:(?P<mon>{_MONTHS_EN})\s+(?P<d>\d{{1,2}})(?:st|nd|rd|th)?|(?:the\s+)?(?P<d2>\d{{1,2}})"
                      rf"(?:st|nd|rd|th)?\s+(?:of\s+)?(?P<mon2>{_MONTHS_EN}))(?:,?\s+(?P<y>(?:19|20)\d{{2}}))?\b")
_ZH_KINDS = {"生日": ("birthday", "生日"), "出生": ("birthday", "生日"), "结婚纪念日": ("wedding_anniversary", "结婚纪念日"),
             "恋爱纪念日": ("dating_anniversary", "恋爱纪念日"), "纪念日": ("anniversary", "纪念日")}
_ZH_RECURRING = re.compile(
    rf"^(?:是|在)?(?P<owner>(?:我们|咱们|我|俺)(?:的|家)?(?:(?P<rel>{REL_ZH_RE})(?P<name>[\u4e00-\u9fff]{{2,3}}?)?)?的?)?"
    r"(?:是|在|于)?(?P<kw>结婚纪念日|恋爱纪念日|纪念日|生日|出生)(?:是|在|为|于|就是|那天)?的?$"
)
_EN_KINDS = {"birthday": ("birthday", "birthday"), "bday": ("birthday", "birthday"),
             "b-day": ("birthday", "birthday"), "born": ("birthday", "birthday"),
             "wedding anniversary": ("wedding_anniversary", "wedding anniversary"),
             "anniversary": ("anniversary", "anniversary")}
_EN_RECURRING = re.compile(
    r"(?i)^(?:(?:and|also|oh|btw|so)[,]?\s+)*(?:is\s+)?(?:(?P<owner>my|our)\s+(?:(?P<rel>"
    + alternation([w for w in REL_EN if not w.endswith("'s")])
    + r")(?P<name>\s+[A-Z][\w-]*)?['\u2019]s\s+)?(?P<kw>wedding\s+anniversary|anniversary|birthday|bday|b-day)(?:['\u2019]s|\s+is|\s+falls)?"
    r"|i\s+was\s+(?P<born>born))(?:\s+on)?$"
)


def calendar_date(text: str, lang: str) -> tuple[re.Match[str], str] | None:
    """The first month-and-day date in ``text`` and its normalised form (5月20日 / May 20)."""
    if lang == "zh":
        for m in _ZH_DATE.finditer(text):
            try:
                month, day = cn_to_int(m.group("m")), cn_to_int(m.group("d"))
            except ValueError:
                continue
            if 1 <= month <= 12 and 1 <= day <= 31:
                year = f"{m.group('y')}年" if m.group("y") else ""
                return m, f"{year}{m.group('lunar') or ''}{month}月{day}日"
        if lunar := lunar_month_day(text):  # 生日是腊月初八: a lunar date, kept as said
            return lunar, lunar.group(0).removeprefix(lunar.group("ry") or "")
        return None
    for m in _EN_DATE.finditer(text):
        name = (m.group("mon") or m.group("mon2")).capitalize()
        day = int(m.group("d") or m.group("d2"))
        if 1 <= day <= 31:
            return m, f"{name} {day}" + (f", {m.group('y')}" if m.group("y") else "")
    return None


def recurring_dates(work: MessageExtraction, c: Clause) -> list[Draft]:
    """A birthday or anniversary stated with a calendar date, as a slotted fact (else [])."""
    if c.question or c.subject in ("bot", "other"):
        return []
    found = calendar_date(c.text, work.lang)
    if found is None:
        return []
    m, date_text = found
    rest = re.sub(r"\s+", " ", c.text[: m.start()] + " " + c.text[m.end():]).strip()
    if work.lang == "zh":
        return _zh_draft(c, tidy_zh(rest).replace(" ", ""), date_text)
    return _en_draft(c, rest.strip(" .!,"), date_text)


def _draft(template: str, slot: str | None, date_text: str) -> Draft:
    """Single-valued with a ``template``, so that "不对，是5月21日" can restate it."""
    return fact(template.format(v=date_text), slot, date_text, importance=0.8, template=template)


def _slot(owner_rel: str | None, key: str, rel_key: str | None) -> str | None:
    if owner_rel is None:
        return f"user/{key}"
    return f"relation/{rel_key}/{key}" if rel_key in SINGLE_VALUED else None


def _zh_draft(c: Clause, rest: str, date_text: str) -> list[Draft]:
    m = _ZH_RECURRING.match(rest)
    if m is None:
        return []
    key, label = _ZH_KINDS[m.group("kw")]
    rel = m.group("rel") or (c.rel if not m.group("owner") and c.subject == "rel" else None)
    if m.group("owner") and m.group("rel"):
        owner = third_person(m.group("owner").removesuffix("的"), "zh")
    elif rel:
        owner = third_person(f"我的{rel}{c.rel_name or ''}", "zh")
    else:
        owner = "用户"
    rel_key = REL_ZH.get(rel, (rel, ""))[0] if rel else None
    return [_draft(owner + "的" + label + "是{v}", _slot(rel, key, rel_key), date_text)]


def _en_draft(c: Clause, rest: str, date_text: str) -> list[Draft]:
    m = _EN_RECURRING.match(rest)
    if m is None:
        return []
    key, label = _EN_KINDS[" ".join((m.group("kw") or m.group("born")).lower().split())]
    rel = m.group("rel").lower() if m.group("rel") else None
    if rel is None and not m.group("owner") and not m.group("born") and c.subject == "rel":
        rel = c.rel
    owner = f"User's {rel}{m.group('name') or ''}'s" if rel else "User's"
    rel_key = REL_EN.get(rel, (rel, ""))[0] if rel else None
    return [_draft(f"{owner} {label} is {{v}}", _slot(rel, key, rel_key), date_text)]
