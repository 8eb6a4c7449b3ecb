"""Dialect grammar words read as Mandarin (text/dialect.py), and what the readers of a change make of them."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from jiyi.read.query import analyze_query
from jiyi.text.dialect import standard_zh
from jiyi.text.ended import ended_terms
from jiyi.text.topics import change_of

T0 = datetime(2026, 11, 20, 4, 0, tzinfo=timezone.utc)


@pytest.mark.parametrize(("typed", "read"), [
    ("茶伲覅吃哉", "茶我不吃了"),  # 吴: 伲 我, 覅 不, 哉 了
    ("老人机勿用哉", "老人机不用了"),
    ("鞋厂彼爿 阮毋做啊", "鞋厂那爿 我不做了"),  # 闽南: 彼 那, 阮 我, 毋 不, 啊 the 了 of a change
    ("晋步彼爿阮辞啊", "晋步那爿我辞了"),
    ("台风来啊 鼓浪屿去袂成", "台风来啊 鼓浪屿去不成"),  # 袂 不; a 啊 after no verb of ending stays
    ("恩施冇克成", "恩施没去成"),  # 武汉: 克 去
    ("额不去了 这个月开始", "我不去了 这个月开始"),  # 晋 / 内蒙古: 额 我
    ("嗰间公司我已经走咗", "那间公司我已经走了"),  # 粤: 嗰 那 (which the simplified table reads as 𠮶 first)
])
def test_dialect_grammar_words_read_as_mandarin_one_for_one(typed: str, read: str) -> None:
    assert standard_zh(typed) == read
    assert len(standard_zh(typed)) == len(typed)


@pytest.mark.parametrize("typed", ["阮文雄来了", "额度不够了", "名额转给朋友了", "克服困难", "巧克力没了", "好啊",
                                   "是啊 我也觉得", "我学得老起劲额"])
def test_a_surname_a_word_or_a_particle_is_left_as_typed(typed: str) -> None:
    assert standard_zh(typed) == typed


@pytest.mark.parametrize(("typed", "ended"), [
    ("茶伲覅吃哉", "茶"),
    ("婷婷寄来一只华为手机 老人机覅用哉 伊教我视频", "老人机"),
    ("老人机不用了", "老人机"),
])
def test_a_thing_given_up_in_a_dialect_is_read_as_ended(typed: str, ended: str) -> None:
    assert ended in ended_terms(typed, "zh")


@pytest.mark.parametrize("typed", ["谢谢 不用了", "这个软件我暂时不用了", "明天不用了"])
def test_no_need_is_no_ending(typed: str) -> None:
    assert ended_terms(typed, "zh") == ()


@pytest.mark.parametrize(("typed", "cls"), [("鞋厂彼爿 阮毋做啊 头家欠薪三个月", "leave")])
def test_a_job_left_in_hokkien_is_a_leave(typed: str, cls: str) -> None:
    change = change_of(typed, "zh")
    assert change is not None and change.cls == cls


@pytest.mark.parametrize("query", ["我跟刘主任那顿饭是么时候吃的", "伲上趟去上海是啥辰光", "你几时去过香港",
                                   "阮上回去厦门是底时", "上回带客户去滕王阁是么子时候"])
def test_when_asked_in_a_dialect_asks_about_the_past(query: str) -> None:
    assert analyze_query(query, ref=T0).asks_past


def test_a_question_about_now_in_a_dialect_does_not_ask_about_the_past() -> None:
    assert not analyze_query("今仔日欲去佗位", ref=T0).asks_past


@pytest.mark.parametrize("typed", ["是不是乳糖不耐啊", "那边现在冷不冷啊", "舍不得啊 以后谁带我们吃口味虾", "在不在啊"])
def test_a_mandarin_question_or_sigh_keeps_its_particle(typed: str) -> None:
    assert standard_zh(typed) == typed
