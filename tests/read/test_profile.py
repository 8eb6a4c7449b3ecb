"""Which memories are standing (the profile tier), and in which order."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from jiyi.read.profile import is_standing, profile_order
from jiyi.records import Kind, MemoryRecord

T = datetime(2026, 12, 1, tzinfo=timezone.utc)


def rec(content: str, kind: Kind = Kind.FACT, slot: str | None = None, importance: float = 0.6,
        confidence: float = 0.8, days_ago: int = 0) -> MemoryRecord:
    at = T - timedelta(days=days_ago)
    return MemoryRecord(id=content, tenant="t", user_id="u", content=content, kind=kind, created_at=at,
                        updated_at=at, slot=slot, importance=importance, confidence=confidence)


@pytest.mark.parametrize("memory", [
    rec("用户对花生过敏", slot="allergy/花生", importance=0.9),
    rec("用户叫陈晨", slot="user/name", importance=0.8),
    rec("用户住在杭州", slot="user/city", importance=0.7),
    rec("用户吃素", Kind.PREFERENCE, slot="diet/type", importance=0.7),
    rec("用户希望回答简短", Kind.PREFERENCE, slot="style/length", importance=0.7),
    rec("用户的女朋友叫小雅", Kind.RELATION, slot="relation/girlfriend", importance=0.7),
    rec("用户戒了咖啡", Kind.PREFERENCE, slot="pref/咖啡", importance=0.7),
    rec("用户在字节跳动做后端开发", slot="user/工作"),  # an LLM extractor's slot name
    rec("用户有糖尿病", slot="health/糖尿病", importance=0.8),
    rec("用户让助手记住：每晚十点提醒吃药", importance=0.85),  # no slot, but marked important
])
def test_standing_memories(memory: MemoryRecord) -> None:
    assert is_standing(memory)


@pytest.mark.parametrize("memory", [
    rec("用户下周三要去深圳出差", Kind.EVENT, importance=0.9),  # events are never standing
    rec("我对花生过敏", Kind.EPISODE, importance=0.9),
    rec("这次会话聊了旅行", Kind.SUMMARY, importance=0.9),
    rec("用户周末常去爬山", Kind.BEHAVIOR, importance=0.5),
    rec("用户的猫叫年糕", Kind.RELATION, importance=0.6),
    rec("用户排第12", slot="user/rank", importance=0.7),  # a passing state
    rec("Carol lives in Denver", slot="user/city@Carol", importance=0.7),  # another speaker's
    rec("用户觉得今天好累"),
])
def test_not_standing(memory: MemoryRecord) -> None:
    assert not is_standing(memory)


def test_a_named_speakers_slot_counts_when_the_query_names_them() -> None:
    carol = rec("Carol lives in Denver", slot="user/city@Carol", importance=0.7)
    assert is_standing(carol, "Carol: where should I go hiking near me?")
    assert not is_standing(carol, "Alice: any book ideas?")


def test_order_is_importance_then_confidence_then_newest() -> None:
    a = rec("a", importance=0.9, confidence=0.5)
    b = rec("b", importance=0.7, confidence=0.9, days_ago=1)
    c = rec("c", importance=0.7, confidence=0.9)
    d = rec("d", importance=0.7, confidence=0.6)
    assert [r.id for r in profile_order([d, b, c, a])] == ["a", "c", "b", "d"]


@pytest.mark.parametrize(("told", "query", "shown", "hidden"), [
    ("我有痛风，医生说少碰海鲜", "中午想煮个汤 煮什么好", "痛风", "写个周报开头"),
    ("i have celiac, so gluten is a no", "what should i bake for the potluck?", "celiac", "write me a short bio"),
    ("跟你说个事 我怀孕了 四个月了", "晚上想吃点辣的 来个简单的菜谱", "怀孕", "帮我写段简历里的自我评价"),
    # going out: the conditions that limit it
    ("我怀孕五个月了 最近老腿抽筋", "这周末有啥室内能去的地方", "怀孕", "帮我写个周报开头"),
    ("i'm pregnant, 20 weeks now", "any good short hikes for sunday?", "pregnant", "write me a short bio"),
    ("我有哮喘 换季就犯", "周末想去爬山 推荐个路线", "哮喘", "帮我写个周报开头"),
])
def test_a_condition_that_decides_what_is_asked_comes_with_the_question(make_memory, told: str, query: str,
                                                                         shown: str, hidden: str) -> None:
    """A food question opens what decides what may be eaten; a question about going out, what limits it."""
    mem = make_memory()
    mem.add(told, user_id="u", sync=True)
    assert shown in mem.build_context(query, user_id="u")
    assert shown not in mem.build_context(hidden, user_id="u")  # sensitive: only where it decides something


def test_a_condition_that_decides_nothing_about_food_stays_out_of_a_food_question(make_memory) -> None:
    mem = make_memory()
    mem.add("我有偏头痛，老毛病了", user_id="u", sync=True)
    assert "偏头痛" not in mem.build_context("晚饭吃什么好", user_id="u")
    assert "偏头痛" in mem.build_context("最近身体不舒服，吃什么药好", user_id="u")  # a health question asks for it


def profile_part(block: str) -> str:
    """The lines under the block's profile heading, or ""."""
    for part in block.split("\n## ")[1:]:
        if part.startswith(("用户档案", "Profile")):
            return part
    return ""


@pytest.mark.parametrize(("said", "query", "word"), [
    ("今天和阿珂去民政局领证了！以后就是两口子了", "周末想给另一半一个惊喜 有啥点子", "领证"),
    ("finally moved last weekend, we live in Tarrow Heights now", "any good brunch spots near me?", "Tarrow"),
])
def test_a_change_that_lasts_stays_in_the_profile_after_its_day(make_memory, clock, said: str, query: str,
                                                                 word: str) -> None:
    """A wedding or a move is an event of one day whose outcome lasts: weeks later it is still who the user is."""
    mem = make_memory()
    mem.add(said, user_id="u", sync=True)
    clock.set(clock.now() + timedelta(days=40))
    assert word in profile_part(mem.build_context(query, user_id="u"))


def test_a_move_still_ahead_is_no_home_yet(make_memory) -> None:
    mem = make_memory()
    mem.add("下个月搬去青岛 房子都租好了", user_id="u", sync=True)
    assert "青岛" not in profile_part(mem.build_context("周末附近有啥好玩的", user_id="u"))


@pytest.mark.parametrize(("said", "word"), [
    ("下周二跟女朋友去领证 要准备啥材料", "领证"),     # a wedding planned, told days before its day
    ("今天值夜班 晚上不回家吃了", "夜班"),             # no new home named: no move
])
def test_a_plan_or_a_night_away_is_no_lasting_change(make_memory, clock, said: str, word: str) -> None:
    mem = make_memory()
    mem.add(said, user_id="u", sync=True)
    clock.set(clock.now() + timedelta(days=40))
    assert word not in profile_part(mem.build_context("周末有啥安排建议", user_id="u"))
