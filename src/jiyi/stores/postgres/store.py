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
``memory_history``, ``state``, ``jobs``) has a primary key leading with
``(tenant, user_id)``, every btree and GIN index leads with them too, foreign keys
include them, and every query filters on both, so one user's rows live on, and are
served by, one shard:

    SELECT create_distributed_table('memories', 'user_id');
    SELECT create_distributed_table(t, 'user_id', colocate_with => 'memories')
      FROM unnest(ARRAY['memory_vectors', 'memory_entities', 'memory_sources',
                        'memory_history', 'state']) t;
    SELECT create_reference_table('embedding_cache');   -- or leave it local

The HNSW indexes are per shard (an HNSW index cannot lead with other columns).
``jobs`` is keyed the same way, but ``claim_jobs`` reads across users with
``FOR UPDATE SKIP LOCKED``, which Citus allows only on one node: keep ``jobs``,
``jiyi_meta`` and ``jiyi_migrations`` on the coordinator
(``citus_add_local_table_to_metadata``); they hold only in-flight work and settings.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qsl, quote, urlencode, urlsplit, urlunsplit

import numpy as np

from jiyi.errors import (
    EmbeddingMismatch,
    InvalidInput,
    MissingDependency,
    ScopeViolation,
    StoreError,
)
from jiyi.records import HistoryEvent, MemoryRecord, Scope
from jiyi.stores.protocol import ChangeSet, Job, RecordFilter, Upsert

try:
    import psycopg
    from psycopg import sql
    from psycopg.types.json import Jsonb
    from psycopg_pool import ConnectionPool, PoolTimeout
except ImportError as exc:  # pragma: no cover - exercised only without the extra
    raise MissingDependency("the postgres store", "postgres") from exc

from jiyi.stores.postgres import queries, queue, vectors
from jiyi.stores.postgres.migrations import migrate

if TYPE_CHECKING:
    from jiyi.config import Settings

log = logging.getLogger("jiyi.stores.postgres")

#: Each recall adds this much strength, up to the cap (same rule as the SQLite store).
HIT_STRENGTH_STEP = 0.1
MAX_STRENGTH = 3.0
EXPORT_PAGE = 200
_UPSERT_SQL = sql.SQL(
    "INSERT INTO memories ({cols}, keywords) VALUES ({marks}, %s) "
    "ON CONFLICT (tenant, user_id, id) DO UPDATE SET {sets}, "
    "keywords = coalesce(EXCLUDED.keywords, memories.keywords)"
).format(
    cols=sql.SQL(", ").join(map(sql.Identifier, queries.MEMORY_COLUMNS)),
    marks=sql.SQL(", ").join(sql.Placeholder() * len(queries.MEMORY_COLUMNS)),
    sets=sql.SQL(", ").join(
        sql.SQL("{0} = EXCLUDED.{0}").format(sql.Identifier(c)) for c in queries.MEMORY_COLUMNS[3:]
    ),
)


@dataclass(slots=True, frozen=True)
class PostgresOptions:
    """Store options, given as ``jiyi_*`` query parameters of the URI."""

    vector_type: str = "vector"
    pool_min: int = 1
    pool_max: int = 10
    exact_limit: int = vectors.EXACT_LIMIT
    connect_timeout: float = 10.0

    @classmethod
    def split_uri(cls, uri: str) -> tuple[str, PostgresOptions]:
        """``uri`` without its ``jiyi_*`` parameters, and the options they set."""
        parts = urlsplit(uri)
        pairs = parse_qsl(parts.query, keep_blank_values=True)
        ours = {k[len("jiyi_"):]: v for k, v in pairs if k.startswith("jiyi_")}
        if not ours:
            return uri, cls()
        known = {"vector": "vector_type", "pool_min": "pool_min", "pool_max": "pool_max",
                 "exact_limit": "exact_limit", "connect_timeout": "connect_timeout"}
        unknown = set(ours) - set(known)
        if unknown:
            raise InvalidInput(f"unknown store option(s) {', '.join(sorted('jiyi_' + u for u in unknown))}; "
                               f"known: {', '.join('jiyi_' + k for k in known)}")
        kw: dict[str, Any] = {}
        for key, value in ours.items():
            field = known[key]
            kw[field] = value if field == "vector_type" else (float(value) if "timeout" in field else int(value))
        rest = urlencode([(k, v) for k, v in pairs if not k.startswith("jiyi_")], quote_via=quote)
        return urlunsplit(parts._replace(query=rest)), cls(**kw)


