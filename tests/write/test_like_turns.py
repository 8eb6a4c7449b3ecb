"""The earlier turn a change is about, found by meaning (write/like_turns.py).

The selection on vectors made for the test (which turn stands out, what disqualifies one), then the whole
write path (real SQLite, the real e5 model, the rules extractor) on turns whose words no rule reads as the
old state. Every sentence here was written for these tests.
"""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import numpy as np
import pytest

from jiyi import Kind, Memory
from jiyi.clock import FrozenClock
from jiyi.eval.scenarios.format import Needle
from jiyi.eval.scenarios.match import excluded_in_block
from jiyi.extractors.protocol import Candidate
from jiyi.records import MemoryRecord, Scope
from jiyi.write.like_turns import like_turns
from jiyi.write.resolve import to_record

T0 = datetime(2026, 3, 5, 9, 0, tzinfo=timezone.utc)
DIM = 8


def turn(content: str) -> MemoryRecord:
    rec = to_record(Candidate(content, Kind.EPISODE), scope=Scope("default", "u"), session_id="s", agent_id=None,
                    now=T0, model="m")
    return rec.replace(metadata={"role": "user"})


def unit(*weights: float) -> np.ndarray:
    v = np.zeros(DIM, dtype=np.float32)
    v[: len(weights)] = weights
    return v / np.linalg.norm(v)


#: five turns about other things, each leaning on its own axis
OTHERS = ["今天猫又把花盆打翻了", "周末去爬了趟山 腿废了", "最近在追一部悬疑剧 挺好看", "同事请全组喝了奶茶", "晚上煮了锅番茄牛腩"]


#: the change as said: it names the old home's district
SAID = "退了鼓楼那间 搬去仓山了"


def spread(texts: list[str]) -> tuple[list[MemoryRecord], dict[str, np.ndarray]]:
    turns = [turn(t) for t in texts]
    return turns, {t.id: unit(*([0.0] * (1 + i % (DIM - 2)) + [1.0]), 0.3) for i, t in enumerate(turns)}


def test_the_turn_standing_out_by_meaning_is_the_one_the_change_ends() -> None:
    turns, vectors = spread(OTHERS)
    home = turn("租的那间在鼓楼 六楼没电梯 每天爬到断气")
    vectors[home.id] = unit(0.95, 0.1)
    assert like_turns(["residence"], unit(1.0), [*turns, home], vectors, said=SAID) == [home]


def test_a_turn_alike_in_shape_naming_nothing_of_the_change_is_left() -> None:
    """"雅思出分了 7.5！！" is as close to "辞职了 三年半 再见" as a vector goes, and names no job and no name
    the change names."""
    turns, vectors = spread(OTHERS)
    score = turn("雅思出分了 7.5！！终于")
    vectors[score.id] = unit(0.95, 0.1)
    assert like_turns(["employer"], unit(1.0), [*turns, score], vectors, said="辞职了 三年半 再见") == []


def test_nothing_stands_out_nothing_is_marked() -> None:
    turns, vectors = spread(OTHERS)
    assert like_turns(["residence"], unit(0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0), turns, vectors) == []


def test_too_few_turns_tell_nothing_of_what_is_usual() -> None:
    home = turn("租的那间在鼓楼 六楼没电梯 每天爬到断气")
    other = turn("今天猫又把花盆打翻了")
    vectors = {home.id: unit(1.0), other.id: unit(0.0, 1.0)}
    assert like_turns(["residence"], unit(1.0), [home, other], vectors) == []


@pytest.mark.parametrize("text", [
    "我姐住在鼓楼 六楼没电梯 天天爬",  # another's
    "鼓楼那边的房子好租吗？",  # a question
    "可能下个月搬去鼓楼吧 还没定",  # a plan, hedged
    "哈哈哈哈哈哈",  # a filler
    "仓山那边的新房子看好了 有电梯",  # it says the new value
    "我在鼓楼一家药店上班 天天站一天",  # another family's value
])
def test_a_turn_that_states_nothing_the_change_ends_is_left(text: str) -> None:
    turns, vectors = spread(OTHERS)
    near = turn(text)
    vectors[near.id] = unit(0.95, 0.1)
    assert like_turns(["residence"], unit(1.0), [*turns, near], vectors, value=["仓山"], said=SAID) == []


def say(mem: Memory, clock: FrozenClock, *texts: str) -> dict[str, MemoryRecord]:
    for i, text in enumerate(texts):
        clock.set(clock.now() + timedelta(days=3))
        mem.add([{"role": "user", "content": text, "id": f"m{i}"}], user_id="u", sync=True)
    return {r.content: r for r in mem.get_all(user_id="u", status=None) if r.kind is Kind.EPISODE}


@pytest.mark.parametrize("turns", [
    ("my flat is a third-floor walk-up off Rua Azul, the kitchen is a joke", "my cat knocked over a plant again",
     "went bouldering with my sister, arms are dead", "binge watching a heist show this week",
     "made a huge pot of chili for the team", "MOVED!! ground floor place by the river now, real kitchen finally"),
    ("租的那间在鼓楼 六楼没电梯 每天爬到断气", "今天猫又把花盆打翻了", "周末去爬了趟山 腿废了", "最近在追一部悬疑剧 挺好看",
     "同事请全组喝了奶茶", "搬完了！！新家在仓山 终于有电梯了"),
])
def test_a_move_outdates_the_earlier_turn_that_told_the_old_home(mem: Memory, clock: FrozenClock,
                                                                 turns: tuple[str, ...]) -> None:
    episodes = say(mem, clock, *turns)
    assert episodes[turns[0]].metadata.get("outdated_by"), [(k, v.metadata) for k, v in episodes.items()]
    assert not any(episodes[t].metadata.get("outdated_by") for t in turns[1:])
    block = mem.build_context("any good food near my place?" if turns[0].isascii() else "我家附近有啥好吃的", user_id="u")
    assert not excluded_in_block((Needle(text=turns[0]),), block, True), block


def test_a_history_added_in_one_batch_outdates_the_turn_before_its_change(mem: Memory, clock: FrozenClock) -> None:
    """An imported history says the old state and its change in one write: the change still finds the turn."""
    turns = ["fyi no meat for me, fully plant based for about four years now", "my cat knocked over a plant again",
             "went bouldering with my sister, arms are dead", "binge watching a heist show this week",
             "made a huge pot of lentil chili for the team", "rainy all day, stayed in and read",
             "update: back on chicken and fish, my doctor said my iron is way too low"]
    start = clock.now()
    clock.set(start + timedelta(days=40))
    mem.add([{"role": "user", "content": t, "id": f"h{i}", "timestamp": (start + timedelta(days=5 * i)).isoformat()}
             for i, t in enumerate(turns)], user_id="u", sync=True)
    episodes = {r.content: r for r in mem.get_all(user_id="u", status=None) if r.kind is Kind.EPISODE}
    assert episodes[turns[0]].metadata.get("outdated_by"), [(k, v.metadata) for k, v in episodes.items()]
    assert not any(episodes[t].metadata.get("outdated_by") for t in turns[1:])
