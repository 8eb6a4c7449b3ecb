"""What a group chat said about the query's matter reaches a member's block, with its speaker; a change said
later puts what it changed under the past heading."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from jiyi.clock import FrozenClock
from jiyi.memory import Memory
from jiyi.read.context import _PAST_TITLE
from jiyi.read.group_said import asks_recap

CLUB = "badminton-club"


def said(mem: Memory, clock: FrozenClock, user: str, name: str, text: str, *, days: float = 0.0,
         session: str = CLUB, group: bool = True) -> None:
    clock.set(clock.now() + timedelta(days=days, minutes=3))
    mem.add([{"role": "user", "name": name, "content": text}], user_id=user, session_id=session, sync=True,
            group=group)


def current_and_past(block: str, lang: str = "zh") -> tuple[str, str]:
    """The block before the past heading, and after it."""
    head = f"## {_PAST_TITLE[lang]}"
    return (block.split(head, 1)[0], block.split(head, 1)[1]) if head in block else (block, "")


@pytest.fixture
def club(mem: Memory, clock: FrozenClock) -> Memory:
    """A club's chat: the organiser's notices among the members' chatter."""
    said(mem, clock, "u-zheng", "老郑", "各位 每周二晚7点到9点 光明体育馆2号场 照旧AA 每人30 接龙")
    said(mem, clock, "u-jia", "小贾", "接龙 1.老郑 2.小贾")
    said(mem, clock, "u-emma", "Emma", "我带两桶球 新买的羽毛球拍到了")
    said(mem, clock, "u-jia", "小贾", "上周扣杀太猛 右膝半月板拉伤了 医生说至少歇一个月", days=2)
    said(mem, clock, "u-emma", "Emma", "下个月区里有个业余赛 双打 我报名了", days=1)
    said(mem, clock, "u-xu", "徐老师", "我家孩子下个月中考 最近都来不了", days=1)
    said(mem, clock, "u-zheng", "老郑", "通知：光明那边涨价了 从下周开始换到全民健身中心5号场 每人45", days=3)
    said(mem, clock, "u-emma", "Emma", "收到 健身中心停车方便")
    said(mem, clock, "u-ken", "阿Ken", "周末有人一起去爬山吗", days=1)
    return mem


def test_a_notice_another_member_gave_reaches_the_block_with_its_speaker(club: Memory) -> None:
    block = club.build_context("这周打球在哪个馆 场费多少", user_id="u-ken")
    now, _ = current_and_past(block)
    assert "老郑" in now and "健身中心" in now, block


def test_what_a_notice_changed_is_not_shown_as_current(club: Memory) -> None:
    block = club.build_context("这周打球在哪个馆 场费多少", user_id="u-ken")
    now, past = current_and_past(block)
    assert "每人30" not in now and "光明体育馆2号场" not in now, block
    assert "健身中心" in now and "光明体育馆2号场" in past, block  # (kept, as what held before)


def test_a_change_put_off_in_english_replaces_the_date_it_moved(mem: Memory, clock: FrozenClock) -> None:
    said(mem, clock, "u-wendy", "Wendy", "Morning all, the product demo day is on Nov 20 at Pier Hall")
    for text in ("congrats Ivy on the new role!", "anyone up for lunch at the dim sum place?",
                 "the printer on floor 3 is jammed again", "Ivy and I will do the photo shoot on Monday",
                 "IT says the VPN maintenance is tonight"):
        said(mem, clock, "u-sam", "Sammy", text, days=1)
    said(mem, clock, "u-wendy", "Wendy", "Update: demo day pushed to Dec 4, Pier Hall double-booked us", days=2)
    block = mem.build_context("when is the demo day again? need to book a photographer", user_id="u-priya")
    assert "Priya" not in block  # (u-priya has said nothing yet: no group of hers)
    said(mem, clock, "u-priya", "Priya", "noted, thanks!")
    block = mem.build_context("when is the demo day again? need to book a photographer", user_id="u-priya")
    now, _ = current_and_past(block, "en")
    assert "Dec 4" in now and "Nov 20" not in now, block


