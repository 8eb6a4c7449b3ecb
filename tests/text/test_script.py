"""Traditional characters read as simplified (text/script.py), and given back in what is stored.

Every sentence here was written for these tests, in the characters a user in Taiwan or Hong Kong types.
"""

from __future__ import annotations

from datetime import datetime, timezone
from zoneinfo import ZoneInfo

import pytest

from jiyi.extractors.rules.extractor import RulesExtractor
from jiyi.privacy.detect import find_values
from jiyi.read.noise import is_noise
from jiyi.read.query import analyze_query
from jiyi.read.timewords import resolve_time_words
from jiyi.records import Message
from jiyi.text.script import restore, simplified
from jiyi.text.topics import change_of
from jiyi.write.timeparse import find_time_expressions

T0 = datetime(2026, 3, 2, 4, 0, tzinfo=timezone.utc)
TAIPEI = ZoneInfo("Asia/Taipei")


@pytest.mark.parametrize(("typed", "read"), [
    ("我對蝦過敏", "我对虾过敏"),
    ("提款卡密碼", "提款卡密码"),
    ("裡面 裏面", "里面 里面"),
    ("臺南的房子", "台南的房子"),
])
def test_traditional_characters_are_read_as_simplified_one_for_one(typed: str, read: str) -> None:
    assert simplified(typed) == read
    assert len(simplified(typed)) == len(typed)


@pytest.mark.parametrize("text", ["我老板叫什么", "后来在里面等着", "头发干了", "他只有几个面包", "于是并不着急"])
def test_simplified_text_is_left_as_it_is(text: str) -> None:
    """Characters simplified writing uses too (么, 后, 里, 干, 发, 面…) are not 'traditional'."""
    assert simplified(text) == text


def test_what_is_written_from_the_reading_takes_the_characters_typed() -> None:
    typed = "我養了一隻柴犬叫麻糬 超黏人"
    assert restore("用户的柴犬叫麻糬，超黏人", [(simplified(typed), typed)]) == "用户的柴犬叫麻糬，超黏人"
    assert restore("用户养了一只柴犬", [(simplified(typed), typed)]) == "用户養了一隻柴犬"
    assert restore("用户养了一只柴犬", [("我养了一只柴犬", "我养了一只柴犬")]) == "用户养了一只柴犬"


def extract(text: str) -> list[tuple[str, str | None, str]]:
    return [(c.kind.value, c.slot, c.content)
            for c in RulesExtractor().extract([Message(role="user", content=text, timestamp=T0, id="m0")])]


@pytest.mark.parametrize(("typed", "slot", "kept"), [
    ("我對蝦過敏 吃了會起疹子", "allergy/虾", "對蝦過敏"),  # the slot is one key for both scripts
    ("我養了一隻虎斑貓叫湯圓", None, "虎斑貓叫湯圓"),
    ("我離職了 下個月回高雄", "user/employer", "離職"),
])
def test_a_statement_typed_in_traditional_characters_is_extracted_as_typed(typed: str, slot: str | None,
                                                                          kept: str) -> None:
    found = extract(typed)
    assert found, typed
    assert any(s == slot and kept in content for _, s, content in found), found
    assert extract(simplified(typed)), "the same statement in simplified characters"


def test_a_password_typed_in_traditional_characters_is_a_secret() -> None:
    typed = "網銀密碼先記這裡 8426"
    found = find_values(typed)
    assert [(f.kind, f.value, typed[f.start:f.end]) for f in found] == [("password", "8426", "8426")]
    contents = [c for _, _, c in extract(typed)]
    assert contents and not any("8426" in c for c in contents), contents
    assert any("密碼" in c for c in contents), contents  # the user's characters around our placeholder


@pytest.mark.parametrize(("typed", "cls"), [
    ("機車賣掉了 現在都搭捷運", "sell"),
    ("我跟他分手了 講好的", "end"),
    ("手機換號碼了", "replace"),
    ("搬到新竹了 離公司近", "move"),
])
def test_a_change_typed_in_traditional_characters_is_read(typed: str, cls: str) -> None:
    change = change_of(typed, "zh")  # (it reads standard_zh of the text)
    assert change is not None and change.cls == cls, (typed, change)


def test_a_query_in_traditional_characters_asks_about_the_past() -> None:
    assert analyze_query("上個月我去了哪裡", ref=T0).asks_past
    assert analyze_query("我現在住哪", ref=T0).wants_current


def test_time_words_in_traditional_characters_name_their_day_as_typed() -> None:
    said = datetime(2026, 3, 2, 4, 0, tzinfo=timezone.utc)  # Monday, noon in Taipei
    spans = find_time_expressions("下個月回高雄 後天先去看醫生", said, tz=TAIPEI)
    assert [(s.text, s.start.astimezone(TAIPEI).date().isoformat()) for s in spans] == [
        ("下個月", "2026-04-01"), ("後天", "2026-03-04")]
    assert resolve_time_words("後天去看醫生", said, lang="zh", tz=TAIPEI) == "後天（3月4日）去看醫生"


@pytest.mark.parametrize("text", ["謝謝你～", "好的 沒問題", "在嗎"])
def test_small_talk_in_traditional_characters_is_noise(text: str) -> None:
    assert is_noise(text, assistant=False)
