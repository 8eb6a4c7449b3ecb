"""The PostgreSQL store: pgvector (HNSW), BM25 over jieba-segmented keywords, a SKIP LOCKED job queue.

Selected by ``JIYI_STORE=<libpq URI>`` (``postgres://`` or ``postgresql://``; a
unix-socket host works as ``postgresql:///jiyi?host=/var/run/postgresql``). Store
options ride in the same URI as ``jiyi_*`` query parameters, removed before the URI
reaches libpq: ``jiyi_vector=halfvec`` (float16 vectors), ``jiyi_pool_min``,
``jiyi_pool_max``, ``jiyi_exact_limit`` (see :class:`PostgresOptions`). Tables are
created, by numbered migrations on open, in the first schema of the ``search_path``;
the ``vector`` and ``btree_gin`` extensions are created if missing (``vector`` needs a
superuser once, or an administrator who ran ``CREATE EXTENSION vector``).

Sharding with Citus: the distribution column is **user_id**. Every per-user table
(``memories``, ``memory_vectors``, ``memory_entities``, ``memory_sources``,
``memory_history``, ``state``, ``user_stats``, ``jobs``) has a primary key leading with
``(tenant, user_id)``, every btree and GIN index leads with them too, foreign keys
include them, and every query filters on both, so one user's rows live on, and are
served by, one shard:

    SELECT create_distributed_table('memories', 'user_id');
    SELECT create_distributed_table(t, 'user_id', colocate_with => 'memories')
      FROM unnest(ARRAY['memory_vectors', 'memory_entities', 'memory_sources',
                        'memory_history', 'state', 'user_stats']) t;
    SELECT create_reference_table('embedding_cache');   -- or leave it local

The HNSW indexes are per shard (an HNSW index cannot lead with other columns); the
keyword GIN index leads with ``(tenant, user_id)`` through ``btree_gin``.
``jobs`` is keyed the same way, but ``claim_jobs`` reads across users with
``FOR UPDATE SKIP LOCKED``, which Citus allows only on one node: keep ``jobs``,
``jiyi_meta`` and ``jiyi_migrations`` on the coordinator
(``citus_add_local_table_to_metadata``); they hold only in-flight work and settings.
One read crosses users by design: ``session_members`` (a group chat's other speakers,
for ``build_context``'s group section) uses ``memories_session``, which leads with
``(tenant, session_id)``; under Citus it fans out to every shard (``group_context=false``
turns it off).
"""

from __future__ import annotations

import builtins
import logging
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from datetime import datetime
from typing import TYPE_CHECKING, Any

import numpy as np

from jiyi.errors import (
    EmbeddingMismatch,
    InvalidInput,
    MissingDependency,
    StoreError,
)
from jiyi.records import HistoryEvent, MemoryRecord, Scope
from jiyi.stores.protocol import (
    HIT_STRENGTH_STEP,
    MAX_STRENGTH,
    ChangeSet,
    FailedJob,
    Job,
    Ranking,
    RecordFilter,
    SessionScores,
    hit_groups,
)

try:
    import psycopg
    from psycopg import sql
    from psycopg.types.json import Jsonb
    from psycopg_pool import ConnectionPool, PoolTimeout
except ImportError as exc:  # pragma: no cover - exercised only without the extra
    raise MissingDependency("the postgres store", "postgres") from exc

from jiyi.stores.postgres import queries, queue, vectors, writes
from jiyi.stores.postgres.migrations import migrate
from jiyi.stores.postgres.options import PostgresOptions, redact

if TYPE_CHECKING:
    from jiyi.config import Settings

log = logging.getLogger("jiyi.stores.postgres")

EXPORT_PAGE = 200
#: Every table that may hold a user's text or vectors (what ``compact`` vacuums).
ERASABLE_TABLES = ("memories", "memory_vectors", "memory_entities", "memory_sources", "memory_history", "jobs",
                   "state", "embedding_cache")


def from_settings(settings: Settings) -> PostgresStore:
    """Registry factory: ``settings.store`` is the libpq URI (``jiyi_*`` parameters are options)."""
    uri, options = PostgresOptions.split_uri(settings.store)
    return PostgresStore(uri, options)


def _configure(conn: psycopg.Connection[Any]) -> None:
    vectors.register_adapters(conn)
    conn.execute("SET TIME ZONE 'UTC'")


