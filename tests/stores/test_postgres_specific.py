"""What only the PostgreSQL store promises: SKIP LOCKED claims, migrations under concurrency,
Citus-ready keys, the HNSW path, halfvec storage, URI options, and a fast clear failure.

The contract suite (test_contract.py) already runs every Store behaviour against
PostgreSQL; these tests cover what has no SQLite counterpart. Each one gets its own
schema on the session's server (tests/pg_server.py).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import numpy as np
import psycopg
import pytest
from pg_server import PgServer, create_schema, drop_schema

from jiyi import registry
from jiyi.config import Settings
from jiyi.errors import InvalidInput, StoreError
from jiyi.records import Kind, MemoryRecord, Scope, Status
from jiyi.stores.postgres import queries, queue, vectors
from jiyi.stores.postgres.migrations import MIGRATIONS, migrate
from jiyi.stores.postgres.store import PostgresOptions, PostgresStore, from_settings
from jiyi.stores.protocol import ChangeSet, RecordFilter, Upsert

ALICE = Scope("acme", "alice")
T0 = datetime(2025, 3, 5, 9, 0, tzinfo=timezone.utc)
#: tables holding one user's rows: their keys must lead with (tenant, user_id) for Citus
PER_USER_TABLES = (
    "memories",
    "memory_vectors",
    "memory_entities",
    "memory_sources",
    "memory_history",
    "state",
    "jobs",
    "user_stats",
)
#: indexes that cannot or need not lead with the scope (see the store's module docstring)
SCOPE_FREE_INDEXES = {
    "jobs_open",
    "jobs_id",
    "memory_vectors_hnsw_content",
    "memory_vectors_hnsw_context",
    "memories_session",  # Store.session_members: a group chat's speakers, across users by design
}


@pytest.fixture
def schema(pg_server: PgServer) -> Iterator[str]:
    """A fresh schema's URI; dropped after the test."""
    name, uri = create_schema(pg_server)
    yield uri
    drop_schema(pg_server, name)


@pytest.fixture
def opened(schema: str) -> Iterator[Callable[..., PostgresStore]]:
    """A factory of stores on the test's schema, all closed at teardown."""
    stores: list[PostgresStore] = []

    def make(**options: Any) -> PostgresStore:
        options.setdefault("pool_max", 4)
        store = PostgresStore(schema, PostgresOptions(**options))
        stores.append(store)
        return store

    yield make
    for store in stores:
        store.close()


def record(id: str, scope: Scope = ALICE, minute: int = 0, **kw: Any) -> MemoryRecord:
    at = T0 + timedelta(minutes=minute)
    return MemoryRecord(
        id, scope.tenant, scope.user_id, kw.pop("content", f"memory {id}"), Kind.FACT, at, at, **kw
    )


def unit(v: np.ndarray) -> np.ndarray:
    return (v / np.linalg.norm(v)).astype(np.float32)


# -- the job queue -----------------------------------------------------------------------


