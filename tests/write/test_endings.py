"""Endings and third-person statements through the whole write path (real SQLite, real model).

What stays active after a sequence of messages or ``remember`` calls is what a bot
would be shown: one city, no girlfriend's name after the breakup, no job after 辞职,
no 准备考研 after 上岸, no coffee habit after 戒咖啡.
"""

from __future__ import annotations

from datetime import timedelta

import pytest

from jiyi import Kind, Memory
from jiyi.clock import FrozenClock
from jiyi.records import Status
from jiyi.text.ended import ENDED_KEY


def active(mem: Memory, user: str) -> list[str]:
    return [r.content for r in mem.get_all(user_id=user) if r.kind is not Kind.EPISODE and r.status is Status.ACTIVE]


def say(mem: Memory, clock: FrozenClock, user: str, *texts: str) -> None:
    for i, text in enumerate(texts):
        clock.set(clock.now() + timedelta(days=3))
        mem.add([{"role": "user", "content": text, "id": f"{user}-{i}"}], user_id=user, sync=True)


@pytest.mark.parametrize(("first", "second", "gone", "kept"), [
    ("用户住在杭州", "用户住在上海", "杭州", "上海"),
    ("User lives in Zurich", "User lives in Ghent", "Zurich", "Ghent"),
    ("The user works at Initech", "The user works at Globex", "Initech", "Globex"),
    ("用户的老婆叫苏琳", "用户的老婆叫林悦", "苏琳", "林悦"),
    ("小明住在杭州", "小明搬到了成都", "杭州", "成都"),
    ("Maya lives in Halifax", "Maya moved to Omaha", "Halifax", "Omaha"),
])
def test_third_person_statements_supersede_like_first_person(mem: Memory, first: str, second: str, gone: str,
                                                             kept: str) -> None:
    mem.remember(first, user_id="u")
    mem.remember(second, user_id="u")
    now = active(mem, "u")
    assert any(kept in c for c in now) and not any(gone in c for c in now), now


def test_a_third_partys_city_does_not_replace_the_users(mem: Memory) -> None:
    mem.remember("我住在上海", user_id="u")
    mem.remember("小李住在北京", user_id="u")
    mem.remember("bob的手机号是13855501234", user_id="u")
    now = active(mem, "u")
    assert any("上海" in c for c in now) and any("北京" in c for c in now)
    users = [r for r in mem.get_all(user_id="u") if (r.slot or "").startswith("user/")]
    assert [r.slot for r in users] == ["user/city"], [(r.slot, r.content) for r in users]


@pytest.mark.parametrize(("before", "ending", "gone"), [
    ("我女朋友叫小美", "我和女朋友分手了", "小美"),
    ("我女朋友叫小美", "我们上周分手了", "小美"),
    ("My girlfriend is named Ingrid", "We broke up last week", "Ingrid"),
    ("我在腾讯工作", "我辞职了", "腾讯"),
    ("I work at Initech", "I quit my job", "Initech"),
    ("我是程序员，在字节上班", "我离职了", "程序员"),
    ("我现在在准备考研", "我考研上岸啦", "在准备考研"),
    ("I'm studying for the GRE", "I passed the GRE!", "studying"),
    ("我每天早上喝咖啡", "我戒咖啡了", "每天早上喝咖啡"),
    ("我每天上班前都要来一杯拿铁", "我把咖啡彻底戒了", "拿铁"),
    ("我每天上班前都要来一杯拿铁 不然没精神", "对了 体检说我睡眠不好 我把咖啡彻底戒了 现在只喝温水", "拿铁"),
    ("我喜欢喝奶茶", "奶茶不喝了", "喜欢喝奶茶"),
    ("I love playing tennis", "I gave up playing tennis", "loves playing tennis"),
    ("I drink coffee every morning", "I don't drink coffee anymore", "every morning"),
    ("我住在上海", "上个月搬到杭州了", "上海"),
])
def test_endings_supersede(mem: Memory, clock: FrozenClock, before: str, ending: str, gone: str) -> None:
    say(mem, clock, "u", before, ending)
    now = active(mem, "u")
    assert not any(gone in c for c in now), now
    assert now, "the ending itself is kept"


def test_an_ending_with_its_new_value_in_one_message(mem: Memory, clock: FrozenClock) -> None:
    say(mem, clock, "u", "我在腾讯工作", "我换工作了，现在在阿里上班")
    now = active(mem, "u")
    assert any("阿里" in c for c in now) and not any("腾讯" in c for c in now), now


@pytest.mark.parametrize(("before", "change", "old", "new"), [
    ("我在农行柜台上班 天天数钱", "换工作了 从农行跳到一家做户外装备的小公司 做运营", "农行", "户外装备"),
    ("我在银行上班 天天坐柜台", "换工作了，从银行跳到一家做精酿的小厂", "银行", "精酿"),  # a kind of place, no name
    ("I live in Larchmont Hall, the shared bathroom is gross", "finally moved out of Larchmont, renting a flat on Elm Rd now",
     "Larchmont", "Elm Rd"),
])
def test_a_change_that_names_the_old_value_says_it_is_no_longer_so(mem: Memory, clock: FrozenClock, before: str,
                                                                   change: str, old: str, new: str) -> None:
    """The new memory and its turn still say the old name; the block must not read it as current."""
    say(mem, clock, "u", before, change)
    block = mem.build_context("what do I do these days, where do I live", user_id="u")
    lines = [ln for ln in block.splitlines() if new in ln]
    assert lines and all(f"不再：{old}" in ln or f"no longer: {old}" in ln for ln in lines), block
    said = [r for r in mem.get_all(user_id="u") if old in r.content and r.status is Status.ACTIVE
            and not r.metadata.get("over") and not r.metadata.get("outdated_by") and not r.metadata.get(ENDED_KEY)]
    assert not said, [r.content for r in said]


