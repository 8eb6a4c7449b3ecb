"""A secret typed as digits with separators after the word that names it, in any language, and its rest.

"gcash mpin ko 4-8-2-6", "the code for the key lockbox at mum's is 2-5-8-0 btw", "工资卡 Kasikorn 账号 073-8-41962-5",
"实习工资卡是招行的 6214 8312 0455", "gate code at dana's is 58". The other finders want a value in one token or in
its document's shape, and take a dashed run of digits for a date or a score. Here, after a PIN, password, code or
lock word (privacy/secret_words.py) and the short gap privacy/gapped.py allows:

* digits read out one by one, a dash or a space apart ("4-8-2-6", "2 5 8 0"), three or more: nobody writes a date,
  a price or a score so;
* a code's first digits ending the message, said with "is", "是" or ":" ("gate code at dana's is 58"), the rest to
  come in the next one;
* after an account or card word, eight digits or more in groups ("073-8-41962-5", "6214 8312 0455").

A year, a date, a price or a quantity with its unit is never one. :func:`continued` reads the rest of such a value
opening the next message after a "then" word ("tapos 1-1.", "oh and then 07, then the bell icon"): a group shaped
like the value's own.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from jiyi.privacy.findings import SECRET, Finding
from jiyi.privacy.gapped import UNIT_AFTER, short_gap
from jiyi.privacy.secret_words import ACCOUNT, CODE, PASSWORD, THEN

_WORDS = re.compile(rf"(?i)(?P<password>{PASSWORD})|(?P<code>{CODE})|(?P<account>{ACCOUNT})")
#: digits in groups a dash or a space apart, standing alone: not part of a token, a time, a decimal or a version
_DIGITS = re.compile(r"(?<![\w.:/-])\d+(?:(?:\s?-\s?|\s)\d+)*(?![\w]|[.:/,-]\d)")
#: a date typed with dashes or spaces, year first or last, or a list of years
_DATE = re.compile(r"(?:19|20)\d\d(?:[\s-]\d{1,2}){1,2}|\d{1,2}[\s-]\d{1,2}[\s-](?:19|20)?\d\d|(?:19|20)\d\d(?:\s(?:19|20)\d\d)+")
#: what says the value is now told: "is", "是", ":" (a short code needs it just before)
_SAID = re.compile(r"(?:(?<![A-Za-z])(?i:is|was|are|it's|its|ko|ay|es|est|ist|adalah)|是|为|係|系|:|：|=|は|는|은)\s*$")
#: what may follow a value that ends its message: a sentence mark, an emoji, spaces
_ENDS = re.compile(r"[\s.!?。！？~～…)）\U0001f300-\U0001faff\u2600-\u27bf]*$")
_CURRENCY = "$¥￥€£₱"


def _groups(value: str) -> list[str]:
    return re.findall(r"\d+", value)


def one_by_one(value: str) -> bool:
    """Digits read out one at a time, three or more: "4-8-2-6", "2 5 8 0"."""
    groups = _groups(value)
    return len(groups) >= 3 and all(len(g) == 1 for g in groups)


def _plain(text: str, start: int, end: int) -> bool:
    """A year, a date, a price or a quantity with its unit after one of its groups."""
    value = text[start:end]
    if _DATE.fullmatch(value) or (start > 0 and text[start - 1] in _CURRENCY):
        return True
    return any(UNIT_AFTER.match(text, start + g.end()) for g in re.finditer(r"\d+", value))


def _kind(m: re.Match[str]) -> str:
    return "bank_card" if m.group("account") else "password" if m.group("password") else "code"


def _label(kind: str, word: str) -> str:
    zh = bool(re.search(r"[\u4e00-\u9fff]", word))
    if kind == "bank_card" and re.search(r"(?i)卡|card|tarjeta|carte|kart|thẻ|cartão|カード|카드", word):
        return "银行卡号" if zh else "card number"
    if kind == "bank_card":
        return "银行账号" if zh else "account number"
    if kind == "code":
        return "密码" if zh else "code"
    return word if zh and word.endswith(("密码", "密碼")) else "密码" if zh else "PIN" if "pin" in word.lower() else "password"


def keyed_digits(text: str) -> Iterator[Finding]:
    """Each value of the kinds the module lists, after the word that names it."""
    for m in _WORDS.finditer(text):
        value = _DIGITS.search(text, m.end(), m.end() + 64)
        if value is None or not short_gap(text[m.end():value.start()]):
            continue
        start, end = value.span()
        kind, groups = _kind(m), _groups(value.group())
        if kind == "bank_card":
            ok = len(groups) >= 2 and sum(map(len, groups)) >= 8
        else:
            ok = one_by_one(value.group()) or (
                len(groups) == 1 and 2 <= len(groups[0]) <= 3 and _SAID.search(text, m.end(), start) is not None
                and _ENDS.fullmatch(text, end) is not None)
        if ok and not _plain(text, start, end):
            yield Finding(start, end, kind, _label(kind, m.group()), SECRET, value.group())


#: a message going on from the last one: a few words at most ("oh", "ok"), a "then" word, the next digits
#: (said on its own: a sentence mark or the message's end after it, not "then 3-1 to us")
_GOES_ON = re.compile(rf"(?i)\s*(?:[^\s\d]+\s+){{0,2}}?(?:{THEN})\s*[,，:：]?\s*(?P<v>\d+(?:(?:\s?-\s?|\s)\d+)*)"
                      r"(?=\s*(?:[.,;!?，。；！？、…~～]|$))(?![.:/,-]\d)")


def _shape(value: str) -> tuple[str, int]:
    """How a value is typed: the separator between its groups ("" for one group) and its longest group."""
    seps = set(re.findall(r"\D+", value.strip()))
    return ("-" if any("-" in s for s in seps) else " " if seps else ""), max(map(len, _groups(value)), default=0)


def continued(before_value: str, text: str) -> tuple[int, int] | None:
    """Where ``text`` goes on with ``before_value``, the secret that ended the speaker's last message: after a
    "then" word near its start, digits typed as that value was (the same separator, no longer groups)."""
    m = _GOES_ON.match(text)
    if m is None or not before_value or not re.search(r"\d", before_value):
        return None
    start, end = m.span("v")
    sep, longest = _shape(before_value)
    got_sep, got_longest = _shape(m.group("v"))
    if got_sep not in ("", sep) or got_longest > max(longest, 1) or sum(map(len, _groups(m.group("v")))) < 2:
        return None
    return None if _plain(text, start, end) else (start, end)
