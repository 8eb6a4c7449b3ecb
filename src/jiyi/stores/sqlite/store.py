"""The default store: one SQLite file (WAL, FTS5, vectors as BLOBs), safe across threads and processes.

Reads go through :mod:`~jiyi.stores.sqlite.queries`, writes happen here inside one
``BEGIN IMMEDIATE`` transaction each, and vector search runs over the in-memory
matrices of :mod:`~jiyi.stores.sqlite.vectors`, which every ``apply`` of this
process keeps current and which a per-user generation number in the file
invalidates when another process writes.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, Iterator, Sequence
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from jiyi.clock import parse_iso
from jiyi.errors import EmbeddingMismatch, InvalidInput, ScopeViolation
from jiyi.records import HistoryEvent, Kind, MemoryRecord, Scope, Status, Visibility
from jiyi.stores.protocol import ChangeSet, Job, RecordFilter, Upsert
from jiyi.stores.sqlite import jobs, queries
from jiyi.stores.sqlite.codec import (
    DTYPES, MEMORY_COLUMNS, decode_vector, encode_vector, history_row, iso, record_row,
)
from jiyi.stores.sqlite.connections import ConnectionPool
from jiyi.stores.sqlite.fts import scope_key
from jiyi.stores.sqlite.migrations import migrate
from jiyi.stores.sqlite.vectors import RowMeta, UserMatrix, VectorCache

if TYPE_CHECKING:
    from jiyi.config import Settings

#: Each recall adds this much strength, up to the cap (decay takes it back with disuse).
HIT_STRENGTH_STEP = 0.1
MAX_STRENGTH = 3.0
_UPSERT_SQL = (
    f"INSERT INTO memories ({', '.join(MEMORY_COLUMNS)}) VALUES ({', '.join('?' * len(MEMORY_COLUMNS))}) "
    "ON CONFLICT (tenant, user_id, id) DO UPDATE SET "
    + ", ".join(f"{c} = excluded.{c}" for c in MEMORY_COLUMNS[3:])
    + " RETURNING rid"
)


def from_settings(settings: Settings) -> SQLiteStore:
    """Registry factory: the file at ``settings.sqlite_path()``, parent folders created."""
    path = settings.sqlite_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    return SQLiteStore(path)


class SQLiteStore:
    """:class:`~jiyi.stores.protocol.Store` over one SQLite file."""

    name = "sqlite"
    supports_ann = False

    def __init__(
        self,
        path: str | Path,
        *,
        vector_dtype: str = "float32",
        tracer: Callable[[str], None] | None = None,
        cache_bytes: int = 512 * 1024 * 1024,
    ) -> None:
        if vector_dtype not in DTYPES:
            raise InvalidInput(f"vector_dtype must be one of {', '.join(DTYPES)}, not {vector_dtype!r}")
        self.path = Path(path)
        self.vector_dtype = vector_dtype
        self._pool = ConnectionPool(self.path, tracer=tracer)
        self._cache = VectorCache(cache_bytes)
        migrate(self._pool.get())

    def __repr__(self) -> str:
        return f"SQLiteStore({str(self.path)!r})"

    # -- embedding model bookkeeping -------------------------------------------------

    def check_embedding(self, model: str, dim: int) -> None:
        """Adopt ``model`` on first use; afterwards refuse any other, so vectors never mix."""
        info = self.embedding_info()
        if info is None:
            info = self._pool.write(lambda conn: self._adopt_model(conn, model, dim, replace=False))
        if info != (model, dim):
            raise EmbeddingMismatch(
                f"this store ({self.path}) was built with {info[0]} (dim {info[1]}); open it with "
                f"embedder model {info[0]} or run `jiyi reembed` to switch to {model} (dim {dim})"
            )

    def embedding_info(self) -> tuple[str, int] | None:
        row = self._pool.get().execute("SELECT value FROM meta WHERE key = 'embedding'").fetchone()
        if row is None:
            return None
        data = json.loads(row[0])
        return str(data["model"]), int(data["dim"])

    def reset_embedding(self, model: str, dim: int) -> None:
        """Delete every vector of every user and adopt ``model``; ``reembed`` refills them."""

        def tx(conn: sqlite3.Connection) -> None:
            conn.execute("DELETE FROM vectors")
            conn.execute("UPDATE user_generations SET gen = gen + 1")
            self._adopt_model(conn, model, dim, replace=True)

        self._pool.write(tx)
        self._cache.invalidate()

    @staticmethod
    def _adopt_model(conn: sqlite3.Connection, model: str, dim: int, *, replace: bool) -> tuple[str, int]:
        verb = "INSERT OR REPLACE" if replace else "INSERT OR IGNORE"
        conn.execute(f"{verb} INTO meta (key, value) VALUES ('embedding', ?)", (json.dumps({"model": model, "dim": dim}),))
        data = json.loads(conn.execute("SELECT value FROM meta WHERE key = 'embedding'").fetchone()[0])
        return str(data["model"]), int(data["dim"])

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
        old_gen, new_gen = self._pool.write(lambda conn: self._apply_tx(conn, changes))
        if new_gen != old_gen:
            self._cache.apply(
                (scope.tenant, scope.user_id), old_gen, new_gen,
                [(RowMeta.of(up.record), up.vectors) for up in changes.upserts], changes.purge_ids,
            )

    def _apply_tx(self, conn: sqlite3.Connection, changes: ChangeSet) -> tuple[int, int]:
        scope = changes.scope
        info = self._stored_dim(conn)
        for up in changes.upserts:
            self._write_upsert(conn, up, info)
        self._purge(conn, scope, changes.purge_ids)
        conn.executemany(
            "INSERT INTO history (tenant, user_id, memory_id, event, at, old, new, reason, actor) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [history_row(scope.tenant, scope.user_id, ev) for ev in changes.history],
        )
        if changes.done_job_id is not None:
            jobs.finish(conn, changes.done_job_id, scope)
        if not (changes.upserts or changes.purge_ids):
            return 0, 0
        new_gen = self._bump_generation(conn, scope)
        return new_gen - 1, new_gen

    @staticmethod
    def _stored_dim(conn: sqlite3.Connection) -> int | None:
        row = conn.execute("SELECT value FROM meta WHERE key = 'embedding'").fetchone()
        return None if row is None else int(json.loads(row[0])["dim"])

    def _write_upsert(self, conn: sqlite3.Connection, up: Upsert, dim: int | None) -> None:
        rec = up.record
        rid = conn.execute(_UPSERT_SQL, record_row(rec)).fetchone()[0]
        key = (rec.tenant, rec.user_id, rec.id)
        conn.execute("DELETE FROM memory_entities WHERE tenant = ? AND user_id = ? AND memory_id = ?", key)
        conn.executemany(
            "INSERT OR IGNORE INTO memory_entities (tenant, user_id, entity, memory_id) VALUES (?, ?, ?, ?)",
            [(rec.tenant, rec.user_id, e.strip().casefold(), rec.id) for e in rec.entities if e.strip()],
        )
        conn.execute("DELETE FROM memory_sources WHERE tenant = ? AND user_id = ? AND memory_id = ?", key)
        conn.executemany(
            "INSERT OR IGNORE INTO memory_sources (tenant, user_id, source_id, memory_id) VALUES (?, ?, ?, ?)",
            [(rec.tenant, rec.user_id, s, rec.id) for s in rec.source_ids],
        )
        if up.keywords is not None:
            conn.execute("DELETE FROM memories_fts WHERE rowid = ?", (rid,))
            conn.execute(
                "INSERT INTO memories_fts (rowid, scope_key, keywords) VALUES (?, ?, ?)",
                (rid, scope_key(rec.tenant, rec.user_id), up.keywords),
            )
        if up.vectors is not None:
            conn.execute("DELETE FROM vectors WHERE tenant = ? AND user_id = ? AND memory_id = ?", key)
            conn.executemany(
                "INSERT INTO vectors (tenant, user_id, memory_id, channel, dim, dtype, blob) VALUES (?, ?, ?, ?, ?, ?, ?)",
                [(*key, channel, *self._vector_cells(vec, dim)) for channel, vec in up.vectors.items()],
            )

    def _vector_cells(self, vec: np.ndarray, dim: int | None) -> tuple[int, str, bytes]:
        blob, n = encode_vector(vec, self.vector_dtype)
        if dim is not None and n != dim:
            raise EmbeddingMismatch(f"a vector of dimension {n} cannot go into a store of dimension {dim}")
        return n, self.vector_dtype, blob

    @staticmethod
    def _purge(conn: sqlite3.Connection, scope: Scope, ids: Sequence[str]) -> None:
        """Hard-delete rows; vectors, entities and sources follow by cascade; history stays."""
        for chunk in queries.chunked(ids):
            marks = ", ".join("?" * len(chunk))
            params = [scope.tenant, scope.user_id, *chunk]
            conn.execute(
                "DELETE FROM memories_fts WHERE rowid IN "
                f"(SELECT rid FROM memories WHERE tenant = ? AND user_id = ? AND id IN ({marks}))",
                params,
            )
            conn.execute(f"DELETE FROM memories WHERE tenant = ? AND user_id = ? AND id IN ({marks})", params)

    @staticmethod
    def _bump_generation(conn: sqlite3.Connection, scope: Scope) -> int:
        """Tell every process's vector cache that this user's rows changed."""
        row = conn.execute(
            "INSERT INTO user_generations (tenant, user_id, gen) VALUES (?, ?, 1) "
            "ON CONFLICT (tenant, user_id) DO UPDATE SET gen = gen + 1 RETURNING gen",
            (scope.tenant, scope.user_id),
        ).fetchone()
        return int(row[0])

    def record_hits(self, scope: Scope, ids: Sequence[str], at: datetime) -> None:
        """Count a recall: ``hit_count + 1``, ``last_hit_at = at``, strength +0.1 capped at 3.0."""

        def tx(conn: sqlite3.Connection) -> None:
            for chunk in queries.chunked(ids):
                conn.execute(
                    "UPDATE memories SET hit_count = hit_count + 1, last_hit_at = ?, "
                    f"strength = min(strength + ?, ?) WHERE tenant = ? AND user_id = ? "
                    f"AND id IN ({', '.join('?' * len(chunk))})",
                    [iso(at), HIT_STRENGTH_STEP, MAX_STRENGTH, scope.tenant, scope.user_id, *chunk],
                )

        if ids:
            self._pool.write(tx)

    def delete_user(self, scope: Scope) -> int:
        """Everything of the user, vectors and history included (GDPR); returns memories removed."""

        def tx(conn: sqlite3.Connection) -> int:
            owner = (scope.tenant, scope.user_id)
            n = int(conn.execute("SELECT count(*) FROM memories WHERE tenant = ? AND user_id = ?", owner).fetchone()[0])
            conn.execute(
                "DELETE FROM memories_fts WHERE rowid IN (SELECT rid FROM memories WHERE tenant = ? AND user_id = ?)",
                owner,
            )
            for table in ("memories", "history", "jobs", "state"):
                conn.execute(f"DELETE FROM {table} WHERE tenant = ? AND user_id = ?", owner)
            self._bump_generation(conn, scope)
            return n

        removed = self._pool.write(tx)
        self._cache.invalidate((scope.tenant, scope.user_id))
        return removed

    # -- reads -----------------------------------------------------------------------

    def get(self, scope: Scope, memory_id: str) -> MemoryRecord | None:
        found = queries.get_many(self._pool.get(), scope, [memory_id])
        return found[0] if found else None

    def get_many(self, scope: Scope, ids: Sequence[str]) -> list[MemoryRecord]:
        return queries.get_many(self._pool.get(), scope, ids)

    def list(self, scope: Scope, flt: RecordFilter, limit: int | None = None, offset: int = 0) -> list[MemoryRecord]:
        return queries.list_records(self._pool.get(), scope, flt, limit, offset)

    def count(self, scope: Scope, flt: RecordFilter) -> int:
        return queries.count(self._pool.get(), scope, flt)

    def find_by_slot(self, scope: Scope, slot: str) -> list[MemoryRecord]:
        """Active memories holding ``slot``, newest first."""
        return queries.find_by_slot(self._pool.get(), scope, slot)

    def find_by_source(self, scope: Scope, source_id: str) -> list[MemoryRecord]:
        """Memories (any status) made from message ``source_id``, newest first."""
        return queries.find_by_source(self._pool.get(), scope, source_id)

    def history(self, scope: Scope, memory_id: str) -> list[HistoryEvent]:
        return queries.history(self._pool.get(), scope, [memory_id]).get(memory_id, [])

    def vectors(self, scope: Scope, ids: Sequence[str], channel: str = "content") -> dict[str, np.ndarray]:
        return queries.vectors(self._pool.get(), scope, ids, channel)

    def users(self, tenant: str) -> list[str]:
        return queries.owners(self._pool.get(), tenant)

    def tenants(self) -> list[str]:
        return queries.owners(self._pool.get(), None)

    # -- search routes -----------------------------------------------------------------

    def vector_search(
        self, scope: Scope, query: np.ndarray, k: int, flt: RecordFilter, channel: str = "content"
    ) -> list[tuple[str, float]]:
        """Exact cosine top-k over the user's cached matrix (reloaded only if the file changed)."""
        q = np.asarray(query, dtype=np.float32).reshape(-1)
        key = (scope.tenant, scope.user_id, channel)
        gen = self._generation(self._pool.get(), scope)
        with self._cache.lock:
            matrix = self._cache.get(key, gen)
            if matrix is None:
                matrix = self._load_matrix(scope, channel, len(q))
                self._cache.put(key, matrix)
            return matrix.search(q, k, flt)

    def _load_matrix(self, scope: Scope, channel: str, query_dim: int) -> UserMatrix:
        """Read the user's vectors and their filter columns at one consistent generation."""
        with self._pool.read() as conn:
            gen = self._generation(conn, scope)
            rows = conn.execute(
                "SELECT m.id, m.kind, m.status, m.visibility, m.session_id, m.agent_id, m.created_at, "
                "v.dim, v.dtype, v.blob FROM vectors v JOIN memories m "
                "ON m.tenant = v.tenant AND m.user_id = v.user_id AND m.id = v.memory_id "
                "WHERE v.tenant = ? AND v.user_id = ? AND v.channel = ?",
                (scope.tenant, scope.user_id, channel),
            ).fetchall()
        dims = {row[7] for row in rows}
        if len(dims) > 1:
            raise EmbeddingMismatch(f"user {scope.user_id} has vectors of dimensions {sorted(dims)}; run `jiyi reembed`")
        loaded = [(_row_meta(r), decode_vector(r[9], r[8])) for r in rows]
        return UserMatrix.build(dims.pop() if dims else query_dim, gen, loaded)

    @staticmethod
    def _generation(conn: sqlite3.Connection, scope: Scope) -> int:
        row = conn.execute(
            "SELECT gen FROM user_generations WHERE tenant = ? AND user_id = ?", (scope.tenant, scope.user_id)
        ).fetchone()
        return 0 if row is None else int(row[0])

    def keyword_search(
        self, scope: Scope, tokens: Sequence[str], k: int, flt: RecordFilter
    ) -> list[tuple[str, float]]:
        return queries.keyword_search(self._pool.get(), scope, tokens, k, flt)

    def recent(self, scope: Scope, k: int, flt: RecordFilter) -> list[tuple[str, float]]:
        """Most recently created (score = created_at as epoch seconds)."""
        return queries.recent(self._pool.get(), scope, k, flt)

    def entity_search(
        self, scope: Scope, entities: Sequence[str], k: int, flt: RecordFilter
    ) -> list[tuple[str, float]]:
        """Memories sharing entities (score = number shared, case-insensitive)."""
        return queries.entity_search(self._pool.get(), scope, entities, k, flt)

    # -- durable jobs --------------------------------------------------------------------

    def enqueue(self, scope: Scope, kind: str, payload: dict[str, Any], at: datetime) -> str:
        return self._pool.write(lambda conn: jobs.enqueue(conn, scope, kind, payload, at))

    def claim_jobs(self, limit: int, worker: str, at: datetime, lease_seconds: float = 60.0) -> list[Job]:
        return self._pool.write(lambda conn: jobs.claim(conn, limit, worker, at, lease_seconds))

    def fail_job(self, job_id: str, error: str, at: datetime) -> None:
        self._pool.write(lambda conn: jobs.fail(conn, job_id, error, at))

    def pending_jobs(self, scope: Scope | None = None) -> int:
        return jobs.count_open(self._pool.get(), scope)

    def failed_jobs(self) -> int:
        return jobs.count_failed(self._pool.get())

    # -- embedding cache and key/value state -------------------------------------------

    def cache_get(self, model: str, hashes: Sequence[str]) -> dict[str, np.ndarray]:
        out: dict[str, np.ndarray] = {}
        conn = self._pool.get()
        for chunk in queries.chunked(hashes):
            rows = conn.execute(
                f"SELECT hash, dtype, blob FROM embedding_cache WHERE model = ? AND hash IN ({', '.join('?' * len(chunk))})",
                [model, *chunk],
            )
            out.update((h, decode_vector(blob, dtype)) for h, dtype, blob in rows)
        return out

    def cache_put(self, model: str, items: dict[str, np.ndarray]) -> None:
        rows = [(model, h, *self._vector_cells(vec, None)) for h, vec in items.items()]
        if rows:
            self._pool.write(lambda conn: conn.executemany(
                "INSERT OR REPLACE INTO embedding_cache (model, hash, dim, dtype, blob) VALUES (?, ?, ?, ?, ?)", rows
            ))

    def state_get(self, scope: Scope, key: str) -> Any:
        row = self._pool.get().execute(
            "SELECT value FROM state WHERE tenant = ? AND user_id = ? AND key = ?", (scope.tenant, scope.user_id, key)
        ).fetchone()
        return None if row is None else json.loads(row[0])

    def state_set(self, scope: Scope, key: str, value: Any) -> None:
        text = json.dumps(value, ensure_ascii=False)
        self._pool.write(lambda conn: conn.execute(
            "INSERT OR REPLACE INTO state (tenant, user_id, key, value) VALUES (?, ?, ?, ?)",
            (scope.tenant, scope.user_id, key, text),
        ))

    def export_rows(self, scope: Scope) -> Iterator[dict[str, Any]]:
        """Every record of the user (all statuses) with its history, oldest first, in pages.

        Each page is read in its own short transaction, so a slow consumer never pins
        a snapshot (or blocks its own thread's writes) while it works.
        """
        after: tuple[str, str] | None = None
        while True:
            with self._pool.read() as conn:
                page = queries.export_page(conn, scope, after, 200)
                events = queries.history(conn, scope, [r.id for r in page])
            for rec in page:
                yield {**rec.to_dict(), "history": [ev.to_dict() for ev in events.get(rec.id, [])]}
            if len(page) < 200:
                return
            after = (iso(page[-1].created_at), page[-1].id)

    def close(self) -> None:
        self._pool.close()
        self._cache.invalidate()


def _row_meta(row: Sequence[Any]) -> RowMeta:
    mid, kind, status, visibility, session_id, agent_id, created = row[:7]
    return RowMeta(
        mid, Kind(kind), Status(status), visibility == Visibility.SENSITIVE.value,
        session_id, agent_id, parse_iso(created).timestamp(),
    )