@pytest.mark.parametrize(("habit", "ending"), [
    ("每天晚上沿着河边跑6公里 雷打不动", "从下周起不跑步了 膝盖受不了 改骑车"),
    ("下班就去撸铁 一周五练", "健身卡退了 不去健身房了"),
    ("I run 8km every morning before work", "stopped running, my knee is done"),
])
def test_a_sport_given_up_ends_what_was_told_of_it_in_other_words(mem: Memory, clock: FrozenClock, habit: str,
                                                                  ending: str) -> None:
    say(mem, clock, "u", habit, ending)
    told = [r for r in mem.get_all(user_id="u") if r.kind is not Kind.EPISODE and r.source_ids == ("u-0",)]
    assert told and all(r.metadata.get(ENDED_KEY) or r.status is not Status.ACTIVE for r in told), told


def test_a_workplace_left_by_what_it_is_is_what_the_turn_ends(mem: Memory, clock: FrozenClock) -> None:
    say(mem, clock, "u", "我在一家做空调的厂子搞质检", "那个破空调厂子我跑路了!! 上周五交的离职")
    turn = next(r for r in mem.get_all(user_id="u") if r.kind is Kind.EPISODE and "跑路" in r.content)
    assert turn.metadata.get("over") == ["空调厂子"], turn.metadata
    say(mem, clock, "v", "我在一家奶茶店上班", "辞职去了一家咖啡店")  # where it is headed is no old workplace
    turn = next(r for r in mem.get_all(user_id="v") if r.kind is Kind.EPISODE and "辞职" in r.content)
    assert "咖啡店" not in (turn.metadata.get("over") or ()), turn.metadata


@pytest.mark.parametrize(("before", "ending", "gone"), [
    ("今天和男朋友阿峰吵架了", "我和阿峰分手了", "阿峰吵架"),
    ("I live in Zurich, work at initech as a UX researcher", "I quit initech. starting at a startup next month", "works at initech"),
    ("lol yes, I down like 3 espressos a day", "btw I switched from coffee to rooibos", "espressos"),
    ("我现在在准备考研 每天复习到半夜", "终于上岸了！", "复习到半夜"),
    ("我在保险公司上班", "告诉你 我把保险公司的工作辞了", "保险公司上班"),
])
def test_endings_seen_in_chat(mem: Memory, clock: FrozenClock, before: str, ending: str, gone: str) -> None:
    say(mem, clock, "u", before, ending)
    now = active(mem, "u")
    assert not any(gone in c for c in now), now


@pytest.mark.parametrize(("job", "offer", "declined", "kept"), [
    ("我在恒通物流做仓管", "拿到了青檬科技的offer 下个月入职", "青檬那边我不去了 想了想还是留在现在这家", "恒通"),
])
def test_a_change_turned_down_gives_back_what_it_replaced(mem: Memory, clock: FrozenClock, job: str, offer: str,
                                                          declined: str, kept: str) -> None:
    say(mem, clock, "u", job, offer)
    assert not any(kept in c for c in active(mem, "u")), active(mem, "u")  # the offer replaced the job …
    clock.set(clock.now() + timedelta(days=3))
    mem.add([{"role": "user", "content": declined, "id": "u-declined"}], user_id="u", sync=True)
    assert any(kept in c for c in active(mem, "u")), active(mem, "u")  # … until it was turned down


def test_a_change_that_happened_and_ended_later_gives_back_nothing(mem: Memory, clock: FrozenClock) -> None:
    say(mem, clock, "u", "我在恒通物流做仓管", "拿到了青檬科技的offer 下个月入职")
    clock.set(clock.now() + timedelta(days=60))
    mem.add([{"role": "user", "content": "青檬干了两个月就辞了 太卷", "id": "u-quit"}], user_id="u", sync=True)
    assert not any("恒通" in c for c in active(mem, "u")), active(mem, "u")


def test_an_event_that_told_the_old_partner_is_over_with_the_breakup(mem: Memory, clock: FrozenClock) -> None:
    """"男朋友阿杰下个月过生日" is an event, no standing fact to close; it still says he is the boyfriend."""
    say(mem, clock, "u", "我男朋友阿杰下个月过生日 送啥好")
    clock.set(clock.now() + timedelta(days=3))
    mem.add([{"role": "user", "content": "我们分手了 说散就散", "id": "u-end"}], user_id="u", sync=True)
    events = [r for r in mem.get_all(user_id="u") if r.kind is Kind.EVENT and "阿杰" in r.content]
    assert events and all(r.metadata.get(ENDED_KEY) for r in events), events
