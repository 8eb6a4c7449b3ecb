"""Small talk carries nothing to remember; anything with content is not small talk."""

from __future__ import annotations

import pytest

from jiyi.text.smalltalk import (
    SMALLTALK_IMPORTANCE,
    is_chatter,
    is_pleasantry,
    is_smalltalk,
    turn_importance,
    without_decoration,
)

SMALLTALK = [
    "你好", "您好！", "在吗", "谢谢", "谢谢啦～", "好的", "好的好的", "嗯嗯", "嗯", "哈哈哈哈", "哦哦",
    "好的，谢谢", "没了，拜拜", "晚安", "收到", "👍", "😂😂😂", "。。。", "？？", "[图片][图片]", "",
    "ok", "OK!", "okay thanks", "thanks!", "Thank you so much!", "lol", "hahaha", "hmm", "got it",
    "Good morning!", "bye", "no worries", "sure", "yes", "me too",
    "+1", "gm gm", "anyone here?", "morning all", "早上好各位", "扣1",  # group chatter
    "晚安兄弟", "兄弟 在不", "morning bro", "night guys", "ok man",  # a greeting to someone by how they are called
    "[摸鱼]", "[旺柴][旺柴]", "[Facepalm]", "早上好[太阳]",  # stickers, written as their codes
    "国庆快乐呀", "哈哈 元旦快乐", "新婚快乐!!", "happy new year all!", "Merry Xmas", "食饱未",  # wishes, greetings
]
NOT_SMALLTALK = [
    "我叫小王", "好的，明天见小雅", "ok我等下去领", "482916", "我对花生过敏", "哈哈你还记得芝麻",
    "谢谢，我搬到杭州了", "I live in Boston", "thanks, I moved to Berlin", "hi I'm Tom", "good night, see you in Paris",
    "no, I'm vegan", "I love you", "I have 1 cat", "1 more thing: my flight is at 9", "大家好，我是新来的小周",
    "兄弟 明天见", "宝 我到家了", "bro my dog died",  # said to someone, and telling something
    "老婆生日快乐", "happy birthday to my mom, she turns 60 today", "今天我生日",  # whose day it is
    "我对芒果过敏[捂脸]", "[已隐藏:密码]", "see [notes](https://example.org)",  # a sticker beside news; ours; a link
]


@pytest.mark.parametrize("text", SMALLTALK)
def test_smalltalk(text: str) -> None:
    assert is_smalltalk(text)


@pytest.mark.parametrize("text", NOT_SMALLTALK)
def test_not_smalltalk(text: str) -> None:
    assert not is_smalltalk(text)


def test_long_text_is_never_smalltalk() -> None:
    assert not is_smalltalk("谢谢" * 3 + "我明天要去北京出差，帮我订一张早上的机票" * 5)


PLEASANTRIES = [
    "你好！有什么可以帮你？", "您好，请问有什么可以帮您的吗？", "很高兴认识你，小明！", "恭喜乔迁！", "恭喜你升职了！",
    "好的，祝你周末愉快！", "不客气，有问题随时找我~", "haha ok", "thanks!", "Nice to meet you, Maya! How can I help?",
    "Hello! How can I help you today?", "You're welcome! Let me know if you need anything else.",
    "Congratulations! Have a great trip!", "嗯嗯，好的，晚安",
    "早安打工人", "晚上好 家人们！", "morning fam",  # a crowd greeted by what it is called
]
NOT_PLEASANTRIES = [
    "你好，我叫小明", "谢谢，我对花生过敏", "Congrats on the new job at Google — when do you start?", "祝我生日快乐",
    "恭喜我吧，我升职了", "推荐点零食", "周末去哪玩", "好的，我记住了：你对花生过敏。", "Hi Tom, I moved to Paris",
    "OK, I will remember that you live in Berlin.", "我在苏州住", "我在东莞上班",
    "早上好，我是新来的实习生", "晚上好 今天加班到九点",
]


@pytest.mark.parametrize("text", PLEASANTRIES)
def test_pleasantries(text: str) -> None:
    assert is_pleasantry(text)
    assert turn_importance(text, "assistant") <= 0.1 and turn_importance(text, "user") <= 0.1


@pytest.mark.parametrize("text", NOT_PLEASANTRIES)
def test_not_pleasantries(text: str) -> None:
    assert not is_pleasantry(text)
    assert turn_importance(text, "user") >= 0.3


def test_a_user_turn_with_a_memory_signal_weighs_more() -> None:
    assert turn_importance("我对花生过敏", "user") > turn_importance("推荐点零食", "user")
    assert turn_importance("I'm allergic to peanuts", "user") > turn_importance("what should I eat?", "user")


@pytest.mark.parametrize("text", ["Fingers crossed!", "Enjoy!", "Will do.", "Awesome goal!", "Good night, Jake!",
                                  "sup bot", "lol noted", "gn", "Hey Jake! What's up?"])
def test_more_english_pleasantries(text: str) -> None:
    assert is_pleasantry(text)


@pytest.mark.parametrize("text", ["brb dinner", "How did it go?", "Nice, remember rest days.",
                                  "Nice to meet you, I live in Paris", "good night, see you in Paris"])
def test_pleasantries_with_something_else_are_not(text: str) -> None:
    assert not is_pleasantry(text)


CHATTER = [
    "lol fair, Pepper and Miso say hi", "lmao same", "fair enough", "haha ikr", "my mom says hello!",
    "哈哈哈 草", "笑死", "好家伙", "确实确实", "666", "年糕和团子向你问好", "我妈让我跟你问好", "草，离谱",
]
NOT_CHATTER = [
    "fair, I will bring wine", "lol I got the job at Stripe", "哈哈 我下周去北京", "草莓好吃", "6点见",
    "好家伙，我被裁了", "Miso is my cat", "确实，我对花生过敏", "say hi to Bob for me at the party on Friday",
]


@pytest.mark.parametrize("text", CHATTER)
def test_chatter_is_small_talk_on_both_sides(text: str) -> None:
    assert is_chatter(text) or is_smalltalk(text)
    assert is_pleasantry(text)
    assert turn_importance(text, "user") == SMALLTALK_IMPORTANCE


@pytest.mark.parametrize("text", NOT_CHATTER)
def test_content_is_not_chatter(text: str) -> None:
    assert not is_chatter(text)
    assert not is_pleasantry(text)


@pytest.mark.parametrize(("text", "kept"), [
    ("汇演圆满成功，谢谢大家 👍👍 [图片][图片]", "汇演圆满成功，谢谢大家"),
    ("rip mochi 🐰💔", "rip mochi 🐰💔"),  # an emoji that tells what happened stays
    ("烧到38℃了", "烧到38℃了"),  # a symbol with its number is a word's part, not decoration
    ("👍", "👍"),  # nothing else left: as it was
])
def test_a_memorys_words_leave_placeholders_and_emoji_out(text: str, kept: str) -> None:
    assert without_decoration(text) == kept
