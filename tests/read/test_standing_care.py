"""A query the user's body decides brings the user's conditions, though it names none of them (read/standing.py's
care probe on the bundled e5 vectors); a query it does not decide leaves them out."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from jiyi.clock import FrozenClock
from jiyi.memory import Memory

CST = timezone(timedelta(hours=8))
START = datetime(2026, 9, 1, 20, 0, tzinfo=CST)
TOLD = ["我腰间盘突出 坐久了疼", "最近在追一部悬疑剧", "公司楼下新开了家面馆", "周末想去宜家逛逛", "猫又把沙发抓坏了",
        "下个月要去成都出差", "最近在学吉他 手指好疼", "今天加班到九点 累死", "楼下超市在打折", "我有慢性胃炎 医生让少吃辣"]


@pytest.fixture
def told(mem: Memory, clock: FrozenClock) -> Memory:
    for day, text in enumerate(TOLD):
        clock.set(START + timedelta(days=day))
        mem.add({"role": "user", "content": text}, user_id="u1", session_id=f"s{day}", sync=True)
    clock.set(START + timedelta(days=30))
    return mem


@pytest.mark.parametrize(("query", "condition"), [("今晚恰么子好", "胃炎"), ("想买个新坐垫 推荐下", "腰间盘突出"),
                                                  ("Where should I grab brekkie tomorrow?", "胃炎")])
def test_a_query_the_body_decides_brings_the_condition(told: Memory, query: str, condition: str) -> None:
    assert condition in told.build_context(query, user_id="u1")


@pytest.mark.parametrize("query", ["帮我写个请假条", "明天开会的PPT怎么做"])
def test_a_query_the_body_does_not_decide_leaves_it_out(told: Memory, query: str) -> None:
    block = told.build_context(query, user_id="u1")
    assert "胃炎" not in block and "腰间盘" not in block, block
