"""Chinese lunar dates: 腊月二十六, 正月初八, 年廿八, 大年初一, 除夕, 中秋, 端午; and the solar terms (清明, 冬至).

Chinese users date the weeks around the New Year, and the festivals, by the lunar calendar ("腊月二十六走",
"年后正月初八出第一趟车", Cantonese "年廿八摆档"). The conversion is the ``lunar-python`` package's (6tail's
lunar, tables for 1900–2100, no data to fetch). Like a month and day without a year, a lunar date takes the
lunar year that puts it nearest to the reference, unless 今年 / 明年 / 去年 says which. A bare 初七 is lunar only
after a lunar month in the same text (初一 is also a school year).
"""

from __future__ import annotations

import re
from datetime import date

from jiyi.write.timeparse.numbers import cn_to_int
from jiyi.write.timeparse.spans import (
    Ctx,
    Handler,
    Res,
    Rule,
    day_span,
    days_span,
    group,
    maybe_group,
)

#: the months named only in the lunar calendar: 正月, 冬月 (十一月), 腊月 (十二月)
_MONTH = r"(?P<lm>正|冬|腊)"
#: a lunar day: 初一…初十, 十一…十九, 二十, 廿一…廿九 (or 二十一), 三十 / 卅
_DAY = r"(?P<ld>初[一二三四五六七八九十]|廿[一二三四五六七八九]?|二十[一二三四五六七八九]?|十[一二三四五六七八九]|三十|卅)"
_LUNAR_MONTHS = {"正": 1, "冬": 11, "腊": 12}
#: festivals: (lunar month, day, days long); 0 is the month's last day (除夕)
FESTIVALS: dict[str, tuple[int, int, int]] = {
    "春节": (1, 1, 7), "大年初一": (1, 1, 1), "元宵节": (1, 15, 1), "龙抬头": (2, 2, 1),
    "端午节": (5, 5, 1), "端午": (5, 5, 1), "七夕": (7, 7, 1), "中元节": (7, 15, 1), "中秋节": (8, 15, 1),
    "中秋": (8, 15, 1), "重阳节": (9, 9, 1), "重阳": (9, 9, 1), "腊八": (12, 8, 1),
    "除夕": (12, 0, 1), "大年三十": (12, 0, 1), "年三十": (12, 0, 1), "小年": (12, 23, 1),
}
_REL_YEARS = {"去年": -1, "今年": 0, "明年": 1}
_FESTIVAL_RE = "|".join(sorted(FESTIVALS, key=len, reverse=True))

_ANY_MONTH = r"(?P<lm>十一|十二|十|[一二三四五六七八九])"


def _rule(kind: str) -> Handler:
    def handler(m: re.Match[str], c: Ctx) -> Res | None:
        return resolve(kind, m, c)
    return handler


#: a lunar month and day (a birthday kept by the lunar calendar is one of these: :func:`lunar_month_day`)
_MONTH_DAY_RULES: list[Rule] = [
    # 腊月二十六, 正月初八, 冬月十五: these months are lunar whatever the day
    (re.compile(rf"(?P<ry>去年|今年|明年)?(?:农历|阴历)?{_MONTH}月{_DAY}(?![号日])"), _rule("month_day"), True),
    # 二月初二: a day said 初X is lunar (a solar day says 号 or 日); 廿X after a month's number is the solar day as
    # Cantonese and Hokkien chat write it (十月廿八去广州入货), lunar only when said so (农历八月廿三, below)
    (re.compile(rf"(?P<ry>去年|今年|明年)?(?:农历|阴历)?{_ANY_MONTH}月(?P<ld>初[一二三四五六七八九十])"
                r"(?![号日])"), _rule("month_day"), True),
    # 农历八月十五: said to be lunar
    (re.compile(rf"(?P<ry>去年|今年|明年)?(?:农历|阴历){_ANY_MONTH}月{_DAY}(?![号日])"), _rule("month_day"), True),
]
#: (pattern, handler, skipped after 每): tried with the Chinese rules (timeparse/zh.py)
LUNAR_RULES: list[Rule] = [
    *_MONTH_DAY_RULES,
    # 年廿八, 年三十, 大年初二 (the last month's days, the first month's): not 今年三十 (an age)
    (re.compile(r"(?<![今去明前后\d])大?年(?P<yd>廿[一二三四五六七八九]|二十[一二三四五六七八九]|三十|初[一二三四五六七八九十])"),
     _rule("new_year"), True),
    (re.compile(rf"(?P<ry>去年|今年|明年)?(?P<fest>{_FESTIVAL_RE})"), _rule("festival"), True),
    # a solar term, as a day (清明节, 冬至那天), not a word that holds one (头脑清明, 大雪纷飞, 小雪花)
    (re.compile(r"(?P<ry>去年|今年|明年)?(?<![脑神政志])(?P<term>清明|冬至|夏至|立春|立夏|立秋|立冬|春分|秋分)节?"
                r"(?![上河白])"), _rule("term"), True),
    # 初七 after a lunar month named in the same text ("正月初八出车 初七得把车检做了")
    (re.compile(r"(?<![月年大\u4e00-\u9fff])初(?P<bd>[一二三四五六七八九十])(?![中高级一二三])"), _rule("bare_day"), True),
]


