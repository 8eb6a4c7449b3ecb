"""gc rules: dry run reports, apply acts, every change is in the history."""

from __future__ import annotations

from datetime import timedelta

from jiyi import EventType, Kind, Memory, Status
from jiyi.clock import FrozenClock


def test_gc_dry_run_then_apply(mem: Memory, clock: FrozenClock) -> None:
    old_city = mem.remember("用户住在上海", user_id="u1", kind="fact", slot="user/city", importance=0.9)
    mem.remember("用户住在杭州", user_id="u1", kind="fact", slot="user/city", importance=0.9)
    trivia = mem.remember("用户提到过一次云的形状", user_id="u1", kind="fact", importance=0.1)
    lunch = mem.remember("用户今天中午想吃面", user_id="u1", kind="event",
                         expires_at=clock.now() + timedelta(hours=3))
    trip = mem.remember("用户三月去了深圳出差", user_id="u1", kind="event", importance=0.7,
                        valid_until=clock.now() + timedelta(days=3))
    later_trip = mem.remember("用户明年去成都出差", user_id="u1", kind="event", importance=0.7,
                              valid_until=clock.now() + timedelta(days=300))
    clock.set(clock.now() + timedelta(days=100))

    dry = mem.gc()
    assert dry.dry_run
    assert old_city.id in dry.ids["purge_replaced"]
    assert trivia.id in dry.ids["forget_unused"]
    assert lunch.id in dry.ids["expire_events"]
    assert trip.id in dry.ids["expire_events"]  # a trip that is over lapses
    assert later_trip.id not in dry.ids["expire_events"]  # one still ahead does not
    assert mem.get(old_city.id, user_id="u1") is not None  # nothing changed yet

    done = mem.gc(dry_run=False)
    assert done.counts == dry.counts
    assert mem.get(old_city.id, user_id="u1") is None
    assert mem.get(trivia.id, user_id="u1").status is Status.DELETED  # type: ignore[union-attr]
    assert mem.get(lunch.id, user_id="u1").status is Status.EXPIRED  # type: ignore[union-attr]
    assert mem.get(trip.id, user_id="u1").status is Status.EXPIRED  # type: ignore[union-attr]
    assert mem.store.history(mem._scope("u1"), trip.id)[-1].event is EventType.EXPIRE
    assert trip.id not in {h.id for h in mem.search("深圳出差", user_id="u1")}  # not current any more
    during = clock.now() - timedelta(days=99)
    assert trip.id in {h.id for h in mem.search("深圳出差", user_id="u1", at=during)}  # but it was then
    assert mem.store.history(mem._scope("u1"), old_city.id)[-1].event is EventType.PURGE
    assert mem.gc().counts["purge_replaced"] == 0


def test_hits_keep_memories_alive(mem: Memory, clock: FrozenClock) -> None:
    rec = mem.remember("用户每周三下午去游泳", user_id="u1", kind=Kind.BEHAVIOR, importance=0.3)
    clock.set(clock.now() + timedelta(days=80))
    assert any(h.id == rec.id for h in mem.search("游泳", user_id="u1"))
    mem._hits.flush()
    clock.set(clock.now() + timedelta(days=20))
    assert rec.id not in mem.gc().ids["forget_unused"]
    assert mem.get(rec.id, user_id="u1").hit_count >= 1  # type: ignore[union-attr]
