"""Finding personal and secret values in text, Chinese and English.

Two levels (SPEC §1, visibility): ``sensitive`` values (phone numbers, emails, resident
ID numbers, street addresses) are recalled only when asked for; ``secret`` values
(passwords, PINs, one-time codes, bank card numbers, API keys and tokens) never reach
a prompt. Numbers are checked, not only shaped: an ID number must carry a valid GB 11643
check digit, a card number must pass Luhn and look like a card (a known issuer prefix,
or 卡/card next to it), so an order number, a date or a price is left alone. People
mistype, so two shapes count whatever their check digit: an 18-character number with a
real province code and a real birth date is an ID number, and a 16-19 digit number
written in groups of four ("6228 4800 1234 5678 912") or with a card issuer's prefix is a
card number, unless an order or tracking word stands next to it.

Detection is by pattern and is tuned towards the secret side: a password phrase
("密码是…", "pwd: …", "my PIN is …") masks what follows it even when it is not a
password, because a missed secret costs more than a masked harmless word. The value
need not follow its keyword at once: the first number within a short gap after a
password, PIN, code, card or ID word is that value when it has the shape ("门锁密码我换了，
新的 739051", "my atm pin, so i don't lose it again, 5530"), and is not a year, a price,
a time, a date or a quantity with its unit ("密码锁买的时候 2999元").
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import replace
from datetime import date
from functools import lru_cache

from jiyi.privacy.findings import (
    KINDS,
    NAMED_IN_EN,
    SECRET,
    SENSITIVE,
    ZH_PASSWORD_WORDS,
    Finding,
    strip_value,
)
from jiyi.privacy.gapped import PLAIN_NUMBER, after_a_gap, id_words
from jiyi.privacy.grouped import in_groups
from jiyi.privacy.hints import MADE_OF, password_hints
from jiyi.privacy.keyed import keyed_digits
from jiyi.privacy.national_ids import NATIONAL_IDS
from jiyi.privacy.phrases import security_answers, seed_phrases
from jiyi.privacy.randomness import LONE_TOKEN, looks_random
from jiyi.records import Visibility
from jiyi.text.script import simplified

# ---------------------------------------------------------------- checksums

_ID_WEIGHTS = (7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2)


def valid_id_number(value: str) -> bool:
    """An 18-character PRC resident ID number with a valid GB 11643-1999 check character."""
    if len(value) != 18 or not value[:17].isdigit():
        return False
    total = sum(int(d) * w for d, w in zip(value[:17], _ID_WEIGHTS))
    return "10X98765432"[total % 11] == value[17].upper()


#: the first two digits of a resident ID number: the provinces, Taiwan, Hong Kong and Macau
_PROVINCES = frozenset({"11", "12", "13", "14", "15", "21", "22", "23", "31", "32", "33", "34", "35", "36", "37",
                        "41", "42", "43", "44", "45", "46", "50", "51", "52", "53", "54", "61", "62", "63", "64",
                        "65", "71", "81", "82"})


def id_number_shape(value: str) -> bool:
    """18 characters that read as a resident ID number, its check character right or mistyped:
    a real province code, a real birth date 19xx/20xx (not in the future), 3 digits and a check character."""
    if len(value) != 18 or not value[:17].isdigit() or value[17] not in "0123456789Xx":
        return False
    if value[:2] not in _PROVINCES or value[6:8] not in ("19", "20"):
        return False
    try:
        born = date(int(value[6:10]), int(value[10:12]), int(value[12:14]))
    except ValueError:
        return False
    return born <= date.today()


def luhn_ok(digits: str) -> bool:
    """The Luhn (mod 10) check every payment card number carries."""
    total = 0
    for i, ch in enumerate(reversed(digits)):
        d = int(ch)
        if i % 2:
            d = d * 2 - 9 if d > 4 else d * 2
        total += d
    return total % 10 == 0


_CARD_PREFIX = re.compile(r"^(?:4|5[1-5]|2[2-7]|3[47]|3[05689]|6(?:011|2|4[4-9]|5)|9[0-9]{2})")
#: a card issuer's prefix and length, close enough to take a number that fails Luhn for a mistyped card
_ISSUER_CARD = re.compile(
    r"(?=\d{16}$)(?:4|5[1-5]|222[1-9]|22[3-9]\d|2[3-6]\d\d|27[01]\d|2720)\d+"  # Visa, Mastercard: 16 digits
    r"|(?=\d{19}$)(?:4|9558)\d+"  # Visa's long cards, ICBC's old ones: 19
    r"|(?=\d{16,19}$)(?:62|6011|64[4-9]|65|352[89]|35[3-8]\d)\d+")  # UnionPay, Discover, JCB: 16-19
#: 16-19 digits written as a card is printed: four groups of four, maybe a short fifth group
_FOUR_BY_FOUR = re.compile(r"\d{4}([ -])\d{4}\1\d{4}\1\d{4}(?:\1\d{1,3})?")

# ---------------------------------------------------------------- patterns

_V = r"(?P<v>"
_ZH_SAY = r"(?:\s*(?:是|为|叫|:|：|=|改成了?|改为|换成了?|设成了?|设置?为|变成了?)\s*|\s+)"
_ZH_PASSWORD = re.compile(
    rf"(?P<k>{ZH_PASSWORD_WORDS}|(?:wi-?fi|WiFi|WIFI|Wi-Fi)(?=\s*(?:是|为|:|：)))"
    rf"(?:也|都|就|还)?{_ZH_SAY}?{_V}[!-~]{{3,64}})")
_EN_PASSWORD = re.compile(
    r"(?i:\b(?P<k>(?:wi-?fi\s+|bank\s+|card\s+|atm\s+|phone\s+|laptop\s+|email\s+|account\s+|login\s+)?"
    r"(?:password|passcode|passwd|pas+wo?rd|pas+wrod|pas+owrd|pwd|pw|pin(?:\s*(?:code|number))?|passphrase)|wi-?fi)"
    r"(?:\s+(?:is|was|will\s+be|=)\s+|\s*[:=]\s*|\s+(?:is|was)\s*:\s*))"
    rf"{_V}[!-~]{{3,64}})")
_EN_PASSWORD_CHANGED = re.compile(
    r"(?i:\b(?P<k>password|passcode|passwd|pwd|pw|pin)\s+(?:to|into)\s+)" rf"{_V}[!-~]{{3,64}})")
_CODE = re.compile(
    r"(?P<k>验证码|动态码|动态密码|校验码|短信码|激活码|取件码|提货码|安全码|"
    r"(?i:one[-\s]time\s+(?:code|password|passcode)|otp(?:\s+code)?|verification\s+code|security\s+code|"
    r"2fa\s+code|auth(?:entication)?\s+code|login\s+code|cvv2?|cvc))"
    r"(?:\s*(?:是|为|:|：|=)\s*|\s+(?i:is|was)\s+|\s*)" rf"{_V}[A-Za-z0-9]{{4,8}})(?![A-Za-z0-9]|-[A-Za-z0-9])")
_API_KEYS = (
    re.compile(r"(?<![A-Za-z0-9_-])" + _V + r"sk-(?:proj-|ant-|live-|test-)?[A-Za-z0-9_\-]{16,})"),
    # a vendor's own prefix after sk-, then a short random tail of upper case, lower case and digits: sk-qs-7Hf29LmXq
    re.compile(r"(?<![A-Za-z0-9_-])" + _V + r"sk-[a-z]{2,8}-(?=[A-Za-z0-9]*\d)(?=[A-Za-z0-9]*[A-Z])(?=[A-Za-z0-9]*[a-z])"
               r"[A-Za-z0-9]{8,})(?![A-Za-z0-9_-])"),
    re.compile(r"(?<![A-Za-z0-9_-])" + _V + r"(?:gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,}))"),
    re.compile(r"(?<![A-Za-z0-9])" + _V + r"(?:AKIA|ASIA)[0-9A-Z]{16})(?![A-Za-z0-9])"),
    re.compile(r"(?<![A-Za-z0-9_:-])" + _V + r"\d{8,10}:[A-Za-z0-9_-]{30,})"),  # a Telegram bot's token
    re.compile(r"(?<![A-Za-z0-9_-])" + _V + r"(?:xox[abprs]-[A-Za-z0-9-]{10,}|AIza[0-9A-Za-z_\-]{35}))"),
    re.compile(r"(?<![A-Za-z0-9_-])" + _V + r"eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,})"),
    re.compile(r"(?i:\bbearer\s+)" + _V + r"[A-Za-z0-9._~+/=-]{16,})"),
    # a service's key with its kind and environment in front: rk_live_…, pk_test_…, rf_live_…
    re.compile(r"(?<![A-Za-z0-9_-])" + _V + r"[a-z]{2,5}_(?:live|test|prod|dev)_[A-Za-z0-9]{12,})(?![A-Za-z0-9])"),
    re.compile(r"(?i:(?:api[_\s-]?key|secret[_\s-]?key|access[_\s-]?key|private[_\s-]?key|token|secret)"
               r"(?:\s+(?:is|was)\s+|\s*[:=]\s*|\s+))"
               r"|(?:密钥|秘钥|令牌|私钥|token|Token|TOKEN)(?:是|为|:|：|=|\s)*"),
)
PLACEHOLDER = re.compile(r"\[(?:已隐藏|secret|private):\s?(?P<label>[^\[\]\n]{1,24})\]")
_KEY_VALUE = re.compile(r"[A-Za-z0-9+/_=\-.]{16,}")
_CARD = re.compile(r"(?<![\d-])(?:\d[ -]?){12,18}\d(?![\d-])")
_CARD_CONTEXT = re.compile(r"(?i:卡|card|visa|master|amex|银联|借记|信用|储蓄|account\s+number|账号)")
_NOT_CARD_CONTEXT = re.compile(r"(?i:订单|单号|运单|快递|流水|物流|包裹|工单|order|tracking|invoice|serial|交易号|"
                               r"shipment|parcel|package|ticket|booking|reference)")
_ID = re.compile(r"(?<![0-9A-Za-z])[1-9]\d{5}(?:18|19|20)\d{2}(?:0[1-9]|1[0-2])(?:0[1-9]|[12]\d|3[01])\d{3}[\dXx]"
                 r"(?![0-9A-Za-z])")
_PHONES = (
    # CN mobile, optionally +86 / 0086, digits optionally grouped 3-4-4
    re.compile(r"(?<![\d+])(?:(?:\+|00)86[-\s]?)?1[3-9]\d(?:[-\s]?\d{4}){2}(?!\d)"),
    # CN landline with its area code
    re.compile(r"(?<!\d)0\d{2,3}-\d{7,8}(?!\d)"),
    # E.164 and international: + country code and at least 7 more digits in groups
    re.compile(r"(?<![A-Za-z0-9_+])\+\d{1,3}(?:[\s.-]?\(?\d{1,4}\)?){2,5}(?!\d)"),
    # US: (415) 555-0132, 415-555-0132, 415.555.0132, +1 415 555 0132
    re.compile(r"(?<![\d-])(?:\+?1[\s.-]?)?(?:\(\d{3}\)\s?|\d{3}[\s.-])\d{3}[\s.-]\d{4}(?![\d-])"),
)
_PHONE_CONTEXT = re.compile(
    r"(?i:(?:phone|cell|mobile|tel|telephone|whatsapp|call\s+me\s+at|text\s+me\s+at|number)\b"
    r"|电话|手机|号码|座机|联系方式)[^0-9+\n]{0,16}(?<![A-Za-z])(?P<v>\+?\d[\d\s().-]{5,18}\d)")
_EMAIL = re.compile(r"(?<![A-Za-z0-9_.+-])[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}")
_ZH_NUM = r"[0-9０-９一二三四五六七八九十百零〇两]+"
_ZH_ADDRESS = re.compile(
    r"(?:[\u4e00-\u9fff]{2,8}(?:省|自治区))?(?:[\u4e00-\u9fff]{2,8}市)?(?:[\u4e00-\u9fff]{1,8}(?:区|县|镇|乡))?"
    r"(?:"
    rf"[\u4e00-\u9fff]{{1,12}}(?:路|街|大道|大街|巷|胡同|弄|道)\s*{_ZH_NUM}\s*(?:号|弄|巷)"
    rf"|[\u4e00-\u9fff]{{2,12}}(?:小区|花园|公寓|家园|新村|大厦|苑|村)\s*{_ZH_NUM}\s*(?:号楼|栋|幢|座|号)"
    r")"
    rf"(?:\s*[0-9A-Za-z０-９一二三四五六七八九十\-]+\s*(?:号楼|号院|栋|幢|座|单元|楼|层|室|号|弄))*")
_EN_STREET = (r"Street|St|Avenue|Ave|Road|Rd|Boulevard|Blvd|Lane|Ln|Drive|Dr|Court|Ct|Way|Place|Pl|Terrace|"
              r"Parkway|Pkwy|Highway|Hwy|Square|Sq|Circle|Cir|Crescent|Close")
_EN_ADDRESS = re.compile(
    r"(?<![A-Za-z0-9_-])\d{1,6}[A-Za-z]?\s+(?:[A-Z][A-Za-z'.-]*\s+){1,4}"
    rf"(?i:{_EN_STREET})\b\.?"
    r"(?:,?\s*(?i:apt\.?|apartment|suite|unit|#)\s*[\w-]+)?")


# ---------------------------------------------------------------- finders

def _password_label(keyword: str, zh: bool) -> str:
    k = keyword.lower().replace(" ", "")
    if "wi" in k or "无线" in k:
        return "WiFi密码" if zh else "WiFi password"
    if "pin" in k:
        return "PIN码" if zh else "PIN"
    if zh:
        return keyword if keyword.endswith("密码") and len(keyword) <= 6 else "密码"
    return "password"  # en: 支付密码 and "payment password" alike are a password


_EN_NOT_PASSWORD = frozenset(
    ["correct", "wrong", "incorrect", "weak", "strong", "required", "expired", "same", "different", "changed", "reset", "secret", "the", "my", "your", "not", "too", "very", "still", "also", "what", "what's", "here", "there", "saved", "stored", "forgotten", "lost", "long", "short", "new", "old", "easy", "hard", "simple", "complicated", "ok", "okay", "fine"])


def _plausible_secret(value: str) -> bool:
    """A password-like token, not an English word that happens to follow "password is"."""
    if any(c.isdigit() for c in value) or not value.isalpha():
        return True
    return value.lower() not in _EN_NOT_PASSWORD


#: a login given as a name and its password with a slash between: "my uni login is ethan.wu4 / Frogs&Rain2026!",
#: "账号 lin_88 / Qwe#2024" (the password after the slash, a name before it)
_LOGIN_PAIR = re.compile(r"(?P<k>(?i:\b(?:login|log-in|credentials?|account|username)\b)|账号|帐号|用户名)"
                         r"(?:\s+(?i:is|was)\s+|\s*[:：=是]\s*|\s+)\S{2,40}?\s*/\s*" rf"{_V}[!-~]{{4,64}})")


def _passwords(text: str) -> Iterator[Finding]:
    for pattern, zh in ((_ZH_PASSWORD, True), (_EN_PASSWORD, False), (_EN_PASSWORD_CHANGED, False),
                        (_LOGIN_PAIR, False)):
        for m in pattern.finditer(text):
            start, end = strip_value(text, m.start("v"), m.end("v"))
            value = text[start:end]
            if len(value) < 3 or (not zh and not _plausible_secret(value)):
                continue
            yield Finding(start, end, "password", _password_label(m.group("k"), zh), SECRET, value)


def _codes(text: str) -> Iterator[Finding]:
    for m in _CODE.finditer(text):
        value = m.group("v")
        if any(c.isdigit() for c in value):
            zh = bool(re.match(r"[\u4e00-\u9fff]", m.group("k")))
            label = m.group("k") if zh else "one-time code"
            yield Finding(m.start("v"), m.end("v"), "code", label, SECRET, value)


def _api_keys(text: str) -> Iterator[Finding]:
    for pattern in _API_KEYS[:-1]:
        for m in pattern.finditer(text):
            yield Finding(m.start("v"), m.end("v"), "api_key", "", SECRET, m.group("v"))
    for m in _API_KEYS[-1].finditer(text):  # a key word, then a long random-looking token
        v = _KEY_VALUE.match(text, m.end())
        if v and re.search(r"\d", v.group()) and re.search(r"[A-Za-z]", v.group()):
            start, end = strip_value(text, v.start(), v.end())
            yield Finding(start, end, "api_key", "", SECRET, text[start:end])


def _mistyped_card(text: str, m: re.Match[str], digits: str) -> bool:
    """A 16-19 digit number that fails Luhn is still a card when it is printed like one (four groups of
    four) or starts with an issuer's prefix, and no order or tracking word stands near it."""
    if not 16 <= len(digits) <= 19 or digits[:2] in ("19", "20"):  # "2019 2020 2021 2022" is a list of years
        return False
    if not (_FOUR_BY_FOUR.fullmatch(m.group()) or _ISSUER_CARD.fullmatch(digits)):
        return False
    return not _NOT_CARD_CONTEXT.search(text, max(0, m.start() - 24), min(len(text), m.end() + 16))


