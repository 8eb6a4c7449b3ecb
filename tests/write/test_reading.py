"""A change kept in the user's words says plainly what it was read as (write/reading.py), on real SQLite."""

from __future__ import annotations

import pytest

from jiyi import Kind, Memory
from jiyi.write.reading import reading


@pytest.mark.parametrize(("text", "said"), [
    ("ivo and i are done. for real this time", "broke up; no longer together"),
    ("旺财走了 十四岁 算喜丧", "已不再陪伴用户"),
])
def test_a_change_in_other_words_carries_its_reading(mem: Memory, text: str, said: str) -> None:
    mem.add([{"role": "user", "content": text, "id": "m1"}], user_id="u", sync=True)
    kept = [r.content for r in mem.get_all(user_id="u") if r.kind is not Kind.EPISODE]
    assert any(said in c for c in kept), kept


@pytest.mark.parametrize("text", ["财务姐 我那发票丢了一张", "钥匙丢了 进不去门"])
def test_a_loss_naming_no_pet_and_ending_none_is_read_as_nothing(mem: Memory, text: str) -> None:
    """丢了 with no pet named or ended: nothing says a pet is gone ("已不再陪伴用户" beside an invoice is nonsense)."""
    mem.add([{"role": "user", "content": text, "id": "m1"}], user_id="u", sync=True)
    kept = [r.content for r in mem.get_all(user_id="u")]
    assert not any("陪伴" in c for c in kept), kept


@pytest.mark.parametrize(("content", "read", "cls", "family", "lang"), [
    ("User broke up with Ivo", "User broke up with Ivo (no longer together)", "end", "partner", "en"),
    ("用户跟周屿掰了", "用户跟周屿掰了（不再是伴侣）", "end", "partner", "zh"),
    ("用户把车卖了", "用户把车卖了（不再拥有）", "sell", "vehicle", "zh"),
    # a habit given up: no longer the thing its words name, or no longer kept up when they only point at it
    ("User quit smoking", "User quit smoking (no longer: smoking)", "stop", "habit", "en"),
    ("用户戒了奶茶", "用户戒了奶茶（不再：奶茶）", "stop", "habit", "zh"),
    ("用户：那玩意儿用户不搞了", "用户：那玩意儿用户不搞了（已不再继续）", "stop", "diet", "zh"),
    # the reading stands after the change, not after how things stand now
    ("用户从花间辞职了，现在自己在网上卖干花", "用户从花间辞职了（不再在那里工作），现在自己在网上卖干花", "leave", "employer", "zh"),
    ("User sold User's car, now User bikes", "User sold User's car (no longer owned), now User bikes", "sell", "vehicle", "en"),
])
def test_an_ending_says_what_is_no_longer_so(content: str, read: str, cls: str, family: str, lang: str) -> None:
    assert reading(content, cls, family, lang) == read


def test_the_speakers_name_is_the_subject_not_what_was_given_up() -> None:
    assert reading("伟哥戒了烟", "stop", "habit", "zh", speaker="伟哥") == "伟哥戒了烟（不再：烟）"


@pytest.mark.parametrize(("content", "cls", "family", "lang"), [
    ("用户换了个发型", "replace", "look", "zh"),  # no plain reading for this change
    ("用户已经不开那台车了，卖了", "sell", "vehicle", "zh"),  # the words say all of it
    ("User moved to Leeds", "move", "residence", "en"),
])
def test_words_that_say_it_already_get_nothing(content: str, cls: str, family: str, lang: str) -> None:
    assert reading(content, cls, family, lang) == content
