"""First person → third person, so a memory reads right out of context."""

from __future__ import annotations

import pytest

from jiyi.text.person import first_person, third_person, third_person_en, third_person_zh, tidy_zh


@pytest.mark.parametrize(
    ("text", "expected"),
    [("我妈下周三生日", "用户的妈妈下周三生日"), ("你帮我记一下", "助手帮用户记一下"), ("我们要搬家了", "用户要搬家了"),
     ("我老婆苏琳喜欢郁金香", "用户的老婆苏琳喜欢郁金香"), ("我的手机号", "用户的手机号"), ("自我介绍", "自我介绍"),
     ("我爸想让我考公", "用户的爸爸想让用户考公"), ("我家狗狗叫豆豆", "用户的狗狗叫豆豆"), ("我家在杭州", "用户的家在杭州")],
)
def test_zh(text: str, expected: str) -> None:
    assert third_person_zh(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [("I love hiking with my dog", "User loves hiking with User's dog"),
     ("I'm allergic to peanuts", "User is allergic to peanuts"),
     ("I don't eat pork", "User doesn't eat pork"),
     ("I never drink coffee", "User never drinks coffee"),
     ("I usually go to bed late", "User usually goes to bed late"),
     ("I try to run", "User tries to run"),
     ("I went to a support group", "User went to a support group"),
     ("I bought a car", "User bought a car"),
     ("I've been to Japan", "User has been to Japan"),
     ("I'll call you", "User will call the assistant"),
     ("We are moving to Paris", "User and others are moving to Paris")],
)
def test_en(text: str, expected: str) -> None:
    assert third_person_en(text) == expected


def test_dispatch() -> None:
    assert third_person("我住在上海", "zh") == "用户住在上海"
    assert third_person("I live in Boston", "en") == "User lives in Boston"


@pytest.mark.parametrize(
    ("text", "expected"),
    [("嗯嗯，对了，我喜欢吃辣吧", "我喜欢吃辣"), ("还有啊，有事给我发短信", "有事给我发短信"),
     ("对花生过敏", "对花生过敏"), ("好的，麻烦了", "麻烦了"), ("那写\"妈妈生日快乐\"", "那写\"妈妈生日快乐"),
     ("兄弟 我跑闪送的", "我跑闪送的"), ("姐妹们，我脱单了", "我脱单了"),  # the one spoken to
     ("我兄弟在深圳", "我兄弟在深圳"), ("兄弟 你帮我看看", "兄弟 你帮我看看")],
)
def test_tidy_zh(text: str, expected: str) -> None:
    assert tidy_zh(text) == expected


@pytest.mark.parametrize(("text", "out"), [("i passed the bar", "User passed the bar"), ("i hate emojis", "User hates emojis"),
                                           ("im tired lol", "User is tired lol"), ("i.e. the thing", "i.e. the thing"),
                                           ("wifi is down", "wifi is down")])
def test_chats_lowercase_i_is_the_user(text: str, out: str) -> None:
    assert third_person_en(text) == out


@pytest.mark.parametrize(("text", "out"), [
    ("用户住在杭州", "我住在杭州"), ("用户的老婆叫苏琳，用户对花生过敏", "我的老婆叫苏琳，我对花生过敏"), ("我们用户群很大", "我们用户群很大"),
    ("User lives in Berlin", "I live in Berlin"), ("The user is allergic to peanuts", "I am allergic to peanuts"),
    ("User's wife is Anna", "My wife is Anna"), ("User goes running every morning", "I go running every morning"),
    ("User doesn't eat pork", "I don't eat pork"), ("User studies law", "I study law"),
])
def test_first_person(text: str, out: str) -> None:
    assert first_person(text, "zh" if not text.isascii() else "en") == out
