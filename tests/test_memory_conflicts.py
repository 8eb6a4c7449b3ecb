"""Two writers of one memory: a user's edit and the worker's merge (or gc, or reembed) never
overwrite each other; the later one redoes its change on a fresh read (``Upsert.expect``)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from jiyi.clock import FrozenClock
from jiyi.errors import WriteConflict
from jiyi.maintain.gc import gc_scope
from jiyi.memory import Memory
from jiyi.read.gate import EXPIRY_GRACE
from jiyi.records import EventType, Kind, MemoryRecord, Status
from jiyi.stores.protocol import ChangeSet, Upsert
from jiyi.stores.sqlite.store import SQLiteStore

T = datetime(2025, 3, 5, 9, 0, tzinfo=timezone.utc)


class InterferingStore(SQLiteStore):
    """The real store. Before the first change set that writes ``target``, another writer's change
    to that memory lands (what the worker or a second process would do meanwhile)."""

    def __init__(self, path: Path) -> None:
        super().__init__(path)
        self.target: str | None = None
        self.interfere: Callable[[MemoryRecord], MemoryRecord] = lambda rec: rec
        self.conflicts = 0

    def apply(self, changes: ChangeSet) -> None:
        if self.target is not None and self.target in {up.record.id for up in changes.upserts}:
            current = self.get(changes.scope, self.target)
            self.target = None
            assert current is not None
            super().apply(ChangeSet(changes.scope, [Upsert(self.interfere(current))]))
        try:
            super().apply(changes)
        except WriteConflict:
            self.conflicts += 1
            raise


@pytest.fixture
def clock() -> FrozenClock:
    return FrozenClock(T)


@pytest.fixture
def mem(tmp_path: Path, clock: FrozenClock) -> Memory:
    m = Memory(store=InterferingStore(tmp_path / "c.db"), clock=clock, home=tmp_path, embedder="hash",
               embedder_model="hash-64", background_worker=False)
    yield m  # type: ignore[misc]
    m.close()


def interfere(mem: Memory, target: str, change: Callable[[MemoryRecord], MemoryRecord]) -> InterferingStore:
    store = mem.store
    assert isinstance(store, InterferingStore)
    store.target, store.interfere = target, change
    return store


def later(rec: MemoryRecord, **fields: object) -> MemoryRecord:
    return rec.replace(updated_at=rec.updated_at + timedelta(seconds=30), **fields)


def test_a_user_edit_redone_on_top_of_a_concurrent_change_keeps_both(mem: Memory, clock: FrozenClock) -> None:
    rec = mem.remember("用户喜欢喝咖啡", user_id="u1")
    clock.set(T + timedelta(minutes=1))
    store = interfere(mem, rec.id, lambda r: later(r, entities=("咖啡",)))  # e.g. the worker's merge
    edited = mem.update(rec.id, "用户喜欢喝美式咖啡", user_id="u1")
    got = mem.get(rec.id, user_id="u1")
    assert got is not None and got.content == "用户喜欢喝美式咖啡" == edited.content
    assert got.entities == ("咖啡",)  # the other writer's change survived the edit
    assert store.conflicts == 1
    assert [e.event for e in mem.history(rec.id, user_id="u1")].count(EventType.UPDATE) == 1


def test_a_delete_is_redone_on_a_fresh_read_too(mem: Memory, clock: FrozenClock) -> None:
    rec = mem.remember("用户住在杭州", user_id="u1")
    clock.set(T + timedelta(minutes=1))
    store = interfere(mem, rec.id, lambda r: later(r, importance=0.9))
    mem.delete(rec.id, user_id="u1")
    got = mem.store.get(mem._scope("u1"), rec.id)
    assert got is not None and got.status is Status.DELETED and got.importance == 0.9
    assert store.conflicts == 1


def test_a_delete_at_the_same_frozen_instant_is_not_undone_by_an_edit_read_before_it(mem: Memory) -> None:
    rec = mem.remember("用户住在杭州", user_id="u1")  # the clock never moves: every write has one stamp
    store = mem.store
    assert isinstance(store, InterferingStore)
    deleted: list[str] = []

    def delete_first(current: MemoryRecord) -> MemoryRecord:  # the other writer is a real delete
        mem.delete(current.id, user_id="u1")
        deleted.append(current.id)
        got = store.get(mem._scope("u1"), current.id)
        assert got is not None
        return got

    interfere(mem, rec.id, delete_first)
    edited = mem.update(rec.id, "用户住在上海", user_id="u1")  # redone on a fresh read: on the deleted memory
    got = store.get(mem._scope("u1"), rec.id)
    assert deleted == [rec.id] and store.conflicts == 1
    assert got is not None and got.status is Status.DELETED and got.content == "用户住在上海"
    assert edited.updated_at == got.updated_at  # what update returns is the version stored


def test_the_workers_merge_into_a_memory_the_user_just_edited_resolves_again(mem: Memory,
                                                                            clock: FrozenClock) -> None:
    first = mem.add("我喜欢喝咖啡", user_id="u1", sync=True)
    pref = next(e.id for e in first.events if e.kind is Kind.PREFERENCE)
    clock.set(T + timedelta(minutes=1))
    store = interfere(mem, pref, lambda r: later(r, content="用户喜欢喝美式咖啡"))  # the user's edit lands first
    second = mem.add("我喜欢喝咖啡", user_id="u1", sync=True)  # its candidate merges into ``pref``
    got = mem.get(pref, user_id="u1")
    assert got is not None and got.content == "用户喜欢喝美式咖啡"  # the merge did not write the old text back
    assert store.conflicts == 1
    assert second.events and mem.store.pending_jobs(mem._scope("u1")) == 0
    assert mem.store.failed_jobs() == 0


def test_gc_judges_a_memory_again_when_it_changed_after_the_listing(mem: Memory, clock: FrozenClock) -> None:
    rec = mem.remember("下周三开会", user_id="u1")
    scope = mem._scope("u1")
    stored = mem.store.get(scope, rec.id)
    assert stored is not None
    mem.store.apply(ChangeSet(scope, [Upsert(stored.replace(expires_at=T + timedelta(days=1), valid_until=None))]))
    store = interfere(mem, rec.id, lambda r: later(r, expires_at=T + timedelta(days=30)))  # extended meanwhile
    report = gc_scope(store, scope, T + timedelta(days=2) + EXPIRY_GRACE, dry_run=False)  # past the old expiry's grace
    got = store.get(scope, rec.id)
    assert got is not None and got.status is Status.ACTIVE and report["expire_events"] == []
    assert store.conflicts == 1


def test_a_conflict_that_keeps_coming_reaches_the_caller(mem: Memory, clock: FrozenClock) -> None:
    rec = mem.remember("用户养了一只猫", user_id="u1")
    store = mem.store
    assert isinstance(store, InterferingStore)
    bumps = iter(range(1, 10))

    def always(changes: ChangeSet, apply: Callable[[ChangeSet], None] = store.apply) -> None:
        if rec.id in changes.expected():  # a writer that changes the memory before every try
            current = store.get(changes.scope, rec.id)
            assert current is not None
            SQLiteStore.apply(store, ChangeSet(changes.scope, [Upsert(current.replace(
                updated_at=current.updated_at + timedelta(seconds=next(bumps))))]))
        apply(changes)

    store.apply = always  # type: ignore[method-assign]
    with pytest.raises(WriteConflict, match=rec.id):
        mem.update(rec.id, "用户养了两只猫", user_id="u1")
    assert store.conflicts == 3
    got = mem.get(rec.id, user_id="u1")
    assert got is not None and got.content == "用户养了一只猫"