def lunar_month_day(text: str) -> re.Match[str] | None:
    """The first lunar month and day in ``text`` (腊月初八, 农历八月十五, 二月初二), for a birthday kept by it."""
    found = [m for pattern, _, _ in _MONTH_DAY_RULES if (m := pattern.search(text))]
    return min(found, key=lambda m: m.start()) if found else None


def is_lunar(said: str) -> bool:
    """Is ``said`` (a span's text) a lunar date? Its solar day moves year by year, so it is shown beside it."""
    return any(pattern.fullmatch(said) for pattern, _, _ in LUNAR_RULES)


def day_number(said: str) -> int:
    """A day of the month as the old way says it: 初八, 十五, 廿三, 三十, 卅 (卅一 for the 31st of a solar month)."""
    if said in ("三十", "卅"):
        return 30
    if said.startswith("初"):
        return cn_to_int(said[1:])
    if said.startswith(("廿", "卅")):
        return (20 if said[0] == "廿" else 30) + (cn_to_int(said[1:]) if len(said) > 1 else 0)
    return cn_to_int(said)


def _month_number(said: str) -> int:
    return _LUNAR_MONTHS.get(said) or cn_to_int(said)


def _solar(year: int, month: int, day: int) -> date | None:
    """The solar date of lunar ``year``/``month``/``day`` (day 0 or 30 past the month's end: its last day)."""
    from lunar_python import Lunar, LunarYear

    if not 1901 <= year <= 2099:  # the package's tables
        return None
    lunar_month = LunarYear.fromYear(year).getMonth(month)
    if lunar_month is None:
        return None
    last = lunar_month.getDayCount()
    solar = Lunar.fromYmd(year, month, last if day == 0 or day > last else day).getSolar()
    return date(solar.getYear(), solar.getMonth(), solar.getDay())


def _lunar_year(today: date) -> int:
    from lunar_python import Solar

    return int(Solar.fromYmd(today.year, today.month, today.day).getLunar().getYear())


def lunar_date(c: Ctx, month: int, day: int, year_shift: int | None) -> date | None:
    """Lunar ``month``/``day`` in the lunar year ``year_shift`` from this one, else the one nearest to today."""
    this = _lunar_year(c.today)
    if year_shift is not None:
        return _solar(this + year_shift, month, day)
    options = [d for d in (_solar(this + k, month, day) for k in (0, -1, 1)) if d]
    return min(options, key=lambda d: abs((d - c.today).days)) if options else None


def solar_term(c: Ctx, name: str, year_shift: int | None) -> date | None:
    """The day of the solar term ``name`` in the year ``year_shift`` from this one, else the one nearest to today."""
    from lunar_python import Solar

    days = {date(s.getYear(), s.getMonth(), s.getDay()) for y in range(c.today.year - 1, c.today.year + 3)
            if 1901 <= y <= 2099
            for key, s in Solar.fromYmd(y, 6, 1).getLunar().getJieQiTable().items() if key == name}
    if year_shift is not None:
        days = {d for d in days if d.year == c.today.year + year_shift}
    return min(days, key=lambda d: abs((d - c.today).days)) if days else None


def resolve(kind: str, m: re.Match[str], c: Ctx) -> Res | None:
    """The day (or the festival's days) a match of :data:`LUNAR_RULES` names; None if it names none."""
    ry = maybe_group(m, "ry")
    shift = _REL_YEARS[ry] if ry else None
    if kind == "term":
        term = solar_term(c, group(m, "term"), shift)
        return Res(*day_span(term), "day") if term else None
    if kind == "month_day":
        month, day, length = _month_number(group(m, "lm")), day_number(group(m, "ld")), 1
    elif kind == "new_year":
        said = group(m, "yd")
        month, day, length = (1, day_number(said), 1) if said.startswith("初") else (12, day_number(said), 1)
    elif kind == "festival":
        month, day, length = FESTIVALS[group(m, "fest")]
    else:
        if c.lunar_month is None:
            return None
        month, day, length = c.lunar_month, cn_to_int(group(m, "bd")), 1
    if not (1 <= month <= 12 and 0 <= day <= 30):
        return None
    found = lunar_date(c, month, day, shift)
    if found is None:
        return None
    if kind != "festival":
        c.lunar_month = month
    if length > 1:
        return Res(*days_span(found, date.fromordinal(found.toordinal() + length - 1)), "holiday")
    return Res(*day_span(found), "day")