def _cards(text: str) -> Iterator[Finding]:
    for m in _CARD.finditer(text):
        digits = re.sub(r"\D", "", m.group())
        if not 13 <= len(digits) <= 19 or valid_id_number(digits):
            continue
        before = text[max(0, m.start() - 16):m.start()]
        if _NOT_CARD_CONTEXT.search(before) and not _CARD_CONTEXT.search(before):
            continue
        if (luhn_ok(digits) and (_CARD_CONTEXT.search(before) or _CARD_PREFIX.match(digits))) \
                or _mistyped_card(text, m, digits):
            yield Finding(m.start(), m.end(), "bank_card", "", SECRET, m.group())


#: a passport number: a letter or two and digits, a check letter after some (E1234567P), or 8-9 digits alone
_PASSPORT = r"[A-Za-z]{0,2}\d{6,9}[A-Za-z]?"
#: a number right after the word that names it is that thing, whatever its checksum:
#: 身份证号 1101…(a wrong check digit), SSN 123-45-6789, 银行卡号 6222…(fails Luhn), cvv 123
_BY_CONTEXT: tuple[tuple[re.Pattern[str], str, str, str, Visibility], ...] = (
    (re.compile(r"(?P<k>身份证|证件|公民身份)(?:号码|号)?"), r"\d[\d\s]{4,18}[\dXx]|[A-Za-z]{1,2}\d{6,9}[A-Za-z]?",
     "id_number", "身份证号", SENSITIVE),
    (re.compile(r"(?P<k>护照)(?:号码|号)?"), _PASSPORT, "id_number", "护照号", SENSITIVE),
    (re.compile(r"(?i)\b(?P<k>ssn|social\s+security(?:\s+(?:number|no\.?|#))?)"), r"\d{3}[-\s]?\d{2}[-\s]?\d{4}",
     "id_number", "SSN", SENSITIVE),
    (re.compile(r"(?i)\b(?P<k>passport)(?:\s+(?:number|no\.?|#))?"), _PASSPORT, "id_number",
     "passport number", SENSITIVE),
    (re.compile(r"(?i)\b(?P<k>id\s+(?:number|no\.?|card))"), r"[A-Za-z]{0,2}\d[\d-]{4,18}[\dXx]", "id_number", "ID number",
     SENSITIVE),
    (re.compile(r"(?P<k>银行卡|信用卡|储蓄卡|借记卡|卡)(?:号码|号)|(?P<k2>银行卡|信用卡|储蓄卡|借记卡)"), r"\d[\d\s-]{6,22}\d",
     "bank_card", "银行卡号", SECRET),
    (re.compile(r"(?i)\b(?P<k>(?:credit\s+|debit\s+|bank\s+)?card)(?:\s+(?:number|no\.?|#))"), r"\d[\d\s-]{6,22}\d",
     "bank_card", "card number", SECRET),
    (re.compile(r"(?i)\b(?P<k>card)\b"), r"\d{4}[\s-]?\d{4}[\s-]?\d{4}[\s-]?\d{1,7}", "bank_card",  # "card is 4929 1830 …"
     "card number", SECRET),
    (re.compile(r"(?i)(?P<k>cvv2?|cvc|安全码|security\s+code)"), r"\d{3,4}", "code", "安全码", SECRET),
    (re.compile(r"(?i)(?P<k>验证码|动态码|校验码)"), r"[A-Za-z0-9]{3,8}", "code", "验证码", SECRET),
    (re.compile(r"(?i)(?<!zip\s)(?<!post\s)(?<!area\s)(?<!country\s)(?<!postal\s)(?<!promo\s)(?<!discount\s)"
                r"(?<!coupon\s)(?<!source\s)(?<!qr\s)\b(?P<k>code)\b"), r"(?:\d{3,4}\s\d{3,4}|\d{4,8})(?!-\d)", "code", "one-time code",
     SECRET),
    (re.compile(r"(?i)\b(?P<k>pin)(?:\s*(?:code|number|码))?|(?P<k2>PIN码|pin码)"), r"\d{4,8}", "password", "PIN", SECRET),
)
_CONTEXT_SAY = r"(?:\s*(?:是|为|:|：|=|＝|#)\s*|\s+(?i:is|was|will\s+be|are)\s*:?\s*|\s*)"


