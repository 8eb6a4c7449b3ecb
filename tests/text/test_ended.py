"""What a turn says it is done with (text/ended.py): the words of the thing, by kind of saying."""

from __future__ import annotations

import pytest

from jiyi.text.ended import ended_terms


@pytest.mark.parametrize(("text", "lang", "term"), [
    ("奶茶我戒咯 而家饮单枞", "zh", "奶茶"),            # a fronted object, a dialect particle
    ("生酮不搞了，头发掉得我心慌", "zh", "生酮"),         # 不…了: no longer
    ("日语我不学了 准备考本校", "zh", "日语"),
    ("那台捷达我卖掉了", "zh", "捷达"),
    ("咖啡也戒了快四个月了", "zh", "咖啡"),
    ("also cancelled ironleaf today, running outside now", "en", "ironleaf"),
    ("no more coffee for me, barley tea gang now", "en", "coffee"),
    ("sold my honda last week", "en", "honda"),
    ("i quit my job at brindle", "en", "brindle"),
])
def test_the_thing_said_to_be_over_is_named(text: str, lang: str, term: str) -> None:
    assert term in ended_terms(text, lang)


@pytest.mark.parametrize(("text", "lang"), [
    ("我想戒奶茶", "zh"),                      # a wish
    ("他把烟戒了", "zh"),                      # someone else's
    ("我没戒奶茶", "zh"),                      # denied
    ("咖啡我是真戒不了", "zh"),                 # could not
    ("不聊了去背政治", "zh"),                   # 不聊了 ends the chat, not the politics
    ("不行了 太累了", "zh"),
    ("雨停了", "zh"),
    ("奶茶戒了吗？", "zh"),                     # asked
    ("the concert sold out in an hour", "en"),
    ("my sister quit smoking last year", "en"),
    ("thinking of quitting coffee", "en"),
    ("we ended up at the harbour market", "en"),
    ("my grandma passed away last week", "en"),   # a death is no thing the speaker gave up
    ("did you quit climbing?", "en"),
    ("I never stopped painting", "en"),
])
def test_nothing_is_over(text: str, lang: str) -> None:
    assert ended_terms(text, lang) == ()