def from_settings(settings: Settings) -> PostgresStore:
    """Registry factory: ``settings.store`` is the libpq URI (``jiyi_*`` parameters are options)."""
    uri, options = PostgresOptions.split_uri(settings.store)
    return PostgresStore(uri, options)


def _redact(uri: str) -> str:
    parts = urlsplit(uri)
    if parts.password:
        netloc = parts.netloc.replace(f":{parts.password}@", ":***@")
        return urlunsplit(parts._replace(netloc=netloc))
    return uri


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
            raise InvalidInput(f"jiyi_vector must be one of {', '.join(vectors.VECTOR_TYPES)}, "
                               f"not {self.options.vector_type!r}")
        self.uri = uri
        timeout = self.options.connect_timeout
        try:
            with psycopg.connect(uri, autocommit=True, connect_timeout=max(1, int(timeout))) as conn:
                applied = migrate(conn)
                self.pgvector_version = vectors.extension_version(conn)
        except psycopg.Error as exc:
            raise StoreError(f"cannot open the PostgreSQL store at {_redact(uri)}: {exc}") from exc
        if applied:
            log.info("applied migrations: %s", ", ".join(applied))
        # filtered HNSW scans need pgvector 0.8's iterative scans to fill k; older: always exact
        self._ann_ok = self.pgvector_version >= (0, 8)
        if not self._ann_ok:
            log.warning("pgvector %s has no iterative index scans; vector search stays exact "
                        "(upgrade to 0.8+ for HNSW on large users)", ".".join(map(str, self.pgvector_version)))
        self._pool: ConnectionPool[Any] = ConnectionPool(
            uri, min_size=self.options.pool_min, max_size=max(self.options.pool_min, self.options.pool_max),
            kwargs={"autocommit": True}, configure=_configure, open=False, name="jiyi",
        )
        try:
            self._pool.open(wait=True, timeout=timeout)
        except PoolTimeout as exc:
            self._pool.close()
            raise StoreError(f"no connection to {_redact(uri)} within {timeout:.0f}s") from exc

    def __repr__(self) -> str:
        return f"PostgresStore({_redact(self.uri)!r})"

    # -- embedding model bookkeeping -------------------------------------------------

    def check_embedding(self, model: str, dim: int) -> None:
        """Adopt ``model`` on first use (and size the vector column); afterwards refuse any other."""
        info = self.embedding_info()
        if info is None:
            with self._pool.connection() as conn, conn.transaction():
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
        if info != (model, dim):
            assert info is not None
            raise EmbeddingMismatch(
                f"this store ({_redact(self.uri)}) was built with {info[0]} (dim {info[1]}); open it with "
                f"embedder model {info[0]} or run `jiyi reembed` to switch to {model} (dim {dim})"
            )

    def embedding_info(self) -> tuple[str, int] | None:
        with self._pool.connection() as conn:
            row = conn.execute("SELECT value FROM jiyi_meta WHERE key = 'embedding'").fetchone()
        return None if row is None else (str(row[0]["model"]), int(row[0]["dim"]))

    def reset_embedding(self, model: str, dim: int) -> None:
        """Delete every vector of every user, resize the column, adopt ``model``; ``reembed`` refills."""
        with self._pool.connection() as conn, conn.transaction():
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
        scope = changes.scope
        for up in changes.upserts:
            if up.record.scope != scope:
                raise ScopeViolation(
                    f"record {up.record.id} belongs to {up.record.tenant}/{up.record.user_id}, "
                    f"not to the change set's {scope.tenant}/{scope.user_id}; nothing was written"
                )
        if not changes:
            return
        with self._pool.connection() as conn, conn.transaction():
            added = self._write_upserts(conn, changes.upserts)
            if changes.purge_ids:
                added -= conn.execute(
                    "DELETE FROM memories WHERE tenant = %s AND user_id = %s AND id = ANY(%s)",
                    (scope.tenant, scope.user_id, list(dict.fromkeys(changes.purge_ids))),
                ).rowcount
            if added:
                conn.execute(
                    "INSERT INTO user_stats AS u (tenant, user_id, memories) VALUES (%s, %s, %s) "
                    "ON CONFLICT (tenant, user_id) DO UPDATE SET memories = u.memories + EXCLUDED.memories",
                    (scope.tenant, scope.user_id, added),
                )
            if changes.history:
                with conn.cursor() as cur:
                    cur.executemany(
                        "INSERT INTO memory_history (tenant, user_id, memory_id, event, at, old, new, reason, actor) "
                        "VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s)",
                        [(scope.tenant, scope.user_id, ev.memory_id, ev.event.value, ev.at, ev.old, ev.new,
                          ev.reason, ev.actor) for ev in changes.history],
                    )
            if changes.done_job_id is not None:
                queue.finish(conn, changes.done_job_id, scope)

    def _write_upserts(self, conn: psycopg.Connection[Any], upserts: Sequence[Upsert]) -> int:
        """Records, their entity/source rows, the vectors of upserts that carry some; returns rows added."""
        if not upserts:
            return 0
        scope = upserts[0].record.scope
        ids = list(dict.fromkeys(up.record.id for up in upserts))
        with conn.cursor() as cur:
            row = cur.execute(
                "SELECT count(*) FROM memories WHERE tenant = %s AND user_id = %s AND id = ANY(%s)",
                (scope.tenant, scope.user_id, ids),
            ).fetchone()
            added = len(ids) - (int(row[0]) if row else 0)
            cur.executemany(_UPSERT_SQL, [
                [*queries.record_params(up.record), None if up.keywords is None else queries.fold(up.keywords)]
                for up in upserts
            ])
            for table in ("memory_entities", "memory_sources"):
                cur.execute(
                    sql.SQL("DELETE FROM {} WHERE tenant = %s AND user_id = %s AND memory_id = ANY(%s)").format(
                        sql.Identifier(table)
                    ),
                    (scope.tenant, scope.user_id, ids),
                )
            entities = {(e.strip().casefold(), up.record.id) for up in upserts for e in up.record.entities if e.strip()}
            sources = {(s, up.record.id) for up in upserts for s in up.record.source_ids}
            cur.executemany(
                "INSERT INTO memory_entities (tenant, user_id, entity, memory_id) VALUES (%s, %s, %s, %s)",
                [(scope.tenant, scope.user_id, e, mid) for e, mid in sorted(entities)],
            )
            cur.executemany(
                "INSERT INTO memory_sources (tenant, user_id, source_id, memory_id) VALUES (%s, %s, %s, %s)",
                [(scope.tenant, scope.user_id, s, mid) for s, mid in sorted(sources)],
            )
        self._write_vectors(conn, scope, [up for up in upserts if up.vectors is not None])
        return added

    def _write_vectors(self, conn: psycopg.Connection[Any], scope: Scope, upserts: Sequence[Upsert]) -> None:
        """A dict of vectors replaces the record's vectors: a channel missing from it loses its row."""
        if not upserts:
            return
        conn.execute(
            "DELETE FROM memory_vectors WHERE tenant = %s AND user_id = %s AND memory_id = ANY(%s)",
            (scope.tenant, scope.user_id, [up.record.id for up in upserts]),
        )
        rows = [(up.record.id, ch, vec) for up in upserts for ch, vec in (up.vectors or {}).items()]
        if not rows:
            return
        column = vectors.read_column(conn)
        if column is None:
            column = vectors.ensure_column(conn, int(np.asarray(rows[0][2]).size), self.options.vector_type)
        cast = sql.SQL(column.type)
        with conn.cursor() as cur:
            cur.executemany(
                sql.SQL(
                    "INSERT INTO memory_vectors (tenant, user_id, channel, memory_id, embedding) "
                    "VALUES (%s, %s, %s, %s, %b::{})"
                ).format(cast),
                [(scope.tenant, scope.user_id, ch, mid, vectors.as_vector(vec, column)) for mid, ch, vec in rows],
            )

    def record_hits(self, scope: Scope, ids: Sequence[str], at: datetime) -> None:
        """Count a recall: ``hit_count + 1``, ``last_hit_at = at``, strength +0.1 capped at 3.0."""
        if not ids:
            return
        with self._pool.connection() as conn:
            conn.execute(
                "UPDATE memories SET hit_count = hit_count + 1, last_hit_at = %s, "
                "strength = least(strength + %s, %s) WHERE tenant = %s AND user_id = %s AND id = ANY(%s)",
                (at, HIT_STRENGTH_STEP, MAX_STRENGTH, scope.tenant, scope.user_id, list(dict.fromkeys(ids))),
            )

    def delete_user(self, scope: Scope) -> int:
        """Everything of the user, vectors and history included (GDPR); returns memories removed."""
        owner = (scope.tenant, scope.user_id)
        with self._pool.connection() as conn, conn.transaction():
            cur = conn.execute("DELETE FROM memories WHERE tenant = %s AND user_id = %s", owner)
            removed = cur.rowcount
            for table in ("memory_history", "jobs", "state", "user_stats"):
                conn.execute(
                    sql.SQL("DELETE FROM {} WHERE tenant = %s AND user_id = %s").format(sql.Identifier(table)), owner
                )
        return removed

    # -- reads -----------------------------------------------------------------------

    def get(self, scope: Scope, memory_id: str) -> MemoryRecord | None:
        found = self.get_many(scope, [memory_id])
        return found[0] if found else None

    def get_many(self, scope: Scope, ids: Sequence[str]) -> list[MemoryRecord]:
        with self._pool.connection() as conn:
            return queries.get_many(conn, scope, ids)

    def list(self, scope: Scope, flt: RecordFilter, limit: int | None = None, offset: int = 0) -> list[MemoryRecord]:
        with self._pool.connection() as conn:
            return queries.list_records(conn, scope, flt, limit, offset)

    def count(self, scope: Scope, flt: RecordFilter) -> int:
        with self._pool.connection() as conn:
            return queries.count(conn, scope, flt)

    def find_by_slot(self, scope: Scope, slot: str) -> list[MemoryRecord]:
        """Active memories holding ``slot``, newest first."""
        with self._pool.connection() as conn:
            return queries.find_by_slot(conn, scope, slot)

    def find_by_source(self, scope: Scope, source_id: str) -> list[MemoryRecord]:
        """Memories (any status) made from message ``source_id``, newest first."""
        with self._pool.connection() as conn:
            return queries.find_by_source(conn, scope, source_id)

    def history(self, scope: Scope, memory_id: str) -> list[HistoryEvent]:
        with self._pool.connection() as conn:
            return queries.history(conn, scope, [memory_id]).get(memory_id, [])

    def vectors(self, scope: Scope, ids: Sequence[str], channel: str = "content") -> dict[str, np.ndarray]:
        wanted = list(dict.fromkeys(ids))
        if not wanted:
            return {}
        with self._pool.connection() as conn:
            if vectors.read_column(conn) is None:
                return {}
            with conn.cursor(binary=True) as cur:
                rows = cur.execute(
                    "SELECT memory_id, embedding::vector FROM memory_vectors "
                    "WHERE tenant = %s AND user_id = %s AND channel = %s AND memory_id = ANY(%s)",
                    (scope.tenant, scope.user_id, channel, wanted),
                ).fetchall()
        return {mid: vec for mid, vec in rows}

    def users(self, tenant: str) -> list[str]:
        with self._pool.connection() as conn:
            return queries.owners(conn, tenant)

    def tenants(self) -> list[str]:
        with self._pool.connection() as conn:
            return queries.owners(conn, None)

    # -- search routes -----------------------------------------------------------------

    def vector_search(
        self, scope: Scope, query: np.ndarray, k: int, flt: RecordFilter, channel: str = "content"
    ) -> list[tuple[str, float]]:
        """Cosine top-k: exact for users up to ``exact_limit`` vectors, HNSW iterative scan above."""
        where, params = queries.scoped_where(scope, flt, with_text=False)
        with self._pool.connection() as conn:
            column = vectors.read_column(conn)
            if column is None or k <= 0:
                return []
            limit = self.options.exact_limit if self._ann_ok else None
            return vectors.search(conn, column, query, k, channel, where, params, exact_limit=limit)

    def keyword_search(
        self, scope: Scope, tokens: Sequence[str], k: int, flt: RecordFilter
    ) -> list[tuple[str, float]]:
        with self._pool.connection() as conn:
            return queries.keyword_search(conn, scope, tokens, k, flt)

    def recent(self, scope: Scope, k: int, flt: RecordFilter) -> list[tuple[str, float]]:
        """Most recently created (score = created_at as epoch seconds)."""
        with self._pool.connection() as conn:
            return queries.recent(conn, scope, k, flt)

    def entity_search(
        self, scope: Scope, entities: Sequence[str], k: int, flt: RecordFilter
    ) -> list[tuple[str, float]]:
        """Memories sharing entities (score = number shared, case-insensitive)."""
        with self._pool.connection() as conn:
            return queries.entity_search(conn, scope, entities, k, flt)

    # -- durable jobs --------------------------------------------------------------------

    def enqueue(self, scope: Scope, kind: str, payload: dict[str, Any], at: datetime) -> str:
        with self._pool.connection() as conn:
            return queue.enqueue(conn, scope, kind, payload, at)

    def claim_jobs(self, limit: int, worker: str, at: datetime, lease_seconds: float = 60.0) -> list[Job]:
        with self._pool.connection() as conn, conn.transaction():
            return queue.claim(conn, limit, worker, at, lease_seconds)

    def fail_job(self, job_id: str, error: str, at: datetime) -> None:
        with self._pool.connection() as conn:
            queue.fail(conn, job_id, error, at)

    def pending_jobs(self, scope: Scope | None = None) -> int:
        with self._pool.connection() as conn:
            return queue.count_open(conn, scope)

    def failed_jobs(self) -> int:
        with self._pool.connection() as conn:
            return queue.count_failed(conn)

    # -- embedding cache and key/value state -------------------------------------------

    def cache_get(self, model: str, hashes: Sequence[str]) -> dict[str, np.ndarray]:
        wanted = list(dict.fromkeys(hashes))
        if not wanted:
            return {}
        with self._pool.connection() as conn:
            rows = conn.execute(
                "SELECT hash, vec FROM embedding_cache WHERE model = %s AND hash = ANY(%s)", (model, wanted)
            ).fetchall()
        return {h: np.frombuffer(bytes(blob), dtype="<f4").copy() for h, blob in rows}

    def cache_put(self, model: str, items: dict[str, np.ndarray]) -> None:
        rows = []
        for h, vec in items.items():
            arr = np.asarray(vec, dtype="<f4").reshape(-1)
            rows.append((model, h, int(arr.shape[0]), arr.tobytes()))
        if not rows:
            return
        with self._pool.connection() as conn, conn.cursor() as cur:
            cur.executemany(
                "INSERT INTO embedding_cache (model, hash, dim, vec) VALUES (%s, %s, %s, %s) "
                "ON CONFLICT (model, hash) DO UPDATE SET dim = EXCLUDED.dim, vec = EXCLUDED.vec",
                rows,
            )

    def state_get(self, scope: Scope, key: str) -> Any:
        with self._pool.connection() as conn:
            row = conn.execute(
                "SELECT value FROM state WHERE tenant = %s AND user_id = %s AND key = %s",
                (scope.tenant, scope.user_id, key),
            ).fetchone()
        return None if row is None else row[0]

    def state_set(self, scope: Scope, key: str, value: Any) -> None:
        text = json.dumps(value, ensure_ascii=False)
        with self._pool.connection() as conn:
            conn.execute(
                "INSERT INTO state (tenant, user_id, key, value) VALUES (%s, %s, %s, %s::jsonb) "
                "ON CONFLICT (tenant, user_id, key) DO UPDATE SET value = EXCLUDED.value",
                (scope.tenant, scope.user_id, key, text),
            )

    def export_rows(self, scope: Scope) -> Iterator[dict[str, Any]]:
        """Every record of the user (all statuses) with its history, in storage order, in pages.

        Each page is read on a pooled connection that goes back to the pool before the
        page is yielded, so a slow consumer holds no connection while it works.
        """
        after = 0
        while True:
            with self._pool.connection() as conn:
                page = queries.export_page(conn, scope, after, EXPORT_PAGE)
                events = queries.history(conn, scope, [r.id for _, r in page])
            for _, rec in page:
                yield {**rec.to_dict(), "history": [ev.to_dict() for ev in events.get(rec.id, [])]}
            if len(page) < EXPORT_PAGE:
                return
            after = page[-1][0]

    def close(self) -> None:
        self._pool.close()