def test_concurrent_claimers_never_get_the_same_job(opened: Callable[..., PostgresStore]) -> None:
    stores = [opened(), opened()]
    jobs = {stores[0].enqueue(ALICE, "add", {"n": n}, T0 + timedelta(seconds=n)) for n in range(60)}
    claimed: list[str] = []
    lock, start = threading.Lock(), threading.Barrier(4)

    def claim(store: PostgresStore, worker: str) -> None:
        start.wait(timeout=30)
        while batch := store.claim_jobs(3, worker, T0 + timedelta(minutes=5)):
            with lock:
                claimed.extend(j.id for j in batch)

    threads = [threading.Thread(target=claim, args=(stores[w % 2], f"w{w}")) for w in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert sorted(claimed) == sorted(jobs)  # each job exactly once across workers
    assert stores[1].pending_jobs() == 60


def test_a_claim_skips_rows_locked_by_an_open_claim_instead_of_waiting(
    opened: Callable[..., PostgresStore], schema: str
) -> None:
    store = opened()
    ids = [store.enqueue(ALICE, "add", {"n": n}, T0 + timedelta(seconds=n)) for n in range(4)]
    with psycopg.connect(schema) as holder:  # a worker mid-claim: its transaction is still open
        held = [j.id for j in queue.claim(holder, 2, "slow", T0 + timedelta(minutes=1), 60)]
        assert held == ids[:2]
        got: list[list[str]] = []
        other = threading.Thread(
            target=lambda: got.append(
                [j.id for j in store.claim_jobs(10, "fast", T0 + timedelta(minutes=1))]
            ),
            daemon=True,
        )
        other.start()
        other.join(timeout=10)
        finished = not other.is_alive()
        holder.rollback()  # releases the rows (and a blocked claimer, if the test fails)
    other.join(timeout=10)
    assert finished, "claim_jobs waited for another worker's locked rows"
    assert got == [ids[2:]]
    assert [j.id for j in store.claim_jobs(10, "again", T0 + timedelta(minutes=1))] == ids[:2]


# -- migrations ------------------------------------------------------------------------------


def test_migrations_are_recorded_once_and_reapplying_does_nothing(
    opened: Callable[..., PostgresStore], schema: str
) -> None:
    first = opened()
    first.apply(ChangeSet(ALICE, [Upsert(record("a"))]))
    opened()  # a second starter on a migrated schema
    with psycopg.connect(schema, autocommit=True) as conn:
        rows = conn.execute("SELECT version, name FROM jiyi_migrations ORDER BY version").fetchall()
        assert rows == [(m.version, m.name) for m in MIGRATIONS]
        assert migrate(conn) == []
    assert first.get(ALICE, "a") is not None


def test_migration_2_drops_context_copies_and_keeps_own_context_vectors(
    opened: Callable[..., PostgresStore], schema: str
) -> None:
    """Rows written before migration 2 held facts' vectors on both channels; only real context stays."""
    store = opened()
    store.check_embedding("e5-small", 8)
    fact_vec, ep_vec, ep_context = unit(np.eye(8)[0]), unit(np.eye(8)[1]), unit(np.eye(8)[0] + np.eye(8)[1])
    store.apply(ChangeSet(ALICE, [Upsert(record("fact"), {"content": fact_vec, "context": fact_vec}),
                                  Upsert(record("ep").replace(kind=Kind.EPISODE),
                                         {"content": ep_vec, "context": ep_context})]))
    query = unit(np.eye(8)[0])
    assert [i for i, _ in store.vector_search(ALICE, query, 5, RecordFilter(), "context")] == ["fact", "ep"]
    with psycopg.connect(schema, autocommit=True) as conn:  # the schema as migration 1 left it
        conn.execute("DELETE FROM jiyi_migrations WHERE version = 2")
        assert migrate(conn) == ["drop_context_copies"]
    assert [i for i, _ in store.vector_search(ALICE, query, 5, RecordFilter(), "context")] == ["ep"]
    assert sorted(store.vectors(ALICE, ["fact", "ep"], "content")) == ["ep", "fact"]


def test_concurrent_starters_on_a_fresh_schema_do_not_race(schema: str) -> None:
    errors: list[BaseException] = []
    stores: list[PostgresStore] = []
    start = threading.Barrier(4)

    def open_store() -> None:
        start.wait(timeout=30)
        try:
            stores.append(PostgresStore(schema, PostgresOptions(pool_max=1)))
        except BaseException as exc:  # noqa: BLE001 - collected and asserted below
            errors.append(exc)

    threads = [threading.Thread(target=open_store) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    try:
        assert errors == [] and len(stores) == 4
        with psycopg.connect(schema) as conn:
            assert conn.execute("SELECT count(*) FROM jiyi_migrations").fetchone() == (
                len(MIGRATIONS),
            )
    finally:
        for store in stores:
            store.close()


def test_concurrent_first_embedding_checks_agree(opened: Callable[..., PostgresStore]) -> None:
    stores = [opened(pool_max=1) for _ in range(3)]
    errors: list[BaseException] = []
    start = threading.Barrier(3)

    def check(store: PostgresStore) -> None:
        start.wait(timeout=30)
        try:
            store.check_embedding("e5-small", 8)
        except BaseException as exc:  # noqa: BLE001
            errors.append(exc)

    threads = [threading.Thread(target=check, args=(s,)) for s in stores]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert errors == []
    assert {s.embedding_info() for s in stores} == {("e5-small", 8)}


# -- Citus distribution keys --------------------------------------------------------------------


def test_every_per_user_key_and_index_leads_with_tenant_and_user_id(
    opened: Callable[..., PostgresStore],
) -> None:
    store = opened()
    store.check_embedding("e5", 8)  # creates the vector column and its HNSW indexes
    with store._pool.connection() as conn:
        rows = conn.execute(
            """
            SELECT t.relname, i.relname, x.indisprimary, am.amname,
                   array(SELECT a.attname::text FROM unnest(x.indkey[0:1]) WITH ORDINALITY k(n, o)
                         JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = k.n ORDER BY k.o)
            FROM pg_index x
            JOIN pg_class t ON t.oid = x.indrelid JOIN pg_class i ON i.oid = x.indexrelid
            JOIN pg_am am ON am.oid = i.relam
            WHERE t.relnamespace = current_schema()::regnamespace AND t.relname = ANY(%s)
            """,
            (list(PER_USER_TABLES),),
        ).fetchall()
        fks = conn.execute(
            """
            SELECT c.conrelid::regclass::text,
                   array(SELECT a.attname::text FROM unnest(c.conkey) WITH ORDINALITY k(n, o)
                         JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.n ORDER BY k.o)
            FROM pg_constraint c WHERE c.contype = 'f' AND c.connamespace = current_schema()::regnamespace
            """
        ).fetchall()
    primary = {table for table, _, is_pk, _, _ in rows if is_pk}
    assert primary == set(PER_USER_TABLES)
    hnsw = {index for _, index, _, am, _ in rows if am == "hnsw"}
    assert hnsw == {"memory_vectors_hnsw_content", "memory_vectors_hnsw_context"}
    for table, index, _, _, lead in rows:
        if index not in SCOPE_FREE_INDEXES:
            assert lead == ["tenant", "user_id"], f"{table}.{index} leads with {lead}"
    assert fks and all(cols[:2] == ["tenant", "user_id"] for _, cols in fks)


# -- vector search paths and storage --------------------------------------------------------------


def _random_store(
    make: Callable[..., PostgresStore], n: int = 300, **options: Any
) -> tuple[PostgresStore, np.ndarray]:
    rng = np.random.default_rng(11)
    vecs = rng.normal(size=(n, 8)).astype(np.float32)
    vecs /= np.linalg.norm(vecs, axis=1, keepdims=True)
    store = make(**options)
    store.apply(
        ChangeSet(
            ALICE,
            [
                Upsert(
                    record(f"r{i}", status=Status.ACTIVE if i % 10 == 0 else Status.SUPERSEDED),
                    {"content": v},
                )
                for i, v in enumerate(vecs)
            ],
        )
    )
    return store, vecs


def test_hnsw_path_finds_the_exact_neighbours_even_through_a_selective_filter(
    opened: Callable[..., PostgresStore],
) -> None:
    exact, _ = _random_store(opened)
    ann = opened(exact_limit=0)  # same rows, always through the index
    rng = np.random.default_rng(3)
    for q in rng.normal(size=(5, 8)).astype(np.float32):
        q = unit(q)
        for flt in (RecordFilter(statuses=None), RecordFilter()):  # RecordFilter(): 1 row in 10
            want = exact.vector_search(ALICE, q, 10, flt)
            got = ann.vector_search(ALICE, q, 10, flt)
            assert len(want) == 10
            assert [i for i, _ in got] == [i for i, _ in want]
            np.testing.assert_allclose([s for _, s in got], [s for _, s in want], atol=1e-5)


def test_exact_and_hnsw_statements_use_the_index_only_when_meant_to(
    opened: Callable[..., PostgresStore],
) -> None:
    store, vecs = _random_store(opened)
    where, params = queries.scoped_where(ALICE, RecordFilter())
    with store._pool.connection() as conn:
        column = vectors.read_column(conn)
        assert column is not None
        plans = {}
        for exact in (True, False):
            stmt, args = vectors.search_query(
                column, vecs[0], 10, "content", where, params, exact=exact
            )
            with conn.transaction():
                # a tiny table: make the index the cheap path, so only our SQL can keep it out
                conn.execute("SET LOCAL enable_sort = off")
                conn.execute("SET LOCAL hnsw.iterative_scan = relaxed_order")
                plan = conn.execute(psycopg.sql.SQL("EXPLAIN ") + stmt, args).fetchall()
            plans[exact] = "\n".join(r[0] for r in plan)
    assert "memory_vectors_hnsw_content" not in plans[True]
    assert "memory_vectors_hnsw_content" in plans[False]


def test_halfvec_storage_round_trips_and_ranks(
    opened: Callable[..., PostgresStore], schema: str
) -> None:
    store = opened(vector_type="halfvec")
    a, b = (
        unit(np.array([1, 0.1, 0, 0], dtype=np.float32)),
        unit(np.array([0.2, 1, 0, 0], dtype=np.float32)),
    )
    store.apply(
        ChangeSet(ALICE, [Upsert(record("a"), {"content": a}), Upsert(record("b"), {"content": b})])
    )
    got = store.vectors(ALICE, ["a"])["a"]
    assert got.dtype == np.float32
    np.testing.assert_allclose(got, a, atol=1e-3)
    hits = store.vector_search(ALICE, a, 5, RecordFilter())
    assert [i for i, _ in hits] == ["a", "b"] and hits[0][1] == pytest.approx(1.0, abs=1e-3)
    with psycopg.connect(schema) as conn:
        (type_name,) = conn.execute(
            "SELECT format_type(atttypid, atttypmod) FROM pg_attribute "
            "WHERE attrelid = 'memory_vectors'::regclass AND attname = 'embedding'"
        ).fetchone()
    assert type_name == "halfvec(4)"


# -- keyword ranking and bookkeeping -----------------------------------------------------------------


def test_keyword_ranking_weighs_rare_tokens_above_common_ones(
    opened: Callable[..., PostgresStore],
) -> None:
    store = opened()
    ups = [Upsert(record(f"c{n}"), None, f"用户 喜欢 话题{n}") for n in range(20)]
    ups.append(Upsert(record("rare"), None, "花生 过敏"))
    store.apply(ChangeSet(ALICE, ups))
    hits = store.keyword_search(ALICE, ["用户", "喜欢", "花生"], 5, RecordFilter())
    assert hits[0][0] == "rare"  # one rare match beats two matches of tokens every memory has


def test_user_stats_follow_inserts_updates_purges_and_deletes(
    opened: Callable[..., PostgresStore],
) -> None:
    store = opened()

    def stats() -> int | None:
        with store._pool.connection() as conn:
            row = conn.execute(
                "SELECT memories FROM user_stats WHERE tenant = %s AND user_id = %s",
                (ALICE.tenant, ALICE.user_id),
            ).fetchone()
        return None if row is None else int(row[0])

    store.apply(ChangeSet(ALICE, [Upsert(record(i)) for i in ("a", "b", "c", "a")]))
    assert stats() == 3
    store.apply(
        ChangeSet(
            ALICE, [Upsert(record("a", importance=0.9)), Upsert(record("d"))], purge_ids=["b", "zz"]
        )
    )
    assert stats() == 3 == store.count(ALICE, RecordFilter(statuses=None))
    store.delete_user(ALICE)
    assert stats() is None


# -- configuration and failure -----------------------------------------------------------------------


def test_factory_reads_the_uri_and_its_jiyi_options(schema: str, tmp_path: Path) -> None:
    settings = Settings(
        store=f"{schema}&jiyi_vector=halfvec&jiyi_pool_max=2&jiyi_exact_limit=7", home=tmp_path
    )
    assert settings.store_backend() == "postgres"
    store = registry.create("store", settings.store_backend(), settings)
    try:
        assert isinstance(store, PostgresStore)
        assert store.options == PostgresOptions(vector_type="halfvec", pool_max=2, exact_limit=7)
        # libpq never sees our options
        assert "jiyi_vector" not in store.uri and "host=" in store.uri
        store.state_set(ALICE, "k", [1])
        assert store.state_get(ALICE, "k") == [1]
    finally:
        store.close()
    with pytest.raises(InvalidInput, match="jiyi_nope"):
        from_settings(Settings(store=f"{schema}&jiyi_nope=1", home=tmp_path))


def test_unreachable_server_fails_fast_with_a_clear_message() -> None:
    started = time.monotonic()
    with pytest.raises(StoreError) as err:
        PostgresStore(
            "postgresql://jiyi:s3cret@/jiyi?host=/nonexistent-jiyi-socket-dir",
            PostgresOptions(connect_timeout=3),
        )
    assert time.monotonic() - started < 20
    assert "cannot open the PostgreSQL store" in str(err.value) and "s3cret" not in str(err.value)


def test_embedded_server_never_runs_as_root(pg_server: PgServer) -> None:
    if pg_server.process is None:
        pytest.skip("JIYI_TEST_PG_URL names an external server")
    uid_line = next(
        line
        for line in Path(f"/proc/{pg_server.process.pid}/status").read_text().splitlines()
        if line.startswith("Uid:")
    )
    uid = int(uid_line.split()[1])
    assert uid != 0


def test_driver_errors_surface_as_store_errors(opened: Callable[..., PostgresStore]) -> None:
    store = opened()
    store.close()
    with pytest.raises(StoreError, match="PostgreSQL store"):
        store.get(ALICE, "a")
