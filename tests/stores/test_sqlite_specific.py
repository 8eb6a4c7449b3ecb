"""What only the SQLite store promises: a file that persists, several processes and threads, WAL, migrations."""

from __future__ import annotations

import multiprocessing
import sqlite3
import sys
import threading
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from jiyi.config import Settings
from jiyi.records import Kind, MemoryRecord, Scope, Status
from jiyi.stores.protocol import ChangeSet, RecordFilter, Store, Upsert
from jiyi.stores.sqlite.store import SQLiteStore, from_settings

ALICE = Scope("acme", "alice")


@pytest.fixture
def path(tmp_path: Path) -> Path:
    return tmp_path / "jiyi.db"


@pytest.fixture
def opened(path: Path):
    """A factory of stores on one file, all closed at teardown."""
    stores: list[SQLiteStore] = []

    def make(**kw: object) -> SQLiteStore:
        s = SQLiteStore(path, **kw)  # type: ignore[arg-type]
        stores.append(s)
        return s

    yield make
    for s in stores:
        s.close()


def test_factory_creates_parent_folders_and_is_a_store(tmp_path: Path) -> None:
    target = tmp_path / "deep" / "er" / "memories.db"
    store = from_settings(Settings(home=tmp_path, path=target))
    try:
        assert isinstance(store, Store) and store.name == "sqlite" and store.supports_ann is True
        assert target.is_file()
    finally:
        store.close()


def test_everything_persists_across_reopen(opened, path: Path, data) -> None:
    first = opened()
    first.check_embedding("e5", data.dim)
    rec = data.record("a", entities=("花生",), source_ids=("m1",))
    data.put(first, data.upsert(rec, data.vec(1), "花生 过敏"))
    job = first.enqueue(ALICE, "add", {"n": 1}, data.t0)
    first.state_set(ALICE, "k", {"v": 1})
    first.close()
    again = opened()
    assert again.get(ALICE, "a") == rec and again.embedding_info() == ("e5", data.dim)
    assert [i for i, _ in again.vector_search(ALICE, data.vec(1), 3, RecordFilter())] == ["a"]
    assert [i for i, _ in again.keyword_search(ALICE, ["过敏"], 3, RecordFilter())] == ["a"]
    assert [j.id for j in again.claim_jobs(5, "w", data.t0)] == [job]
    assert again.state_get(ALICE, "k") == {"v": 1} and len(again.history(ALICE, "a")) == 1


def test_file_is_wal_with_recorded_migrations(opened, path: Path) -> None:
    opened()
    opened()  # a second open applies nothing twice
    with sqlite3.connect(path) as raw:
        assert raw.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        versions = [
            r[0] for r in raw.execute("SELECT version FROM _jiyi_migrations ORDER BY version")
        ]
    assert versions and versions == sorted(set(versions)) and versions[0] == 1


def test_a_version_1_file_keeps_its_embedding_cache(opened, path: Path) -> None:
    """Migration 2 rebuilds the cache table in rowid order; cached vectors survive it."""
    from jiyi.stores.sqlite.codec import encode_vector
    from jiyi.stores.sqlite.migrations import MIGRATIONS

    vec = np.arange(4, dtype=np.float32) / 4
    with sqlite3.connect(path, isolation_level=None) as raw:
        raw.execute("BEGIN")
        MIGRATIONS[0].fn(raw)
        raw.execute("CREATE TABLE _jiyi_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, "
                    "applied_at TEXT NOT NULL)")
        raw.execute("INSERT INTO _jiyi_migrations VALUES (1, 'm001_initial', '2025-01-01')")
        raw.execute("INSERT INTO embedding_cache VALUES ('e5', 'h1', 4, 'float32', ?)",
                    (encode_vector(vec, "float32")[0],))
        raw.execute("COMMIT")
    store = opened()
    np.testing.assert_array_equal(store.cache_get("e5", ["h1", "h2"])["h1"], vec)
    store.cache_put("e5", {"h1": vec + 1, "h2": vec})  # replaces by (model, hash), as before
    store.flush_cache()
    again = opened()
    found = again.cache_get("e5", ["h1", "h2"])
    np.testing.assert_array_equal(found["h1"], vec + 1)
    np.testing.assert_array_equal(found["h2"], vec)
    with sqlite3.connect(path) as raw:
        assert raw.execute("SELECT count(*) FROM embedding_cache").fetchone()[0] == 2


