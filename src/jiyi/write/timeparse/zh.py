"""Chinese time expressions: 明天, 下周三, 上个月, 5月3日, 三个月前, 国庆, 晚上8点.

Each rule pairs a pattern with a handler that resolves the match against the
reference day (see the package docstring for the conventions).
"""

from __future__ import annotations

import re
from datetime import date, datetime, timedelta

from jiyi.text.relations import SURNAMES_ZH
from jiyi.write.timeparse.lunar import LUNAR_RULES, day_number
from jiyi.write.timeparse.numbers import cn_to_int, opt_int
from jiyi.write.timeparse.spans import (
    RECENT_DAYS,
    ZH_PARTS,
    Ctx,
    Res,
    Rule,
    Tod,
    day_span,
    daypart_res,
    days_span,
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

_N = r"(?:\d{1,4}|[零〇一二两三四五六七八九十百]{1,4})"
_REL = r"(?P<pre>上上个?|下下个?|上个|下个|这个|今个|呢个|上|下|这|本)"  # (今个 / 呢个: Cantonese "this")
ZH_WEEKDAYS = {"一": 0, "二": 1, "三": 2, "四": 3, "五": 4, "六": 5, "日": 6, "天": 6, "末": 7,
       "1": 0, "2": 1, "3": 2, "4": 3, "5": 4, "6": 5, "7": 6}
_REL_WEEKS = {"上上": -2, "上上个": -2, "上": -1, "上个": -1, "这": 0, "这个": 0, "今个": 0, "呢个": 0, "本": 0,
              "下": 1, "下个": 1, "下下": 2, "下下个": 2}
_REL_DAYS = {"大前天": -3, "前天": -2, "昨天": -1, "昨日": -1, "昨儿": -1, "昨儿个": -1,
             "今天": 0, "今日": 0, "今儿": 0, "今儿个": 0, "明天": 1, "明日": 1, "明儿": 1,
             "明儿个": 1, "后天": 2, "大后天": 3, "后儿": 2, "后儿个": 2, "大后儿": 3, "大后儿个": 3,
             "前儿": -2, "前儿个": -2, "大前儿个": -3,
             # 吴语 (and others): 外后天 / 外后日 three days out; 江淮官话 and 北方话: 后个 the day after tomorrow, 明个
             "外后天": 3, "外后日": 3, "后个": 2, "明个": 1, "大后个": 3, "后添": 2, "大后添": 3,
             # Cantonese (and southern Min) words for the days around today: 听日 tomorrow, 后日 the day after,
             # 寻日 / 琴日 / 噚日 yesterday, 前日 the day before
             "听日": 1, "后日": 2, "大后日": 3, "寻日": -1, "琴日": -1, "噚日": -1, "前日": -2, "大前日": -3,
             # Hokkien / Teochew: 明仔载 tomorrow, 今仔日 today, 昨昏 yesterday
             "明仔载": 1, "明仔日": 1, "今仔日": 0, "昨昏": -1,
             # 北方话 (Shandong, Hebei, Tianjin, the north-east): 夜来 / 夜儿个 / 夜里个 yesterday, 过了明儿 the day after tomorrow
             "夜来": -1, "夜儿个": -1, "夜里个": -1, "夜个儿": -1, "过了明儿": 2, "过了明儿个": 2, "过明儿": 2, "过明儿个": 2,
             # 客家话: 今晡日 today, 昨晡日 yesterday, 前晡日 the day before, 天光日 tomorrow
             "今晡日": 0, "昨晡日": -1, "前晡日": -2, "天光日": 1}
_REL_YEARS = {"大前年": -3, "前年": -2, "去年": -1, "今年": 0, "明年": 1, "后年": 2}
_UNIT_ZH = {"天": "day", "日": "day", "周": "week", "星期": "week", "礼拜": "week", "月": "month",
            "年": "year", "小时": "hour", "钟头": "hour", "分钟": "minute"}


def _zh_past_after(text: str, pos: int) -> bool:
    """Does the clause after ``pos`` read as past (了/过 without a future marker before it)?"""
    clause = re.split(r"[，,。！？!?；;\n]", text[pos:pos + 30], maxsplit=1)[0]
    m = re.search(r"了|过(?![生年节日夜周末马])", clause)  # (not the verb of 过生日, 过年, 过节, 过周末)
    return m is not None and not re.search(r"要|会|打算|准备|想|得|就要|快", clause[: m.start()])


def _zh_rel_day(m: re.Match[str], c: Ctx) -> Res:
    w = maybe_group(m, "w") or ""
    if w == "明后天":
        return Res(*days_span(c.today + timedelta(days=1), c.today + timedelta(days=2)), "day")
    return Res(*day_span(c.today + timedelta(days=_REL_DAYS[w])), "day")


def _zh_short_part(m: re.Match[str], c: Ctx) -> Res:
    """今晚 / 明早 / 昨夜 / 今晨; Cantonese 听朝 / 琴晚 / 今朝."""
    d = c.today + timedelta(days={"今": 0, "明": 1, "昨": -1, "听": 1, "寻": -1, "琴": -1}[group(m, "d")])
    part = {"早": "早上", "晨": "早上", "朝": "早上", "晚": "晚上", "夜": "夜里"}[group(m, "p")]
    return daypart_res(d, part, ZH_PARTS)


def _week_of(c: Ctx, pre: str | None) -> date:
    if pre is not None:
        return monday_of(c.today) + timedelta(weeks=_REL_WEEKS[pre])
    return monday_of(c.anchor_day or c.today)


#: more weekdays right after one (周二四六, 周一三五, 周二四 我值日), not an hour (周二四点)
_WEEKDAY_LIST = re.compile(r"[一二三四五六日天](?![点時时:：\d十半])")
#: a day a plan was moved to is ahead, whatever 了 follows it (聚会改到周日了, 挪到周六了)
_CHANGED_TO = re.compile(r"(?:改|换|挪|推|延|调|定|约)(?:到|成|在|去|至)\s*$")


def _zh_week(m: re.Match[str], c: Ctx) -> Res | None:
    pre, wd = maybe_group(m, "pre"), maybe_group(m, "wd")
    monday = _week_of(c, pre)
    if wd is None:
        return Res(*days_span(monday, monday + timedelta(days=6)), "week")
    if _WEEKDAY_LIST.match(c.text, m.end()):
        return None  # 周二四六 / 周一三五: days of every week, no one date
    i = ZH_WEEKDAYS[wd]
    first = monday + timedelta(days=5 if i == 7 else i)
    bare = pre is None and c.anchor_day is None
    if bare and first > c.today and _zh_past_after(c.text, m.end()) and not _CHANGED_TO.search(c.text, 0, m.start()):
        first -= timedelta(weeks=1)
    if i == 7:
        return Res(*days_span(first, first + timedelta(days=1)), "weekend")
    return Res(*day_span(first), "day")


def _zh_abs_year(m: re.Match[str], c: Ctx) -> Res | None:
    month, day = opt_int(maybe_group(m, "m")), opt_int(maybe_group(m, "d"))
    return ymd(cn_to_int(group(m, "y")), month, day, maybe_group(m, "mp"))


def _zh_rel_year(m: re.Match[str], c: Ctx) -> Res | None:
    y = c.today.year + _REL_YEARS[maybe_group(m, "ry") or "今年"]
    yp = maybe_group(m, "yp")
    if yp in ("初", "年初"):
        return Res(datetime(y, 1, 1), datetime(y, 3, 1), "month")
    if yp:
        return Res(datetime(y, 12, 1), datetime(y + 1, 1, 1), "month")
    return ymd(y, opt_int(maybe_group(m, "m")), opt_int(maybe_group(m, "d")), maybe_group(m, "mp"))


def _zh_month_day(m: re.Match[str], c: Ctx) -> Res | None:
    mo, d = cn_to_int(group(m, "m")), opt_int(maybe_group(m, "d") or maybe_group(m, "bd"))
    if said := maybe_group(m, "nd"):  # 廿八 / 卅一
        d = day_number(said)
    if not 1 <= mo <= 12 or d is not None and not 1 <= d <= 31:
        return None
    if d is None:
        return month_part(nearest_year(c.today, mo), mo, maybe_group(m, "mp"))
    day = nearest_date(c.today, mo, d)
    return Res(*day_span(day), "day") if day else None


def _zh_rel_month(m: re.Match[str], c: Ctx) -> Res | None:
    y, mo = month_add(c.today.year, c.today.month, _REL_WEEKS[maybe_group(m, "pre") or "这"])
    d = opt_int(maybe_group(m, "d"))
    if d is None:
        return month_part(y, mo, maybe_group(m, "mp"))
    day = safe_date(y, mo, d)
    return Res(*day_span(day), "day") if day else None


def _zh_nth_weekday(m: re.Match[str], c: Ctx) -> Res | None:
    """这个月第二个周六, 下个月的第一个星期一, 11月最后一个周五."""
    wd = ZH_WEEKDAYS[group(m, "wd")]
    if mo_said := maybe_group(m, "m"):
        mo = cn_to_int(mo_said)
        if not 1 <= mo <= 12:
            return None
        y = nearest_year(c.today, mo)
    else:
        y, mo = month_add(c.today.year, c.today.month, _REL_WEEKS[group(m, "pre")])
    day = nth_weekday(y, mo, wd, -1 if maybe_group(m, "last") else cn_to_int(group(m, "o")))
    return Res(*day_span(day), "day") if day else None


def _zh_bare_day(m: re.Match[str], c: Ctx) -> Res | None:
    """A day of the month alone (5号): this month's, or next month's when this month's is a week gone or more and the
    clause does not tell it as past (5号要去医院 said on the 13th is December's; 5号去了医院 November's; 12号体检 on
    the 13th is yesterday's)."""
    lo, hi = c.clause(m.start(), m.end(), "，,。！？!?；;\n")
    if c.anchor_month is None and re.search(r"每个?月|月月", c.text[lo:hi]):
        return None  # 房租5号前交 每个月都是: a day of every month
    y, mo = c.anchor_month or (c.today.year, c.today.month)
    n = cn_to_int(group(m, "d"))
    day = safe_date(y, mo, n)
    if day and c.anchor_month is None and day <= c.today - RECENT_DAYS and not _zh_told_past(
            c.text[lo:min(hi, m.end() + 30)], c.text, m.end()):
        day = safe_date(*month_add(y, mo, 1), n)
    return Res(*day_span(day), "day") if day else None


#: a clause telling what was: 了/过 (as :func:`_zh_past_after`), 那天 / 那次 / 上次 / 的时候, or 去的 / 做的 (the 的 of
#: something done)
_ZH_TOLD_PAST = re.compile(r"那天|那次|上次|上回|以前|之前|当时|的时候|[去来买做办看吃拿交到]的")


def _zh_told_past(clause: str, text: str, end: int) -> bool:
    """Does ``clause`` (of ``text``, its date ending at ``end``) tell what was?"""
    return _zh_past_after(text, end) or bool(_ZH_TOLD_PAST.search(clause))


def _zh_offset(m: re.Match[str], c: Ctx) -> Res | None:
    raw = group(m, "n")
    n: float = 0.5 if raw == "半" else cn_to_int(raw)
    if maybe_group(m, "half"):
        n += 0.5
    sign = -1 if group(m, "dir").endswith("前") else 1
    return shift(c, sign * n, _UNIT_ZH[maybe_group(m, "u") or maybe_group(m, "u2") or ""])


def _zh_holiday(m: re.Match[str], c: Ctx) -> Res | None:
    ry = maybe_group(m, "ry")
    return holiday(c, group(m, "hol"), _REL_YEARS[ry] if ry else None)


def _zh_tod(m: re.Match[str], c: Ctx) -> Tod | None:
    part, h = maybe_group(m, "part") or None, maybe_group(m, "h")
    if h is None:
        return Tod(None, None, part)
    half, quarter, minutes = maybe_group(m, "half"), maybe_group(m, "q"), maybe_group(m, "mi")
    suffix = half or quarter or minutes or maybe_group(m, "sfx")
    mi = 30 if half else {"一刻": 15, "三刻": 45}.get(quarter or "", None)
    if mi is None:
        mi = cn_to_int(group(m, "mi")) if minutes else 0
    # "一点" alone is more often "a little" than 1 o'clock: weak unless next to a date
    weak = part is None and not h.isdigit() and not suffix
    return Tod(cn_to_int(h), mi if (half or quarter or minutes) else None, part,
               spoken=True, weak=weak, explicit=part is not None)


_ZH_PART_RE = "|".join(sorted((k for k in ZH_PARTS if len(k) > 1), key=len, reverse=True))
#: 国庆 after a surname is a given name (孙国庆, 王国庆), not the holiday (于 / 和 / 向 / 时 before it are words)
_NOT_A_SURNAME_BEFORE = "(?<![" + "".join(sorted(set(SURNAMES_ZH) - set("于和向时"))) + "])"
_HOL_ZH = ("元旦|情人节|妇女节|劳动节|五一|儿童节|国庆节|" + _NOT_A_SURNAME_BEFORE + "国庆|双十一|双11|双十二|平安夜|圣诞节|圣诞|母亲节|父亲节|"
           "(?<!\\d)618(?![\\d元块号])|"
           # 十一 for the National Day week, when it opens a plan: 十一去威海, 十一假期, 十一我回老家 (not 十一个, 第十一)
           "(?<![\\d一二三四五六七八九十百千万第双周号月])十一(?=假期|长假|期间|黄金周|放假|那几天|我|俺|咱|去|回|要|打算|准备|出去|出游)")
_MP = r"(?P<mp>初|上旬|中旬|下旬|中|底|末|尾)"  # (尾: Cantonese 月尾)
_DAY_ZH = rf"(?:(?P<d>{_N})[日号])"
#: a day in digits with no 日 / 号 after it, as chat writes one (11月15 去土楼, 12月20 开始发货); not a quantity
#: (3月15万, 11月15个人), a time (5月1点), a range's dash or a decimal
_BARE_DAY = (r"(?:(?P<bd>[0-3]?\d)(?![\d万千百亿个人位名块元岁年天分点次米斤克层楼期届%.:：/\-~～])"
             r"|(?P<nd>廿[一二三四五六七八九]?|卅一?)(?![号日]))")  # 十月廿八: the 28th, as Cantonese and Hokkien write it

#: (pattern, handler, skipped after 每/every), tried only on text with Han characters
ZH_RULES: list[Rule] = [
    (re.compile(r"(?:(?P<pre>这个|今个|呢个|上个|下个|这|本|上|下)月|(?P<m>1[0-2]|0?[1-9]|十[一二]?|[一二三四五六七八九])月)份?的?"
                r"(?:第(?P<o>[一二三四五1-5])个|(?P<last>最后一个))(?:周|星期|礼拜)(?P<wd>[一二三四五六日天1-7])"),
     _zh_nth_weekday, False),
    # (北方话's 后儿个 / 前儿个: not the 前儿媳 of an ex-daughter-in-law)
    # (后个 / 明个 as days: not 最后个, 然后个人, 明个月, 后个星期)
    (re.compile(r"(?<![最然之以前背落往])(?P<w>大后个|后个|明个)(?![月人星礼周年位子])"), _zh_rel_day, False),
    (re.compile(r"(?P<w>大后添|后添)"), _zh_rel_day, False),  # 后添: 后天 as typed by sound
    # (not the 夜来 of 夜来香, 半夜来电话, 今夜来临; not the 明儿 of 过了明儿, which is the day after)
    (re.compile(r"(?P<w>今晡日|昨晡日|前晡日|天光日|过了明儿个|过了明儿|过明儿个|过明儿|夜儿个|夜里个|夜个儿|(?<![半昨今深入每到一整当那这前])夜来(?![香临风雨声]))"),
     _zh_rel_day, False),
    (re.compile(r"(?P<w>外后天|外后日|明仔载|明仔日|今仔日|昨昏|明后天|大前天|大后天|前天|昨天|昨日|昨儿个|昨儿|今天|今日|今儿个|今儿|明天|明日|明儿个|明儿|后天|"
                r"大后儿个|大后儿|后儿个|后儿|大前儿个|前儿个|前儿)(?![子媳女])"),
     _zh_rel_day, False),
    # (not the 后日 of 以后日子 or the 前日 of 目前日本: a word's second half, or the first of another)
    (re.compile(r"(?<![以之然最往此其从自落午目眼当提向生年面空跟门日])(?P<w>大后日|大前日|后日|前日|听日|寻日|琴日|噚日)"
                r"(?![子本常期元程语报文军产式韩方记])"), _zh_rel_day, False),
    (re.compile(r"(?P<d>[今明昨])(?P<p>早|晨|晚|夜)(?:上|晨|里)?"), _zh_short_part, False),
    (re.compile(r"(?P<d>[听寻琴])(?P<p>朝|晚)"), _zh_short_part, False),  # Cantonese: 听朝 tomorrow morning, 琴晚
    (re.compile(r"(?P<d>今)(?P<p>朝)(?![有酒醉])"), _zh_short_part, False),  # 今朝 this morning
    (re.compile(rf"{_REL}?(?:周|星期|礼拜)(?P<wd>一(?![直起样定般共下些点次个切])|[二三四五六日天末1-7])"),
     _zh_week, True),
    (re.compile(rf"{_REL}(?:周|星期|礼拜)(?!一(?![直起样定般共下些点次个切])|[二三四五六日天末1-7])"), _zh_week, True),
    (re.compile(r"(?<![今明去前后\d])(?P<yp>年初|年底|年末)"), _zh_rel_year, False),
    (re.compile(r"(?<![每上下这本个\d零〇一二两三四五六七八九十正腊冬岁日风满蜜])月(?P<mp>初|底|末|尾|中旬|中(?![国心间文学央医]))"),
     _zh_rel_month, False),
    (re.compile(rf"(?P<y>(?:19|20)\d{{2}}|[〇零一二三四五六七八九]{{4}})年(?:(?P<m>{_N})月份?(?:{_DAY_ZH}|{_MP})?)?"),
     _zh_abs_year, False),
    (re.compile(rf"(?P<ry>大前年|前年|去年|今年|明年|后年)(?:(?P<m>{_N})月份?(?:{_DAY_ZH}|{_MP})?"
                r"|(?P<yp>年初|年底|年末|初|底|末))?"), _zh_rel_year, False),
    # (五月天 is a band, 六月天 a saying: 月天 without 气 names no month)
    (re.compile(rf"(?<![\d年])(?P<m>{_N})月(?!天(?!气|天))份?(?:{_DAY_ZH}|{_MP}|{_BARE_DAY})?"), _zh_month_day, True),
    (re.compile(rf"{_REL}月(?:{_DAY_ZH}|{_MP})?"), _zh_rel_month, True),
    (re.compile(r"(?<![\d号弄路街栋幢室楼元座门第A-Za-z月几])(?P<d>\d{1,2}(?=[号日])|[一二三四五六七八九十]{1,3}(?=号))[号日]"
                r"(?![线楼房室门床院场馆厅桌柜窗厢A-Za-z\d])"), _zh_bare_day, True),
    (re.compile(rf"(?P<n>{_N}|半)(?:个(?P<more>多)?(?P<u>月|星期|礼拜|小时|钟头)|(?P<more2>多)?"
                r"(?P<u2>天|日|周|年|星期|礼拜|小时|钟头|分钟))(?P<half>半)?(?P<dir>之前|以前|前|之后|以后|后)"),
     _zh_offset, False),
    (re.compile(rf"(?P<ry>去年|今年|明年)?(?P<hol>{_HOL_ZH})"), _zh_holiday, False),
    *LUNAR_RULES,
    (re.compile(rf"(?P<part>{_ZH_PART_RE})(?:(?P<h>\d{{1,2}}|[零一二两三四五六七八九十]{{1,3}})(?:点|點|时)(?!点)"
                r"(?:(?P<half>半)|(?P<q>一刻|三刻)|(?P<mi>\d{1,2}|[零一二三四五六七八九十]{1,3})分?)?(?P<sfx>钟|整)?)?"),
     _zh_tod, False),
    (re.compile(r"(?<![\d.])(?P<part>)(?P<h>\d{1,2}|[零一二两三四五六七八九十]{1,3})(?:点|點)(?!点)"
                r"(?:(?P<half>半)|(?P<q>一刻|三刻)|(?P<mi>\d{1,2}|[零一二三四五六七八九十]{1,3})分?)?(?P<sfx>钟|整)?"),
     _zh_tod, False),
]
