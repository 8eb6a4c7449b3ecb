"""What the detector finds, and the words its finders share (privacy/detect.py, privacy/gapped.py)."""

from __future__ import annotations

from dataclasses import dataclass

from jiyi.records import Visibility

SECRET, SENSITIVE = Visibility.SECRET, Visibility.SENSITIVE


@dataclass(slots=True, frozen=True)
class Finding:
    """One value found in a text: ``text[start:end]`` is the value itself (never its keyword)."""

    start: int
    end: int
    kind: str  # id_number | phone | email | address | bank_card | password | code | api_key
    label: str  # what the value is, for the placeholder: 支付密码 / WiFi password
    level: Visibility
    value: str


#: kind → (zh label, en label, level); password findings refine the label from their keyword
KINDS: dict[str, tuple[str, str, Visibility]] = {
    "id_number": ("身份证号", "ID number", SENSITIVE),
    "phone": ("手机号", "phone number", SENSITIVE),
    "email": ("邮箱", "email", SENSITIVE),
    "address": ("地址", "address", SENSITIVE),
    "bank_card": ("银行卡号", "card number", SECRET),
    "password": ("密码", "password", SECRET),
    "code": ("验证码", "one-time code", SECRET),
    "api_key": ("密钥", "API key", SECRET),
}


NAMED_IN_EN = r"(?<![A-Za-z])(?:{})(?![A-Za-z])"  # English words, bounded by letters (not \b: 我的PIN码)
NO_MORE = r"(?![0-9A-Za-z_-])"
#: the words that name a password in Chinese
ZH_PASSWORD_WORDS = (r"支付密码|银行卡密码|取款密码|交易密码|登录密码|开机密码|锁屏密码|解锁密码|门锁密码|门禁密码|保险箱密码|"
                      r"(?:wi-?fi|WiFi|WIFI|Wi-Fi|无线网?)\s*密码|密码|口令|PIN\s*码|pin\s*码")


def strip_value(text: str, start: int, end: int) -> tuple[int, int]:
    """Trailing sentence punctuation is not part of a value ("密码是884422。" / "pwd: hunter2.")."""
    while end > start and text[end - 1] in ".,;:!?)]}'\"，。；：！？、）":
        end -= 1
    return start, end
