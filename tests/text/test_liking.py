"""The speaker's feeling about what a turn names (jiyi.text.liking)."""

from __future__ import annotations

import pytest

from jiyi.text.liking import feeling, liked_objects


@pytest.mark.parametrize(("text", "lang", "felt"), [
    ("超爱螺蛳粉 一周三顿", "zh", 1),
    ("螺蛳粉吃伤了 现在闻到就想吐", "zh", -1),
    ("以前超爱螺蛳粉 现在吃伤了", "zh", -1),          # the last feeling said is the one now
    ("不太喜欢喝咖啡", "zh", -1),                     # a liking denied
    ("最近在追《长夜灯》 太好看了", "zh", 1),
    ("我爱人下周出差", "zh", 0),                      # 爱人 is a spouse
    ("这只猫好可爱", "zh", 0),
    ("so sick of ramen now", "en", -1),
    ("obsessed with matcha lately", "en", 1),
    ("I don't like running", "en", -1),
    ("going to the gym at 7", "en", 0),
])
def test_feeling(text: str, lang: str, felt: int) -> None:
    assert feeling(text, lang) == felt


def test_what_a_feeling_is_about() -> None:
    assert liked_objects("最讨厌跑步", "zh") == {"跑步"}
    assert "ramen" in liked_objects("ramen is my love language", "en", frozenset({"language"}))
    assert "language" not in liked_objects("ramen is my love language", "en", frozenset({"language"}))
