"""Endings, pursuits, habits on recurring days and the end of every plan, at the extractor.

Messages are stamped 2025-03-05 10:00 UTC, a Wednesday (rules_support.TS); the
extractor's zone is UTC there, Asia/Shanghai where a test says so.
"""

from __future__ import annotations

from datetime import datetime, timezone
from zoneinfo import ZoneInfo

import pytest
from rules_support import _d, only, run

from jiyi.config import Settings
from jiyi.extractors.rules import from_settings
from jiyi.records import Kind, Message

SHANGHAI = ZoneInfo("Asia/Shanghai")


@pytest.mark.parametrize(("text", "slot", "ends"), [
    ("我和女朋友分手了", "relation/girlfriend", {"relation/boyfriend", "relation/partner"}),
    ("跟男朋友分了，心情很差", "relation/boyfriend", {"relation/girlfriend"}),
    ("我们上周分手了", "relation/partner", {"relation/girlfriend", "relation/boyfriend"}),
    ("我离婚了", "relation/wife", {"relation/husband", "relation/spouse"}),
    ("We broke up last week", "relation/partner", {"relation/girlfriend", "relation/boyfriend"}),
    ("My girlfriend and I split up", "relation/girlfriend", {"relation/partner"}),
    ("I got divorced in January", "relation/wife", {"relation/husband"}),
    ("我辞职了", "user/employer", {"user/job"}),
    ("上个月裸辞了", "user/employer", {"user/job"}),
    ("I quit my job", "user/employer", {"user/job"}),
    ("I got laid off yesterday", "user/employer", {"user/job"}),
    ("我换工作了，现在在阿里", "user/employer", set()),
    ("I changed jobs", "user/employer", set()),
])
def test_an_ending_takes_the_slot_and_names_what_else_it_ends(text: str, slot: str, ends: set[str]) -> None:
    c = only(text, slot)
    assert c.kind is Kind.FACT
    assert ends <= set(c.metadata.get("ends") or []), c.metadata  # type: ignore[arg-type]


def test_an_ending_said_with_a_time_ends_then_and_is_no_event_too() -> None:
    cands = run("我们上周分手了")
    assert [c.kind for c in cands] == [Kind.FACT]
    assert cands[0].valid_from == _d("2025-02-24")


@pytest.mark.parametrize(("text", "slot"), [
    ("我现在在准备考研", "status/exam"), ("最近在备考雅思", "status/exam"), ("终于上岸了！", "status/exam"),
    ("考研上岸了", "status/exam"), ("我被录取了", "status/exam"), ("我最近在找工作", "status/job_search"),
    ("拿到offer了", "status/job_search"), ("我在减肥", "status/weight_loss"),
    ("I'm studying for the GRE", "status/exam"), ("I passed the bar exam", "status/exam"),
    ("I'm job hunting", "status/job_search"), ("I landed a job at Globex", "status/job_search"),
])
def test_pursuits_and_their_ends_share_a_slot(text: str, slot: str) -> None:
    only(text, slot)


@pytest.mark.parametrize("text", ["猫胖了两斤 兽医让它减肥", "他在考研 天天泡图书馆"])
def test_anothers_pursuit_is_not_the_speakers(text: str) -> None:
    assert not [c.slot for c in run(text) if (c.slot or "").startswith("status/")]


@pytest.mark.parametrize("text", ["我俩分了", "咱俩还是分了"])
def test_we_two_split_is_a_breakup(text: str) -> None:
    (c,) = [c for c in run(text) if c.slot]
    assert c.slot == "relation/partner" and c.content.startswith("用户和对方")


@pytest.mark.parametrize("text", ["我想换工作了，在字节太累", "我打算下个月辞职", "I want a new job",
                                  "I want to quit my job"])
def test_a_wish_to_leave_a_job_ends_nothing_yet(text: str) -> None:
    """想换工作 / "I want a new job": the employer still stands; the wish is a pursuit."""
    slots = [c.slot for c in run(text)]
    assert "user/employer" not in slots and "status/job_search" in slots, slots