def test_migration_3_drops_context_copies_and_keeps_own_context_vectors(opened, path: Path, data) -> None:
    """A file written before migration 3 held facts' vectors on both channels; only real context stays."""
    first = opened()
    first.check_embedding("e5", data.dim)
    fact, episode = data.record("fact"), data.record("ep", kind=Kind.EPISODE)
    data.put(first, data.upsert(fact, data.vec(1, 0), context=data.vec(1, 0)),
             data.upsert(episode, data.vec(0, 1), context=data.vec(1, 1)))
    assert [i for i, _ in first.vector_search(ALICE, data.vec(1), 5, RecordFilter(), "context")] == ["fact", "ep"]
    first.close()
    with sqlite3.connect(path) as raw:  # the file as migration 2 left it
        raw.execute("DELETE FROM _jiyi_migrations WHERE version >= 3")
        gen = raw.execute("SELECT gen FROM user_generations").fetchone()[0]
    again = opened()
    assert [i for i, _ in again.vector_search(ALICE, data.vec(1), 5, RecordFilter(), "context")] == ["ep"]
    assert sorted(again.vectors(ALICE, ["fact", "ep"], "content")) == ["ep", "fact"]
    np.testing.assert_allclose(again.vectors(ALICE, ["ep"], "context")["ep"], data.vec(1, 1), atol=1e-6)
    with sqlite3.connect(path) as raw:
        assert raw.execute("SELECT gen FROM user_generations").fetchone()[0] == gen + 1
        assert raw.execute("SELECT max(version) FROM _jiyi_migrations").fetchone()[0] >= 3


def test_purge_and_delete_user_leave_no_orphan_index_rows(opened, path: Path, data) -> None:
    store = opened()
    data.put(
        store,
        *(
            data.upsert(
                data.record(f"m{n}", entities=("e",), source_ids=("s",)), data.vec(1), "花生"
            )
            for n in range(3)
        ),
    )
    data.put(
        store, data.upsert(data.record("b", scope=data.bob, entities=("e",)), data.vec(1), "花生")
    )
    store.apply(ChangeSet(ALICE, purge_ids=["m2"]))
    data.put(store, data.record("fresh"))  # must not inherit m2's keywords
    assert "fresh" not in {i for i, _ in store.keyword_search(ALICE, ["花生"], 9, RecordFilter())}
    store.delete_user(data.bob)
    with sqlite3.connect(path) as raw:
        for table in ("memories_fts", "vectors", "memory_entities"):
            orphans = raw.execute(
                f"SELECT count(*) FROM {table} WHERE "
                + (
                    "rowid NOT IN (SELECT rid FROM memories)"
                    if table == "memories_fts"
                    else "memory_id NOT IN (SELECT id FROM memories)"
                )
            ).fetchone()[0]
            assert orphans == 0, table
        assert raw.execute("SELECT count(*) FROM memories_fts").fetchone()[0] == 2


def test_a_closed_store_refuses_work(opened) -> None:
    store = opened()
    store.close()
    with pytest.raises(Exception, match="closed"):
        store.count(ALICE, RecordFilter())


def test_float16_vectors_round_trip_and_search(opened, data) -> None:
    store = opened(vector_dtype="float16")
    data.put(
        store,
        data.upsert(data.record("a"), data.vec(1, 0.3)),
        data.upsert(data.record("b"), data.vec(0, 1)),
    )
    np.testing.assert_allclose(store.vectors(ALICE, ["a"])["a"], data.vec(1, 0.3), atol=1e-3)
    assert store.vectors(ALICE, ["a"])["a"].dtype == np.float32
    assert [i for i, _ in store.vector_search(ALICE, data.vec(1), 5, RecordFilter())] == ["a", "b"]


def test_vector_matrix_is_reused_not_rebuilt_per_query(path: Path, data) -> None:
    statements: list[str] = []
    store = SQLiteStore(path, tracer=statements.append)
    try:
        data.put(store, data.upsert(data.record("a"), data.vec(1)))
        store.vector_search(ALICE, data.vec(1), 5, RecordFilter())
        statements.clear()
        for _ in range(3):
            assert [i for i, _ in store.vector_search(ALICE, data.vec(1), 5, RecordFilter())] == [
                "a"
            ]
        assert not any("FROM vectors" in s for s in statements), statements
        data.put(
            store, data.upsert(data.record("b"), data.vec(1, 0.1))
        )  # own write: patched in place
        statements.clear()
        assert [i for i, _ in store.vector_search(ALICE, data.vec(1), 5, RecordFilter())] == [
            "a",
            "b",
        ]
        assert not any("FROM vectors" in s for s in statements), statements
    finally:
        store.close()


