"""A secret or an ID a few words after the words that name it: "我的支付密码老是记不住，写这儿吧 771203",
"passport, in my drawer, E12345678", "保险箱我设了 9090" (read by privacy/detect.py, last of its finders)."""

from __future__ import annotations

import re
from collections.abc import Iterator

from jiyi.privacy.findings import NAMED_IN_EN as _NAMED_IN_EN
from jiyi.privacy.findings import NO_MORE as _NO_MORE
from jiyi.privacy.findings import SECRET, SENSITIVE, ZH_PASSWORD_WORDS, Finding, strip_value
from jiyi.privacy.national_ids import NATIONAL_IDS
from jiyi.records import Visibility

#: a value's end: a space, the text's end or a sentence mark before one ("combo is 14-33-08, writing it here")
_SAID_END = r"(?=[.,;:!?]?(?![!-~]))"
#: a group of four to eight letters and digits, both in it
_MIXED = r"(?=[A-Za-z]{0,7}\d)(?=\d{0,7}[A-Za-z])[A-Za-z0-9]{4,8}(?![A-Za-z0-9])"
#: (keyword, value shape, kind, (zh label, en label), level), first match wins an overlap: the first number
#: after the keyword, within a short gap, is that value when the token holding it has the keyword's shape.
#: Password words take any printable token with a digit ("wifi密码我贴冰箱上了：zx81mq90"); the others their own.
GAPPED: tuple[tuple[re.Pattern[str], re.Pattern[str], str, tuple[str, str], Visibility], ...] = (
    (re.compile(r"(?P<k>验证码|认证码|确认码|动态码|动态密码|校验码|短信码|激活码|取件码|提货码|安全码|备用码|恢复码|"
                r"(?i:TAC\s*码)|(?i:" + _NAMED_IN_EN.format(
        r"one[-\s]time\s+(?:codes?|password|passcode)|otps?|verification\s+codes?|security\s+code|2fa\s+codes?|"
        r"(?:pickup|pick-up|collection|locker)\s+codes?|"
        r"auth(?:entication)?\s+codes?|authenticator\s+codes?|login\s+codes?|backup\s+codes?|recovery\s+codes?|"
        r"tac(?:\s+codes?)?|(?<!zip\s)(?<!promo\s)(?<!area\s)(?<!postal\s)(?<!discount\s)(?<!coupon\s)codes|"
        # the app that asks for them named first: "steam guard keeps asking me for codes, latest one is 7KQ2X"
        r"guard(?:\s+[a-z']+){0,5}\s+codes?") + "))"),
     # (a code typed in two halves, as an app shows it: "448 193")
     # (and a backup code in groups of four: 9KQ2-7HXM-P4LZ-88RW)
     # (typed digit by digit, "6 1 9 0 3 7"; a locker's two halves, "8472 1935"; a parcel shelf's, "3-2-4417")
     re.compile(r"(?:[A-Za-z0-9]{4,5}(?:-[A-Za-z0-9]{4,5}){2,5}|[A-Za-z0-9]{4,5}-[A-Za-z0-9]{4,5}|\d(?:\s\d){3,7}|"
                r"\d{3,4}\s\d{3,4}|\d{3}[\s-]\d{3}|\d{1,2}-\d{1,2}-\d{3,5}|(?=[A-Za-z-]*\d)[A-Za-z0-9-]{4,8})" + _NO_MORE),
     "code", ("验证码", "one-time code"),
     SECRET),
    # a key named a clause before it: "our render farm API key, stash it for me: rf_live_9QmT2vXb8KpL4sZa";
    # any key or token (a stream key, a licence key, an auth token) when a long random-looking token follows
    (re.compile(r"(?P<k>密钥|秘钥|私钥|令牌|推流码|串流码|授权码|注册码|激活码|(?i:" + _NAMED_IN_EN.format(
        r"keys?|tokens?") + "))"),
     # (or a part of one, after its vendor's prefix: "前半截 figd_Zx81Lq"; a prefix with dashes, "sk-qs-7Hf29LmXq";
     # or typed in groups, "a83f 91c2 7d40 e65b", its first and last group mixing letters and digits)
     re.compile(r"(?=[A-Za-z0-9_\-]*\d)(?=[A-Za-z0-9_\-]*[A-Za-z])(?:[A-Za-z0-9_\-]{16,}|[a-z]{2,6}_[A-Za-z0-9_\-]{6,}|"
                r"[a-z]{2,6}(?:-[a-z]{2,6})?-(?=[A-Za-z0-9]*[A-Z])(?=[A-Za-z0-9]*[a-z])[A-Za-z0-9]{8,})"
                r"|" + _MIXED + r"(?:[ -][A-Za-z0-9]{4,8}){1,6}[ -]" + _MIXED
                + _NO_MORE), "api_key", ("密钥", "API key"),
     SECRET),
    (re.compile(r"(?P<k>卡?背面(?:那|的)?三位(?:数|数字)?|(?i:" + _NAMED_IN_EN.format(
        r"cvv2?|cvc|three\s+digits\s+on\s+the\s+back") + "))"), re.compile(r"\d{3,4}" + _NO_MORE),
     "code", ("安全码", "security code"), SECRET),
    (re.compile(r"(?P<k>(?i:pin\s*码)|" + _NAMED_IN_EN.format(r"PIN") + "|(?i:" + _NAMED_IN_EN.format(
        r"(?:my|your|his|her|our|their|the|bank|card|atm|debit|credit|phone|sim|door|lock|safe)\s+pin") + "))"
        r"(?:\s*(?i:code|number))?"),
     re.compile(r"\d{4,8}" + _NO_MORE), "password", ("PIN码", "PIN"), SECRET),
    (re.compile(rf"(?P<k>(?:{ZH_PASSWORD_WORDS})(?!学)|(?i:" + _NAMED_IN_EN.format(
        r"(?:wi-?fi\s+|bank\s+|card\s+|atm\s+|phone\s+|laptop\s+|email\s+|account\s+|login\s+)?"
        r"(?:password|passcode|passwd|pwd|pw|passphrase)s?|(?:laptop|computer|pc|mac|vpn|email|bank|work)\s+login|"
        r"(?<!boarding\s)(?<!bus\s)(?<!day\s)(?<!season\s)(?<!ski\s)(?<!hall\s)(?<!gym\s)(?<!metro\s)pass") + "))"),
     re.compile(r"\d(?:\s\d){3,11}(?![!-~])|(?=[!-~]*\d)[!-~]{4,32}(?![!-~])"), "password", ("密码", "password"), SECRET),
    # a lock's combination, by the lock (保险箱我设了 9090, "TSA lock … is 409", "gun safe combo 12-33-07")
    (re.compile(r"(?P<k>保险箱|保险柜|密码锁|密码箱|行李箱|拉杆箱|电子锁|智能锁|门锁|门禁|储物柜|(?i:" + _NAMED_IN_EN.format(
        r"safe|combo|combination|padlock|tsa\s+lock|locker|lock(?:box)?(?!\s*screen)|keypad|door\s+code") + "))"),
     re.compile(r"(?:\d{1,2}(?:[\s-]\d{1,2}){2,5}|\d{3,8}#?)" + _SAID_END), "password", ("密码", "combination"), SECRET),
    # a network's password said with the network alone ("我家wifi改了 现在是 xiaomao_0917"), not its name
    (re.compile(r"(?P<k>无线网|(?i:" + _NAMED_IN_EN.format(r"wi-?fi") + r"))(?![^，,。.\n]{0,12}(?:名|叫|(?i:name|ssid|called)))"),
     re.compile(r"(?=[!-~]*\d)(?=[!-~]*[A-Za-z])[!-~]{6,32}(?![!-~])"), "password", ("WiFi密码", "WiFi password"), SECRET),
    (re.compile(r"(?P<k>(?:银行卡|信用卡|储蓄卡|借记卡)(?:号码|号)?|卡号|(?i:" + _NAMED_IN_EN.format(
        r"(?:credit|debit|bank)\s+card|card\s+(?:number|no\.?|#)") + "))"),
     re.compile(r"\d(?:[ -]?\d){12,18}" + _NO_MORE), "bank_card", ("银行卡号", "card number"), SECRET),
    # part of a card's number (not its last four, which a receipt shows): "卡号前面是 6228 4803", "amex begins 3759 8761 23"
    (re.compile(r"(?P<k>(?:银行卡|信用卡|储蓄卡|借记卡)(?:号码|号)?|卡号|(?i:" + _NAMED_IN_EN.format(
        r"(?:credit|debit|bank)\s+card|card\s+(?:number|no\.?|#)|amex|visa|mastercard") + "))"),
     re.compile(r"\d{4}(?:[ -]?\d){4,11}" + _NO_MORE), "bank_card", ("银行卡号", "card number"), SECRET),
    # (an account's number alone is all digits, ten or more: "汇款要用的帐号我放这边 永和银行 207540118863")
    (re.compile(r"(?P<k>帐号|账号|账户|帐户)"), re.compile(r"\d{10,20}" + _NO_MORE), "bank_card", ("银行账号", "account number"),
     SECRET),
    (re.compile(r"(?P<k>(?:银行|邮局|邮政|存折|收款|汇款|转账|对公|储蓄)(?:帐号|账号|账户|帐户)|(?i:" + _NAMED_IN_EN.format(
        r"acct|acc(?:\s+no\.?)?|account(?:\s+(?:number|no\.?|#))?|bank\s+account|iban|routing(?:\s+number)?|bsb|sort\s+code") + "))"),
     re.compile(r"(?:[A-Za-z]{2}\d{2}(?:\s?[A-Za-z0-9]{4}){2,7}(?:\s?[A-Za-z0-9]{1,4})?|\d{3}-\d{3}|\d{2}-\d{2}-\d{2}|"
                r"\d[\d\s-]{6,22}\d)" + _NO_MORE),
     "bank_card", ("银行账号", "account number"), SECRET),
    # (typed in groups, as the card prints it: 420902 19950612 3317)
    (re.compile(r"(?P<k>身份证(?:号码|号)?|证件号码?|公民身份号码)"), re.compile(
        r"(?:\d{17}[\dXx]|\d{15}|\d{6}[\s-]\d{8}[\s-]\d{3}[\dXx]|\d{6}[\s-]\d{4}[\s-]\d{4}[\s-]\d{3}[\dXx])" + _NO_MORE),
     "id_number", ("身份证号", "ID number"), SENSITIVE),
    (re.compile(r"(?P<k>护照(?:号码|号)?|(?i:" + _NAMED_IN_EN.format(r"passport(?:\s+(?:number|no\.?|#))?") + "))"),
     re.compile(r"(?:[A-Za-z]{1,2}\d{6,9}[A-Za-z]?|\d{8,9})" + _NO_MORE), "id_number", ("护照号", "passport number"),
     SENSITIVE),
    (re.compile(r"(?P<k>(?i:" + _NAMED_IN_EN.format(r"ssn|social\s+security(?:\s+(?:number|no\.?|#))?") + "))"),
     re.compile(r"(?:\d{3}([-\s])\d{2}\1\d{4}|\d{9})" + _NO_MORE), "id_number", ("SSN", "SSN"), SENSITIVE),
)


