"""A memory's time is when its source was said, not when the write path got to it.

The clock reads 2025-06-01; the messages are an imported history from 2025-03-10.
"""

from __future__ import annotations

from datetime import datetime, timezone
from typing import Any

import pytest

from jiyi import Kind, Memory, Status
from jiyi.clock import FrozenClock

NOW = datetime(2025, 6, 1, 9, 0, tzinfo=timezone.utc)
SAID = datetime(2025, 3, 10, 8, 0, tzinfo=timezone.utc)


@pytest.fixture
def clock() -> FrozenClock:
    return FrozenClock(NOW)


def said(text: str, when: str, mid: str) -> dict[str, Any]:
    return {"role": "user", "content": text, "timestamp": when, "id": mid}


def test_an_imported_fact_is_dated_by_its_message(make_memory: object) -> None:
    mem: Memory = make_memory(timezone="UTC")  # type: ignore[zydecotor]
    mem.add([said("我对腰果过敏，后天要去宁波开会", "2025-03-10T08:00:00Z", "a"),
             said("I'm allergic to kiwi", "2025-03-10T08:05:00Z", "b")], user_id="u", sync=True)
    records = mem.get_all(user_id="u")
    allergy = next(r for r in records if r.slot == "allergy/腰果")
    assert allergy.created_at == SAID
    assert allergy.updated_at == NOW  # the version a later write expects stays the processing time
    kiwi = next(r for r in records if "kiwi" in r.content and r.kind is not Kind.EPISODE)
    assert kiwi.created_at == datetime(2025, 3, 10, 8, 5, tzinfo=timezone.utc)
    trip = next(r for r in records if r.kind is Kind.EVENT)
    assert "2025年3月12日" in trip.content  # 后天 of the message's day, not of the clock's
    assert all(r.created_at <= datetime(2025, 3, 10, 8, 5, tzinfo=timezone.utc) for r in records)
    block = mem.build_context("我对什么过敏？", user_id="u")
    line = next(x for x in block.splitlines() if "腰果" in x and "过敏" in x and x.startswith("- 用户"))
    assert "2025-03-10" in line and "2025-06-01" not in block


def test_search_at_a_past_time_sees_what_was_said_by_then(make_memory: object) -> None:
    mem: Memory = make_memory(timezone="UTC")  # type: ignore[zydecotor]
    mem.add([said("我对腰果过敏", "2025-03-10T08:00:00Z", "a")], user_id="u", sync=True)
    then = [h.record for h in mem.search("过敏", user_id="u", at="2025-04-01T00:00:00Z")]
    assert any(r.slot == "allergy/腰果" for r in then)
    before = [h.record for h in mem.search("过敏", user_id="u", at="2025-03-01T00:00:00Z")]
    assert not any(r.slot == "allergy/腰果" for r in before)


def test_an_older_statement_imported_later_does_not_replace_a_newer_one(make_memory: object) -> None:
    mem: Memory = make_memory(timezone="UTC")  # type: ignore[zydecotor]
    mem.add([said("我现在住在漳州", "2025-05-02T10:00:00Z", "new")], user_id="u", sync=True)
    mem.add([said("我住在湖州", "2025-03-10T08:00:00Z", "old")], user_id="u", sync=True)  # history imported after
    city = {r.content: r for r in mem.get_all(user_id="u", status=None)
            if r.slot == "user/city"}
    newer = next(r for c, r in city.items() if "漳州" in c)
    older = next(r for c, r in city.items() if "湖州" in c)
    assert newer.status is Status.ACTIVE
    assert older.status is Status.SUPERSEDED and older.superseded_by == newer.id
    assert older.valid_until == datetime(2025, 5, 2, 10, 0, tzinfo=timezone.utc)


def test_a_newer_statement_still_replaces_an_older_one_from_when_it_was_said(make_memory: object) -> None:
    mem: Memory = make_memory(timezone="UTC")  # type: ignore[zydecotor]
    mem.add([said("我住在湖州", "2025-03-10T08:00:00Z", "old")], user_id="u", sync=True)
    mem.add([said("我现在住在漳州", "2025-05-02T10:00:00Z", "new")], user_id="u", sync=True)
    city = {r.content: r for r in mem.get_all(user_id="u", status=None)
            if r.slot == "user/city"}
    older = next(r for c, r in city.items() if "湖州" in c)
    assert older.status is Status.SUPERSEDED
    assert older.valid_until == datetime(2025, 5, 2, 10, 0, tzinfo=timezone.utc)  # not the processing time


def test_a_timestamp_ahead_of_the_clock_counts_as_now(make_memory: object) -> None:
    mem: Memory = make_memory(timezone="UTC")  # type: ignore[zydecotor]
    mem.add([said("我对腰果过敏", "2025-09-01T08:00:00Z", "a")], user_id="u", sync=True)
    allergy = next(r for r in mem.get_all(user_id="u") if r.slot == "allergy/腰果")
    assert allergy.created_at == NOW


def test_a_summary_of_an_imported_session_is_dated_by_its_last_turn(make_memory: object) -> None:
    mem: Memory = make_memory(timezone="UTC")  # type: ignore[zydecotor]
    turns = [said("我在准备教师资格证考试", "2025-03-10T08:00:00Z", "a"),
             {"role": "assistant", "content": "加油！", "timestamp": "2025-03-10T08:01:00Z", "id": "b"},
             said("下个月考笔试，有点紧张", "2025-03-10T08:02:00Z", "c")]
    mem.add(turns, user_id="u", session_id="s1", sync=True)
    [summary] = mem.end_session(user_id="u", session_id="s1")
    assert summary.created_at == datetime(2025, 3, 10, 8, 2, tzinfo=timezone.utc)


def test_a_late_worker_dates_what_it_extracts_by_when_it_was_added(make_memory: object, clock: FrozenClock) -> None:
    mem: Memory = make_memory(timezone="UTC")  # type: ignore[zydecotor]
    clock.set(SAID)
    mem.add([{"role": "user", "content": "我对腰果过敏"}], user_id="u")  # queued; no timestamp: the time of add
    clock.set(NOW)  # the worker gets to it months later
    assert mem.flush()
    allergy = next(r for r in mem.get_all(user_id="u") if r.slot == "allergy/腰果")
    assert allergy.created_at == SAID