class PostgresStore:
    """:class:`~jiyi.stores.protocol.Store` over PostgreSQL + pgvector, through a psycopg pool."""

    name = "postgres"
    supports_ann = True

    def __init__(self, uri: str, options: PostgresOptions | None = None) -> None:
        self.options = options or PostgresOptions()
        if self.options.vector_type not in vectors.VECTOR_TYPES:
            raise InvalidInput(
                f"jiyi_vector must be one of {', '.join(vectors.VECTOR_TYPES)}, "
                f"not {self.options.vector_type!r}"
            )
        self.uri = uri
        timeout = self.options.connect_timeout
        try:
            with psycopg.connect(
                uri, autocommit=True, connect_timeout=max(1, int(timeout))
            ) as conn:
                applied = migrate(conn)
                self.pgvector_version = vectors.extension_version(conn)
        except psycopg.Error as exc:
            raise StoreError(f"cannot open the PostgreSQL store at {redact(uri)}: {exc}") from exc
        if applied:
            log.info("applied migrations: %s", ", ".join(applied))
        # filtered HNSW scans need pgvector 0.8's iterative scans to fill k; older: always exact
        self._ann_ok = self.pgvector_version >= (0, 8)
        if not self._ann_ok:
            log.warning(
                "pgvector %s has no iterative index scans; vector search stays exact "
                "(upgrade to 0.8+ for HNSW on large users)",
                ".".join(map(str, self.pgvector_version)),
            )
        self._pool: ConnectionPool[Any] = ConnectionPool(
            uri,
            min_size=self.options.pool_min,
            max_size=max(self.options.pool_min, self.options.pool_max),
            kwargs={"autocommit": True, "connect_timeout": max(1, int(timeout))},
            timeout=timeout,  # a request waits this long for a connection (psycopg_pool's default: 30 s)
            configure=_configure,
            open=False,
            name="jiyi",
        )
        try:
            self._pool.open(wait=True, timeout=timeout)
        except PoolTimeout as exc:
            self._pool.close()
            raise StoreError(f"no connection to {redact(uri)} within {timeout:.0f}s") from exc

    def __repr__(self) -> str:
        return f"PostgresStore({redact(self.uri)!r})"

    @contextmanager
    def _conn(self) -> Iterator[psycopg.Connection[Any]]:
        """A pooled connection (autocommit); driver errors come out as :class:`StoreError`."""
        try:
            with self._pool.connection() as conn:
                yield conn
        except PoolTimeout as exc:
            log.warning("no connection to the PostgreSQL store at %s within %gs: %s", redact(self.uri),
                        self.options.connect_timeout, exc)
            raise StoreError(f"the PostgreSQL store is unreachable (no connection within "
                             f"{self.options.connect_timeout:g}s); the server's log has the details") from exc
        except psycopg.OperationalError as exc:  # its text names the server's host and port: for the log only
            log.warning("the PostgreSQL store at %s failed: %s", redact(self.uri), exc)
            raise StoreError(f"the PostgreSQL store is unavailable ({type(exc).__name__}); "
                             "the server's log has the details") from exc
        except psycopg.Error as exc:
            log.warning("the PostgreSQL store at %s failed: %s", redact(self.uri), exc)
            raise StoreError(f"the PostgreSQL store failed: {type(exc).__name__}: {redact(str(exc))}") from exc

    @contextmanager
    def _tx(self) -> Iterator[psycopg.Connection[Any]]:
        """A pooled connection inside one transaction: committed on success, else rolled back."""
        with self._conn() as conn, conn.transaction():
            yield conn

    # -- embedding model bookkeeping -------------------------------------------------

    def check_embedding(self, model: str, dim: int) -> None:
        """Adopt ``model`` on first use (and size the vector column); afterwards refuse any other."""
        info = self.embedding_info()
        if info is None:
            with self._tx() as conn:
                column = vectors.ensure_column(conn, dim, self.options.vector_type)
                if column.dim != dim:
                    raise EmbeddingMismatch(
                        f"this store holds vectors of dimension {column.dim}; {model} makes {dim}: "
                        "run `jiyi reembed` to switch"
                    )
                conn.execute(
                    "INSERT INTO jiyi_meta (key, value) VALUES ('embedding', %s) ON CONFLICT (key) DO NOTHING",
                    (Jsonb({"model": model, "dim": dim}),),
                )
            info = self.embedding_info()
        if info is not None and info != (model, dim):
            raise EmbeddingMismatch(
                f"this store ({redact(self.uri)}) was built with {info[0]} (dim {info[1]}); open it with "
                f"embedder model {info[0]} or run `jiyi reembed` to switch to {model} (dim {dim})"
            )

    def embedding_info(self) -> tuple[str, int] | None:
        with self._conn() as conn:
            row = conn.execute("SELECT value FROM jiyi_meta WHERE key = 'embedding'").fetchone()
        return None if row is None else (str(row[0]["model"]), int(row[0]["dim"]))

    def reset_embedding(self, model: str, dim: int) -> None:
        """Delete every vector of every user, resize the column, adopt ``model``; ``reembed`` refills."""
        with self._tx() as conn:
            vectors.drop_column(conn)
            vectors.ensure_column(conn, dim, self.options.vector_type)
            conn.execute(
                "INSERT INTO jiyi_meta (key, value) VALUES ('embedding', %s) "
                "ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value",
                (Jsonb({"model": model, "dim": dim}),),
            )

    # -- writes ----------------------------------------------------------------------

    def apply(self, changes: ChangeSet) -> None:
        """Write a whole change set, and finish its job, in one transaction (or nothing at all)."""
        changes.check_scope()
        if not changes:
            return
        with self._tx() as conn:
            writes.apply_changes(conn, changes, self.options.vector_type)

    def record_hits(self, scope: Scope, ids: Sequence[str], at: datetime) -> None:
        """Count recalls: ``hit_count + n``, ``last_hit_at = at``, strength + 0.1 · n capped at 3.0
        (n: how often the id is listed), one transaction."""
        if not ids:
            return
        with self._conn() as conn:
            for times, group in hit_groups(ids):
                conn.execute(
                    "UPDATE memories SET hit_count = hit_count + %s, last_hit_at = %s, "
                    "strength = least(strength + %s, %s) WHERE tenant = %s AND user_id = %s AND id = ANY(%s)",
                    (times, at, times * HIT_STRENGTH_STEP, MAX_STRENGTH, scope.tenant, scope.user_id, group),
                )

    def delete_user(self, scope: Scope) -> int:
        """Everything of the user, vectors and history included (GDPR); returns memories removed."""
        owner = (scope.tenant, scope.user_id)
        with self._tx() as conn:
            cur = conn.execute("DELETE FROM memories WHERE tenant = %s AND user_id = %s", owner)
            removed = int(cur.rowcount)
            for table in ("memory_history", "jobs", "state", "user_stats"):
                conn.execute(
                    sql.SQL("DELETE FROM {} WHERE tenant = %s AND user_id = %s").format(
                        sql.Identifier(table)
                    ),
                    owner,
                )
        return removed

    def compact(self, *, full: bool = False) -> None:
        """``VACUUM`` jiyi's tables so erased rows' space is reclaimed (``full``: ``VACUUM FULL``, which
        rewrites the tables and their indexes into new files, so no erased byte stays in them; it
        locks each table while it runs), then ``CHECKPOINT`` when the role may (superuser or
        ``pg_checkpoint``). WAL segments and backups keep old bytes until they are recycled."""
        verb = "VACUUM (FULL, ANALYZE)" if full else "VACUUM (ANALYZE)"
        with self._conn() as conn:
            for table in ERASABLE_TABLES:
                conn.execute(sql.SQL(verb + " {}").format(sql.Identifier(table)))
            try:
                conn.execute("CHECKPOINT")
            except psycopg.errors.InsufficientPrivilege:
                log.info("CHECKPOINT skipped: this role may not run it")

    # -- reads -----------------------------------------------------------------------

    def get(self, scope: Scope, memory_id: str) -> MemoryRecord | None:
        found = self.get_many(scope, [memory_id])
        return found[0] if found else None

    def get_many(self, scope: Scope, ids: Sequence[str]) -> list[MemoryRecord]:
        with self._conn() as conn:
            return queries.get_many(conn, scope, ids)

    def list(
        self, scope: Scope, flt: RecordFilter, limit: int | None = None, offset: int = 0
    ) -> list[MemoryRecord]:
        with self._conn() as conn:
            return queries.list_records(conn, scope, flt, limit, offset)

    def count(self, scope: Scope, flt: RecordFilter) -> int:
        with self._conn() as conn:
            return queries.count(conn, scope, flt)

    def find_by_slot(self, scope: Scope, slot: str) -> builtins.list[MemoryRecord]:
        """Active memories holding ``slot``, newest first."""
        with self._conn() as conn:
            return queries.find_by_slot(conn, scope, slot)

    def find_by_source(self, scope: Scope, source_id: str) -> builtins.list[MemoryRecord]:
        """Memories (any status) made from message ``source_id``, newest first."""
        return self.find_by_sources(scope, [source_id]).get(source_id, [])

    def find_by_sources(
        self, scope: Scope, source_ids: Sequence[str]
    ) -> dict[str, builtins.list[MemoryRecord]]:
        """:meth:`find_by_source` for many messages in one query; ids with no memory are absent."""
        if not source_ids:
            return {}
        with self._conn() as conn:
            return queries.find_by_sources(conn, scope, source_ids)

    def history(self, scope: Scope, memory_id: str) -> builtins.list[HistoryEvent]:
        with self._conn() as conn:
            return queries.history(conn, scope, [memory_id]).get(memory_id, [])

    def vectors(
        self, scope: Scope, ids: Sequence[str], channel: str = "content"
    ) -> dict[str, np.ndarray]:
        wanted = list(dict.fromkeys(ids))
        if not wanted:
            return {}
        with self._conn() as conn:
            if vectors.read_column(conn) is None:
                return {}
            with conn.cursor(binary=True) as cur:
                rows = cur.execute(
                    "SELECT memory_id, embedding::vector FROM memory_vectors "
                    "WHERE tenant = %s AND user_id = %s AND channel = %s AND memory_id = ANY(%s)",
                    (scope.tenant, scope.user_id, channel, wanted),
                ).fetchall()
        return {mid: vec for mid, vec in rows}

    def users(self, tenant: str) -> builtins.list[str]:
        with self._conn() as conn:
            return queries.owners(conn, tenant)

    def tenants(self) -> builtins.list[str]:
        with self._conn() as conn:
            return queries.owners(conn, None)

    def session_members(self, scope: Scope, session_ids: Sequence[str]) -> dict[str, builtins.list[str]]:
        with self._conn() as conn:
            return queries.session_members(conn, scope, session_ids)

    # -- search routes -----------------------------------------------------------------

    def vector_search(
        self, scope: Scope, query: np.ndarray, k: int, flt: RecordFilter, channel: str = "content"
    ) -> builtins.list[tuple[str, float]]:
        """Cosine top-k: exact for users up to ``exact_limit`` vectors, HNSW iterative scan above."""
        where, params = queries.scoped_where(scope, flt, with_text=False)
        with self._conn() as conn:
            column = vectors.read_column(conn)
            if column is None or k <= 0:
                return []
            limit = self.options.exact_limit if self._ann_ok else None
            return vectors.search(conn, column, query, k, channel, where, params, exact_limit=limit)

    def keyword_search(
        self, scope: Scope, tokens: Sequence[str], k: int, flt: RecordFilter
    ) -> builtins.list[tuple[str, float]]:
        with self._conn() as conn:
            return queries.keyword_search(conn, scope, tokens, k, flt)

    def vector_ranking(
        self, scope: Scope, query: np.ndarray, k: int, flt: RecordFilter, channel: str = "content", *, deep: int
    ) -> Ranking:
        """The top ``deep``, no statistics: pgvector's index cannot give them without scanning every row."""
        return Ranking(self.vector_search(scope, query, deep, flt, channel))

    def keyword_ranking(self, scope: Scope, tokens: Sequence[str], k: int, flt: RecordFilter, *, deep: int) -> Ranking:
        """The top ``deep``, no statistics (the query ranks in SQL)."""
        return Ranking(self.keyword_search(scope, tokens, deep, flt))

    def session_keyword_search(self, scope: Scope, tokens: Sequence[str], flt: RecordFilter,
                               k: int = 200) -> SessionScores:
        """BM25 over the user's sessions as documents."""
        with self._conn() as conn:
            return queries.session_keyword_search(conn, scope, tokens, flt, k)

    def recent(self, scope: Scope, k: int, flt: RecordFilter) -> builtins.list[tuple[str, float]]:
        """Most recently created (score = created_at as epoch seconds)."""
        with self._conn() as conn:
            return queries.recent(conn, scope, k, flt)

    def entity_search(
        self, scope: Scope, entities: Sequence[str], k: int, flt: RecordFilter
    ) -> builtins.list[tuple[str, float]]:
        """Memories sharing entities (score = number shared, case-insensitive)."""
        with self._conn() as conn:
            return queries.entity_search(conn, scope, entities, k, flt)

    # -- durable jobs --------------------------------------------------------------------

    def enqueue(self, scope: Scope, kind: str, payload: dict[str, Any], at: datetime) -> str:
        with self._conn() as conn:
            return queue.enqueue(conn, scope, kind, payload, at)

    def claim_jobs(
        self, limit: int, worker: str, at: datetime, lease_seconds: float = 60.0,
        scope: Scope | None = None, *, tenant: str | None = None,
    ) -> builtins.list[Job]:
        with self._tx() as conn:
            return queue.claim(conn, limit, worker, at, lease_seconds, scope, tenant)

    def fail_job(self, job_id: str, error: str, at: datetime) -> None:
        with self._conn() as conn:
            queue.fail(conn, job_id, error, at)

    def pending_jobs(self, scope: Scope | None = None, *, tenant: str | None = None) -> int:
        with self._conn() as conn:
            return queue.count_open(conn, scope, tenant)

    def failed_jobs(self, tenant: str | None = None) -> int:
        with self._conn() as conn:
            return queue.count_failed(conn, tenant)

    def list_failed_jobs(self, tenant: str | None = None, limit: int = 100) -> builtins.list[FailedJob]:
        with self._conn() as conn:
            return queue.list_failed(conn, tenant, limit)

    def retry_failed_jobs(self, tenant: str | None, ids: Sequence[str] | None, at: datetime) -> int:
        with self._tx() as conn:
            return queue.retry_failed(conn, tenant, None if ids is None else list(ids), at)

    def drop_failed_jobs(self, tenant: str | None, ids: Sequence[str] | None) -> int:
        with self._tx() as conn:
            return queue.drop_failed(conn, tenant, None if ids is None else list(ids))

    # -- embedding cache and key/value state -------------------------------------------

    def cache_get(self, model: str, hashes: Sequence[str]) -> dict[str, np.ndarray]:
        wanted = list(dict.fromkeys(hashes))
        if not wanted:
            return {}
        with self._conn() as conn:
            rows = conn.execute(
                "SELECT hash, vec FROM embedding_cache WHERE model = %s AND hash = ANY(%s)",
                (model, wanted),
            ).fetchall()
        return {h: np.frombuffer(bytes(blob), dtype="<f4").copy() for h, blob in rows}

    def cache_put(self, model: str, items: dict[str, np.ndarray]) -> None:
        rows = []
        for h, vec in items.items():
            arr = np.asarray(vec, dtype="<f4").reshape(-1)
            rows.append((model, h, int(arr.shape[0]), arr.tobytes()))
        if not rows:
            return
        with self._conn() as conn, conn.cursor() as cur:
            cur.executemany(
                "INSERT INTO embedding_cache (model, hash, dim, vec) VALUES (%s, %s, %s, %s) "
                "ON CONFLICT (model, hash) DO UPDATE SET dim = EXCLUDED.dim, vec = EXCLUDED.vec",
                rows,
            )

    def state_get(self, scope: Scope, key: str) -> Any:
        with self._conn() as conn:
            row = conn.execute(
                "SELECT value FROM state WHERE tenant = %s AND user_id = %s AND key = %s",
                (scope.tenant, scope.user_id, key),
            ).fetchone()
        return None if row is None else row[0]

    def state_set(self, scope: Scope, key: str, value: Any) -> None:
        with self._conn() as conn:
            writes.write_state(conn, scope, key, value)

    def export_rows(self, scope: Scope) -> Iterator[dict[str, Any]]:
        """Every record of the user (all statuses) with its history, in storage order, in pages.

        Each page is read on a pooled connection that goes back to the pool before the
        page is yielded, so a slow consumer holds no connection while it works.
        """
        after = 0
        while True:
            with self._conn() as conn:
                page = queries.export_page(conn, scope, after, EXPORT_PAGE)
                events = queries.history(conn, scope, [r.id for _, r in page])
            for _, rec in page:
                yield {**rec.to_dict(), "history": [ev.to_dict() for ev in events.get(rec.id, [])]}
            if len(page) < EXPORT_PAGE:
                return
            after = page[-1][0]

    def close(self) -> None:
        self._pool.close()