def test_looking_for_work_is_no_employer() -> None:
    assert all(c.slot != "user/employer" for c in run("我最近在找工作"))


@pytest.mark.parametrize(("text", "slot", "mention"), [
    ("我戒咖啡了", "pref/咖啡", "咖啡"), ("我不再喝奶茶了", "pref/奶茶", "奶茶"), ("奶茶不喝了", "pref/奶茶", "奶茶"),
    ("我再也不玩游戏了", "pref/游戏", "游戏"), ("我不打篮球了", "pref/篮球", "篮球"),
    ("I quit coffee", "pref/coffee", "coffee"), ("I stopped drinking soda", "pref/soda", "soda"),
    ("I gave up playing tennis", "pref/tennis", "tennis"), ("I don't drink coffee anymore", "pref/coffee", "coffee"),
    ("I no longer play the guitar", "pref/guitar", "guitar"),
])
def test_a_habit_that_stopped_names_its_object(text: str, slot: str, mention: str) -> None:
    c = only(text, slot)
    assert c.metadata.get("ends_mention") == mention


@pytest.mark.parametrize(("liked", "stopped"), [("我喜欢打篮球", "我不打篮球了"), ("I love playing tennis", "I quit tennis"),
                                                ("我爱喝奶茶", "我不再喝奶茶了")])
def test_liking_and_stopping_share_the_slot(liked: str, stopped: str) -> None:
    assert {c.slot for c in run(liked)} == {c.slot for c in run(stopped)}


def test_not_eating_something_is_no_change() -> None:
    assert "ends_mention" not in only("我不吃香菜", "pref/香菜").metadata


# ---------------------------------------------------------------- habits on recurring days

@pytest.mark.parametrize(("text", "content"), [
    ("周末喜欢喝咖啡", "用户周末喜欢喝咖啡"), ("周末我喜欢去爬山", "用户周末喜欢去爬山"),
    ("周一都去游泳", "用户周一都去游泳"), ("我周末一般在家打游戏", "用户周末一般在家打游戏"),
    ("每周一健身", "用户每周一健身"), ("I go running every morning", "User goes running every morning"),
    ("I usually go hiking at the weekend", "User usually goes hiking at the weekend"),
    ("I love Friday nights at the pub", "User loves Friday nights at the pub"),
])
def test_habits_keep_their_words_and_have_no_date(text: str, content: str) -> None:
    cands = run(text)
    assert [c.content for c in cands] == [content]
    c = cands[0]
    assert c.kind in (Kind.PREFERENCE, Kind.BEHAVIOR)
    assert (c.valid_from, c.valid_until, c.expires_at) == (None, None, None)


@pytest.mark.parametrize(("text", "kept"), [
    ("球馆周三被包场了 以后改成周五打 周三不打了", ("改成周五打", "周三不打了")),
    ("合唱排练从下周起挪到周四晚上", ("挪到周四晚上",)),
])
def test_a_routine_moved_to_another_weekday_keeps_its_weekdays(text: str, kept: tuple[str, ...]) -> None:
    contents = [c.content for c in run(text)]
    assert any(all(k in c for k in kept) for c in contents), contents


@pytest.mark.parametrize("text", ["周末去爬山", "这周末想去爬山", "I'm going hiking this weekend", "周五要去体检"])
def test_a_plan_on_a_named_day_is_still_an_event(text: str) -> None:
    c = only(text, kind=Kind.EVENT)
    assert c.expires_at is not None


# ---------------------------------------------------------------- every plan ends

@pytest.mark.parametrize(("text", "expires"), [
    ("下周三要去深圳出差", "2025-03-13"), ("Next Friday I have a dentist appointment", "2025-03-15"),
    ("周末去爬山", "2025-03-10"), ("3月12日到14日去三亚旅游", "2025-03-15"), ("I'm flying to Tokyo next month", "2025-05-01"),
    ("明年打算去日本", "2027-01-01"), ("今天中午想吃牛肉炒饭", "2025-03-06"),
])
def test_every_plan_expires_when_its_time_is_over(text: str, expires: str) -> None:
    assert only(text, kind=Kind.EVENT).expires_at == _d(expires)


