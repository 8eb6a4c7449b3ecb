"""A move that names no place takes the place the speaker said they were headed for (write/destination.py)."""

from __future__ import annotations

from datetime import timedelta

import pytest

from jiyi import Kind, Memory
from jiyi.clock import FrozenClock
from jiyi.records import Status
from jiyi.write.destination import place_now


def say(mem: Memory, clock: FrozenClock, *texts: str, days: int = 5) -> None:
    for i, text in enumerate(texts):
        clock.set(clock.now() + timedelta(days=days))
        mem.add([{"role": "user", "content": text, "id": f"t{i}"}], user_id="u", sync=True)


def current(mem: Memory) -> list[str]:
    return [r.content for r in mem.get_all(user_id="u") if r.kind is not Kind.EPISODE and r.status is Status.ACTIVE]


@pytest.mark.parametrize(("home", "plan", "moved", "old", "new"), [
    ("我住在洛阳", "珠海那边有家店挖我 我可能要换城市了", "搬完家累瘫了", "洛阳", "珠海"),
    ("I live in Bristol", "thinking of moving to Leeds for the new job", "finally moved!! boxes everywhere", "Bristol",
     "Leeds"),
    # the place said with "in" in a turn of moving, and a move told as settling in
    ("I live in Norwich", "got the teaching post… in Glasgow!! moving in the summer", "finally settled in, the flat is tiny",
     "Norwich", "Glasgow"),
])
def test_a_move_naming_no_place_takes_the_place_said_before(mem: Memory, clock: FrozenClock, home: str, plan: str,
                                                           moved: str, old: str, new: str) -> None:
    say(mem, clock, home, plan, moved)
    now = current(mem)
    assert any(new in c for c in now) and not any(old in c for c in now), now


def test_a_place_said_too_long_ago_is_not_where_the_move_went(mem: Memory, clock: FrozenClock) -> None:
    say(mem, clock, "我住在洛阳", "珠海那边有家店挖我 我可能要换城市了")
    say(mem, clock, "搬完家累瘫了", days=100)
    assert any("洛阳" in c for c in current(mem)), current(mem)


def test_no_verb_of_moving_takes_no_place_said_before(mem: Memory, clock: FrozenClock) -> None:
    """调回白班了 is a shift, not a move: the place said before is no destination."""
    say(mem, clock, "我住在洛阳", "珠海那边有家店挖我 我可能要换城市了", "今天开始调回白班了 再也不用熬通宵了")
    now = current(mem)
    assert any("洛阳" in c for c in now) and not any("珠海）" in c for c in now), now


def test_a_move_told_under_a_display_name_takes_the_place_said_before(mem: Memory, clock: FrozenClock) -> None:
    """Every turn sent as "Rosa M": the name opening the move's memory ("Rosa M: Settled in") is no place, nor
    is "going to live with" a place headed for."""
    for i, text in enumerate(("I live in Norwich", "got the teaching post… in Glasgow!! moving in the summer",
                              "no pets in the new flat so Pip is going to live with my neighbour",  # no place
                              "finally settled in, the flat is tiny")):
        clock.set(clock.now() + timedelta(days=20))
        mem.add([{"role": "user", "content": text, "name": "Rosa M", "id": f"n{i}"}], user_id="u", sync=True)
    now = current(mem)
    assert any("Glasgow" in c for c in now) and not any("Norwich" in c for c in now), now


def test_a_trip_said_before_is_not_where_the_move_went(mem: Memory, clock: FrozenClock) -> None:
    """"going to Hong Kong Oct 3-5, visa run" is a stay of days: a later "moved!!!" did not go there."""
    say(mem, clock, "I live in Nanshan", "going to Hong Kong Oct 3-5, visa run plus dim sum marathon",
        "moved!!! new place is a 2 min walk from the park")
    assert not any("moved" in c and "Hong Kong" in c for c in current(mem)), current(mem)


@pytest.mark.parametrize(("home", "moved", "old", "new"), [
    ("I live in Capitol Hill, walking distance to like 6 coffee shops", "also finally moved. Ballard now. no more hill lol",
     "Capitol Hill", "Ballard"),
    ("我住在桥西区 六楼没电梯", "对了 俺们家挪窝了 上礼拜挪到鹿泉去了 租的一楼", "桥西", "鹿泉"),
])
def test_a_move_whose_own_turn_says_where_takes_that_place(mem: Memory, clock: FrozenClock, home: str, moved: str,
                                                           old: str, new: str) -> None:
    """The place is in the move's own turn, in a clause of its own ("Ballard now") or after its own verb (挪到鹿泉)."""
    say(mem, clock, home, moved)
    now = current(mem)
    assert any(new in c for c in now) and not any(old in c for c in now), now


@pytest.mark.parametrize(("text", "place"), [
    ("also finally moved. Ballard now. no more hill lol", "Ballard"), ("moved last week, now in Leith", "Leith"),
    ("Moved! Boxes everywhere", None), ("I moved. Honestly Tired now.", None), ("Moved. Home now.", None),
])
def test_the_place_a_move_says_it_is_in_now(text: str, place: str | None) -> None:
    assert place_now(text, "en") == place


def test_a_turn_naming_the_city_of_the_new_district_is_no_old_home(mem: Memory, clock: FrozenClock) -> None:
    """"青岛这边办了个游泳馆次卡" said before "搬完家了 现在住青岛崂山区": it names the new home's city, so it stays."""
    say(mem, clock, "我住在威海 租的房子在高区", "跟你说 我要去青岛了", "健身卡转给同事了 青岛这边办了个游泳馆次卡",
        "搬完家了 现在住青岛崂山区 跟人合租")
    turn = next(r for r in mem.get_all(user_id="u") if "游泳馆" in r.content and r.kind is Kind.EPISODE)
    assert not turn.metadata.get("outdated_by"), turn.metadata