def _by_context(text: str) -> Iterator[Finding]:
    for words, shape, kind, label, level in _BY_CONTEXT:
        for m in words.finditer(text):
            v = re.compile(_CONTEXT_SAY + rf"(?P<v>{shape})(?![0-9A-Za-z])").match(text, m.end())
            if v is None or sum(c.isdigit() for c in v.group("v")) < 3:
                continue
            start, end = strip_value(text, v.start("v"), v.end("v"))
            while end > start and text[end - 1] in " -":
                end -= 1
            zh = bool(re.search(r"[\u4e00-\u9fff]", m.group(0)))
            name = label if zh or kind != "code" else "one-time code"
            if kind == "code" and not zh and re.match(r"(?i)cvv|cvc|security", m.group(0)):
                name = "security code"
            yield Finding(start, end, kind, name if zh or not re.search(r"[\u4e00-\u9fff]", name) else "",
                          level, text[start:end])


def _id_numbers(text: str) -> Iterator[Finding]:
    """ID numbers by their check digit, or by their shape alone (a mistyped check digit) unless an order or
    tracking word in front says it is something else, or a card word does and the number passes Luhn."""
    for m in _ID.finditer(text):
        if not valid_id_number(m.group()):
            before = text[max(0, m.start() - 16):m.start()]
            if not id_number_shape(m.group()) or _NOT_CARD_CONTEXT.search(before) \
                    or (_CARD_CONTEXT.search(before) and m.group().isdigit() and luhn_ok(m.group())):
                continue
        yield Finding(m.start(), m.end(), "id_number", "", SENSITIVE, m.group())


