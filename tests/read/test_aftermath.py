"""What the user said right after an ending is shown beside it: what holds now."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from jiyi.clock import FrozenClock
from jiyi.memory import Memory
from jiyi.read.aftermath import aftermaths, tells_an_ending
from jiyi.read.curate import Selection, _followed
from jiyi.records import Hit, Kind, MemoryRecord

FILLER = ["今天加班到十点 累死", "楼下新开了家面馆 牛肉面不错", "最近在追一部悬疑剧", "周末想去爬山",
          "同学群里又在晒娃了", "我老家是安徽六安的", "最近在学吉他 手指疼", "下个月想换个手机"]


def talk(mem: Memory, clock: FrozenClock, turns: list[tuple[str, str]], session: str, days: int = 2) -> None:
    clock.set(clock.now() + timedelta(days=days))
    for role, text in turns:
        clock.set(clock.now() + timedelta(minutes=1))
        mem.add([{"role": role, "content": text}], user_id="u1", session_id=session, sync=True)


@pytest.mark.parametrize(("text", "ending"), [
    ("那家公司我不干了 下个月交接完", True), ("我们俩分手了", True), ("咖啡戒了", True),
    ("I quit my job at the bakery", True),
    ("我在一家物流公司上班", False), ("明天去爬山", False), ("I moved to Leeds last month", False),
])
def test_an_ending_is_told_by_what_it_ends(text: str, ending: bool) -> None:
    assert tells_an_ending(text) is ending


def followers(mem: Memory, clock: FrozenClock, ending_word: str) -> list[str]:
    """What :func:`aftermaths` finds after the user's memory (or turn) holding ``ending_word``."""
    scope = mem._scope("u1")
    lines = [Hit(r, 1.0, {"total": 1.0}) for r in mem.get_all(user_id="u1") if ending_word in r.content
             and r.kind is not Kind.EPISODE]
    assert lines, [r.content for r in mem.get_all(user_id="u1")]
    return [t.content for t in aftermaths(mem.store, scope, lines, at=clock.now()).values()]


def quit_and_then(mem: Memory, clock: FrozenClock, reply: str, session: str = "s2") -> None:
    talk(mem, clock, [("user", "我在城东一家印刷厂做排版 干了五年")], "s1")
    for i, text in enumerate(FILLER[:3]):
        talk(mem, clock, [("user", text), ("assistant", "嗯嗯")], f"f{i}")
    talk(mem, clock, [("user", "印刷厂那边我辞了"), ("assistant", "辛苦啦，接下来打算做什么？")], "s2")
    talk(mem, clock, [("user", reply)], session, days=0)


def test_the_answer_to_the_bots_question_after_an_ending_follows_it(mem: Memory, clock: FrozenClock) -> None:
    quit_and_then(mem, clock, "跟表哥合伙盘了个铺子卖卤味 在大学城")
    assert followers(mem, clock, "辞了") == ["跟表哥合伙盘了个铺子卖卤味 在大学城"]


def test_a_turn_of_another_session_is_no_answer(mem: Memory, clock: FrozenClock) -> None:
    quit_and_then(mem, clock, "跟表哥合伙盘了个铺子卖卤味 在大学城", session="s3")
    assert followers(mem, clock, "辞了") == []


def test_a_change_after_an_ending_is_no_answer(mem: Memory, clock: FrozenClock) -> None:
    quit_and_then(mem, clock, "哈哈哈 不想了", session="s3")
    talk(mem, clock, [("user", "下周一入职一家设计公司 做美工")], "s4")
    assert followers(mem, clock, "辞了") == []


def test_chatter_after_an_ending_is_not_shown(mem: Memory, clock: FrozenClock) -> None:
    quit_and_then(mem, clock, "唉 再说吧 哈哈")
    block = mem.build_context("帮我写个自我介绍 发在同学群里", user_id="u1")
    assert "再说吧" not in block and followers(mem, clock, "辞了") == ["唉 再说吧 哈哈"], block


def test_what_followed_is_shown_beside_the_ending_at_its_score() -> None:
    at = datetime(2025, 3, 1, tzinfo=timezone.utc)

    def rec(mid: str, content: str) -> MemoryRecord:
        return MemoryRecord(id=mid, tenant="t", user_id="u1", content=content, kind=Kind.EPISODE, created_at=at,
                            updated_at=at, valid_from=at, source_ids=(f"msg-{mid}",))

    ending, other, after = rec("a", "印刷厂那边我辞了"), rec("b", "楼下新开了家面馆"), rec("c", "盘了个铺子卖卤味")
    sel = Selection([Hit(ending, 0.5, {"total": 3.0}), Hit(other, 0.5, {"total": 1.0})], [])
    out = _followed(sel, [], {"a": after}, {"a", "b"})
    assert [h.id for h in out.current] == ["c", "a", "b"] and out.current[0].scores["total"] == 3.0
    assert _followed(sel, [], {"a": after}, {"a", "b", "c"}) is sel  # already shown: nothing added