def test_vector_matrix_sees_another_connections_writes(opened, data) -> None:
    reader, writer = opened(), opened()
    data.put(
        writer,
        data.upsert(data.record("a"), data.vec(1, 0.2)),
        data.upsert(data.record("b"), data.vec(1, 0.4)),
    )
    assert [i for i, _ in reader.vector_search(ALICE, data.vec(1), 5, RecordFilter())] == ["a", "b"]
    data.put(writer, data.upsert(data.record("c"), data.vec(1)))
    data.put(writer, writer.get(ALICE, "a").replace(status=Status.SUPERSEDED))
    writer.apply(ChangeSet(ALICE, purge_ids=["b"]))
    assert [i for i, _ in reader.vector_search(ALICE, data.vec(1), 5, RecordFilter())] == ["c"]
    # the reader writes next: its patch must not hide what the writer did in between
    data.put(writer, data.upsert(data.record("d"), data.vec(1, 0.1)))
    data.put(reader, data.upsert(data.record("e"), data.vec(1, 0.3)))
    assert [i for i, _ in reader.vector_search(ALICE, data.vec(1), 5, RecordFilter())] == [
        "c",
        "d",
        "e",
    ]
    writer.delete_user(ALICE)
    assert reader.vector_search(ALICE, data.vec(1), 5, RecordFilter()) == []


def test_record_cache_is_invalidated_by_other_connections_and_own_writes(path: Path, opened, data) -> None:
    statements: list[str] = []
    reader = SQLiteStore(path, tracer=statements.append)
    writer = opened()
    try:
        data.put(writer, data.upsert(data.record("a", content="one"), data.vec(1)),
                 data.upsert(data.record("b", content="two"), data.vec(1, 0.2)))
        assert [r.content for r in reader.get_many(ALICE, ["a", "b"])] == ["one", "two"]
        # the first miss read the whole user: later ones (and unknown ids) need no query
        statements.clear()
        first = reader.get_many(ALICE, ["b", "a", "nobody"])
        assert [r.id for r in first] == ["b", "a"]
        assert not any("FROM memories" in s for s in statements), statements  # served from the cache
        # another connection's write bumps the generation: the reader must see it
        data.put(writer, writer.get(ALICE, "a").replace(content="one, edited"))
        assert reader.get(ALICE, "a").content == "one, edited"
        writer.apply(ChangeSet(ALICE, purge_ids=["b"]))
        assert [r.id for r in reader.get_many(ALICE, ["a", "b"])] == ["a"]
        # this process's own apply: the written id is re-read, the others stay cached
        data.put(reader, data.upsert(data.record("c", content="three"), data.vec(1, 0.3)))
        assert [r.content for r in reader.get_many(ALICE, ["a", "c"])] == ["one, edited", "three"]
        data.put(reader, reader.get(ALICE, "a").replace(content="one, again"))
        statements.clear()
        got = reader.get_many(ALICE, ["a", "c"])
        assert [r.content for r in got] == ["one, again", "three"]
        assert sum("FROM memories" in s for s in statements) == 1
        # own hit recording is mirrored in the cached copy, exactly as the file has it
        reader.record_hits(ALICE, ["c"], data.record("c").created_at)
        cached = reader.get(ALICE, "c")
        assert cached.hit_count == 1
        assert cached == writer.get(ALICE, "c")
        # batches noted while the copy is not read are applied one by one, capped as the UPDATEs were
        statements.clear()
        reader.record_hits(ALICE, ["c", "c", "a"], data.at(30))
        reader.record_hits(ALICE, ["c"] * 25, data.at(40))
        reader.record_hits(ALICE, ["c"], data.at(50))
        got = reader.get_many(ALICE, ["c", "a"])
        assert not any("FROM memories" in s for s in statements), statements
        fresh = opened()  # (the writer's cache holds its own earlier copies: hits do not bump the generation)
        assert got == fresh.get_many(ALICE, ["c", "a"])
        fresh.close()
        assert (got[0].hit_count, got[0].last_hit_at, got[0].strength) == (29, data.at(50), 3.0)
        assert reader.get(ALICE, "c") == got[0]  # taken once, not again
        writer.delete_user(ALICE)
        assert reader.get_many(ALICE, ["a", "c"]) == []
    finally:
        reader.close()


