"""How the speaker gets to work, and a newer statement of another way (text/commute.py)."""

from __future__ import annotations

import pytest

from jiyi.text.commute import commute, commutes_otherwise


@pytest.mark.parametrize(("text", "means"), [
    ("每日坐深惠城际返工 六点就要起身", {"rail"}), ("每天早上骑电动车去学校", {"two_wheeler"}),
    ("住光谷 每天坐2号线去汉口 单程一个多钟头", {"subway"}), ("I cycle to work every day along the canal", {"two_wheeler"}),
    ("现在远程办公 不用去公司了", {"remote"}),
])
def test_a_commute_is_read_by_its_means(text: str, means: set[str]) -> None:
    assert commute(text) == means


@pytest.mark.parametrize("text", ["今天坐地铁去公司", "周末骑车去公园", "took the bus to work today", "地铁上人好多"])
def test_a_trip_or_a_days_exception_is_no_commute(text: str) -> None:
    assert commute(text) == frozenset()


@pytest.mark.parametrize(("newer", "older", "changed"), [
    ("switched to the train now, knees are shot", "I cycle to work every day", True),
    ("现在在家办公了", "每天坐地铁上班", True), ("在家办公 车也不用开了 省油钱", "每天通勤开车走长江路 早高峰堵成狗", True),
    ("今天地铁故障 打车去的", "每天坐地铁上班", False),  # a day's exception
    ("以后还是坐地铁", "每天坐地铁上班", False),  # the same means
    ("现在开车了", "周末骑车去公园", False),  # the older one was no commute
])
def test_another_means_with_a_word_of_change(newer: str, older: str, changed: bool) -> None:
    assert commutes_otherwise(newer, older) is changed


@pytest.mark.parametrize("newer", ["那間我辭了啦 通勤太操", "我搬家了 搬到龙华", "今天辞职了"])
def test_a_job_left_or_a_home_moved_from_ends_the_way_to_work(newer: str) -> None:
    assert commutes_otherwise(newer, "每天开车通勤一小时 足累")
