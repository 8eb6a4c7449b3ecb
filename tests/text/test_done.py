"""text/done.py: a report that something has happened and is over."""

from __future__ import annotations

import pytest

from jiyi.text.done import reports_done


@pytest.mark.parametrize("text", [
    "刚从大理回来 晒黑了两个度",
    "苏州回来了，园林人好多",
    "杭马完赛！4小时出头",
    "复试过了！！",
    "科目二过了 教练都惊了",
    "这趟真的值 吃到撑",
    "在敦煌玩了四天 沙子进了鞋",
    "答辩完了 解放",
    "峨眉山那趟也去了 猴子抢了我的包",  # a trip looked back on
    "去桂林玩得挺开心的 就是热",
    "面试超顺利！面试官还夸我了",
])
def test_zh_reports_of_something_done(text: str) -> None:
    assert reports_done(text, "zh")


@pytest.mark.parametrize("text", [
    "下周从大理回来",  # ahead
    "还没回来 航班延误",  # not yet
    "复试过了吗",  # asked
    "每次跑完都腿软",  # a habit
    "猫自己回来了",  # a loss undone lasts
    "我在苏州上班",  # no report of anything done
    "打算这趟多住几天",  # a plan
    "希望明天面试顺利",  # a wish
    "最近工作挺顺利的",  # how things go, no outing
])
def test_zh_not_a_report_of_something_done(text: str) -> None:
    assert not reports_done(text, "zh")


@pytest.mark.parametrize("text", [
    "just got back from Porto, my feet hurt",
    "back from the lake house, so relaxed",
    "finished my first triathlon!!",
    "passed my driving test on the second try",
    "the gig was unreal, front row",
    "had a blast at the wedding",
    "the reunion was so much fun, everyone came",
])
def test_en_reports_of_something_done(text: str) -> None:
    assert reports_done(text, "en")


@pytest.mark.parametrize("text", [
    "I'll be back from Porto on Sunday",
    "haven't finished the thesis",
    "did you get back ok?",
    "every time I get back from a run I stretch",
    "I work at a bakery",
])
def test_en_not_a_report_of_something_done(text: str) -> None:
    assert not reports_done(text, "en")
