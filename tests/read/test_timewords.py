"""A raw turn in the block says which day its 明天 / tomorrow meant; an outdated turn never ties with its successor."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta, timezone
from zoneinfo import ZoneInfo

import pytest

from jiyi import Memory
from jiyi.clock import FrozenClock
from jiyi.read.context import render_line
from jiyi.read.timewords import moment_passed, plan_passed, resolve_time_words
from jiyi.records import Hit, Kind, MemoryRecord

SH = ZoneInfo("Asia/Shanghai")


def test_relative_days_get_their_dates() -> None:
    said = datetime(2027, 1, 10, 12, 0, tzinfo=timezone.utc)
    assert resolve_time_words("明天下午去牙科复查", said, lang="zh", tz=SH) == "明天下午（1月11日）去牙科复查"
    assert resolve_time_words("下周三交房租", said, lang="zh", tz=SH) == "下周三（1月13日）交房租"
    assert resolve_time_words("Tomorrow I'm picking up the keys", said, lang="en", tz=SH) \
        == "Tomorrow (Jan 11) I'm picking up the keys"
    assert resolve_time_words("3月2日去过了", said, lang="zh", tz=SH) == "3月2日去过了"  # already dated
    assert resolve_time_words("最近在学吉他", said, lang="zh", tz=SH) == "最近在学吉他"


def test_words_for_several_days_get_their_first_and_last() -> None:
    """月底 is the last ten days of the month, a weekend two days: never only the first of them."""
    said = datetime(2026, 11, 16, 1, 0, tzinfo=timezone.utc)
    assert resolve_time_words("本月报销单月底前交给我", said, lang="zh", tz=SH) == "本月报销单月底（11月21日至30日）前交给我"
    assert resolve_time_words("下周末去爬山", said, lang="zh", tz=SH) == "下周末（11月28日至29日）去爬山"
    assert resolve_time_words("see you this weekend", said, lang="en", tz=SH) == "see you this weekend (Nov 21–22)"


def test_a_day_in_a_list_of_days_that_recur_is_no_date() -> None:
    said = datetime(2027, 1, 10, 12, 0, tzinfo=timezone.utc)
    for text in ("每周一和周四晚上去打羽毛球", "每周三、周日下午带娃上课"):
        assert resolve_time_words(text, said, lang="zh", tz=SH) == text
    assert resolve_time_words("every monday and friday night is pottery", said, lang="en", tz=SH) \
        == "every monday and friday night is pottery"
    assert "周五（" in resolve_time_words("每周一去游泳，周五去聚餐", said, lang="zh", tz=SH)  # a clause of its own


def test_a_clock_time_or_a_count_beside_the_day_leaves_it_to_be_resolved() -> None:
    said = datetime(2027, 1, 10, 12, 0, tzinfo=timezone.utc)  # a Sunday
    assert resolve_time_words("明天3点开会", said, lang="zh", tz=SH) == "明天3点（1月11日）开会"
    assert resolve_time_words("paperwork next tuesday, 10am, at the office", said, lang="en", tz=SH) \
        == "paperwork next tuesday, 10am (Jan 12), at the office"
    assert resolve_time_words("3天后出发", said, lang="zh", tz=SH) == "3天后（1月13日）出发"
    assert resolve_time_words("12月3日那天", said, lang="zh", tz=SH) == "12月3日那天"  # its own date
    assert resolve_time_words("flying out Dec 3", said, lang="en", tz=SH) == "flying out Dec 3"


def test_a_part_of_the_day_said_alone_is_that_day() -> None:
    said = datetime(2027, 1, 10, 4, 0, tzinfo=timezone.utc)  # noon in Shanghai
    assert resolve_time_words("晚上带爸妈去吃那家烤鸭", said, lang="zh", tz=SH) == "晚上（1月10日）带爸妈去吃那家烤鸭"
    assert resolve_time_words("行，下午去把快递取了", said, lang="zh", tz=SH) == "行，下午（1月10日）去把快递取了"
    assert resolve_time_words("我一般晚上才有空", said, lang="zh", tz=SH) == "我一般晚上才有空"  # a habit
    assert resolve_time_words("晚上好", said, lang="zh", tz=SH) == "晚上好"


def told_days_ago(make_memory: Callable[..., Memory], clock: FrozenClock, text: str, days: int) -> Memory:
    """A store where ``text`` was said ``days`` ago (Shanghai time)."""
    mem = make_memory(timezone="Asia/Shanghai")
    start = clock.now()
    mem.add(text, user_id="u1", sync=True)
    clock.set(start + timedelta(days=days))
    return mem


def test_a_turn_shown_days_later_says_its_own_date(make_memory: Callable[..., Memory], clock: FrozenClock) -> None:
    start = clock.now()
    mem = told_days_ago(make_memory, clock, "明天带外婆去社区医院量血压，顺便问问老花镜的事", 3)
    block = mem.build_context("外婆量血压的事", user_id="u1")
    day = start.astimezone(SH) + timedelta(days=1)
    assert "- 明天带外婆" not in block, block  # never a bare 明天 days later
    assert f"明天（{day.month}月{day.day}日）带外婆" in block or f"{day.month}月{day.day}日带外婆" in block, block


def test_a_moment_a_turn_named_is_over_days_after_it() -> None:
    said = datetime(2027, 1, 10, 4, 0, tzinfo=timezone.utc)
    later, same_day = said + timedelta(days=9), said + timedelta(hours=3)
    for text in ("今晚去吃那家酸菜鱼", "明天一早去爬山", "off to the beach this arvo", "grabbing ramen tonight"):
        assert moment_passed(text, said, later) and not moment_passed(text, said, same_day), text
    for text in ("我每天晚上跑步", "从今天开始不喝奶茶了", "starting today I'm off sugar", "我住在杭州"):
        assert not moment_passed(text, said, later), text


def test_a_plan_for_a_time_ahead_is_over_once_that_time_is() -> None:
    said = datetime(2026, 7, 25, 13, 0, tzinfo=timezone.utc)
    for text in ("下个月中旬还要带全家去海边", "他说国庆带我去西双版纳", "next month we're driving up to the lakes"):
        assert moment_passed(text, said, said + timedelta(days=120)), text
        assert not moment_passed(text, said, said + timedelta(days=10)), text  # still ahead
    for text in ("去年国庆去了趟西双版纳", "12月28号公司年会 我要上台唱歌", "下周开始每天跑步"):
        assert not moment_passed(text, said, said + timedelta(days=120)), text  # told as past, still ahead, lasting


def test_a_plan_told_beside_something_lasting_is_past_once_its_day_is() -> None:
    """plan_passed reads the plan alone: the job beside the race day does not keep the race ahead."""
    said = datetime(2026, 8, 5, 2, 0, tzinfo=timezone.utc)
    for text in ("I'm a nurse in Leeds, running the Yorkshire 10k on sept 14", "我在苏州当老师 9月20号去考驾照"):
        assert plan_passed(text, said, said + timedelta(days=90), tz=SH), text
        assert not plan_passed(text, said, said + timedelta(days=20), tz=SH), text  # still ahead
    for text in ("I'm a nurse in Leeds", "每周六上午去游泳", "从下周一开始吃素", "上周六去了趟苏州"):
        assert not plan_passed(text, said, said + timedelta(days=90), tz=SH), text


def test_a_turn_whose_plan_is_past_says_so_on_its_line() -> None:
    said = datetime(2026, 8, 5, 2, 0, tzinfo=timezone.utc)
    rec = MemoryRecord(id="t1", tenant="t", user_id="u", content="我在苏州当老师 下周六要去考驾照科目二", kind=Kind.EPISODE,
                       created_at=said, updated_at=said, valid_from=said, speaker="阿宁")
    line = render_line(Hit(rec, 0.5, {}), "zh", SH, at=said + timedelta(days=40))
    assert line.endswith("；其中的安排已过去)") and "下周六（8月15日）" in line, line
    assert "安排已过去" not in render_line(Hit(rec, 0.5, {}), "zh", SH, at=said + timedelta(days=1))
    assert "安排已过去" not in render_line(Hit(rec, 0.5, {}), "zh", SH)  # no moment given, nothing said of it


def test_a_plan_for_a_day_long_gone_is_shown_as_past(make_memory: Callable[..., Memory], clock: FrozenClock) -> None:
    mem = told_days_ago(make_memory, clock, "今晚跟表哥去江边吃烧烤，顺便看看夜景", 20)
    block = mem.build_context("今晚吃什么好", user_id="u1")
    current, _, past = block.partition("## 已经过去")
    assert "江边" not in current, block
    assert "江边" in past or "江边" not in block, block


def test_an_outdated_turn_ranks_clearly_below_its_successor(make_memory: Callable[..., Memory],
                                                            clock: FrozenClock) -> None:
    mem = make_memory()
    mem.add("我住在厦门，在鼓浪屿附近", user_id="u1", sync=True)
    clock.set(clock.now() + timedelta(days=30))
    mem.add("我已经搬到福州了", user_id="u1", sync=True)
    hits = mem.search("我住在哪个城市？", user_id="u1", limit=10)
    old = [h for h in hits if h.record.metadata.get("outdated_by")]
    for h in old:
        new = next(x for x in hits if x.id == h.record.metadata["outdated_by"])
        assert new.scores["total"] - h.scores["total"] >= 0.5 - 1e-9


@pytest.mark.parametrize(("text", "said", "at", "shown"), [
    ("11月20号幼儿园开放日，我请了半天假；12月18号还有个新年演出", "2026-11-08", "2026-11-25",
     "11月20号（已过去）幼儿园开放日，我请了半天假；12月18号还有个新年演出"),
    ("明天去医院 下周五还要复查", "2026-11-20", "2026-11-25", "明天（11月21日，已过去）去医院 下周五（11月27日）还要复查"),
    ("明天去医院", "2026-11-20", "2026-11-25", "明天（11月21日）去医院"),  # all over: the line says so once (plan_passed)
])
def test_a_day_told_beside_another_still_ahead_is_said_to_be_past(text: str, said: str, at: str, shown: str) -> None:
    tz = timezone(timedelta(hours=8))
    def day(d: str) -> datetime:
        return datetime.fromisoformat(d).replace(hour=12, tzinfo=tz)
    assert resolve_time_words(text, day(said), lang="zh", tz=tz, at=day(at)) == shown


SHANGHAI = ZoneInfo("Asia/Shanghai")


@pytest.mark.parametrize(("text", "passed"), [
    ("本月报销单月底前交给我 11月30号截止 过期不候", True),  # a deadline's day is its last: over the morning after
    ("report due Nov 30, don't forget", True),
    ("11月30号去杭州玩", False),  # news of a day stays news for a while after it
    ("这个月好忙", False),  # the month it was said in frames it, plans nothing
])
def test_a_deadline_is_over_once_its_day_is(text: str, passed: bool) -> None:
    said = datetime(2026, 11, 16, 2, tzinfo=timezone.utc)
    assert plan_passed(text, said, datetime(2026, 12, 2, 1, tzinfo=timezone.utc), tz=SHANGHAI) is passed
    assert not plan_passed(text, said, datetime(2026, 11, 29, 1, tzinfo=timezone.utc), tz=SHANGHAI)
