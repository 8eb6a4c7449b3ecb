"""Chinese with Latin words in it, read as one run (text/mixed.py), and given back as typed.

Every sentence here was written for these tests, the way people who mix English into Chinese type.
"""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from jiyi.extractors.rules.extractor import RulesExtractor
from jiyi.records import Message
from jiyi.text.mixed import JOINER, tight
from jiyi.text.script import restore, rules_reading

T0 = datetime(2026, 3, 2, 12, 0, tzinfo=timezone.utc)


def _extract(text: str) -> list[tuple[str | None, str]]:
    cands = RulesExtractor().extract([Message(role="user", content=text, timestamp=T0)])
    return [(c.slot, c.content) for c in cands]


@pytest.mark.parametrize(("typed", "read"), [
    ("我住在 Port Calder", f"我住在Port{JOINER}Calder"),
    ("我在 Halcyon Games 上班", f"我在Halcyon{JOINER}Games上班"),
    ("宿舍是 Flat 4B 六个人", f"宿舍是Flat{JOINER}4B六个人"),
    ("我喺一间 audit firm 做嘢", f"我喺一间audit{JOINER}firm做嘢"),
])
def test_a_latin_name_in_chinese_is_one_value(typed: str, read: str) -> None:
    assert tight(typed).text == read


@pytest.mark.parametrize("text", [
    "Dec 9 我要去东京",  # the time parser reads "Dec 9" by its word edges
    "tomorrow 要交报告",
    "我手机 138 1234 5678",  # numbers keep their spaces
    "I moved to Port Calder last week",  # no Chinese: left as it is
    "also 我 quit 了 starbucks, now doing 花艺 at a tiny flower studio",  # read as English: its words keep their edges
    "通知 YY太卡 以后不用了",  # YY is typed against 太卡: the space before it is a boundary
])
def test_numbers_time_words_and_english_text_keep_their_spaces(text: str) -> None:
    read = tight(text).text
    assert JOINER not in read
    assert read.count(" ") == text.count(" ")


def test_a_long_english_clause_in_chinese_is_not_joined() -> None:
    read = tight("离公司近 no more rain lol").text
    assert "no more rain lol" in read
    assert JOINER not in read


def test_restore_gives_back_the_spaces_the_reading_left_out() -> None:
    typed = "我搬到 Port Calder 了"
    reading = rules_reading(typed)
    assert restore("用户" + reading.text[1:], [reading]) == "用户搬到 Port Calder 了"


def test_restore_of_traditional_and_mixed_text_together() -> None:
    typed = "我搬到 Port Calder 了 離公司近"
    reading = rules_reading(typed)
    assert "离公司近" in reading.text
    assert restore(reading.text, [reading]) == typed


@pytest.mark.parametrize(("text", "slot", "says"), [
    ("我搬到 Brightwater 了", "user/city", "Brightwater"),
    ("我住在 Port Calder", "user/city", "Port Calder"),
    ("我在 Halcyon Games 上班", "user/employer", "Halcyon Games"),
    ("我对 peanuts 过敏", "allergy/peanuts", "peanuts"),
    ("and 我搬去 Leeds 了 离公司近", "user/city", "Leeds"),
    ("btw 我男朋友叫 Rhys", "relation/boyfriend", "Rhys"),
])
def test_the_rules_read_latin_values_in_chinese(text: str, slot: str, says: str) -> None:
    """Before, "我住在 Port Calder" read the value as nothing ("用户住在在") and "我对 peanuts 过敏" gave no memory."""
    found = _extract(text)
    assert any(s == slot and says in content for s, content in found), found
    assert not any(JOINER in content for _, content in found)
