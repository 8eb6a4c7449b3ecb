"""A secret or an ID typed in groups, or told in part, a few words after the word that names it.

"my card PIN is 4 8 2 1", "my Macau ID, it's 1 3 4 5 2 6 7 (3)", "居留卡号 记着 AB 1234", "身份证 前半截330102 1988":
the other finders want a value whole, in one token or in its document's own shape. People read a card aloud in
groups and send a long number in two messages, so after a password, PIN, lock or ID word (and the short gap
privacy/gapped.py allows) any run of groups holding four digits or more, a space or a dash apart, is that value:
digits, letters around them, a few capitals ("RK", "EN"), a check digit in brackets, a keypad's ``#`` or ``*``.
Three digits do when the gap says it is the first part ("my SIN starts 482"). The rest of such a value opening the
speaker's next message ("then 117 305.", "5678 CD 区役所的表老要填") is read by privacy/protect.py with
:data:`GROUPS` and :func:`plain_value`.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from jiyi.privacy.findings import NAMED_IN_EN, SENSITIVE, Finding, strip_value
from jiyi.privacy.gapped import GAPPED, PLAIN_NUMBER, UNIT_AFTER, short_gap

#: one group: digits with up to three letters about them, two or three capitals, a bracketed check digit, # or *
_GROUP = r"(?:[A-Za-z]{0,3}\d+[A-Za-z]{0,3}|[A-Z]{2,3}|\(\d\)|[#*])"
#: groups a space or a dash apart, ending where a word would end (a sentence mark may follow)
GROUPS = rf"{_GROUP}(?:[ -]{_GROUP})*(?=[.,;:!?，。；：！？、)）]?(?![!-~]))"
_GROUPS = re.compile(GROUPS)
#: the words that name an ID card the detector has no shape for: a residence card, a bare "ID"
_ID_WORDS = re.compile(r"(?P<k>在留卡(?:号码|号)?|居留(?:卡|证|许可)(?:号码|号)?|(?i:" + NAMED_IN_EN.format(
    r"residen(?:ce|t)\s+(?:card|permit)|identity\s+card|id\s+(?:card|number|no\.?)") + ")|" + NAMED_IN_EN.format(r"ID")
                       + ")")
#: an ID that is no person's, named before the bare "ID": an order's, an app user's, a device's (a handle, which
#: has lower-case letters, is none either: "我B站ID是 xiaomao1234")
_OTHER_ID = re.compile(r"(?i:order|tracking|transaction|ticket|booking|reference|invoice|user|player|game|chat|group|"
                       r"apple|app|device|session|request|channel|server|discord|steam|wechat|qq|"
                       r"微信|订单|快递|用户|游戏|账号|帐号|群|站|抖音|微博|小红书|频道|设备)[\s_-]?$")
#: words that say the value is the first part of one ("starts 527", "前半截120105")
_FIRST_PART = re.compile(r"前半|前面|前头|前边|开头|前几位|前三位|(?i:" + NAMED_IN_EN.format(
    r"starts?|starting|begins?|beginning|first\s+(?:part|half|bit)") + ")")
_DIGIT = re.compile(r"\d")
_LEADING_CAPITALS = re.compile(r"(?<![!-~])[A-Z]{2,3} $")
#: a date typed in groups, or a list of years
_DATE = re.compile(r"(?:19|20)\d\d(?:(?:[ -]\d{1,2}){1,2}|(?:[ -](?:19|20)\d\d)+)")
#: a size or a count after a number's group ("2 3 4 5 cm")
_SIZE = re.compile(r"\s*(?i:cm|mm|ml|mg|gb|mb|kb|tb|hz|inch(?:es)?)(?![A-Za-z])")

#: (keyword, kind, (zh label, en label), level): the ID and password words of privacy/gapped.py, a network's name
#: aside (a WiFi password is letters and digits), and the ID words above
_WORDS = ((_ID_WORDS, "id_number", ("证件号", "ID number"), SENSITIVE),
          *((words, kind, labels, level) for words, _, kind, labels, level in GAPPED
            if kind == "id_number" or (kind == "password" and labels[0] != "WiFi密码")))


def plain_value(text: str, start: int, end: int) -> bool:
    """Is ``text[start:end]`` a number that is no secret: a year, a date, a price, or a quantity with its unit
    after one of its groups ("10 AM", "2 个"), or fewer than two digits."""
    value = text[start:end]
    if sum(c.isdigit() for c in value) < 2 or PLAIN_NUMBER.fullmatch(value) or _DATE.fullmatch(value):
        return True
    if start > 0 and text[start - 1] in "$¥￥€£":
        return True
    return any(UNIT_AFTER.match(text, start + g.end()) or _SIZE.match(text, start + g.end())
               for g in re.finditer(r"\d+(?![\dA-Za-z])", value))


def _value_start(text: str, after: int, digit: int) -> int:
    """Where the value holding ``digit`` begins: its token's letters ("D2247"), a group of capitals before it."""
    start = digit
    while start > after and text[start - 1].isascii() and text[start - 1].isalpha():
        start -= 1
    lead = _LEADING_CAPITALS.search(text, after, start)
    return lead.start() if lead is not None else start


def in_groups(text: str) -> Iterator[Finding]:
    """Values typed in groups or told in part after a password, PIN, lock or ID word (see the module)."""
    for words, kind, (zh_label, en_label), level in _WORDS:
        for m in words.finditer(text):
            if m.group("k") == "ID" and _OTHER_ID.search(text, max(0, m.start() - 16), m.start()):
                continue
            digit = _DIGIT.search(text, m.end(), m.end() + 64)
            if digit is None or not digit.group().isascii():
                continue
            start = _value_start(text, m.end(), digit.start())
            value = _GROUPS.match(text, start)
            gap = text[m.end():start]
            if value is None or not short_gap(gap):
                continue
            start, end = strip_value(text, start, value.end())
            if end < value.end() and text[end - 2] == "(":
                end += 1  # a check digit keeps its bracket: "(7)"
            digits = sum(c.isdigit() for c in text[start:end])
            if digits < (3 if _FIRST_PART.search(gap) else 4) or plain_value(text, start, end) \
                    or (m.group("k") == "ID" and re.search(r"[a-z]", text[start:end])):
                continue
            zh = bool(re.search(r"[\u4e00-\u9fff]", m.group("k")))
            label = m.group("k") if kind == "password" else zh_label if zh else en_label
            yield Finding(start, end, kind, label, level, text[start:end])
