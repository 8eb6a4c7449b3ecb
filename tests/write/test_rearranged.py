"""The earlier turn a routine moved or swapped is about, found by meaning (write/rearranged.py).

The whole write path (real SQLite, the real e5 model, the rules extractor) on swaps that name nothing of the old
routine before their verb. Every sentence here was written for these tests.
"""

from __future__ import annotations

from datetime import timedelta

import pytest

from jiyi import Kind, Memory
from jiyi.clock import FrozenClock
from jiyi.records import MemoryRecord
from jiyi.text.ended import ENDED_KEY
from jiyi.text.replaced import moved_or_swapped

#: turns about other things, between the routine and its swap
OTHERS_ZH = ["今天猫又把花盆打翻了", "周末去爬了趟山 腿废了", "最近在追一部悬疑剧 挺好看", "同事请全组喝了奶茶"]
OTHERS_EN = ["my cat knocked over a plant again", "went bouldering with my sister, arms are dead",
             "binge watching a heist show this week", "made a huge pot of chili for the team"]


def say(mem: Memory, clock: FrozenClock, *turns: str | tuple[str, str], user: str = "u") -> dict[str, MemoryRecord]:
    """Each turn a few days after the one before (a pair is (name, text): a member of a group stored as one)."""
    for i, t in enumerate(turns):
        clock.set(clock.now() + timedelta(days=3))
        name, text = t if isinstance(t, tuple) else (None, t)
        msg = {"role": "user", "content": text, "id": f"m{i}", **({"name": name} if name else {})}
        mem.add([msg], user_id=user, sync=True)
    return {r.content: r for r in mem.get_all(user_id=user, status=None) if r.kind is Kind.EPISODE}


@pytest.mark.parametrize(("old", "swap"), [
    ("书法班每周二晚上七点 在少年宫三楼", "书法班挪了 现在是周四晚上 周二那节换成围棋了"),
    ("I do aqua aerobics at the Riverside pool every Tuesday at 7am", "pool changed the lanes, my aqua aerobics is now on Fridays 6pm"),
])
def test_a_swap_ends_the_earlier_turn_of_the_routine(mem: Memory, clock: FrozenClock, old: str, swap: str) -> None:
    others = OTHERS_EN if old.isascii() else OTHERS_ZH
    turns = say(mem, clock, old, *others, swap)
    assert turns[old].metadata.get(ENDED_KEY) == turns[swap].id, [(k, v.metadata) for k, v in turns.items()]
    assert not any(turns[t].metadata.get(ENDED_KEY) for t in others)
    made = [r for r in mem.get_all(user_id="u") if r.kind is not Kind.EPISODE and turns[old].source_ids[0] in r.source_ids]
    assert all(r.metadata.get(ENDED_KEY) for r in made if r.slot is None), [(r.content, r.metadata) for r in made]


def test_a_new_number_of_the_same_measure_ends_the_old_one(mem: Memory, clock: FrozenClock) -> None:
    """"一小时150" says no name the raise shares; the measure (一小时) tells what the new number replaces."""
    old = "一小时150 不算多但够吃饭"
    others = ["我大四 正在备战复试 顺便做家教挣点生活费", "带两个学生 周家的果果 初二数学 每周二晚上七点",
              "果果对坚果过敏 她妈特意叮嘱过 别带零食", "我自己胃不好 不能吃太冷的", "3月28号复试 在西安 好紧张"]
    swap = "果果家涨价了 一小时180 她妈主动提的 感动"
    turns = say(mem, clock, others[0], others[1], old, *others[2:], swap)
    assert turns[old].metadata.get(ENDED_KEY) == turns[swap].id
    assert not any(turns[t].metadata.get(ENDED_KEY) for t in others)


