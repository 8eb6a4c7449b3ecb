"""Forget by message in a group stored under one user id: a member's request reaches only what
that member said (messages carry ``name``), and what it deletes stays restorable."""

from __future__ import annotations

from collections.abc import Callable

from jiyi.memory import Memory
from jiyi.records import EventType, Status

MakeMemory = Callable[..., Memory]
GROUP = "group-7"


def say(mem: Memory, name: str, text: str, mid: str) -> None:
    mem.add({"role": "user", "name": name, "content": text, "id": mid}, user_id=GROUP, sync=True)


def seeded(make_memory: MakeMemory) -> Memory:
    mem = make_memory()
    say(mem, "阿杰", "我的手机号是13911112222", "a1")
    say(mem, "小雨", "我的手机号是13933334444", "b1")
    say(mem, "小雨", "我对虾过敏", "b2")
    return mem


def live(mem: Memory) -> list[str]:
    return [r.content for r in mem.get_all(user_id=GROUP)]


def test_one_member_deletes_only_their_phone(make_memory: MakeMemory) -> None:
    mem = seeded(make_memory)
    result = mem.add({"role": "user", "name": "阿杰", "content": "把我的手机号删了", "id": "a2"}, user_id=GROUP, sync=True)
    assert result.forget == ["phone"] and result.forgotten
    left = " ".join(live(mem))
    assert "13911112222" not in left and "13933334444" in left and "虾" in left


def test_one_members_everything_is_not_the_groups(make_memory: MakeMemory) -> None:
    mem = seeded(make_memory)
    result = mem.add({"role": "user", "name": "小雨", "content": "忘记我说过的所有话", "id": "b3"}, user_id=GROUP, sync=True)
    assert result.forget == ["everything"]
    left = " ".join(live(mem))
    assert "13911112222" in left and "13933334444" not in left and "虾" not in left


def test_what_a_request_deletes_stays_restorable(make_memory: MakeMemory) -> None:
    mem = make_memory()
    mem.add("我的邮箱是mo.li@example.net", user_id="u1", sync=True)
    result = mem.add("能不能把我的邮箱删掉？", user_id="u1", sync=True)
    assert result.forget == ["email"]
    (gone, *_) = result.forgotten
    rec = mem.get(gone.id, user_id="u1")
    assert rec is not None and rec.status is Status.DELETED
    assert [e.event for e in mem.history(gone.id, user_id="u1")][-1] is EventType.DELETE
    assert mem.restore(gone.id, user_id="u1").status is Status.ACTIVE
