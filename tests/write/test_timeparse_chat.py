"""Dates as chat writes them (round 33): a day with no 日, 廿 as the solar day, holidays that name an event, a weekday
before its date, northern parts of the day."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from jiyi.write.timeparse import find_time_expressions

MONDAY = datetime(2026, 11, 16, 14, 0, tzinfo=timezone.utc)  # Monday 2026-11-16

@pytest.mark.parametrize(("text", "matched"), [("3月15万块", "3月"), ("11月15个人报名", "11月"), ("11月20天", "11月")])
def test_a_number_after_a_month_that_is_a_quantity_is_no_day(text: str, matched: str) -> None:
    assert [s.text for s in find_time_expressions(text, MONDAY)] == [matched]


@pytest.mark.parametrize(("text", "hour"), [("后晌三点开会", 15), ("夜来后晌量了个血压", 13)])
def test_northern_parts_of_the_day(text: str, hour: int) -> None:
    (span,) = find_time_expressions(text, MONDAY)
    assert span.start.astimezone(timezone.utc).hour == hour


@pytest.mark.parametrize(("text", "found"), [
    # a holiday's name before what is held for it names the event when a day is named (round 33)
    ("Christmas do: Friday 18th Dec at The Crown, 7pm.", [("Friday 18th Dec", "2026-12-18"), ("7pm.", "2026-12-18")]),
    ("the Christmas party is on Dec 18", [("Dec 18", "2026-12-18")]),
    ("圣诞聚餐 12月18号", [("12月18号", "2026-12-18")]),
    # …and stays the holiday otherwise
    ("booking the Christmas do", [("Christmas", "2026-12-25")]), ("Christmas Day at mum's", [("Christmas", "2026-12-25")]),
    # a weekday right before a date is that date ("Friday 18th Dec"), not the coming Friday
    ("周五 12月18号 聚餐", [("周五 12月18号", "2026-12-18")]), ("Friday, Dec 18", [("Friday, Dec 18", "2026-12-18")]),
    ("this Friday, then Dec 18", [("this Friday", "2026-11-20"), ("Dec 18", "2026-12-18")]),
])
def test_holidays_that_name_an_event_and_weekdays_before_a_date(text: str, found: list[tuple[str, str]]) -> None:
    assert [(s.text, s.start.date().isoformat()) for s in find_time_expressions(text, MONDAY)] == found


@pytest.mark.parametrize(("text", "day", "matched"), [
    # Scots and British words for tomorrow
    ("Van's MOT is the morra, fingers crossed", "2026-11-17", "the morra"), ("tomoz at the pub", "2026-11-17", "tomoz"),
    # 北方话 and 客家话: 夜来 / 夜里个 yesterday, 过了明儿 the day after tomorrow, 昨晡日 yesterday, 天光日 tomorrow
    ("夜来头晌去中心医院抽血", "2026-11-15", "夜来头晌"), ("夜里个脚脖子疼 痛风又犯了", "2026-11-15", "夜里个"),
    ("过了明儿去青岛看外孙", "2026-11-18", "过了明儿"), ("阿旺昨晡日走咗", "2026-11-15", "昨晡日"),
    ("天光日去梅州", "2026-11-17", "天光日"),
    # a day in digits with no 日 / 号
    ("11月20 水仙花开始发货", "2026-11-20", "11月20"), ("12月5 去土楼", "2026-12-05", "12月5"),
    # a word of another language the rules read beside Chinese with no space ("après-demain 要去" → "après-demain要去")
    ("après-demain要去 Lyon", "2026-11-18", "après-demain"), ("besok要交报告", "2026-11-17", "besok"),
    # 廿 after a month's number: the solar day, as Cantonese and Hokkien chat write it; lunar only when said so
    ("十二月廿一 搓圆仔", "2026-12-21", "十二月廿一"), ("十一月廿八去广州入货", "2026-11-28", "十一月廿八"),
])
def test_days_as_chat_and_dialects_say_them(text: str, day: str, matched: str) -> None:
    (span,) = find_time_expressions(text, MONDAY)
    assert (span.start.date().isoformat(), span.text) == (day, matched)


@pytest.mark.parametrize("text", ["夜来香开了", "半夜来电话"])
def test_words_that_hold_a_dialect_day_word_are_no_day(text: str) -> None:
    assert find_time_expressions(text, MONDAY) == []
