"""Filler replies (a bare no / yes / meh, maybe laughing) are kept as small talk, never shown as memories."""

from __future__ import annotations

import pytest

from jiyi import Kind, Memory
from jiyi.text.fillers import is_filler


@pytest.mark.parametrize("text", ["没有啦哈哈", "没买哈哈", "还没呢哈哈哈", "还好吧", "nah not really lol", "idk lol",
                                  "Nope 😂", "not sure haha"])
def test_a_bare_answer_is_a_filler(text: str) -> None:
    assert is_filler(text)


@pytest.mark.parametrize("text", ["没买过电动车哈哈", "我不去了哈哈", "我对榛子过敏哈哈", "好吃哈哈", "没买哈哈，太贵了",
                                  "no, I moved to Bristol lol", "not really, I prefer tea"])
def test_an_answer_that_says_something_is_not(text: str) -> None:
    assert not is_filler(text)


def test_a_filler_reply_never_reaches_the_block(make_memory: object) -> None:
    mem: Memory = make_memory()  # type: ignore[zydecotor]
    mem.add([{"role": "assistant", "content": "你上周去看那个雕塑展了吗？", "id": "1"},
             {"role": "user", "content": "没去哈哈", "id": "2"},
             {"role": "user", "content": "我下个月想去看雕塑展", "id": "3"}], user_id="u", sync=True)
    eps = {r.source_ids[0]: r for r in mem.get_all(user_id="u", kinds=[Kind.EPISODE])}
    assert eps["2"].metadata.get("smalltalk") is True and eps["2"].importance <= 0.1
    assert "没去哈哈" not in mem.build_context("雕塑展去了吗", user_id="u")


@pytest.mark.parametrize("text", ["哈哈哈 中中中 得劲", "得啦得啦 瞓觉先", "哈 晓得了晓得了", "[语音转文字] 好的好的 谢谢老师",
                                  "要得要得", "嗯嗯 好滴好滴", "知啦知啦"])
def test_an_ok_said_over_and_over_is_a_filler(text: str) -> None:
    assert is_filler(text)


@pytest.mark.parametrize("text", ["啊啊啊啊啊 拟录取了！！！", "吃了吃了 小面二两", "我我我 八点半", "收到收到 明天八点到",
                                  "妈妈 生病了", "一周两杯 不多不多", "好好好 我明天去北京出差", "[语音转文字] 明天去医院"])
def test_words_said_twice_beside_news_are_no_filler(text: str) -> None:
    assert not is_filler(text)