def _digits_between(value: str, low: int, high: int) -> bool:
    return low <= sum(c.isdigit() for c in value) <= high


def _phones(text: str) -> Iterator[Finding]:
    for pattern in _PHONES:
        for m in pattern.finditer(text):
            if _digits_between(m.group(), 7, 15):
                yield Finding(m.start(), m.end(), "phone", "", SENSITIVE, m.group())
    for m in _PHONE_CONTEXT.finditer(text):
        start, end = strip_value(text, m.start("v"), m.end("v"))
        value = text[start:end]
        if _digits_between(value, 7, 15) and not re.fullmatch(r"(?:19|20)\d\d[-./]\d{1,2}[-./]\d{1,2}", value):
            yield Finding(start, end, "phone", "", SENSITIVE, value)


def _emails(text: str) -> Iterator[Finding]:
    for m in _EMAIL.finditer(text):
        yield Finding(m.start(), m.end(), "email", "", SENSITIVE, m.group())


_ZH_ADDRESS_START = re.compile(r"省|自治区|市|区|县|路|街|大道|巷|胡同|弄|小区|花园|公寓|家园|新村|大厦|苑|村")
_ZH_LEAD = re.compile(r".*(?:是|在|到|为|成|：|:|址|住|寄|送|搬|去|了|的)")


