"""Memory signals trigger extraction early (SPEC §2.4)."""

from __future__ import annotations

import pytest

from jiyi.text.signals import has_memory_signal

SIGNALS = [
    "记住，我对花生过敏", "帮我记一下", "别忘了周五的会", "我一直早睡", "我从不喝酒", "以后回答简短点",
    "我叫小王", "我住在杭州", "我对海鲜过敏", "我搬到浦东了", "我在腾讯工作", "我是一名程序员",
    "我老婆下周生日", "我的手机号换了", "不对，我说错了", "我喜欢爬山",
    "Remember that I'm vegan", "don't forget my birthday", "I always run in the morning", "I never eat pork",
    "My name is Anna", "I live in Boston", "I'm allergic to nuts", "I work at Google", "my wife loves tulips",
    "actually, it's Chicago", "please be concise",
]
NO_SIGNALS = ["你好", "今天天气不错", "哈哈哈", "这个多少钱", "ok thanks", "what time is it?", "nice photo!", ""]


@pytest.mark.parametrize("text", SIGNALS)
def test_signal(text: str) -> None:
    assert has_memory_signal(text)


@pytest.mark.parametrize("text", NO_SIGNALS)
def test_no_signal(text: str) -> None:
    assert not has_memory_signal(text)
