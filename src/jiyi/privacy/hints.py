"""A password told as the way to make it: "门锁密码是我妈生日倒过来", "wifi密码就是公司名拼音首字母 后面三个6",
"the wifi password is the dog's name backwards".

Whoever reads such a hint rebuilds the password, so the hint stands in for it and is masked like it. A hint is the
clause right after a password word and the word that says what it is (是, 就是, 设成, "is"), holding a word of how a
password is made (initials, pinyin, backwards, a birthday, the year of something, the first digits of pi), and the
clauses after it while each still adds a part (a number, 大写, 后面加 …). After a bare comma ("银行卡密码，我爸出生
那年，一九五八，后面加两个一") it takes two such parts. A clause without one ends the hint ("我怕忘"), and
"密码是什么来着" or "the password is too long" hold none, so they are no hint.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from jiyi.privacy.findings import NAMED_IN_EN, ZH_PASSWORD_WORDS

_N = r"[一二三四五六七八九十两\d]"
#: what a password's maker says it is made of
MADE_OF = re.compile(
    rf"首字母|[头頭前]{_N}*[个個]?字母|拼音|缩写|倒过来|倒着|反过来|倒序|生日|那年|年份|出生年|圆周率|名字|谐音|[前后末]{_N}位|"
    r"(?i:" + NAMED_IN_EN.format(
        r"initials|first\s+letters?|backwards|reversed|in\s+reverse|birthday|birth\s*year|anniversary|"
        r"maiden\s+name|(?:dog|cat|pet|kid|son|daughter)'?s\s+name|digits\s+of\s+pi|year\s+(?:we|i|she|he|they)") + ")")
#: what adds one more part to a hint already begun
_PART = re.compile(rf"大写|小写|[加接]|后面|前面|结尾|{_N}个|[\d零〇一二三四五六七八九幺两]{{2,}}|\d|[#!@*+&]|"
                   r"(?i:" + NAMED_IN_EN.format(r"plus|followed\s+by|then|capital(?:i[sz]ed)?|lower\s*case|upper\s*case|"
                                                r"and\s+(?:the|my|a)") + ")")
_WORD = re.compile(rf"(?P<k>{ZH_PASSWORD_WORDS}|(?i:" + NAMED_IN_EN.format(
    r"(?:wi-?fi\s+|bank\s+|phone\s+|laptop\s+|email\s+)?(?:password|passcode|passwd|pin|passphrase)") + "))")
#: the word that says what the password is; a bare comma asks for two parts
_IS = re.compile(r"\s*(?:也|都|就|还)?(?:就是|就係|就系|是|係|系(?!统|列|数)|为|设成了?|改成了?|换成了?|用的是)\s*|\s*(?:=|：|:)\s*|'s\s+|\s+(?i:is|was)\s+"
                 r"|(?P<comma>\s*[，,]\s*)")
#: a question about the password is no hint: "密码是不是生日", "密码是名字吗", "is it my birthday?"
_ASKED = re.compile(r"是不是|吗|呢|来着|[?？]")
#: where a clause ends: a comma, a sentence mark, a space between Chinese words (not one around a Latin word: "brand 名头四个字母")
_CLAUSE_END = re.compile(r"\s*[，,、；;。.!！?？\n]\s*|(?<=[\u4e00-\u9fff])\s+(?=[^A-Za-z\s])|(?<=[^A-Za-z\s])\s+(?=[\u4e00-\u9fff])")


def _parts(clause: str) -> int:
    return len(MADE_OF.findall(clause)) + len(_PART.findall(clause))


def password_hints(text: str) -> Iterator[tuple[int, int, str]]:
    """Each hint that stands in for a password in ``text``: (start, end, the password word)."""
    for m in _WORD.finditer(text):
        said = _IS.match(text, m.end())
        if said is None:
            continue
        start = end = said.end()
        parts = 0
        for clause in _clauses(text, start):
            if not (MADE_OF.search(text, *clause) if end == start else _parts(text[clause[0]:clause[1]])):
                break
            parts += _parts(text[clause[0]:clause[1]])
            end = clause[1]
        if end > start and parts >= (2 if said.group("comma") else 1) and not _ASKED.search(text, said.start(), end + 1):
            yield start, end, m.group("k")


def _clauses(text: str, start: int) -> Iterator[tuple[int, int]]:
    """The clauses of ``text`` from ``start`` to its sentence's end, as (start, end)."""
    at = start
    for stop in _CLAUSE_END.finditer(text, start):
        if stop.start() > at:
            yield at, stop.start()
        if re.search(r"[。.!！?？\n]", stop.group()):
            return
        at = stop.end()
    if at < len(text):
        yield at, len(text)