def test_record_cache_of_a_user_too_large_to_warm_caches_per_id(path: Path, opened, data) -> None:
    from jiyi.stores.sqlite.record_cache import RecordCache

    statements: list[str] = []
    reader = opened(tracer=statements.append)
    reader._records = RecordCache(max_records=10, warm_max=1)
    data.put(reader, *[data.upsert(data.record(i), data.vec(1, 0.1 * n)) for n, i in enumerate("abc")])
    assert [r.id for r in reader.get_many(ALICE, ["c", "a", "zz"])] == ["c", "a"]
    statements.clear()
    assert [r.id for r in reader.get_many(ALICE, ["a", "c"])] == ["a", "c"]
    assert not any("FROM memories" in s for s in statements), statements
    assert [r.id for r in reader.get_many(ALICE, ["b", "zz"])] == ["b"]  # not complete: asks the file
    assert sum("FROM memories" in s for s in statements) == 1


def test_threads_share_one_store(opened, data) -> None:
    store = opened()
    errors: list[BaseException] = []

    def work(worker: int) -> None:
        try:
            for n in range(25):
                rec = data.record(f"{worker}-{n}", kind=Kind.EPISODE)
                store.apply(
                    ChangeSet(ALICE, [Upsert(rec, {"content": data.vec(1, n / 25)}, f"w{worker}")])
                )
                store.vector_search(ALICE, data.vec(1), 3, RecordFilter())
                store.count(ALICE, RecordFilter())
        except Exception as exc:  # noqa: BLE001  (surfaced by the assert below)
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(w,)) for w in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert store.count(ALICE, RecordFilter()) == 100
    assert len(store.vector_search(ALICE, data.vec(1), 1000, RecordFilter())) == 100


def _child_writes(path: str, worker: int, n: int, barrier: Any, queue: Any) -> None:
    """In a child process: write, claim and search in turns with the other child, then report.

    The barriers make both processes hammer the file at the same time, and make the
    final search run after both finished, so it must see the other process's rows
    although this process's matrix was only ever patched with its own writes.
    """
    import datetime as dt

    store = SQLiteStore(path)
    t0 = dt.datetime(2025, 3, 5, tzinfo=dt.timezone.utc)
    query = np.zeros(8, dtype=np.float32)
    query[worker] = 1.0
    claimed: list[str] = []
    barrier.wait(timeout=60)
    for i in range(n):
        rec = MemoryRecord(f"p{worker}-{i}", "acme", "alice", f"memory {i}", Kind.FACT, t0, t0)
        store.apply(ChangeSet(ALICE, [Upsert(rec, {"content": query}, f"process{worker}")]))
        claimed += [j.id for j in store.claim_jobs(1, f"w{worker}", t0)]
        store.vector_search(ALICE, query, 5, RecordFilter())
    while batch := store.claim_jobs(1, f"w{worker}", t0):
        claimed += [j.id for j in batch]
    barrier.wait(timeout=60)
    seen = len(store.vector_search(ALICE, query, 10 * n, RecordFilter()))
    store.close()
    queue.put((worker, claimed, seen))


def test_two_processes_write_one_file_and_lose_nothing(opened, path: Path, data) -> None:
    setup = opened()
    jobs = {setup.enqueue(ALICE, "add", {"n": i}, data.t0) for i in range(30)}
    setup.close()  # SQLite connections must not cross a fork(), even unused
    ctx = multiprocessing.get_context("fork" if sys.platform == "linux" else "spawn")
    barrier, queue = ctx.Barrier(2), ctx.Queue()
    procs = [
        ctx.Process(target=_child_writes, args=(str(path), w, 60, barrier, queue)) for w in (0, 1)
    ]
    for p in procs:
        p.start()
    results = {w: (claimed, seen) for w, claimed, seen in (queue.get(timeout=90) for _ in procs)}
    for p in procs:
        p.join(timeout=30)
        assert p.exitcode == 0
    assert [seen for _, seen in results.values()] == [120, 120]
    claimed = results[0][0] + results[1][0]
    assert sorted(claimed) == sorted(jobs)  # every job claimed exactly once across processes
    store = opened()
    assert store.count(ALICE, RecordFilter()) == 120
    for worker in (0, 1):
        q = np.zeros(8, dtype=np.float32)
        q[worker] = 1.0
        hits = store.vector_search(ALICE, q, 200, RecordFilter())
        assert len(hits) == 120 and all(i.startswith(f"p{worker}-") for i, _ in hits[:60])
