"""A change kept in the user's words says plainly what it was read as (write/reading.py), on real SQLite."""

from __future__ import annotations

import pytest

from jiyi import Kind, Memory
from jiyi.write.reading import reading


@pytest.mark.parametrize(("text", "said"), [
    ("ivo and i are done. for real this time", "broke up"),
    ("旺财走了 十四岁 算喜丧", "已不在身边"),
])
def test_a_change_in_other_words_carries_its_reading(mem: Memory, text: str, said: str) -> None:
    mem.add([{"role": "user", "content": text, "id": "m1"}], user_id="u", sync=True)
    kept = [r.content for r in mem.get_all(user_id="u") if r.kind is not Kind.EPISODE]
    assert any(said in c for c in kept), kept


@pytest.mark.parametrize(("content", "cls", "family", "lang"), [
    ("User broke up with Ivo", "end", "partner", "en"),  # the words say it already
    ("用户把车卖了", "sell", "vehicle", "zh"),
    ("用户换了个发型", "replace", "look", "zh"),  # no plain reading for this change
])
def test_words_that_say_it_already_get_nothing(content: str, cls: str, family: str, lang: str) -> None:
    assert reading(content, cls, family, lang) == content
