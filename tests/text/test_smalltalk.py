"""Small talk carries nothing to remember; anything with content is not small talk."""

from __future__ import annotations

import pytest

from jiyi.text.smalltalk import is_smalltalk

SMALLTALK = [
    "你好", "您好！", "在吗", "谢谢", "谢谢啦～", "好的", "好的好的", "嗯嗯", "嗯", "哈哈哈哈", "哦哦",
    "好的，谢谢", "没了，拜拜", "晚安", "收到", "👍", "😂😂😂", "。。。", "？？", "[图片][图片]", "",
    "ok", "OK!", "okay thanks", "thanks!", "Thank you so much!", "lol", "hahaha", "hmm", "got it",
    "Good morning!", "bye", "no worries", "sure", "yes", "me too",
]
NOT_SMALLTALK = [
    "我叫小王", "好的，明天见小雅", "ok我等下去领", "482916", "我对花生过敏", "哈哈你还记得芝麻",
    "谢谢，我搬到杭州了", "I live in Boston", "thanks, I moved to Berlin", "hi I'm Tom", "good night, see you in Paris",
    "no, I'm vegan", "I love you",
]


@pytest.mark.parametrize("text", SMALLTALK)
def test_smalltalk(text: str) -> None:
    assert is_smalltalk(text)


@pytest.mark.parametrize("text", NOT_SMALLTALK)
def test_not_smalltalk(text: str) -> None:
    assert not is_smalltalk(text)


def test_long_text_is_never_smalltalk() -> None:
    assert not is_smalltalk("谢谢" * 3 + "我明天要去北京出差，帮我订一张早上的机票" * 5)