@pytest.mark.parametrize("text", ["昨天去看了电影", "昨天看电影", "上周去了三亚", "I went to Japan last week",
                                  "We had dinner at Nobu yesterday"])
def test_a_past_event_keeps_its_window_and_never_expires(text: str) -> None:
    c = only(text, kind=Kind.EVENT)
    assert c.expires_at is None and c.valid_until is not None and c.valid_until <= _d("2025-03-05")


def test_a_plan_said_late_in_the_day_still_ends() -> None:
    ex = from_settings(Settings(timezone="Asia/Shanghai"))
    sent = datetime(2025, 3, 5, 18, 30, tzinfo=SHANGHAI)
    for text in ("今天中午想吃牛肉炒饭", "今晚去看电影", "明天去医院复查"):
        (c,) = [c for c in ex.extract([Message("user", text, sent, id="m")]) if c.kind is Kind.EVENT]
        assert c.expires_at is not None and c.expires_at > sent, text
        assert c.expires_at.astimezone(SHANGHAI).hour == 0


def test_relative_dates_near_midnight_utc_resolve_in_the_users_zone() -> None:
    """17:00 UTC on Tuesday 2025-03-04 is 01:00 Wednesday in Shanghai: 下周三 is 03-12 there."""
    ex = from_settings(Settings(timezone="Asia/Shanghai"))
    sent = datetime(2025, 3, 4, 17, 0, tzinfo=timezone.utc)
    (c,) = ex.extract([Message("user", "下周三要去深圳出差", sent, id="m")])
    assert c.content == "用户2025年3月12日要去深圳出差"
    assert c.valid_from == datetime(2025, 3, 12, tzinfo=SHANGHAI)
    assert c.expires_at == datetime(2025, 3, 13, tzinfo=SHANGHAI)


@pytest.mark.parametrize(("text", "year"), [
    ("I went to Japan in May", 2024), ("5月去了日本", 2024), ("On October 3 we visited Lisbon", 2024),
    ("I'm going to Japan in May", 2025), ("我5月要去日本", 2025), ("明年5月去日本", 2026),
])
def test_a_bare_month_told_in_the_past_is_the_last_one(text: str, year: int) -> None:
    """Said in March 2025: a May (or October) told as done is 2024's, one told as a plan the coming one."""
    assert only(text, kind=Kind.EVENT).valid_from.year == year  # type: ignore[union-attr]


def test_a_pursuit_is_its_own_clause_and_the_dated_rest_an_event() -> None:
    cands = run("最近一直在准备考驾照，科目一下周考")
    status = [c for c in cands if c.slot == "status/exam"]
    assert [c.content for c in status] == ["用户最近一直在准备考驾照"] and status[0].valid_from is None
    assert any(c.kind is Kind.EVENT and "科目一" in c.content and c.valid_from is not None for c in cands)


@pytest.mark.parametrize(("text", "slot"), [("烟我彻底断了 三周没碰", "pref/烟"), ("酒早掐了", "pref/酒")])
def test_a_thing_consumed_then_dropped_is_a_stop(text: str, slot: str) -> None:
    assert only(text, slot).content.startswith("用户戒了")


def test_dropping_what_is_no_habit_stops_nothing() -> None:
    assert not [c for c in run("网我断了 路由器坏了") if c.slot and c.slot.startswith("pref/")]


def test_a_change_beside_another_clauses_day_is_kept_on_its_own() -> None:
    found = run("超市那份工我辞了 周末终于能睡懒觉")  # the day is the next clause's (round 33)
    assert any(c.kind is Kind.FACT and "超市那份工" in c.content for c in found), found
    assert any(c.kind is Kind.EVENT and "超市" not in c.content for c in found)  # (the dated clause is still an event)


def test_a_change_its_own_event_tells_is_not_told_twice() -> None:
    found = run("那家4A 我 resign 了 上周五 last day")
    assert [c.kind for c in found if "4A" in c.content] == [Kind.EVENT], found
