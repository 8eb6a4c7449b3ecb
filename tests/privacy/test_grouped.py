"""Secrets and IDs typed in groups or told in part, combinations, vendor keys, numerals in groups and password
hints: positives and near-miss negatives (jiyi.privacy.grouped, jiyi.privacy.hints, jiyi.privacy.detect)."""

from __future__ import annotations

import pytest

from jiyi.privacy.detect import find_values
from jiyi.records import Visibility

SECRET, SENSITIVE = Visibility.SECRET, Visibility.SENSITIVE


def found(text: str) -> list[tuple[str, str, Visibility]]:
    return [(f.kind, text[f.start:f.end], f.level) for f in find_values(text)]


@pytest.mark.parametrize(("text", "kind", "value", "level"), [
    # typed digit by digit or in groups after a PIN or an ID word, a check digit in brackets
    ("my card PIN is 4 8 2 1, don't tell anyone", "password", "4 8 2 1", SECRET),
    ("atm pin is 6 0 3 9 in case I forget", "password", "6 0 3 9", SECRET),
    ("For the form I need my Macau ID, it's 1 3 4 5 2 6 7 (3), keep it", "id_number", "1 3 4 5 2 6 7 (3)", SENSITIVE),
    ("my residence card is AB 1234 5678 CD, for the ward office", "id_number", "AB 1234 5678 CD", SENSITIVE),
    # the first part of one, with letters about its digits
    ("居留卡号 记着 AB 1234", "id_number", "AB 1234", SENSITIVE),
    ("帮我记着 身份证 前半截330102 1988", "id_number", "330102 1988", SENSITIVE),
    ("幫我記一下 身分證 F1234", "id_number", "F1234", SENSITIVE),
    ("my SIN starts 482", "id_number", "482", SENSITIVE),  # three digits, as its first part
    # a combination with a comma after it, a key with its vendor's own prefix, numerals read out in groups
    ("gym locker combo is 22-08-15, so I don't forget", "password", "22-08-15", SECRET),
    ("dev API key here sk-ab-9Kd82LpQz for tomorrow", "api_key", "sk-ab-9Kd82LpQz", SECRET),
    ("sk-xy-Q8r2Lm9Tz4", "api_key", "sk-xy-Q8r2Lm9Tz4", SECRET),
    ("保险柜密码 你帮我记：幺三七 两九零", "password", "幺三七 两九零", SECRET),
    ("密码是 四四七，两零八", "password", "四四七，两零八", SECRET),
])
def test_a_value_in_groups_or_in_part_after_its_word(text: str, kind: str, value: str, level: Visibility) -> None:
    assert (kind, value, level) in found(text), found(text)


@pytest.mark.parametrize("text", [
    "3 2 1 go!", "the score was 3 2 at half time", "python 3 11 4 released", "locker room 2 3",
    "my user ID 88123456", "order ID 1234 5678", "game ID 5521 8830",  # no person's ID
    "我B站ID是 xiaomao1234", "游戏ID 5521 8830",  # a handle, a game's
    "身份证 2019年办的", "身份证有效期 2024 05 12", "身份证 丢了 补办要 10 个工作日", "ID photos need 2 3 4 5 cm",
    "my ID badge number 4521 is on the lanyard", "ID check took 45 min", "the Macau ID office opens 9 to 5",
    "密码锁 买了 2 个", "密码 忘了 试了 3 4 次", "the lock screen shows 12 34 for time", "safe trip! see you at 7 30",
    "sk-ii essence 2024 on sale", "my SIN starts with a 5",
])
def test_numbers_near_an_id_or_secret_word_that_are_no_value(text: str) -> None:
    assert [f for f in find_values(text) if f.kind in ("password", "id_number", "api_key")] == []


@pytest.mark.parametrize(("text", "value"), [
    ("路由器密码就是小区名拼音首字母 后面加三个6 客人老问", "小区名拼音首字母 后面加三个6"),
    ("保险箱密码是我儿子生日倒过来 我怕忘", "我儿子生日倒过来"),
    ("门锁密码是圆周率前八位 别外传", "圆周率前八位"),
    ("the wifi password is the cafe's name backwards, lol", "the cafe's name backwards"),
    ("存折密码，老伴生日那年，一九八二，后面加两个八，记着", "老伴生日那年，一九八二，后面加两个八"),  # a bare comma: two parts
])
def test_a_hint_after_a_password_word_stands_in_for_it(text: str, value: str) -> None:
    assert ("password", value, SECRET) in found(text), found(text)


@pytest.mark.parametrize("text", [
    "密码是什么来着 好像跟生日有关", "密码是不是生日", "密码是名字吗", "密码是6位数字",
    "我忘了密码，名字都想不起来了",  # a bare comma and one part: no hint
    "wifi密码是贴在冰箱上的那个", "改密码要用生日吗",
    "the password is too long, it needs 8 characters plus a symbol", "my password is my birthday?",
    "the password is on a sticky note, next to the 2 plants",
])
def test_words_about_a_password_that_are_no_hint(text: str) -> None:
    assert [f for f in find_values(text) if f.kind == "password"] == []