def _addresses(text: str) -> Iterator[Finding]:
    for pattern in (_ZH_ADDRESS, _EN_ADDRESS):
        for m in pattern.finditer(text):
            start, end = strip_value(text, m.start(), m.end())
            first = _ZH_ADDRESS_START.search(text, start, end)
            if pattern is _ZH_ADDRESS and first is not None and (lead := _ZH_LEAD.match(text, start, first.start())):
                start = lead.end()  # "我家住在上海市…" / "地址是攻击者路1号": the address begins after the verb
            yield Finding(start, end, "address", "", SENSITIVE, text[start:end])


_BY_CONTEXT += tuple((re.compile(f"(?P<k>{id_words(en, zh)})"), shape, "id_number", label, SENSITIVE)
                     for en, zh, shape, label in NATIONAL_IDS)


#: a one-time code named after its value: "the bank texted me 771204 as a verification code", "558201是验证码"
_CODE_THEN_WORD = re.compile(
    r"(?<![A-Za-z0-9])(?P<v>\d{4,8}|(?=[A-Za-z]*\d)(?=\d*[A-Za-z])[A-Za-z0-9]{4,8})(?![A-Za-z0-9])"
    r"(?P<gap>[^\d。！？!?.\n]{0,16}?)"
    r"(?:验证码|动态码|校验码|短信码|(?i:" + NAMED_IN_EN.format(
        r"verification\s+code|one[-\s]time\s+(?:code|password|passcode)|otp|security\s+code|login\s+code|2fa\s+code|"
        r"auth(?:entication)?\s+code") + "))")