def id_words(en: str | None, zh: str | None) -> str:
    return "|".join([*([zh] if zh else []), *([f"(?i:{_NAMED_IN_EN.format(en)})"] if en else [])])


GAPPED += tuple((re.compile(f"(?P<k>{id_words(en, zh)})"), re.compile(shape + _NO_MORE), "id_number", (label, label),
                  SENSITIVE) for en, zh, shape, label in NATIONAL_IDS)
_GAP_WIDTH = 32  # columns, a Chinese character taking two: 16 characters, or a short English clause
#: a correction ("六个八？不对 是886688", "kiwi2024? no wait, it's kiwi2025")
CORRECTION = r"不对|不是|错了|说错了|记错了|搞错了|更正|纠正|(?i:nope|wait|sorry|oops|i\s+mean|actually|correction)"
#: what may stand before a value that opens the sentence after its keyword's: "号码", "it's", "no.", a correction
_OPENING = re.compile(r"[\s:：,，=-]*(?:(?:号码|号|是|为|我的|新的|现在|" + CORRECTION + r"|"
                      r"(?i:it'?s|it\s+is|mine'?s|mine\s+is|here'?s|no\.?|number|num|#|"
                      r"now|new\s+one))"
                      r"[\s:：,，=-]*)*")
#: the gap may not end a sentence (the value belongs to the next one) …
_GAP_END = re.compile(r"[。！？!?；;\n]+|(?<!\.)\.+(?=\s|$)")
#: … nor name another number: a model, a room, a phone, an account, a card's last digits, a price, an
#: order, an error code, an app ("密码管理器用的是 1Password")
_GAP_OTHER = re.compile(
    r"型号|编号|房间|房号|教室|门牌|尾号|后四位|末四位|账号|账户|用户名|电话|手机|订单|单号|快递|工单|价|花了|代码|错误码|"
    r"管理器|软件|应用|(?i:" + _NAMED_IN_EN.format(
        r"model|room|apt|suite|flight|page|version|order|ticket|reference|phone|mobile|cell|user\s*name|"
        r"account|ends?\s+(?:in|with)|last\s+(?:four|4)|costs?|paid|price|error|manager|apps?") + ")")
