"""Search as agents see it: no pleasantries, repeats collapsed, the bot's questions never first,
lapsed plans still found for questions about the past."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta, timezone

from jiyi import Memory
from jiyi.clock import FrozenClock
from jiyi.read.agents import is_bot_question, same_text_key
from jiyi.records import Kind, MemoryRecord

T0 = datetime(2025, 3, 5, 9, 0, tzinfo=timezone.utc)  # the clock fixture's start (tests/conftest.py)



def test_pleasantries_are_never_hits(make_memory: Callable[..., Memory]) -> None:
    mem = make_memory()
    mem.add([{"role": "user", "content": "哈喽"}, {"role": "assistant", "content": "您好！请问有什么可以帮您的吗？"},
             {"role": "user", "content": "我对芒果过敏，一吃嘴就肿"},
             {"role": "assistant", "content": "Glad to help, have a great day!"}], user_id="u1", sync=True)
    for q in ("有什么可以帮你", "推荐点水果", "have a great day"):
        texts = [h.content for h in mem.search(q, user_id="u1", limit=10)]
        assert not any("有什么可以帮您" in t or "Glad to help" in t or t == "哈喽" for t in texts), (q, texts)


def test_the_same_question_seven_times_does_not_crowd_out_the_answer(make_memory: Callable[..., Memory],
                                                                      clock: FrozenClock) -> None:
    mem = make_memory()
    mem.add("我家wifi的名字叫青柠小屋", user_id="u1", sync=True)
    for i in range(12):
        clock.set(T0 + timedelta(minutes=i + 1))
        mem.add(f"今天第{i}次加班到九点，有点累", user_id="u1", sync=True)
    for i in range(7):
        clock.set(T0 + timedelta(hours=1, minutes=i))
        mem.add("我家wifi叫什么名字？", user_id="u1", sync=True)
    hits = mem.search("我家wifi叫什么名字？", user_id="u1", limit=10)
    asked = [h for h in hits if h.content == "我家wifi叫什么名字？"]
    assert len(asked) == 1 and asked[0].scores["repeats"] == 7.0
    assert asked[0].record.valid_from == T0 + timedelta(hours=1, minutes=6)  # the newest is kept
    assert any("青柠小屋" in h.content for h in hits)


def _turn(content: str, role: str) -> MemoryRecord:
    return MemoryRecord(id="m", tenant="t", user_id="u", content=content, kind=Kind.EPISODE, created_at=T0,
                        updated_at=T0, metadata={"role": role})


def test_bot_question_and_same_text() -> None:
    assert is_bot_question(_turn("那您打算几号出发呢？", "assistant"))
    assert is_bot_question(_turn("How was the trip?", "assistant"))
    assert not is_bot_question(_turn("我几号出发？", "user"))
    assert not is_bot_question(_turn("好的，已经帮您记下了。", "assistant"))
    assert same_text_key("我的暗号是什么？") == same_text_key("我的暗号 是什么") != same_text_key("我的暗号是啥")


def test_the_bots_question_never_leads(make_memory: Callable[..., Memory]) -> None:
    mem = make_memory()
    mem.add([{"role": "user", "content": "我下个月想去大理玩几天"},
             {"role": "assistant", "content": "大理很美！你打算下个月几号去大理玩呢？"},
             {"role": "user", "content": "大概中旬吧，还没定"}], user_id="u1", sync=True)
    hits = mem.search("我打算几号去大理玩？", user_id="u1", limit=5)
    assert hits and hits[0].record.metadata.get("role") != "assistant", [h.content for h in hits]


def test_a_lapsed_plan_is_found_for_questions_about_the_past(make_memory: Callable[..., Memory],
                                                             clock: FrozenClock) -> None:
    mem = make_memory()
    mem.add("明天晚上去蓝鲸剧场看话剧", user_id="u1", sync=True)
    clock.set(T0 + timedelta(days=45))
    mem.add("最近在学做戚风蛋糕", user_id="u1", sync=True)
    mem.gc(dry_run=False)
    for q in ("我什么时候去看的话剧？", "我去过蓝鲸剧场吗", "那次看话剧怎么样", "when did I go to the theatre?"):
        texts = [h.content for h in mem.search(q, user_id="u1", limit=5)]
        assert any("蓝鲸剧场" in t for t in texts), (q, texts)
    assert "蓝鲸剧场" in mem.build_context("我去过蓝鲸剧场吗", user_id="u1")


def test_a_snack_question_finds_the_allergy_in_the_top_five(make_memory: Callable[..., Memory]) -> None:
    mem = make_memory()
    for text in ("我叫周若溪，在一家设计公司做插画", "记住，我对腰果过敏", "我养了一只柴犬叫豆豆",
                 "我每周六上午去游泳", "我老家在南昌", "我最近在追一部悬疑剧", "我弟弟在读高三"):
        mem.add(text, user_id="u1", sync=True)
    for q in ("下午有点饿，推荐点小零食", "any snack ideas for a long train ride?"):
        texts = [h.content for h in mem.search(q, user_id="u1", limit=5)]
        assert any("腰果" in t for t in texts), (q, texts)
    texts = [h.content for h in mem.search("我老家是哪里的？", user_id="u1", limit=3)]
    assert not any("腰果" in t for t in texts), texts  # a question on another topic is left alone
