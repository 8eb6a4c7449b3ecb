"""Numbers in time expressions: Chinese numerals, English number words, numeric formats.

``cn_to_int`` reads 二十八 / 两 / 二〇二五; the numeric date and clock formats (14:30,
2025-03-12, 3/12/2025) read the same in every language, so their rules live here too
and run on any text.
"""

from __future__ import annotations

import re

from jiyi.write.timeparse.spans import (
    Ctx,
    Res,
    Rule,
    Tod,
    day_span,
    group,
    maybe_group,
    nearest_date,
    ymd,
)

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


def en_num(s: str) -> int:
    """``"12"`` → 12, ``"a couple of"`` → 2 (KeyError for words it does not know)."""
    s = " ".join(s.lower().split())
    return int(s) if s.isdigit() else _EN_NUMS[s]


def opt_int(s: str | None) -> int | None:
    """:func:`cn_to_int` of an optional regex group."""
    return None if s is None else cn_to_int(s)


def _colon_tod(m: re.Match[str], c: Ctx) -> Tod | None:
    h, mi = int(group(m, "h")), int(group(m, "mi"))
    return Tod(h, mi, None) if h <= 24 and mi <= 59 else None


def _iso_day(m: re.Match[str], c: Ctx) -> Res | None:
    return ymd(int(group(m, "y")), int(group(m, "m")), opt_int(maybe_group(m, "d")))


def _slash_day(m: re.Match[str], c: Ctx) -> Res | None:
    """"11/14", "12/31" without a year: month first in Chinese text; in other text the one order a date reads in
    ("25/12" is the 25th of December), none when both do ("3/4": the 3rd of April or March the 4th), the year the one
    that puts it nearest. Not a fraction or a score ("吃了1/2", "3/5 stars")."""
    a, b = int(group(m, "a")), int(group(m, "b"))
    if (a < b <= 4) or (a, b) == (24, 7) or _NOT_A_DAY_BEFORE.search(c.text, max(0, m.start() - 8), m.start()) \
            or ((a, b) == (10, 10) and not _HAN.search(c.text)):
        return None  # 1/2, 3/4: a half, three quarters; 24/7; 比分 3/1; a card's 有效期 09/29; "10/10 would do again"
    if _HAN.search(c.text) or a == b:
        month, day = a, b
    elif (a <= 12) == (b <= 12):
        return None
    else:
        month, day = (a, b) if a <= 12 else (b, a)
    if not (1 <= month <= 12 and 1 <= day <= 31) or (found := nearest_date(c.today, month, day)) is None:
        return None
    return Res(*day_span(found), "day")


_HAN = re.compile(r"[\u4e00-\u9fff]")
#: words before a number pair that make it a score, a share or a progress, not a day
_NOT_A_DAY_BEFORE = re.compile(r"(?:比分|比数|打了|赢了|输了|进度|完成了?|占|约|大约|剩下?|有效期|效期|到期|(?i:score|won|lost|"
                               r"only|about|progress|ratio|exp|expiry|expires|valid\s+(?:thru|through|until)))\s*[:：]?\s*$")

#: (pattern, handler, skipped after 每/every), for text in any language
NUMERIC_RULES: list[Rule] = [
    (re.compile(r"(?<![\d:])(?P<h>\d{1,2})[:：](?P<mi>\d{2})(?![\d:])"), _colon_tod, False),
    (re.compile(r"(?<!\d)(?P<y>(?:19|20)\d{2})[-/.](?P<m>\d{1,2})[-/.](?P<d>\d{1,2})(?!\d)"), _iso_day, False),
    (re.compile(r"(?<![\d/-])(?P<y>(?:19|20)\d{2})-(?P<m>\d{1,2})(?![-/\d])"), _iso_day, False),
    (re.compile(r"(?<![\d/])(?P<m>\d{1,2})/(?P<d>\d{1,2})/(?P<y>(?:19|20)\d{2})(?!\d)"), _iso_day, False),
    # (not a fraction, a score, a rating or a share: 1/2 杯, 3/5 stars, 50/50, 24/7, 第3/4节)
    (re.compile(r"(?<![\d/.:%第=])(?P<a>\d{1,2})/(?P<b>\d{1,2})(?![\d/%.]|\s*(?:=|星|分|颗|个|杯|份|比|块|节|集|页|题|"
                r"(?i:stars?|points?|pts|cups?|of\b|marks?|score)))"), _slash_day, True),
]