#: … nor end on a word that makes the number a time, a place, a rank or an amount ("第", "在", "at", "for")
_GAP_LAST = re.compile(
    r"(?:第|约|大约|共|总共|在|(?<![记抓站忍挡顶稳守保])住|(?i:" + _NAMED_IN_EN.format(
        r"at|on|(?<!came\s)(?<!come\s)(?<!comes\s)(?<!coming\s)in|since|until|till|from|of|for|about|around|after|before|"
        r"by|than|per|over|under|within|no\.?"
        r"|number|room") + r"))[\s:：]*$")
#: "new number PA7734201": a number word before a value with letters names the value (no rank, no amount)
_NUMBER_WORD = re.compile(r"(?i)\b(?:number|no\.?)[\s:：]*$")
#: a year, a date, a time, a price, a range, a version, a size or an ordinal: not a secret
PLAIN_NUMBER = re.compile(
    r"(?:19|20)\d\d|[$¥￥€£#].*|[vV]?\d+(?:[.,:/-]\d+)+.*"
    r"|\d+(?i:am|pm|st|nd|rd|th|s|k|w|m|h|g|p|v|x|km|kg|cm|mm|ml|gb|mb|tb|[kmg]bps|[kmg]?hz|mah|fps|mins?|hrs?|%)")