def test_a_notice_in_a_group_stored_as_one_user_ends_another_members_notice(mem: Memory, clock: FrozenClock) -> None:
    old = ("郑老师", "各位家长 美术课每周一下午第三节 记得带水彩笔")
    swap = ("韩老师", "通知 美术课调到每周四上午第二节 周一下午改成阅读课")
    turns = say(mem, clock, old, ("果果妈", "收到"), ("果果妈", "孩子最近咳嗽 请假两天"), ("乐乐爸", "谢谢老师辛苦了"),
                ("小雨妈", "家长会几点开始呀"), ("乐乐爸", "周末带娃去了科技馆 挺好玩"), swap, user="grp")
    ended = {k for k, v in turns.items() if v.metadata.get(ENDED_KEY)}
    assert any("美术课每周一" in k for k in ended), ended
    assert not any("收到" in k or "咳嗽" in k for k in ended)


@pytest.mark.parametrize("swap", [
    "我想把书法班改到周四 不知道行不行",  # a wish
    "书法班改到周四了吗？",  # a question
    "我同事把她的瑜伽课改到周四了",  # someone else's
])
def test_no_swap_of_the_speakers_ends_nothing(mem: Memory, clock: FrozenClock, swap: str) -> None:
    old = "书法班每周二晚上七点 在少年宫三楼"
    turns = say(mem, clock, old, *OTHERS_ZH, swap)
    assert not turns[old].metadata.get(ENDED_KEY)


def test_another_members_own_routine_is_not_ended_by_a_swap(mem: Memory, clock: FrozenClock) -> None:
    """A group stored as one user: 阿俊's own class is his, whoever moves theirs."""
    old = ("阿俊", "我羽毛球课每周三晚上八点")
    turns = say(mem, clock, old, *(("小林", t) for t in OTHERS_ZH), ("小林", "我羽毛球课调到周五晚上了"), user="grp")
    assert not turns[old[1]].metadata.get(ENDED_KEY)


@pytest.mark.parametrize(("text", "lang", "found"), [
    ("以后改一三五 晚上十点开", "zh", True),
    ("竞赛课挪了 现在是周四晚上", "zh", True),
    ("改天再聊", "zh", False),
    ("空调了一下温度", "zh", False),
    ("from now on standup is at 10", "en", True),
    ("maybe I'll switch to mornings", "en", False),
])
def test_what_says_a_routine_was_moved(text: str, lang: str, found: bool) -> None:
    assert (moved_or_swapped(text, lang) is not None) is found


@pytest.mark.parametrize(("old", "now"), [
    ("我在城西的老年大学教书法 每周去两次", "老年大学那边我早不去了 现在是在社区活动室带书法兴趣班"),
    ("我跑蜂鸟的 主要在滨江这块 一天二十来单", "现在用的是顺丰同城的账号 蜂鸟那个号给我弟跑了"),
    ("我住城北 每天挤一个半小时地铁去公司", "终于不用挤一个半小时地铁了 现在骑车十分钟就到"),  # what is no longer done
    ("I drive for QuickCab on weekends, mostly airport runs", "so these days I'm driving for MetroRide, gave my QuickCab login to my cousin"),
])
def test_a_state_said_as_what_holds_now_ends_the_earlier_turn_it_shares_a_name_with(
        mem: Memory, clock: FrozenClock, old: str, now: str) -> None:
    others = OTHERS_EN if old.isascii() else OTHERS_ZH
    turns = say(mem, clock, old, *others, now)
    assert turns[old].metadata.get(ENDED_KEY) == turns[now].id, [(k, v.metadata) for k, v in turns.items()]
    assert not any(turns[t].metadata.get(ENDED_KEY) for t in others)


@pytest.mark.parametrize("now", [
    "我现在在地铁上 好挤",  # where one is at the moment, no name of the old state shared
    "你现在是书法老师 帮我写副对联",  # an instruction to the bot
    "我现在要不要换个兴趣班？",  # a question
])
def test_now_said_of_no_earlier_state_ends_nothing(mem: Memory, clock: FrozenClock, now: str) -> None:
    old = "我在城西的老年大学教书法 每周去两次"
    turns = say(mem, clock, old, *OTHERS_ZH, now)
    assert not turns[old].metadata.get(ENDED_KEY)
