"""A query asking what is coming up brings the events ahead, soonest first, whatever their words."""

from __future__ import annotations

from datetime import timedelta

import pytest

from jiyi.clock import FrozenClock
from jiyi.memory import Memory
from jiyi.read.agenda import asks_ahead

CHAT = [
    "今天加班到九点 累死",
    "12月20号去成都参加表哥的婚礼 要随份子",
    "猫又把沙发抓烂了",
    "上周去爬了紫金山 腿还酸",
    "公司楼下新开了家螺蛳粉 味道一般",
    "最近在追一部悬疑剧 挺上头",
    "周末想去看看宜家的书架",
    "11月3号看了五月天演唱会 嗓子喊哑了",
]


def _told(mem: Memory, clock: FrozenClock) -> None:
    start = clock.now()
    for i, text in enumerate(CHAT):
        clock.set(start + timedelta(hours=i))
        mem.add({"role": "user", "content": text, "timestamp": clock.now().isoformat()}, user_id="u1", sync=True)


@pytest.mark.parametrize("query", ["最近有啥安排没", "接下来有什么行程", "anything coming up I should prep for?"])
def test_an_agenda_query_brings_the_event_ahead(make_memory: object, clock: FrozenClock, query: str) -> None:
    mem: Memory = make_memory()  # type: ignore[operator]
    clock.set(clock.now().replace(month=11, day=10))
    _told(mem, clock)
    block = mem.build_context(query, user_id="u1", limit=1)  # (one found hit: the agenda comes on top of it)
    assert "婚礼" in block
    past = max(block.find("## 已经过去"), block.find("## Past"))
    assert "演唱会" not in (block[:past] if past > 0 else block)  # a past event is no plan: past heading only


@pytest.mark.parametrize(("query", "asks"), [("最近有啥安排没", True), ("这个月有啥ddl", True),
                                             ("what's coming up this week?", True), ("推荐点零食", False),
                                             ("我上周干啥了", False), ("下周三去北京出差", False),
                                             ("越剧班接下来有啥演出", True), ("anything on for the house this week?", True),
                                             ("what's on this weekend", True), ("我上次演出是什么时候", False),
                                             ("is anything on fire", False)])
def test_what_asks_for_the_agenda(query: str, asks: bool) -> None:
    assert asks_ahead(query) is asks
