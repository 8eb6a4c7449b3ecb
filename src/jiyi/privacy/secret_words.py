"""The words that name a secret typed as digits, in the languages people chat in, and the words that say "then".

privacy/keyed.py reads a value after these words; privacy/protect.py reads the rest of one after a "then" word.
Each list is one language's, Chinese in simplified characters (the detector reads text so: privacy/detect.py);
a dash in a phrase matches a run of spaces or dashes. Latin-script words are bounded by
letters (``mpin`` is not found in "shampine"); the others by nothing, as Chinese words are elsewhere.
"""

from __future__ import annotations

import re

#: a PIN, a password or a passcode, by language
PASSWORD_WORDS: dict[str, str] = {
    "en": "pin pin-code pin-number mpin upin passcode password passwd pwd passphrase combo combination",
    "tl": "mpin upin pin password passcode",  # "gcash mpin ko 4-8-2-6"
    "es": "contraseña clave pin nip",
    "pt": "senha pin",
    "fr": "mot-de-passe code-pin code-secret digicode",
    "de": "passwort kennwort geheimzahl pin",
    "id": "kata-sandi sandi pin",
    "vi": "mật-khẩu mã-pin",
    "zh": "密码 口令 PIN码 暗码",
    "ja": "暗証番号 暗证番号 暗証 パスワード",  # (the detector reads simplified characters: 証 as 证)
    "ko": "비밀번호 암호",
    "th": "รหัสผ่าน รหัส",
}

#: a code, or the thing a code opens ("gate code", "the code for the key lockbox"); a bare "code" only when no
#: word before it makes it a postal, dialling, discount or error code
CODE_WORDS: dict[str, str] = {
    "en": "code codes lockbox lock-box keypad keysafe key-safe padlock safe override",
    "es": "código",
    "pt": "código",
    "fr": "code",
    "de": "code zahlenschloss",
    "id": "kode",
    "vi": "mã",
    "zh": "门禁码 门禁 密码锁 密码箱 保险箱 保险柜 验证码 取件码 开门码",
    "ja": "コード",
    "ko": "코드",
}
#: the words that make "code" no secret's: "zip code 2-1-0", "error code 4-0-4"
NOT_A_SECRET_CODE = ("zip post postal area country dialling dialing promo discount coupon source qr error status "
                     "bar dress country tax product sort swift course class")

#: an account's or a card's number (a salary card, a bank's card), by language
ACCOUNT_WORDS: dict[str, str] = {
    "en": "account acct acc a/c iban card card-number",
    "tl": "account acct",
    "es": "cuenta tarjeta",
    "pt": "conta cartão",
    "fr": "compte carte rib",
    "de": "konto kontonummer karte kartennummer",
    "id": "rekening norek no-rek kartu",
    "vi": "số-tài-khoản tài-khoản số-thẻ thẻ",
    "zh": "账号 帐号 账户 帐户 卡号 工资卡 银行卡 信用卡 储蓄卡 借记卡 提款卡 金融卡 银联卡 存折",
    "ja": "口座番号 口座 カード番号",
    "ko": "계좌번호 계좌 카드번호",
    "th": "เลขบัญชี บัญชี",
}

#: what says the next words go on from the last ones: "then", "tapos", "然后"
THEN_WORDS: dict[str, str] = {
    "en": "then and-then next after-that followed-by plus",
    "tl": "tapos saka pagkatapos",
    "es": "luego después y-luego",
    "pt": "depois e-depois",
    "fr": "puis ensuite et-puis",
    "de": "dann danach",
    "id": "lalu terus kemudian",
    "vi": "rồi sau-đó tiếp-theo",
    "zh": "然后 然後 接着 接著 再来 再 后面 後面 后头 还有",
    "ja": "それから 次は",
    "ko": "그리고 다음",
    "th": "แล้วก็ ต่อด้วย",
}

_LATIN = r"A-Za-z\u00c0-\u024f\u1e00-\u1eff"


def _alternation(lists: dict[str, str]) -> str:
    """One regex alternation of every word of ``lists``, the longest first, Latin-script words bounded by letters."""
    entries = sorted({w for text in lists.values() for w in text.split()}, key=len, reverse=True)
    out = []
    for word in entries:
        pattern = r"[\s-]+".join(re.escape(part) for part in word.split("-")) if word != "a/c" else re.escape(word)
        if re.match(rf"[{_LATIN}]", word):
            pattern = rf"(?<![{_LATIN}]){pattern}(?![{_LATIN}])"
        out.append(pattern)
    return "|".join(out)


PASSWORD = _alternation(PASSWORD_WORDS)
CODE = rf"(?<!{r' )(?<!'.join(NOT_A_SECRET_CODE.split())} )(?:{_alternation(CODE_WORDS)})"
ACCOUNT = _alternation(ACCOUNT_WORDS)
THEN = _alternation(THEN_WORDS)