#: what may stand between such a value and its word: "as a", "is my", "是", "的", "这个"
_CODE_GAP = re.compile(r"(?i)^[\s,，:：]*(?:(?:as|is|was|for|my|the|a|an|its|it's|this|that|one|是|就是|作为|当|的|个|这个|那个)"
                       r"[\s,，:：]*)*$")


def _code_before_its_word(text: str) -> Iterator[Finding]:
    """A one-time code whose word comes after it ("texted me 771204 as a verification code")."""
    for m in _CODE_THEN_WORD.finditer(text):
        if not _CODE_GAP.match(m.group("gap")) or PLAIN_NUMBER.fullmatch(m.group("v")):
            continue
        zh = bool(re.search(r"[\u4e00-\u9fff]", m.group(0)[len(m.group("v")):]))
        yield Finding(m.start("v"), m.end("v"), "code", "验证码" if zh else "one-time code", SECRET, m.group("v"))


#: a password said in Chinese numerals a few characters after its word (支付宝支付密码 七七零四一九, 密码是幺三五七九),
#: maybe in groups as one reads it out (保险箱密码 侬记记：幺五八 两两零)
_NUMERALS = "零〇一二三四五六七八九幺两"
_ZH_NUMERAL_PASSWORD = re.compile(rf"(?P<k>{ZH_PASSWORD_WORDS})[^，,。.！!？?\n]{{0,12}}?"
                                  rf"(?P<v>[{_NUMERALS}]{{2,12}}(?:[ ，,、]\s*[{_NUMERALS}]{{2,12}})*)"
                                  rf"(?![{_NUMERALS}十百千万亿位个遍次])")


def _numeral_passwords(text: str) -> Iterator[Finding]:
    for m in _ZH_NUMERAL_PASSWORD.finditer(text):
        groups = re.findall(rf"[{_NUMERALS}]+", m.group("v"))
        if sum(map(len, groups)) >= 4 and (len(groups) > 1 or len(groups[0]) >= 4) and min(map(len, groups)) >= 2:
            yield Finding(m.start("v"), m.end("v"), "password", m.group("k"), SECRET, m.group("v"))


def _word_secrets(text: str) -> Iterator[Finding]:
    """A wallet's recovery words and a security question's answer (privacy/phrases.py)."""
    for start, end in seed_phrases(text):
        yield Finding(start, end, "api_key", "助记词", SECRET, text[start:end])
    for start, end in security_answers(text):
        yield Finding(start, end, "password", "密保答案", SECRET, text[start:end])


