"""A value said again with new numbers: a price raised, an hour moved, a rent halved.

"粉的价钱 二两15块 三两18块" before "羊肉又涨了 粉涨了一块 二两16 三两19"; "我的摊 kuih 一粒 1 令吉" before "起价咯 现在
一粒 1.50 令吉"; "上班时间八点半" before "公司改时间了 以后七点半就得到岗"; "rent is $520 a week" before "rent's now
$260 a week". No change class names such a turn (nothing moved, ended or was sold), and the two turns share no name:
what they share is the *frame* of their numbers: the unit after a number (块, 令吉, 点半, "a week") and the measure
before it (二两, 一粒, $), or the part of the week or day it is for (周末六百八, 平时三百八).

:func:`renumbers` says whether a newer turn gives new numbers in an older turn's frames: the newer one says a word of
change (涨, 起价, 改, 现在, 以后, "now", "went up"), the two share two frames, or one frame and a content word, and
the older one's numbers are not all among the newer one's. A number without a frame, a year, or a count of people
is none of this.
"""

from __future__ import annotations

import re
from functools import lru_cache

from jiyi.text.script import simplified

_CN = "一二三四五六七八九十两"
#: a number (digits, or a Chinese one) and the unit after it (a Chinese number counts only with its unit)
_QUANTITY = re.compile(rf"(?P<n>\d+(?:[.:]\d+)?|[{_CN}][{_CN}百千万]{{1,4}}(?![{_CN}百千万])(?![年月日号天周岁个])|"
                       rf"[{_CN}]{{1,3}}(?=\s*(?:块|元|箍|蚊|令吉|点|斤|两|粒|碗|杯|份|包|个钟|小时|分钟|公里)))\s*"
                       r"(?P<u>块钱|块|元|箍|蚊|令吉|点半|点钟|点|%|斤|两|粒|碗|杯|份|包|个钟|小时|分钟|公里|镑|欧|刀|"
                       r"(?i:a\s+(?:week|month|day|night|hour)|per\s+\w+|/\w+|an\s+hour|k\b|pm\b|am\b|hours?\b|"
                       r"dollars?\b|bucks?\b|ringgit\b|rm\b|quid\b|euros?\b|pounds?\b|km\b|kg\b))?")
#: what is said right before a number it prices: a currency sign, a quantity (一粒 1, 二两15) or the thing paid
_BEFORE = re.compile(rf"(?:(?P<sign>[$£€¥]|(?i:\brm\b))|(?P<qty>[{_CN}][两粒碗杯份个斤包])|"
                     r"(?P<paid>房租|租金|月租|价钱|价格|工资|月薪|工钱|薪水|学费|费用|(?i:rent|price|fee|salary|wage|pay))|"
                     r"(?P<when>平时|平日|周末|工作日|节假日|淡季|旺季|白天|晚上|夜里|早上|上午|下午|中午))\s*(?:是|要|涨到|降到|到|is|now)?\s*$")
#: a word that says a value is now another: raised, cut, moved, from now on
_CHANGED = re.compile(r"涨|降价|降到|降了|起价|调价|加价|减价|打折|改成|改到|改了|改时间|调到|调成|变成|换成|提到|提前到|推迟到|"
                      r"现在|以后|往后|从此|今后|而家|(?i:\bnow\b|\braised?\b|\bwent\s+up\b|\bgoing\s+up\b|\bup\s+to\b|"
                      r"\bincreas\w*|\bcut\b|\bdropped\b|\bdown\s+to\b|\bchanged\b|\bmoved\b|\bfrom\s+now\b|\banymore\b)")
#: a Chinese run of content characters, and an English word of four letters or more
_WORD = re.compile(r"[\u4e00-\u9fff]{2,}|[A-Za-z]{4,}")
_NUMERALS = re.compile(r"[\d一二三四五六七八九十两零.:]")
#: words any two turns about the speaker's days may share
_COMMON = frozenset({"现在", "以后", "每天", "一天", "今天", "没办法", "没得", "时候", "就是", "这个", "那个", "有点",
                     "with", "that", "this", "have", "just", "from", "about", "week", "month"})


@lru_cache(maxsize=4096)
def _read(text: str) -> tuple[frozenset[str], frozenset[str], frozenset[str], bool]:
    """``text``'s frames, its numbers (those with a frame), its content words, and whether it says a word of change
    (read once per text: search asks it of every pair among its best turns)."""
    text = simplified(text)
    frames: set[str] = set()
    numbers: set[str] = set()
    for m in _QUANTITY.finditer(text):
        here = {re.sub(r"\s+", " ", m.group("u").lower())} if m.group("u") else set()
        if (b := _BEFORE.search(text[max(0, m.start() - 12):m.start()])) is not None:
            here.add((b.group("sign") or b.group("qty") or b.group("paid") or b.group("when")).lower())
        if here and not (re.fullmatch(r"(?:19|20)\d\d", m.group("n")) and not m.group("u") and b is None):  # (a year)
            frames |= here
            numbers.add(m.group("n"))
    content = {w.lower() for w in _WORD.findall(_NUMERALS.sub(" ", text))} - _COMMON
    return frozenset(frames), frozenset(numbers), frozenset(content), _CHANGED.search(text) is not None


def renumbers(newer: str, older: str, *, told_as_change: bool = True) -> bool:
    """Does ``newer`` (a later turn of the same speaker) give new numbers in ``older``'s frames (see the module)?
    Without ``told_as_change`` (two memories: the newer wins, and its word of change may have stayed in its turn) no
    word of change is needed."""
    new_frames, new_numbers, new_words, changed = _read(newer)
    if told_as_change and not changed:
        return False
    old_frames, old_numbers, old_words, _ = _read(older)
    shared = new_frames & old_frames
    if not shared or not old_numbers or old_numbers <= new_numbers or not new_numbers - old_numbers:
        return False
    return len(shared) >= 2 or bool(_shared_words(new_words, old_words))


def _shared_words(new: frozenset[str], old: frozenset[str]) -> set[str]:
    """Content words both say: whole, or a Chinese word of one inside a run of the other (时间 in 上班时间)."""
    out = set(new & old)
    for a in new:
        for b in old:
            if a != b and re.fullmatch(r"[\u4e00-\u9fff]+", a) and re.fullmatch(r"[\u4e00-\u9fff]+", b):
                short, long = sorted((a, b), key=len)
                if len(short) >= 2 and short in long and short not in _COMMON:
                    out.add(short)
    return out


__all__ = ["renumbers"]
