"""Hit recording off the request path, on a real SQLite store."""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Iterator, Sequence
from datetime import datetime, timezone
from pathlib import Path

import pytest

from jiyi.clock import FrozenClock
from jiyi.read.hits import HitRecorder
from jiyi.records import Kind, MemoryRecord, Scope
from jiyi.stores.protocol import ChangeSet, Upsert
from jiyi.stores.sqlite.store import SQLiteStore

T = datetime(2025, 3, 5, 9, 0, tzinfo=timezone.utc)
ALICE, BOB = Scope("acme", "alice"), Scope("acme", "bob")


class CountingStore(SQLiteStore):
    """The real store, counting its ``record_hits`` transactions."""

    def __init__(self, path: Path) -> None:
        super().__init__(path)
        self.writes: list[Scope] = []

    def record_hits(self, scope: Scope, ids: Sequence[str], at: datetime) -> None:
        self.writes.append(scope)
        super().record_hits(scope, ids, at)


@pytest.fixture
def store(tmp_path: Path) -> Iterator[CountingStore]:
    st = CountingStore(tmp_path / "h.db")
    for scope in (ALICE, BOB):
        recs = [MemoryRecord(id=f"m{i}", tenant=scope.tenant, user_id=scope.user_id, content=f"memory {i}",
                             kind=Kind.FACT, created_at=T, updated_at=T) for i in range(5)]
        st.apply(ChangeSet(scope, upserts=[Upsert(r, None, r.content) for r in recs]))
    yield st
    st.close()


def counts(store: SQLiteStore, scope: Scope) -> list[int]:
    return [r.hit_count for r in store.get_many(scope, [f"m{i}" for i in range(5)])]


def test_hits_from_many_threads_count_once_each_in_one_write_per_user(store: CountingStore) -> None:
    hits = HitRecorder(store, FrozenClock(T), linger=30.0)

    def search(scope: Scope, ids: list[str]) -> None:
        for _ in range(50):
            hits.record(scope, ids)

    threads = [threading.Thread(target=search, args=(scope, ids)) for scope, ids in
               ((ALICE, ["m0", "m1"]), (ALICE, ["m1", "m2"]), (BOB, ["m4"]), (BOB, ["m4", "m0"]))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    hits.flush()
    assert counts(store, ALICE) == [50, 100, 50, 0, 0] and counts(store, BOB) == [50, 0, 0, 0, 100]
    assert sorted(store.writes, key=lambda s: s.user_id) == [ALICE, BOB]  # one batch: one write per user
    hits.close()


def test_hits_linger_until_their_time_unless_flushed(store: CountingStore) -> None:
    slow = HitRecorder(store, FrozenClock(T), linger=30.0)
    slow.record(ALICE, ["m3"])
    time.sleep(0.2)
    assert counts(store, ALICE)[3] == 0 and store.writes == []  # still lingering
    started = time.monotonic()
    slow.flush()
    assert counts(store, ALICE)[3] == 1 and time.monotonic() - started < 5
    slow.close()
    quick = HitRecorder(store, FrozenClock(T), linger=0.05)
    quick.record(ALICE, ["m3"])
    deadline = time.monotonic() + 5
    while counts(store, ALICE)[3] < 2 and time.monotonic() < deadline:  # written without a flush
        time.sleep(0.02)
    assert counts(store, ALICE)[3] == 2
    quick.close()


def test_close_writes_what_is_pending_and_later_hits_are_ignored(store: CountingStore) -> None:
    hits = HitRecorder(store, FrozenClock(T), linger=30.0)
    hits.record(BOB, ["m2", "m2", "m1"])
    hits.close()
    assert counts(store, BOB) == [0, 1, 2, 0, 0]
    hits.record(BOB, ["m2"])  # after close: nothing to write it, nothing raised
    hits.flush()
    assert counts(store, BOB) == [0, 1, 2, 0, 0]


def test_a_full_buffer_drops_hits_with_a_warning(store: CountingStore, caplog: pytest.LogCaptureFixture) -> None:
    hits = HitRecorder(store, FrozenClock(T), linger=30.0, max_pending=4)
    with caplog.at_level(logging.WARNING, logger="jiyi.read.hits"):
        hits.record(ALICE, ["m0", "m1", "m2"])
        hits.record(ALICE, ["m3", "m4"])  # 5 > 4: dropped
    assert "dropping 2 hits" in caplog.text
    hits.flush()
    assert counts(store, ALICE) == [1, 1, 1, 0, 0]
    hits.record(ALICE, ["m3", "m4"])  # the buffer emptied with the write
    hits.flush()
    assert counts(store, ALICE) == [1, 1, 1, 1, 1]
    hits.close()