def _hints(text: str) -> Iterator[Finding]:
    """A password told as the way to make it ("保险箱密码是我儿子生日倒过来"): the hint stands in for it
    (privacy/hints.py)."""
    for start, end, word in password_hints(text):
        yield Finding(start, end, "password", word, SECRET, text[start:end])


def _lone_tokens(text: str) -> Iterator[Finding]:
    """A key or token nothing names, by its random-looking shape (privacy/randomness.py)."""
    for m in LONE_TOKEN.finditer(text):
        start, end = strip_value(text, m.start(), m.end())
        word_start = max(text.rfind(c, 0, start) for c in " \n\t") + 1
        if "://" in text[word_start:start]:
            continue  # a link's own part (an image id in its query)
        if looks_random(text[start:end]):
            yield Finding(start, end, "api_key", "", SECRET, text[start:end])


#: a bank's or the post office's account told by its word where money is the talk: "郵局帳號 局號 0011234 帳號 0567890"
_MONEY_TALK = re.compile(r"银行|邮局|邮政|对公|收款|汇款|汇钱|转账|打款|开户|储蓄|存折|工资|(?i:\bbank\b|\bsort\s+code\b)")
_ACCOUNT_NUMBER = re.compile(r"(?P<k>账号|帐号|账户|帐户|局号|户号|(?i:account\s+(?:number|no\.?|#)))"
                             rf"{_CONTEXT_SAY}(?P<v>\d[\d\s-]{{4,26}}\d)(?![0-9A-Za-z])")


def _bank_accounts(text: str) -> Iterator[Finding]:
    """An account's number after its word (账号, 局号, "account number") in a message about money or a bank."""
    if _MONEY_TALK.search(text) is None:
        return
    for m in _ACCOUNT_NUMBER.finditer(text):
        start, end = strip_value(text, m.start("v"), m.end("v"))
        if sum(c.isdigit() for c in text[start:end]) >= 6:
            zh = bool(re.search(r"[\u4e00-\u9fff]", m.group("k")))
            yield Finding(start, end, "bank_card", "银行账号" if zh else "account number", SECRET, text[start:end])


#: a password's word, then later in the same message a token with letters and digits or signs: what the talk between
#: them says of it ("抖音密码也讲畀你听 系𠊎屋下电话后四位加个橙字拼音 7731cheng")
_NAMED_PASSWORD = re.compile(rf"(?:{ZH_PASSWORD_WORDS})|(?i:\b(?:password|passcode|passwd|pwd)\b)")
_MIXED_TOKEN = re.compile(r"(?<![!-~])(?=[!-~]*[A-Za-z])(?=[!-~]*(?:\d|[#_*@$%&!]))[!-~]{5,40}(?![!-~])")


#: a number with its unit, a time or a rank: "300Mbps", "128GB", "3pm", "2nd"
_QUANTITY = re.compile(r"(?i)[\d:./-]+\s*(?:[ap]m|st|nd|rd|th|[kmgtp]?b(?:ps)?|[kmg]?hz|mah|[kmc]?m|mm|kg|g|ml|l|w|kw|v|"
                       r"px|dpi|fps|rpm|mph|km/?h|pcs|x|mins?|hrs?|h|s|secs?|yo|yrs?|k|%)")


#: the speaker telling it: "也讲畀你听", "告诉你", "跟你说", "帮我记一下", "tell you"
_TELLS = re.compile(r"(?:告诉|讲给|讲畀|讲俾|说给|跟|同|给)(?:你|您)(?:听|说|讲)?|(?:帮我|帮忙|给我)?记(?:一?下|住|着)|"
                    r"(?i:\btell\s+you\b|\bremember\b|\bnote\s+(?:it|this)\b)")


def _told_after_its_word(text: str) -> Iterator[Finding]:
    """A token of letters with digits or signs said after a password's word in the same message, whatever is said
    between: what else could it be there (a link, an email, a time, a chat template's marker are not)."""
    named = _NAMED_PASSWORD.search(text)
    if named is None:
        return
    for m in _MIXED_TOKEN.finditer(text, named.end()):
        value = m.group()
        if "://" in value or "@" in value or "<" in value or "|" in value or _QUANTITY.fullmatch(value) \
                or not (MADE_OF.search(text, named.end(), m.start()) or _TELLS.search(text, named.end(), m.start())):
            continue  # (what is said between must tell it or how it is made: "车牌是 A8K926" is a plate)
        start, end = strip_value(text, m.start(), m.end())
        yield Finding(start, end, "password", _password_label(named.group(), bool(re.search(r"[\u4e00-\u9fff]", text))),
                      SECRET, text[start:end])


#: in priority order: an earlier finder's span wins an overlap (a card number is not a phone); a value
#: found after a gap comes last, so a phone number, a date or an address it would take stays what it is
_FINDERS: tuple[Callable[[str], Iterator[Finding]], ...] = (
    _api_keys, _codes, _passwords, _by_context, _id_numbers, _cards, _bank_accounts, _emails, _phones, _addresses, _hints,
    after_a_gap, in_groups, keyed_digits, _code_before_its_word, _numeral_passwords, _word_secrets, _lone_tokens,
    _told_after_its_word)