def test_a_query_that_says_nothing_brings_no_group_talk(club: Memory) -> None:
    block = club.build_context("在吗 哈哈", user_id="u-ken")
    assert "健身中心" not in block and "光明" not in block, block


def test_a_session_the_member_never_called_a_group_shows_nothing_of_theirs(mem: Memory, clock: FrozenClock) -> None:
    said(mem, clock, "u-zheng", "老郑", "通知：周会改到每周二下午两点 三楼小会议室", group=False)
    for text in ("好的", "收到 周二见", "今天食堂的红烧肉不错", "下午的评审我晚点到", "打印机又卡纸了", "周五团建去哪"):
        said(mem, clock, "u-jia", "小贾", text, days=0.5)
    said(mem, clock, "u-ken", "阿Ken", "大家好 我是新来的")
    block = mem.build_context("周会是什么时候", user_id="u-ken")
    assert "周二下午两点" not in block, block


def test_a_secret_said_in_the_group_is_never_shown(club: Memory, clock: FrozenClock) -> None:
    said(club, clock, "u-zheng", "老郑", "健身中心订场 app 账号 13712345678 密码 Qm#7731zz 大家谁有空谁订", days=1)
    block = club.build_context("健身中心订场的账号密码是啥", user_id="u-ken")
    assert "Qm#7731zz" not in block and "13712345678" not in block, block


def test_a_plan_of_the_group_whose_day_is_over_goes_under_the_past_heading(mem: Memory, clock: FrozenClock) -> None:
    said(mem, clock, "u-xu2", "老许", "下周六 去云台山 早6点半体育场北门集合 报名接龙")
    for text in ("+1", "我带护膝 上次膝盖疼", "我是学生 能不能学生价", "山上冷不冷", "我开车 能坐四个人", "我有哮喘 爬坡慢"):
        said(mem, clock, "u-du", "小杜", text, days=0.2)
    said(mem, clock, "u-peng", "大鹏", "收到")
    clock.set(datetime(2025, 4, 1, 12, 0, tzinfo=timezone.utc))
    block = mem.build_context("云台山那次是怎么集合的", user_id="u-peng")
    now, past = current_and_past(block)
    assert "云台山" in past and "云台山" not in now, block


def test_a_query_for_whats_coming_up_brings_the_groups_plans_ahead(club: Memory, clock: FrozenClock) -> None:
    said(club, clock, "u-zheng", "老郑", "下周六晚上俱乐部年会 在湖边餐厅 家属可以带", days=1)
    said(club, clock, "u-jia", "小贾", "今天又被徐老师虐了 哈哈", days=1)
    block = club.build_context("最近有啥活动", user_id="u-ken")
    now, _ = current_and_past(block)
    assert "老郑" in now and "年会" in now, block


@pytest.mark.parametrize(("query", "asks"), [("群里刚才港了么子", True), ("群里最近有么子通知", True),
                                             ("帮我总结下最近组里的事", True), ("catch me up on the group chat", True),
                                             ("群里有人说我坏话吗", False), ("推荐点零食", False)])
def test_what_asks_what_the_group_said(query: str, asks: bool) -> None:
    assert asks_recap(query) is asks


def test_a_recap_brings_what_the_others_said_last_whatever_its_words(mem: Memory, clock: FrozenClock) -> None:
    """A short session (fewer turns than a likeness needs) still has its latest turns for "群里刚才说啥了"."""
    said(mem, clock, "u-zou", "邹姐", "各位 下周五团建 去梅岭爬山 晚上农家乐 大家接龙报名")
    said(mem, clock, "u-tu", "涂海涛", "1. 涂海涛 +1 我芒果过敏 农家乐别上芒果")
    said(mem, clock, "u-xiong", "熊文婧", "2. 熊文婧 我来订车")
    block = mem.build_context("群里刚才说啥了", user_id="u-xiong")
    assert "梅岭" in block and "邹姐" in block, block
