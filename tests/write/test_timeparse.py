"""Time expressions resolve against the message's timestamp (REF, a Wednesday), never the clock."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from zoneinfo import ZoneInfo

import pytest

from jiyi.write.timeparse import TimeSpan, cn_to_int, find_time_expressions, resolve_time

REF = datetime(2025, 3, 5, 10, 0, tzinfo=timezone.utc)  # Wednesday 2025-03-05 10:00 UTC


def _d(s: str) -> datetime:
    """'2025-03-12' or '2025-03-12 15:30' as aware UTC."""
    fmt = "%Y-%m-%d %H:%M" if " " in s else "%Y-%m-%d"
    return datetime.strptime(s, fmt).replace(tzinfo=timezone.utc)


def _one(text: str, ref: datetime = REF) -> TimeSpan:
    spans = find_time_expressions(text, ref)
    assert len(spans) == 1, f"{text!r} gave {spans}"
    return spans[0]


# (text, start, end (exclusive), granularity, matched text)
ZH_CASES = [
    ("今天", "2025-03-05", "2025-03-06", "day", "今天"),
    ("明天", "2025-03-06", "2025-03-07", "day", "明天"),
    ("后天", "2025-03-07", "2025-03-08", "day", "后天"),
    ("大后天", "2025-03-08", "2025-03-09", "day", "大后天"),
    ("昨天", "2025-03-04", "2025-03-05", "day", "昨天"),
    ("前天", "2025-03-03", "2025-03-04", "day", "前天"),
    ("大前天", "2025-03-02", "2025-03-03", "day", "大前天"),
    ("明后天就到", "2025-03-06", "2025-03-08", "day", "明后天"),
    # Cantonese (and southern Min) day words, in either script
    ("後日十點要去睇骨科", "2025-03-07 10:00", "2025-03-07 11:00", "hour", "後日十點"),
    ("后日搞个试食会", "2025-03-07", "2025-03-08", "day", "后日"),
    ("聽日返工", "2025-03-06", "2025-03-07", "day", "聽日"),
    ("大後日", "2025-03-08", "2025-03-09", "day", "大後日"),
    ("琴日去咗饮茶", "2025-03-04", "2025-03-05", "day", "琴日"),
    ("尋日", "2025-03-04", "2025-03-05", "day", "尋日"),
    ("前日佢话唔得闲", "2025-03-03", "2025-03-04", "day", "前日"),
    ("听朝早啲起身", "2025-03-06 05:00", "2025-03-06 10:00", "daypart", "听朝"),
    ("今個禮拜六去西貢", "2025-03-08", "2025-03-09", "day", "今個禮拜六"),
    ("呢个月尾交租", "2025-03-21", "2025-04-01", "day", "呢个月尾"),
    ("聽日下晝三點", "2025-03-06 15:00", "2025-03-06 16:00", "hour", "聽日下晝三點"),
    ("禮拜六朝早", "2025-03-08 05:00", "2025-03-08 10:00", "daypart", "禮拜六朝早"),
    ("今天中午想吃面", "2025-03-05 11:00", "2025-03-05 14:00", "daypart", "今天中午"),
    ("今晚", "2025-03-05 18:00", "2025-03-06", "daypart", "今晚"),
    ("明早", "2025-03-06 05:00", "2025-03-06 10:00", "daypart", "明早"),
    ("昨晚没睡好", "2025-03-04 18:00", "2025-03-05", "daypart", "昨晚"),
    ("明天上午", "2025-03-06 08:00", "2025-03-06 12:00", "daypart", "明天上午"),
    ("下周三要去深圳出差", "2025-03-12", "2025-03-13", "day", "下周三"),
    ("这周五", "2025-03-07", "2025-03-08", "day", "这周五"),
    ("本周一", "2025-03-03", "2025-03-04", "day", "本周一"),
    ("上周二到的", "2025-02-25", "2025-02-26", "day", "上周二"),
    ("下下周一", "2025-03-17", "2025-03-18", "day", "下下周一"),
    ("下星期天", "2025-03-16", "2025-03-17", "day", "下星期天"),
    ("上礼拜六", "2025-03-01", "2025-03-02", "day", "上礼拜六"),
    ("周末去爬山", "2025-03-08", "2025-03-10", "weekend", "周末"),
    ("下周末", "2025-03-15", "2025-03-17", "weekend", "下周末"),
    ("这周一直在加班", "2025-03-03", "2025-03-10", "week", "这周"),
    ("下周", "2025-03-10", "2025-03-17", "week", "下周"),
    ("上个星期", "2025-02-24", "2025-03-03", "week", "上个星期"),
    ("下个月", "2025-04-01", "2025-05-01", "month", "下个月"),
    ("上个月", "2025-02-01", "2025-03-01", "month", "上个月"),
    ("这个月", "2025-03-01", "2025-04-01", "month", "这个月"),
    ("本月", "2025-03-01", "2025-04-01", "month", "本月"),
    ("三个月前", "2024-12-01", "2025-01-01", "month", "三个月前"),
    ("两个多月前", "2025-01-01", "2025-02-01", "month", "两个多月前"),
    ("两天后", "2025-03-07", "2025-03-08", "day", "两天后"),
    ("三天前", "2025-03-02", "2025-03-03", "day", "三天前"),
    ("半个月前", "2025-02-18", "2025-02-19", "day", "半个月前"),
    ("两周后", "2025-03-17", "2025-03-24", "week", "两周后"),
    ("一个星期以后", "2025-03-10", "2025-03-17", "week", "一个星期以后"),
    ("半年前", "2024-09-01", "2024-10-01", "month", "半年前"),
    ("三年前", "2022-01-01", "2023-01-01", "year", "三年前"),
    ("两小时后", "2025-03-05 12:00", "2025-03-05 13:00", "hour", "两小时后"),
    ("十分钟后", "2025-03-05 10:10", "2025-03-05 10:11", "minute", "十分钟后"),
    ("去年五月", "2024-05-01", "2024-06-01", "month", "去年五月"),
    ("明年3月", "2026-03-01", "2026-04-01", "month", "明年3月"),
    ("今年6月15号", "2025-06-15", "2025-06-16", "day", "今年6月15号"),
    ("5月3日", "2025-05-03", "2025-05-04", "day", "5月3日"),
    ("五月三号", "2025-05-03", "2025-05-04", "day", "五月三号"),
    ("十二月二十五日", "2024-12-25", "2024-12-26", "day", "十二月二十五日"),
    ("5月份", "2025-05-01", "2025-06-01", "month", "5月份"),
    ("3号", "2025-03-03", "2025-03-04", "day", "3号"),
    ("二十八号", "2025-03-28", "2025-03-29", "day", "二十八号"),
    ("2025年3月", "2025-03-01", "2025-04-01", "month", "2025年3月"),
    ("2024年3月5日", "2024-03-05", "2024-03-06", "day", "2024年3月5日"),
    ("2024年", "2024-01-01", "2025-01-01", "year", "2024年"),
    ("二〇二三年", "2023-01-01", "2024-01-01", "year", "二〇二三年"),
    ("去年", "2024-01-01", "2025-01-01", "year", "去年"),
    ("前年", "2023-01-01", "2024-01-01", "year", "前年"),
    ("明年", "2026-01-01", "2027-01-01", "year", "明年"),
    ("今年年底", "2025-12-01", "2026-01-01", "month", "今年年底"),
    ("年底", "2025-12-01", "2026-01-01", "month", "年底"),
    ("月底", "2025-03-21", "2025-04-01", "day", "月底"),
    ("上个月底", "2025-02-21", "2025-03-01", "day", "上个月底"),
    ("5月中旬", "2025-05-11", "2025-05-21", "day", "5月中旬"),
    ("这个月26号要搬家", "2025-03-26", "2025-03-27", "day", "这个月26号"),
    ("下个月3号", "2025-04-03", "2025-04-04", "day", "下个月3号"),
    ("明天早上六点叫我", "2025-03-06 06:00", "2025-03-06 07:00", "hour", "明天早上六点"),
    ("明天下午3点半开会", "2025-03-06 15:30", "2025-03-06 16:30", "minute", "明天下午3点半"),
    ("今晚8点", "2025-03-05 20:00", "2025-03-05 21:00", "hour", "今晚8点"),
    ("晚上8点提醒我", "2025-03-05 20:00", "2025-03-05 21:00", "hour", "晚上8点"),
    ("明天两点开会", "2025-03-06 14:00", "2025-03-06 15:00", "hour", "明天两点"),
    ("周五晚上7点", "2025-03-07 19:00", "2025-03-07 20:00", "hour", "周五晚上7点"),
    ("明天9:30", "2025-03-06 09:30", "2025-03-06 10:30", "minute", "明天9:30"),
    ("五一假期", "2025-05-01", "2025-05-06", "holiday", "五一"),
    ("国庆", "2024-10-01", "2024-10-08", "holiday", "国庆"),
    ("去年国庆", "2024-10-01", "2024-10-08", "holiday", "去年国庆"),
    ("元旦", "2025-01-01", "2025-01-02", "day", "元旦"),
    ("618会不会降价", "2025-06-18", "2025-06-19", "day", "618"),
    ("12月16号到19号去新加坡", "2024-12-16", "2024-12-20", "day", "12月16号到19号"),
    ("28号到31号", "2025-03-28", "2025-04-01", "day", "28号到31号"),
    ("约明天上午9:00-12:00", "2025-03-06 09:00", "2025-03-06 12:00", "hour", "明天上午9:00-12:00"),
]

EN_CASES = [
    ("interview is next tues", "2025-03-11", "2025-03-12", "day", "next tues"),  # a weekday's short name
    ("see you on sat", "2025-03-08", "2025-03-09", "day", "on sat"),
    ("start a fortnight from today", "2025-03-19", "2025-03-20", "day", "a fortnight from today"),
    ("the hearing is a week from tomorrow", "2025-03-13", "2025-03-14", "day", "a week from tomorrow"),
    ("demo day is a week from today", "2025-03-12", "2025-03-13", "day", "a week from today"),
    ("back in a fortnight", "2025-03-19", "2025-03-20", "day", "in a fortnight"),
    ("off to the beach this arvo", "2025-03-05 12:00", "2025-03-05 18:00", "daypart", "this arvo"),
    ("today", "2025-03-05", "2025-03-06", "day", "today"),
    ("tonight", "2025-03-05 18:00", "2025-03-06", "daypart", "tonight"),
    ("tomorrow", "2025-03-06", "2025-03-07", "day", "tomorrow"),
    ("yesterday", "2025-03-04", "2025-03-05", "day", "yesterday"),
    ("the day after tomorrow", "2025-03-07", "2025-03-08", "day", "the day after tomorrow"),
    ("day after tmr NEA officer coming", "2025-03-07", "2025-03-08", "day", "day after tmr"),
    ("movie tonite?", "2025-03-05 18:00", "2025-03-06", "daypart", "tonite"),
    ("rent's due by the end of the month", "2025-03-21", "2025-04-01", "day", "end of the month"),
    ("starting at the start of next month", "2025-04-01", "2025-04-11", "day", "start of next month"),
    ("the day before yesterday", "2025-03-03", "2025-03-04", "day", "the day before yesterday"),
    ("this morning", "2025-03-05 06:00", "2025-03-05 12:00", "daypart", "this morning"),
    ("last night", "2025-03-04 18:00", "2025-03-05", "daypart", "last night"),
    ("tomorrow morning", "2025-03-06 06:00", "2025-03-06 12:00", "daypart", "tomorrow morning"),
    ("tomorrow at 9am", "2025-03-06 09:00", "2025-03-06 10:00", "hour", "tomorrow at 9am"),
    ("tomorrow at noon", "2025-03-06 12:00", "2025-03-06 13:00", "hour", "tomorrow at noon"),
    ("Friday evening", "2025-03-07 18:00", "2025-03-07 22:00", "daypart", "Friday evening"),
    ("I'm flying to Beijing next Wednesday", "2025-03-12", "2025-03-13", "day", "next Wednesday"),
    ("next Friday", "2025-03-14", "2025-03-15", "day", "next Friday"),
    ("this Friday", "2025-03-07", "2025-03-08", "day", "this Friday"),
    ("last Tuesday", "2025-02-25", "2025-02-26", "day", "last Tuesday"),
    ("I will see her on Friday", "2025-03-07", "2025-03-08", "day", "Friday"),
    ("I met her on Friday", "2025-02-28", "2025-03-01", "day", "Friday"),
    ("I went there on Monday", "2025-03-03", "2025-03-04", "day", "Monday"),
    ("next week", "2025-03-10", "2025-03-17", "week", "next week"),
    ("last week", "2025-02-24", "2025-03-03", "week", "last week"),
    ("this weekend", "2025-03-08", "2025-03-10", "weekend", "this weekend"),
    ("I hiked over the weekend", "2025-03-01", "2025-03-03", "weekend", "the weekend"),
    ("next month", "2025-04-01", "2025-05-01", "month", "next month"),
    ("last month", "2025-02-01", "2025-03-01", "month", "last month"),
    ("next year", "2026-01-01", "2027-01-01", "year", "next year"),
    ("last year", "2024-01-01", "2025-01-01", "year", "last year"),
    ("in 3 days", "2025-03-08", "2025-03-09", "day", "in 3 days"),
    ("3 days ago", "2025-03-02", "2025-03-03", "day", "3 days ago"),
    ("two weeks ago", "2025-02-17", "2025-02-24", "week", "two weeks ago"),
    ("two weekends ago", "2025-02-22", "2025-02-24", "weekend", "two weekends ago"),
    ("a month ago", "2025-02-01", "2025-03-01", "month", "a month ago"),
    ("3 months ago", "2024-12-01", "2025-01-01", "month", "3 months ago"),
    ("a couple of days ago", "2025-03-03", "2025-03-04", "day", "a couple of days ago"),
    ("a year ago", "2024-01-01", "2025-01-01", "year", "a year ago"),
    ("in an hour", "2025-03-05 11:00", "2025-03-05 12:00", "hour", "in an hour"),
    ("last May", "2024-05-01", "2024-06-01", "month", "last May"),
    ("next May", "2025-05-01", "2025-06-01", "month", "next May"),
    ("in May", "2025-05-01", "2025-06-01", "month", "May"),
    ("on May 8", "2025-05-08", "2025-05-09", "day", "May 8"),
    ("May 8th", "2025-05-08", "2025-05-09", "day", "May 8th"),
    ("May 8, 2023", "2023-05-08", "2023-05-09", "day", "May 8, 2023"),
    ("8 May 2023", "2023-05-08", "2023-05-09", "day", "8 May 2023"),
    ("the 8th of May", "2025-05-08", "2025-05-09", "day", "the 8th of May"),
    ("May 2023", "2023-05-01", "2023-06-01", "month", "May 2023"),
    ("early June", "2025-06-01", "2025-06-11", "day", "early June"),
    ("mid-May", "2025-05-11", "2025-05-21", "day", "mid-May"),
    ("late May", "2025-05-21", "2025-06-01", "day", "late May"),
    ("on the 15th", "2025-03-15", "2025-03-16", "day", "the 15th"),
    ("in 2022", "2022-01-01", "2023-01-01", "year", "2022"),
    ("Christmas", "2024-12-25", "2024-12-26", "day", "Christmas"),
    ("next Christmas", "2025-12-25", "2025-12-26", "day", "next Christmas"),
    ("by Christmas", "2025-12-25", "2025-12-26", "day", "Christmas"),  # a deadline: the one ahead, not the nearest
    ("Thanksgiving", "2024-11-28", "2024-11-29", "day", "Thanksgiving"),
    ("from May 3 to May 8", "2025-05-03", "2025-05-09", "day", "May 3 to May 8"),
    ("at 3pm", "2025-03-05 15:00", "2025-03-05 16:00", "hour", "3pm"),
    ("2023-05-08", "2023-05-08", "2023-05-09", "day", "2023-05-08"),
    ("2023/5/8", "2023-05-08", "2023-05-09", "day", "2023/5/8"),
    ("5/8/2023", "2023-05-08", "2023-05-09", "day", "5/8/2023"),
    ("2023-05", "2023-05-01", "2023-06-01", "month", "2023-05"),
]


@pytest.mark.parametrize(("text", "start", "end", "gran", "matched"), ZH_CASES + EN_CASES)
def test_expression_resolves(text: str, start: str, end: str, gran: str, matched: str) -> None:
    span = _one(text)
    assert (span.start, span.end, span.granularity, span.text) == (_d(start), _d(end), gran, matched)
    assert text[span.offset:span.end_offset] == matched


NOT_TIMES = [
    "i sat down and cried", "the sun is out", "they got wed in a barn",  # short weekday names, no day meant
    "我二哥孙国庆血糖高", "全国庆祝",  # 国庆 in a name after its surname; in 全国庆祝 ("nationwide")
    "每周三去游泳",  # a habit, not a date
    "每个月5号还房贷",
    "抢到了五月天演唱会的票",  # a band
    "以后日子还长",  # 后日 inside 以后日子, 前日 inside 目前日本: no day
    "目前日本那边还没消息",
    "今朝有酒今朝醉",
    "简短一点",  # "一点" = a little
    "早一点睡",
    "光打包就打了三个周末",  # a count of weekends
    "碧波路690弄12号603",  # an address
    "坐一号线",
    "我一般7点起，8点到图书馆，晚上10点回宿舍",  # a routine
    "订单号123",
    "都三个月了",
    "I may go",
    "May I ask a question?",
    "on Mondays I swim",
    "every Monday",
    "I get up at 7am every day",
    "we march on",
    "国庆之后我改成6点半起床了"[-10:],  # "改成6点半起床了": a bare clock is no date
    "ok I've officially moved to Paris, apartment in the 11th",  # a district, no month named
    "my office is on the 5th floor",
    "she finished 3rd",
    "guten Morgen! heute morgen war es kalt",  # the morning, not the next day
    "por la mañana voy al gym", "ich bin hier", "the lusaka office",
    "十一个人去吃饭", "第十一名",  # eleven, not the National Day week
]


@pytest.mark.parametrize("text", ["十一我拉着老伴去威海耍三天", "十一假期去哪玩"])
def test_shiyi_opening_a_plan_is_the_national_day_week(text: str) -> None:
    span = _one(text)
    assert (span.text, span.start.month, span.start.day, (span.end - span.start).days) == ("十一", 10, 1, 7)


@pytest.mark.parametrize(("text", "day", "matched"), [
    ("Check-up lusa 10am, nanti apply cuti", "2025-03-07", "lusa 10am"),  # Malay: the day after tomorrow
    ("Termin ist übermorgen", "2025-03-07", "übermorgen"),
    ("しあさって断水するって", "2025-03-08", "しあさって"),  # Japanese: three days on
    ("มะรืนนี้ไปดูห้อง", "2025-03-07", "มะรืนนี้"),  # Thai
    ("sa makalawa na yung dinner", "2025-03-07", "makalawa"),  # Tagalog
    ("내일 병원 가요", "2025-03-06", "내일"), ("모레 시험이에요", "2025-03-07", "모레"),  # Korean
    ("明仔载欲去潮州", "2025-03-06", "明仔载"),  # Hokkien
    ("nos vemos mañana", "2025-03-06", "mañana"), ("вчера был дождь", "2025-03-04", "вчера"),
])
def test_other_languages_name_days_around_today(text: str, day: str, matched: str) -> None:
    span = _one(text)
    assert (span.start.date().isoformat(), span.text) == (day, matched)


@pytest.mark.parametrize("text", NOT_TIMES)
def test_not_a_time(text: str) -> None:
    assert find_time_expressions(text, REF) == []


def test_reference_is_the_message_time_not_now() -> None:
    old = datetime(2019, 7, 1, 8, 0, tzinfo=timezone.utc)
    assert _one("明天", old).start == _d("2019-07-02")
    assert _one("tomorrow", old).start == _d("2019-07-02")


def test_bare_weekday_follows_the_week_just_named() -> None:
    spans = find_time_expressions("下周三去北京出差，周五回来", REF)
    assert [s.start for s in spans] == [_d("2025-03-12"), _d("2025-03-14")]


def test_bare_weekday_in_the_past_tense_is_last_week() -> None:
    assert _one("周五去了趟杭州").start == _d("2025-02-28")
    assert _one("周五要去杭州").start == _d("2025-03-07")


def test_a_bare_month_in_the_past_tense_is_the_one_gone_by() -> None:
    """Said in March 2025: "left in august" is August 2024; "moving in august" is August 2025."""
    assert _one("nope, left in august").start == _d("2024-08-01")
    assert _one("we're moving in august").start == _d("2025-08-01")


def test_bare_day_takes_the_month_just_named() -> None:
    spans = find_time_expressions("下个月3号出发，5号回来", REF)
    assert [s.start for s in spans] == [_d("2025-04-03"), _d("2025-04-05")]


def test_several_expressions_in_order_with_offsets() -> None:
    text = "下周三去深圳，下个月回上海，I moved last year"
    spans = find_time_expressions(text, REF)
    assert [s.text for s in spans] == ["下周三", "下个月", "last year"]
    assert [text[s.offset:s.end_offset] for s in spans] == ["下周三", "下个月", "last year"]


def test_resolve_time_first_or_none() -> None:
    first = resolve_time("明天和后天", REF)
    assert first is not None and first.text == "明天"
    assert resolve_time("没有时间", REF) is None
    assert find_time_expressions("", REF) == []


def test_results_are_aware_utc_and_contains_is_end_exclusive() -> None:
    span = _one("明天")
    assert span.start.tzinfo is not None and span.start.utcoffset() == timedelta(0)
    assert span.contains(_d("2025-03-06 23:59"))
    assert not span.contains(_d("2025-03-07"))
    assert span.contains(datetime(2025, 3, 6, 12, 0))  # naive = UTC


def test_user_time_zone_decides_what_tomorrow_is() -> None:
    late = datetime(2025, 3, 5, 20, 0, tzinfo=timezone.utc)  # already 04:00 on the 6th in Shanghai
    shanghai = ZoneInfo("Asia/Shanghai")
    span = find_time_expressions("明天", late, tz=shanghai)[0]
    assert span.start == datetime(2025, 3, 7, 0, 0, tzinfo=shanghai)
    assert span.start.tzinfo == timezone.utc
    assert find_time_expressions("明天", late)[0].start == _d("2025-03-06")


def test_naive_reference_is_taken_as_utc() -> None:
    assert _one("明天", datetime(2025, 3, 5, 10, 0)).start == _d("2025-03-06")


@pytest.mark.parametrize(
    ("text", "value"),
    [("一", 1), ("两", 2), ("十", 10), ("十二", 12), ("二十", 20), ("二十八", 28), ("三十一", 31),
     ("一百零五", 105), ("二〇二五", 2025), ("12", 12), ("零", 0)],
)
def test_cn_to_int(text: str, value: int) -> None:
    assert cn_to_int(text) == value


def test_cn_to_int_rejects_words() -> None:
    with pytest.raises(ValueError):
        cn_to_int("几个")


@pytest.mark.parametrize(("text", "day"), [
    ("next week on friday", "2025-03-14"), ("I fly to Tokyo next week on Friday", "2025-03-14"),
    ("on Friday next week", "2025-03-14"), ("friday of next week", "2025-03-14"), ("下周的周五", "2025-03-14"),
    ("next week Friday", "2025-03-14"), ("last week on Tuesday", "2025-02-25"), ("this week, monday", "2025-03-03"),
])
def test_a_weekday_next_to_a_week_is_that_weeks(text: str, day: str) -> None:
    span = _one(text)
    assert (span.granularity, span.start, span.end) == ("day", _d(day), _d(day) + timedelta(days=1))


@pytest.mark.parametrize("text", ["今天周三终于能睡懒觉", "今天 周三", "今天（周三）交报告", "today, Wednesday, I'm off"])
def test_a_relative_day_and_its_weekday_are_one_day(text: str) -> None:
    """一天说了两遍（今天周三）是一个时间：写成日期时只写一次。"""
    span = _one(text)
    assert (span.granularity, span.start) == ("day", REF.replace(hour=0, minute=0, second=0, microsecond=0))
    assert "周三" in span.text or "Wednesday" in span.text


@pytest.mark.parametrize("text", ["tonight was my first salmon in 4 years", "first time in 2 years i swam",
                                  "haven't seen him in 3 years", "havent smoked in two weeks", "best pizza in 10 years"])
def test_in_n_units_after_a_look_back_is_a_stretch_not_a_day_ahead(text: str) -> None:
    assert all(span.start <= REF + timedelta(days=1) for span in find_time_expressions(text, REF))


@pytest.mark.parametrize(("text", "day"), [("my first day is in 2 weeks", "2025-03-17"), ("we leave in 3 days", "2025-03-08")])
def test_in_n_units_ahead_stays_ahead(text: str, day: str) -> None:
    assert _one(text).start == _d(day)


def test_a_weekday_in_a_clause_that_looks_ahead_is_the_coming_one() -> None:
    """"signed with them, start monday": the signing is past, the start is not (REF is a Wednesday)."""
    assert _one("signed w tidewell logistics, ops planner, start monday").start == _d("2025-03-10")
    assert _one("went to the beach with friends, on monday").start == _d("2025-03-03")


def test_a_weekday_in_another_clause_stays_apart_from_the_week() -> None:
    spans = find_time_expressions("next week I'm busy, Friday is free", REF)
    assert [s.granularity for s in spans] == ["week", "day"]


@pytest.mark.parametrize("text", ["I'm Maya", "I'm June, nice to meet you", "Call me April", "June said hi",
                                  "dinner with May's family", "Maya's birthday party"])
def test_names_are_not_months(text: str) -> None:
    assert find_time_expressions(text, REF) == []


@pytest.mark.parametrize("text", ["in May", "I went to Japan in June", "June 5", "August 2024"])
def test_months_are_still_months(text: str) -> None:
    assert _one(text).granularity in ("month", "day")


@pytest.mark.parametrize("text", ["see you on the 11th", "until the 11th", "from the 11th to the 12th"])
def test_a_bare_day_after_a_preposition_of_time_is_a_date(text: str) -> None:
    assert _one_start(text) == "2025-03-11"


def test_a_bare_day_with_a_month_named_is_a_date() -> None:
    spans = find_time_expressions("dinner in April, probably the 11th", REF)
    assert [s.start.date().isoformat() for s in spans][-1] == "2025-04-11"


def _one_start(text: str) -> str:
    return find_time_expressions(text, REF)[0].start.date().isoformat()


def test_this_weekday_said_after_it_is_the_coming_one() -> None:
    sunday = datetime(2025, 3, 9, 11, 0, tzinfo=timezone.utc)  # REF's week ends on this Sunday
    assert _one("my first class is this friday evening", sunday).start.date() == _d("2025-03-14").date()
    assert _one("joined a climbing gym, first session is this friday", sunday).start == _d("2025-03-14")
    assert _one("the coming Tuesday works", sunday).start == _d("2025-03-11")
    assert _one("this Friday", REF).start == _d("2025-03-07")  # said on the Wednesday before: that week's
    assert _one("I saw her this Monday", REF).start == _d("2025-03-03")  # told as past: the one just gone
    assert _one("the dentist moved my appt to this friday", sunday).start == _d("2025-03-14")  # where it was put
    assert _one("booked a table this thursday at 7", sunday).start.date() == _d("2025-03-13").date()  # set up ahead
    assert _one("went bowling this thursday", sunday).start.date() == _d("2025-03-06").date()  # told as done


def test_a_weekly_thing_that_starts_next_week_starts_on_its_day() -> None:
    sunday = datetime(2025, 3, 9, 11, 0, tzinfo=timezone.utc)
    assert _one("joined a choir, thursdays 8pm, first rehearsal is next week", sunday).start.date() \
        == _d("2025-03-13").date()
    assert _one("报了个书法班 每周六上午 下周开课", sunday).start.date() == _d("2025-03-15").date()
    assert _one("我每周三都去游泳 下周出差", sunday).start.date() == _d("2025-03-10").date()  # a trip, the whole week


@pytest.mark.parametrize(("text", "day"), [
    ("my sister's wedding is the 2nd saturday of this month", "2025-03-08"),
    ("first monday of next month", "2025-04-07"),
    ("the last friday of march", "2025-03-28"),
    ("我姐婚礼在这个月第二个周六", "2025-03-08"),
    ("下个月的第一个星期一开会", "2025-04-07"),
    ("4月最后一个周五年会", "2025-04-25"),
])
def test_the_nth_weekday_of_a_month(text: str, day: str) -> None:
    assert _one(text).start == _d(day)


def test_day_after_tomorrow_without_the() -> None:
    assert _one("day after tomorrow i pick up the suit").start == _d("2025-03-07")


@pytest.mark.parametrize(("text", "day"), [
    ("晚上十一点多睡着的", "2025-03-05"),       # told in the small hours as over: the evening that just ended
    ("went to bed at 11 tonight, finally", "2025-03-05"),
    ("晚上十一点去机场接你", "2025-03-06"),      # a plan: tonight is still ahead
    ("tonight we're going out", "2025-03-06"),
])
def test_an_evening_told_in_the_small_hours(text: str, day: str) -> None:
    sh = ZoneInfo("Asia/Shanghai")
    said = datetime(2025, 3, 6, 0, 40, tzinfo=sh)
    (span,) = find_time_expressions(text, said, tz=sh)
    assert span.start.astimezone(sh).date().isoformat() == day


# ---------------------------------------------------------------- lunar dates (timeparse/lunar.py)

#: a message sent in the lunar twelfth month before the Year of the Horse (大年初一 is 2026-02-17)
WINTER = datetime(2026, 1, 20, 12, 0, tzinfo=timezone.utc)


@pytest.mark.parametrize(("text", "said", "day", "ref"), [
    ("腊月二十六走 车票抢到了", "腊月二十六", "2026-02-13", WINTER),
    ("年廿八 年宵花市摆档", "年廿八", "2026-02-15", WINTER),
    ("除夕一起吃年夜饭", "除夕", "2026-02-16", WINTER),
    ("大年初一去拜年", "大年初一", "2026-02-17", WINTER),
    ("正月初八出第一趟车", "正月初八", "2026-02-24", WINTER),
    ("今年中秋回家", "今年中秋", "2025-10-06", REF),
    ("农历八月十五是我生日", "农历八月十五", "2025-10-06", datetime(2025, 8, 1, tzinfo=timezone.utc)),
])
def test_a_lunar_date_is_its_solar_day(text: str, said: str, day: str, ref: datetime) -> None:
    span = _one(text, ref)
    assert (span.text, span.start.date().isoformat(), span.granularity) == (said, day, "day")


def test_a_bare_lunar_day_takes_the_lunar_month_named_before_it() -> None:
    spans = find_time_expressions("正月初八出第一趟车 初七得把车检做了", WINTER)
    assert [(s.text, s.start.date().isoformat()) for s in spans] == [("正月初八", "2026-02-24"), ("初七", "2026-02-23")]


@pytest.mark.parametrize("text", ["我初一的时候学过", "今年三十岁了", "三月十五号开会"])
def test_what_only_looks_lunar_is_not(text: str) -> None:
    assert all(s.text not in ("初一", "年三十", "三月十五") for s in find_time_expressions(text, REF))


MID_NOVEMBER = datetime(2026, 11, 13, 13, 0, tzinfo=timezone.utc)  # a Friday


@pytest.mark.parametrize(("text", "day"), [
    ("5号要去医院复查", "2026-12-05"),            # a week gone or more, not told as past: next month's
    ("dentist on the 5th, don't let me forget", "2026-12-05"),
    ("5号去了医院", "2026-11-05"),                # told as past
    ("5号那天下大雨", "2026-11-05"),
    ("went to the dentist on the 5th", "2026-11-05"),
    ("12号体检结果出来了", "2026-11-12"),          # yesterday is this month's
])
def test_a_bare_day_of_the_month_gone_by_is_next_months_unless_told_as_past(text: str, day: str) -> None:
    assert _one(text, MID_NOVEMBER).start.date().isoformat() == day


@pytest.mark.parametrize(("text", "day"), [
    ("清明节回老家扫墓", "2027-04-05"),            # a solar term: its day that year
    ("冬至吃饺子", "2026-12-22"),
    ("小年那天回家", "2027-01-30"),                # 腊月二十三
    ("母亲节给我妈买花", "2027-05-09"),            # the second Sunday of May
    ("bbq next Father's Day", "2027-06-20"),      # the third Sunday of June
    ("camping the weekend after next", "2026-11-28"),
])
def test_days_named_by_the_calendar(text: str, day: str) -> None:
    assert _one(text, MID_NOVEMBER).start.date().isoformat() == day


@pytest.mark.parametrize("text", ["头脑清明的时候再想", "岁月中的点滴", "rent due on the 5th every month",
                                  "房租5号前交 每个月都是",
                                  "排班表改了：周二四六老王",     # weekdays of every week, no one date
                                  "我周二四有课",
                                  "新区全民健身中心5号场",        # a court's number
                                  "电费每月底转给房东",            # every month's end
                                  ])
def test_words_holding_a_day_name_are_no_days(text: str) -> None:
    assert find_time_expressions(text, MID_NOVEMBER) == []


@pytest.mark.parametrize(("text", "day"), [
    ("聚会改到周日了", "2026-11-15"),              # the day a plan was moved to is ahead, 了 or not
    ("挪到周六了 饭店订好了", "2026-11-14"),
    ("周日去爬山了", "2026-11-08"),                # told as past: the Sunday gone
    ("周六四点开会", "2026-11-14"),                # an hour, not a list of days
])
def test_a_weekday_a_plan_moved_to_is_ahead(text: str, day: str) -> None:
    assert _one(text, MID_NOVEMBER).start.date().isoformat() == day


@pytest.mark.parametrize(("text", "day"), [
    ("后儿个上午十点得去车管所", "2026-11-15"),   # 北方话: the day after tomorrow
    ("前儿个去了趟医院", "2026-11-11"),
    ("大后儿个回老家", "2026-11-16"),
])
def test_northern_days_around_today(text: str, day: str) -> None:
    assert _one(text, MID_NOVEMBER).start.date().isoformat() == day


def test_an_ex_daughter_in_law_is_no_day() -> None:
    assert find_time_expressions("我前儿媳妇来了", MID_NOVEMBER) == []


MONDAY = datetime(2026, 11, 16, 14, 0, tzinfo=timezone.utc)  # Monday 2026-11-16


@pytest.mark.parametrize(("text", "day", "matched"), [
    # weekdays in the week the words around them name, in the languages users mix in
    ("Mình bay thứ Sáu tuần sau nhé", "2026-11-27", "thứ Sáu tuần sau"),  # Vietnamese
    ("ngày mốt đưa mẹ đi khám mắt", "2026-11-18", "ngày mốt"),
    ("Jumat depan ketemu supplier", "2026-11-27", "Jumat depan"),  # Indonesian
    ("다음 주 수요일에 병원 가요", "2026-11-25", "다음 주 수요일"),  # Korean
    ("来週の水曜日に面接", "2026-11-25", "来週の水曜日"),  # Japanese
    # British: the one after the coming one
    ("dentist is Friday week", "2026-11-27", "Friday week"), ("a week on Friday we fly", "2026-11-27", "a week on Friday"),
    # dialect words for the days around today
    ("外后日要去景德镇出差", "2026-11-19", "外后日"), ("后个就是礼拜一 去江都", "2026-11-18", "后个就是礼拜一"),
    ("大后个去省人民医院复查", "2026-11-19", "大后个"),  # 南京 / 徐州: three days out
    ("后添去义乌看机器", "2026-11-18", "后添"),  # 后天 typed by its sound
])
def test_more_words_for_days(text: str, day: str, matched: str) -> None:
    span = _one(text, MONDAY)
    assert (span.start.date().isoformat(), span.text) == (day, matched)


@pytest.mark.parametrize(("text", "days"), [
    ("下个礼拜三，不是这个礼拜三，厂头要去璧山拉配件", ["2026-11-25"]),  # the day denied is not named
    ("下周3去义乌 不对 下周四", ["2026-11-26"]),  # the day taken back is not either
    ("drinks on Saturday — no wait, Friday", ["2026-11-20"]),
    ("周三和周四都行", ["2026-11-18", "2026-11-19"]),  # both meant
    ("Monday no good, Tuesday works", ["2026-11-16", "2026-11-17"]),
])
def test_a_day_denied_or_taken_back_is_not_named(text: str, days: list[str]) -> None:
    assert [s.start.date().isoformat() for s in find_time_expressions(text, MONDAY)] == days


def test_a_change_of_plan_names_both_days() -> None:
    assert [s.text for s in find_time_expressions("球馆周三被包场了 以后改成周五打", MONDAY)] == ["周三", "周五"]


@pytest.mark.parametrize("text", ["lần thứ hai rồi", "the weekday rota", "最后个人走的",
                                  "然后个人觉得", "明个月再说"])
def test_ordinals_and_words_that_hold_a_day_word_are_no_day(text: str) -> None:
    assert find_time_expressions(text, MONDAY) == []


@pytest.mark.parametrize(("text", "day"), [
    ("11/14 禮拜六 跟大學同學去奇美博物館", "2026-11-14"), ("12/31 跟大學同學去台北跨年", "2026-12-31"),
    ("Kiểm kê cuối năm 28/12, cả team phải ở kho", "2026-12-28"),  # day first: the one order it reads in
])
def test_a_month_and_day_with_a_slash(text: str, day: str) -> None:
    assert find_time_expressions(text, MONDAY)[0].start.date().isoformat() == day


@pytest.mark.parametrize("text", ["吃了1/2", "24/7 open", "比分 3/1", "3/5 stars", "信用卡 有效期09/29", "exp 09/29",
                                  "party on 3/4", "10/10 would do again", "1/2 杯"])
def test_a_slash_pair_that_is_no_day(text: str) -> None:
    assert find_time_expressions(text, MONDAY) == []