#: … nor a quantity with its unit or currency after it ("2999元", "4000 steps")
UNIT_AFTER = re.compile(
    r"\s*(?:元|块|毛|角|分|秒|小时|点|年|月|日|号|天|周|岁|个|次|遍|位|人|名|张|件|条|楼|层|室|栋|米|公里|斤|克|度|页|章|题|本|教室|房间|"
    r"集|首|台|套|辆|万|千|百|亿|折|倍|字|级|届|班|路|步|%|％|℃|(?i:" + _NAMED_IN_EN.format(
        r"dollars?|bucks|usd|rmb|yuan|euros?|pounds?|yen|cents?|years?|yrs?|months?|weeks?|days?|hours?|hrs?|"
        r"minutes?|mins?|seconds?|secs?|am|pm|a\.m|p\.m|o'clock|times|people|persons?|characters?|chars?|digits?|"
        r"letters?|numbers?|words?|pages?|miles?|km|kilomet(?:er|re)s?|met(?:er|re)s?|feet|ft|steps|points?|pts|"
        r"calories|likes|followers|views|units?|items?|pieces?|percent|kg|lbs?") + "))")
_CJK = re.compile(r"[\u2e80-\u9fff\uf900-\ufaff\uff00-\uffef]")  # two columns wide: 汉字, ：，, full-width forms
_DIGIT = re.compile(r"\d")


#: what stands between two codes of a list ("7k2m-9x4p, q8r1-z3v6"), before a token with a digit
_NEXT_CODE = re.compile(r"[\s,，、;；]+(?=[A-Za-z-]*\d)")
#: a group of a key typed in groups, after the part before it: letters and digits, both in it
_NEXT_GROUP = re.compile(r" (?=[A-Za-z]{0,7}\d)(?=\d{0,7}[A-Za-z])[A-Za-z0-9]{3,8}(?![!-~])")
#: a card's number in groups of four, eight digits at least
_CARD_GROUPS = re.compile(r"\d{4}(?:[ -]\d{4}){1,4}(?:[ -]\d{1,4})?(?!\d)")
#: how long a value is, said before it ("6位的", "4 digits:")
_COUNT = re.compile(r"\d{1,2}\s*(?:位|个数字|(?i:digits?))")
#: a parcel shelf's code (3-2-4417), never a date after a code word
_SHELF = re.compile(r"\d{1,2}-\d{1,2}-\d{1,5}")  # (and a combination: 12-33-07)
#: a day, year first: never an account's number
_DAY = re.compile(r"(?:19|20)\d\d([\s./-])\d{1,2}\1\d{1,2}")


def _width(text: str) -> int:
    return len(text) + len(_CJK.findall(text))


def short_gap(gap: str, *, lettered: bool = False, wide: bool = False) -> bool:
    """The words between a keyword and its value: one short clause or two, naming nothing else. The value may
    open the next sentence ("passport came back. 583920174, renewing …", "护照办下来了。号码E58214937"): one
    sentence end, followed by nothing but words that introduce a value (:data:`_OPENING`)."""
    ends = list(_GAP_END.finditer(gap))
    if len(ends) > 1 or (ends and not _OPENING.fullmatch(gap, ends[0].end())):
        return False
    return _width(gap) <= _GAP_WIDTH * (2 if wide else 1) and not (_GAP_OTHER.search(gap) or (_GAP_LAST.search(gap) and not (
        _NUMBER_WORD.search(gap) and (lettered or _GAP_END.search(gap) is not None))))