#: every value above needs one of these; most turns have none and cost one search
_MAYBE = re.compile(r"[0-9０-９@]|[密码令钥号栋室]|助记词|安全问题|(?i:pass|pw|pin|wi-?fi|key|token|secret|bearer|otp|cvv|cvc|code|"
                    r"seed|phrase|mnemonic|words|security)")



def find_values(text: str, *, lang: str | None = None) -> list[Finding]:
    """Every sensitive or secret value in ``text``, in text order, without overlaps.

    ``lang`` ("zh"/"en") picks the labels' language; by default a text with Chinese
    characters gets Chinese labels. Traditional characters are read as simplified (提款卡密碼 is 提款卡密码:
    text/script.py); a value keeps the characters typed.
    """
    read = simplified(text)
    if not _MAYBE.search(read):
        return []
    found = _find_values(read, lang)
    if _SPOKEN_DIGITS.search(read):  # a number read out in Chinese numerals (a voice message): 卡号是 六二一七 八五零零 …
        found = _with_spoken(found, read, lang)
    if read == text:
        return list(found)
    return [replace(f, value=text[f.start:f.end]) for f in found]


#: four Chinese numerals in a row, each one digit (十, 百 are said of a quantity, never of a number read out)
_SPOKEN_DIGITS = re.compile(f"[{_NUMERALS}]{{4,}}")
_AS_DIGITS = str.maketrans(_NUMERALS, "0012345678912")


def _with_spoken(found: Sequence[Finding], text: str, lang: str | None) -> tuple[Finding, ...]:
    """``found``, and what the finders find in ``text`` with its Chinese numerals as digits, where that is mostly
    numerals (four at least) and overlaps nothing found: a card, an account, an ID or a phone number read out."""
    out = list(found)
    for f in _find_values(text.translate(_AS_DIGITS), lang):
        spoken = sum(ch in _NUMERALS for ch in text[f.start:f.end])
        if spoken >= 4 and spoken * 2 > len(re.sub(r"\s", "", text[f.start:f.end])) \
                and _clear_of(f, out):
            out.append(replace(f, value=text[f.start:f.end]))
    return tuple(sorted(out, key=lambda f: f.start))


def _clear_of(f: Finding, taken: Sequence[Finding]) -> bool:
    """Does ``f`` overlap none of ``taken``?"""
    return all(f.end <= t.start or f.start >= t.end for t in taken)


def _within(f: Finding, taken: Sequence[Finding], text: str) -> Finding | None:
    """The one finding of ``taken`` that ``f`` overlaps, when it is of ``f``'s kind and ``f`` is it and more groups
    after it ("371082 1999 0714" and "371082 1999 0714 062X")."""
    over = [t for t in taken if t.start < f.end and f.start < t.end]
    if len(over) == 1 and over[0].kind == f.kind and f.start == over[0].start and over[0].end < f.end \
            and _MORE_GROUPS.fullmatch(text, over[0].end, f.end):
        return over[0]
    return None


#: what a value's longer reading adds: groups of letters, digits or #, a space, a dot or a dash apart
_MORE_GROUPS = re.compile(r"(?:[\s.\-]?[0-9A-Za-z#]+)+")


@lru_cache(maxsize=2048)
def _find_values(text: str, lang: str | None) -> tuple[Finding, ...]:
    """:func:`find_values`, cached: one turn is looked at by the mask, the extractor and the write path."""
    zh = lang == "zh" if lang else bool(re.search(r"[\u4e00-\u9fff]", text))
    taken: list[Finding] = [Finding(m.start(), m.end(), "placeholder", "", SENSITIVE, "")
                            for m in PLACEHOLDER.finditer(text)]  # masked already: not found again
    for finder in _FINDERS:
        for f in finder(text):
            if f.end <= f.start:
                continue
            if _clear_of(f, taken):
                taken.append(f)
            elif (inner := _within(f, taken, text)) is not None:
                taken[taken.index(inner)] = f  # "371082 1999 0714 062X": the whole of a value an earlier finder cut short
    out = []
    for f in sorted(taken, key=lambda f: f.start):
        if f.kind == "placeholder":
            continue
        zh_label, en_label, _ = KINDS[f.kind]
        label = f.label or (zh_label if zh else en_label)
        if f.kind == "password":
            label = _password_label(label, zh)
        elif f.kind == "code" and zh != bool(re.search(r"[\u4e00-\u9fff]", label)):
            label = zh_label if zh else en_label
        out.append(Finding(f.start, f.end, f.kind, label, f.level, f.value))
    return tuple(out)