#: codes kept as a list (backup, recovery): digits in dashed groups after them are codes, not a number ("8062-0729")
_LISTED = re.compile(r"(?i)备用|恢复|backup|recovery")


#: a value's correction right after it: "kiwi2024? no wait, it's kiwi2025", "0326 不对 是0623"
_CORRECTED = re.compile(r"[\s?？!！.。,，]*(?:" + CORRECTION + r"|(?i:no))(?:[\s,，!！.。]*(?:" + CORRECTION + r"|(?i:no)))*"
                        r"[\s,，:：]*(?:是|应该是|(?i:it'?s|it\s+is|should\s+be))?[\s:：]*")


def _corrected(text: str, end: int, shape: re.Pattern[str]) -> tuple[int, int] | None:
    """Where a value said again right after the one ending at ``end``, as its correction, stands."""
    if (c := _CORRECTED.match(text, end)) is None or c.end() == end or (value := shape.match(text, c.end())) is None:
        return None
    start, stop = strip_value(text, c.end(), value.end())
    return (start, stop) if stop > start and any(ch.isdigit() for ch in text[start:stop]) else None


def after_a_gap(text: str) -> Iterator[Finding]:
    """A secret or ID named a few words before it: "我的支付密码老是记不住，写这儿吧 771203", "passport, in my
    drawer, E12345678". Only the first number after the keyword is looked at (no other number in between)."""
    for words, shape, kind, (zh_label, en_label), level in GAPPED:
        for m in words.finditer(text):
            digit = _DIGIT.search(text, m.end(), m.end() + 2 * _GAP_WIDTH)
            if digit is not None and (count := _COUNT.match(text, digit.start())) is not None:
                digit = _DIGIT.search(text, count.end(), m.end() + 2 * _GAP_WIDTH)  # "是6位的 492817": how long it is
            if digit is None or not digit.group().isascii():
                continue
            start = digit.start()  # the value is the whole token holding that digit: "abc12345", "E87654321"
            while start > m.end() and "!" <= text[start - 1] <= "~":
                start -= 1
            while start < digit.start() and text[start] in ":=(<[{'\"":  # "码:abc12345", "(4417)"
                start += 1
            value = shape.match(text, start)
            lettered = value is not None and any(c.isalpha() for c in text[start:value.end()])
            # (a document number in its own shape, letters and digits, may stand a clause further: "passport
            # number field wants no spaces right? mine's PA4471932")
            # (as may a card's number in groups of four, eight digits or more: "卡号你帮我记一哈嘛 我怕搞忘了 建行的 6217 0032")
            carded = value is not None and kind == "bank_card" and _CARD_GROUPS.match(text, start) is not None
            if value is None or not short_gap(text[m.end():start], lettered=lettered,
                                               wide=(lettered and kind == "id_number") or carded):
                continue
            start, end = strip_value(text, start, value.end())
            if kind == "bank_card" and _DAY.fullmatch(text, start, end):
                continue  # "account opened 2024-05-12"
            if kind in ("password", "code") and not _SHELF.fullmatch(text, start, end) and not (
                    _LISTED.search(m.group("k")) and "-" in text[start:end]) and (
                    PLAIN_NUMBER.fullmatch(text, start, end) or text[start - 1] in "$¥￥€£#"
                    or UNIT_AFTER.match(text, end)):
                continue
            while kind == "code" and (more := _NEXT_CODE.match(text, end)) is not None \
                    and (following := shape.match(text, more.end())) is not None:
                end = strip_value(text, more.end(), following.end())[1]  # backup codes, several in a row
            while kind == "api_key" and (more := _NEXT_GROUP.match(text, end)) is not None:
                end = more.end()  # the rest of a key typed in groups: "bo_live_7Hq2 Xk9P mW4z"
            zh = bool(re.search(r"[\u4e00-\u9fff]", m.group("k")))
            label = m.group("k") if kind == "password" else zh_label if zh else en_label
            yield Finding(start, end, kind, label, level, text[start:end])
            if (fixed := _corrected(text, end, shape)) is not None:
                yield Finding(*fixed, kind, label, level, text[fixed[0]:fixed[1]])
