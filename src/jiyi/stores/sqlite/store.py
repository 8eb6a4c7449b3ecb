"""The default store: one SQLite file (WAL, FTS5, vector BLOBs), safe across threads and processes.

This class only chooses connections and transactions: reads are in
:mod:`~jiyi.stores.sqlite.queries`, writes in :mod:`~jiyi.stores.sqlite.writes` (each
write call is one ``BEGIN IMMEDIATE`` transaction), jobs in
:mod:`~jiyi.stores.sqlite.jobs`. Vector search runs over the in-memory matrices of
:mod:`~jiyi.stores.sqlite.vectors`, which every ``apply`` of this process patches and
which a per-user generation number in the file invalidates when another process writes.
"""

from __future__ import annotations

import builtins
import json
import sqlite3
import threading
from collections.abc import Callable, Iterator, Sequence
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from jiyi.clock import parse_iso
from jiyi.errors import EmbeddingMismatch, InvalidInput, StoreError
from jiyi.records import HistoryEvent, MemoryRecord, Scope
from jiyi.stores.protocol import (
    CHANNELS,
    ChangeSet,
    FailedJob,
    Job,
    Ranking,
    RecordFilter,
    SessionScores,
    hit_groups,
)
from jiyi.stores.sqlite import jobs, queries, writes
from jiyi.stores.sqlite.codec import DTYPES, iso
from jiyi.stores.sqlite.connections import ConnectionPool
from jiyi.stores.sqlite.migrations import migrate
from jiyi.stores.sqlite.record_cache import RecordCache
from jiyi.stores.sqlite.textindex import TextCache, TextRow, UserText, entity_keys
from jiyi.stores.sqlite.vector_cache import VectorCache
from jiyi.stores.sqlite.vectors import ANN_MIN_ROWS, RowMeta, UserMatrix

if TYPE_CHECKING:
    from jiyi.config import Settings

EXPORT_PAGE = 200
#: Embeddings ``cache_put`` may hold back for the next ``apply`` before writing them on their own.
CACHE_BEHIND = 4096


def from_settings(settings: Settings) -> SQLiteStore:
    """Registry factory: the file at ``settings.sqlite_path()``, parent folders created."""
    path = settings.sqlite_path()
    if path.is_dir() or not path.name:
        raise StoreError(f"the store path {path} is a directory: name a file (e.g. {path / 'jiyi.db'})")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise StoreError(f"cannot create the folder {path.parent} for the store: {exc.strerror or exc}") from None
    return SQLiteStore(path)


class SQLiteStore:
    """:class:`~jiyi.stores.protocol.Store` over one SQLite file.

    ``vector_dtype="float16"`` halves the file's vector bytes at ~1e-3 precision
    (search always runs in float32). ``tracer`` receives every SQL statement
    (``SQLiteStore(path, tracer=print)``). ``cache_bytes`` bounds the in-memory
    vector matrices of all users together (least recently searched go first).

    Users with at least ``ann_min_rows`` vectors in a channel get an IVF index
    (:mod:`~jiyi.stores.sqlite.ivf`), built on a background thread
    (``background_index=False``: in the caller's) and persisted in ``index_dir``
    (default: ``<file>.index/`` beside the database).
    """

    name = "sqlite"
    supports_ann = True

    def __init__(
        self,
        path: str | Path,
        *,
        vector_dtype: str = "float32",
        tracer: Callable[[str], None] | None = None,
        cache_bytes: int = 512 * 1024 * 1024,
        ann_min_rows: int = ANN_MIN_ROWS,
        index_dir: str | Path | None = None,
        background_index: bool = True,
    ) -> None:
        if vector_dtype not in DTYPES:
            raise InvalidInput(
                f"vector_dtype must be one of {', '.join(DTYPES)}, not {vector_dtype!r}"
            )
        self.path = Path(path)
        self.vector_dtype = vector_dtype
        self._pool = ConnectionPool(self.path, tracer=tracer)
        folder = Path(index_dir) if index_dir is not None else self.path.with_name(self.path.name + ".index")
        self._cache = VectorCache(cache_bytes, index_dir=folder, ann_min_rows=ann_min_rows,
                                  background=background_index)
        self._texts = TextCache()
        self._records = RecordCache()
        self._cache_lock = threading.Lock()
        self._unsaved: dict[tuple[str, str], np.ndarray] = {}  # embedding-cache writes behind (cache_put)
        self._counts: dict[tuple[Scope, RecordFilter], tuple[int, int]] = {}
        migrate(self._pool.get())

    def __repr__(self) -> str:
        return f"SQLiteStore({str(self.path)!r})"

    # -- embedding model bookkeeping -------------------------------------------------

    def check_embedding(self, model: str, dim: int) -> None:
        """Adopt ``model`` on first use; afterwards refuse any other, so vectors never mix."""
        info = self.embedding_info()
        if info is None:
            info = self._pool.write(lambda c: writes.adopt_embedding(c, model, dim, replace=False))
        if info != (model, dim):
            raise EmbeddingMismatch(
                f"this store ({self.path}) was built with {info[0]} (dim {info[1]}); open it with "
                f"embedder model {info[0]} or run `jiyi reembed` to switch to {model} (dim {dim})"
            )

    def embedding_info(self) -> tuple[str, int] | None:
        return writes.embedding(self._pool.get())

    def reset_embedding(self, model: str, dim: int) -> None:
        """Delete every vector of every user and adopt ``model``; ``reembed`` refills them.

        Cached embeddings stay: they are keyed by model, so the old ones never answer for the new.
        """

        def tx(conn: sqlite3.Connection) -> None:
            conn.execute("DELETE FROM vectors")
            conn.execute("UPDATE user_generations SET gen = gen + 1")
            writes.adopt_embedding(conn, model, dim, replace=True)

        self._pool.write(tx)
        self._cache.invalidate()
        self._cache.forget_indexes()
        self._texts.invalidate()
        self._records.invalidate()

    # -- writes ----------------------------------------------------------------------

    def apply(self, changes: ChangeSet) -> None:
        """Write a whole change set, and finish its job, in one transaction (or nothing at all)."""
        changes.check_scope()
        if not changes:
            return
        if changes.uncache:
            self._drop_unsaved(changes.uncache)
        unsaved = self._unsaved_cache()
        old_gen, new_gen, rids = self._pool.write(lambda conn: self._apply_tx(conn, changes, unsaved))
        self._saved_cache(unsaved)
        if changes.purge_ids or changes.uncache or changes.clear_history:
            self.checkpoint()
        if new_gen != old_gen:
            metas = [RowMeta.of(up.record) for up in changes.upserts]
            rows = [(meta, up.vectors, rid) for meta, up, rid in zip(metas, changes.upserts, rids)]
            owner = (changes.scope.tenant, changes.scope.user_id)
            self._cache.apply(owner, old_gen, new_gen, rows, changes.purge_ids)
            texts = [TextRow(meta, rid, entity_keys(up.record.entities), up.keywords)
                     for meta, up, rid in zip(metas, changes.upserts, rids)]
            self._texts.apply(owner, old_gen, new_gen, texts, changes.purge_ids)
            self._records.advance(owner, old_gen, new_gen, [up.record.id for up in changes.upserts],
                                  changes.purge_ids)

    def _apply_tx(self, conn: sqlite3.Connection, changes: ChangeSet,
                  unsaved: dict[tuple[str, str], np.ndarray]) -> tuple[int, int, list[int]]:
        """The body of ``apply``; returns the user's generation before and after, and the rows' rids."""
        scope = changes.scope
        writes.check_expected(conn, scope, changes.expected())  # (BEGIN IMMEDIATE: no writer slips in after it)
        writes.cache_put(conn, self._cache_rows(unsaved))
        adopted = writes.embedding(conn)
        dim = None if adopted is None else adopted[1]
        rids = writes.upsert_many(conn, scope, changes.upserts, self.vector_dtype, dim)
        writes.purge(conn, scope, changes.purge_ids)
        writes.uncache(conn, changes.uncache)
        writes.append_history(conn, scope, changes.history)
        writes.clear_history(conn, scope, changes.clear_history)
        for key, value in changes.state.items():
            writes.state_set(conn, scope, key, json.dumps(value, ensure_ascii=False))
        if changes.done_job_id is not None:
            jobs.finish(conn, changes.done_job_id, scope)
        if not (changes.upserts or changes.purge_ids):
            return 0, 0, rids
        new_gen = writes.bump_generation(conn, scope)
        return new_gen - 1, new_gen, rids

    def record_hits(self, scope: Scope, ids: Sequence[str], at: datetime) -> None:
        """Count recalls: ``hit_count + n``, ``last_hit_at = at``, strength + 0.1 · n capped at 3.0
        (n: how often the id is listed), one transaction. Not on a read-only file (nothing to refuse:
        searches go on, their recalls are not counted)."""
        if ids and not self._pool.read_only:
            groups = hit_groups(ids)
            self._pool.write(lambda conn: writes.record_hits(conn, scope, groups, at), durable=False)
            self._records.patch_hits((scope.tenant, scope.user_id), groups, parse_iso(iso(at)))

    def delete_user(self, scope: Scope) -> int:
        """Everything of the user, vectors and history included (GDPR); returns memories removed."""
        removed = self._pool.write(lambda conn: writes.delete_user(conn, scope))
        self._cache.invalidate((scope.tenant, scope.user_id))
        self._texts.invalidate((scope.tenant, scope.user_id))
        self._records.invalidate((scope.tenant, scope.user_id))
        self._cache.forget_indexes([(scope.tenant, scope.user_id, ch) for ch in CHANNELS])
        self.checkpoint()
        return removed

    def checkpoint(self) -> bool:
        """Copy the WAL into the database file and truncate it to 0 bytes, so erased rows survive in
        neither; False when a reader still holds an old snapshot (the next checkpoint finishes it)."""
        if self._pool.read_only:
            return True
        busy, _, _ = self._pool.get().execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
        return not busy

    def compact(self, *, full: bool = False) -> None:
        """Leave no erased bytes in the files: checkpoint the WAL and, with ``full``, ``VACUUM``
        (rewrites the whole file: takes as long as copying it and needs as much free disk)."""
        if full:
            if self._pool.read_only:
                self._pool.refuse_write()
            self.flush_cache()
            self._pool.get().execute("VACUUM")
        self.checkpoint()

    # -- reads -----------------------------------------------------------------------

    def get(self, scope: Scope, memory_id: str) -> MemoryRecord | None:
        found = self.get_many(scope, [memory_id])
        return found[0] if found else None

    def get_many(self, scope: Scope, ids: Sequence[str]) -> list[MemoryRecord]:
        """Records in the order asked; unknown (or other users') ids are skipped.

        Served from the per-user decoded-record cache when it is at the file's current
        generation (see :mod:`jiyi.stores.sqlite.record_cache`); misses are read and
        decoded in one snapshot with the generation, and cached only if it still matches.
        """
        owner = (scope.tenant, scope.user_id)
        gen = queries.generation(self._pool.get(), scope)
        found, missing, warm = self._records.lookup(owner, gen, ids)
        if warm and self._warm_records(scope) == gen:
            found, missing, _ = self._records.lookup(owner, gen, ids, claim_warm=False)
        if missing:
            with self._pool.read() as conn:
                now = queries.generation(conn, scope)
                if now != gen:  # a write landed in between: answer wholly from this snapshot
                    rows = queries.get_many(conn, scope, ids)
                else:
                    rows = queries.get_many(conn, scope, missing)
            self._records.store(owner, now, rows)
            if now != gen:
                return rows
            found.update((rec.id, rec) for rec in rows)
        return [found[i] for i in dict.fromkeys(ids) if i in found]

    def _warm_records(self, scope: Scope) -> int | None:
        """Read and decode all of a small user's records into the record cache; the generation
        read at, or None if the user is too large to warm.

        In the caller's thread: measured, a background warm (~0.15 s of decoding at 10k
        rows) held the GIL against the searches it was meant to speed up (p95 12.6 ms).
        """
        owner = (scope.tenant, scope.user_id)
        gen = -1
        try:
            with self._pool.read() as conn:
                gen = queries.generation(conn, scope)
                if queries.count_all(conn, scope) > self._records.warm_max:
                    self._records.warm_failed(owner, gen, too_big=True)
                    return None
                rows = queries.all_records(conn, scope)
        except BaseException:
            self._records.warm_failed(owner, gen)
            raise
        self._records.store(owner, gen, rows, complete=True)
        return gen

    def list(
        self, scope: Scope, flt: RecordFilter, limit: int | None = None, offset: int = 0
    ) -> list[MemoryRecord]:
        """Newest first (ties by id), so that pages are stable."""
        return queries.list_records(self._pool.get(), scope, flt, limit, offset)

    def count(self, scope: Scope, flt: RecordFilter) -> int:
        """Counted once per filter and user generation (recall asks on every search; 100k rows take ms)."""
        conn = self._pool.get()
        gen = queries.generation(conn, scope)
        key = (scope, flt)
        known = self._counts.get(key)
        if known is not None and known[0] == gen:
            return known[1]
        n = queries.count(conn, scope, flt)
        if len(self._counts) >= 4096:
            self._counts.clear()
        self._counts[key] = (gen, n)
        return n

    def find_by_slot(self, scope: Scope, slot: str) -> builtins.list[MemoryRecord]:
        """Active memories holding ``slot``, newest first."""
        return queries.find_by_slot(self._pool.get(), scope, slot)

    def find_by_source(self, scope: Scope, source_id: str) -> builtins.list[MemoryRecord]:
        """Memories (any status) made from message ``source_id``, newest first."""
        return self.find_by_sources(scope, [source_id]).get(source_id, [])

    def find_by_sources(self, scope: Scope,
                        source_ids: Sequence[str]) -> dict[str, builtins.list[MemoryRecord]]:
        """:meth:`find_by_source` for many messages in one query; ids with no memory are absent."""
        return queries.find_by_sources(self._pool.get(), scope, source_ids) if source_ids else {}

    def history(self, scope: Scope, memory_id: str) -> builtins.list[HistoryEvent]:
        """Events in time order, insertion order among equal times; kept after a purge."""
        return queries.history(self._pool.get(), scope, [memory_id]).get(memory_id, [])

    def vectors(
        self, scope: Scope, ids: Sequence[str], channel: str = "content"
    ) -> dict[str, np.ndarray]:
        return queries.vectors(self._pool.get(), scope, ids, channel)

    def users(self, tenant: str) -> builtins.list[str]:
        """Users with memories or state (a newcomer's buffered turns count), sorted."""
        return queries.owners(self._pool.get(), tenant)

    def tenants(self) -> builtins.list[str]:
        return queries.owners(self._pool.get(), None)

    def session_members(self, scope: Scope, session_ids: Sequence[str]) -> dict[str, builtins.list[str]]:
        return queries.session_members(self._pool.get(), scope, session_ids)

    # -- search routes -----------------------------------------------------------------

    def vector_search(
        self, scope: Scope, query: np.ndarray, k: int, flt: RecordFilter, channel: str = "content"
    ) -> builtins.list[tuple[str, float]]:
        """Exact cosine top-k over the user's cached matrix (reloaded only if the file changed)."""
        return list(self._matrix_ranking(scope, query, k, flt, channel, None).hits)

    def vector_ranking(
        self, scope: Scope, query: np.ndarray, k: int, flt: RecordFilter, channel: str = "content", *, deep: int
    ) -> Ranking:
        """Top k with the statistics of all the filtered rows' scores (estimated in part under IVF)."""
        return self._matrix_ranking(scope, query, k, flt, channel, deep)

    def _matrix_ranking(self, scope: Scope, query: np.ndarray, k: int, flt: RecordFilter, channel: str,
                        deep: int | None) -> Ranking:
        q = np.asarray(query, dtype=np.float32).reshape(-1)
        key = (scope.tenant, scope.user_id, channel)
        gen = queries.generation(self._pool.get(), scope)
        with self._cache.lock:
            matrix = self._cache.get(key, gen)
            if matrix is None:
                matrix = self._load_matrix(scope, channel, len(q))
                self._cache.put(key, matrix)
            return matrix.ranking(q, k, flt, deep)

    def _load_matrix(self, scope: Scope, channel: str, query_dim: int) -> UserMatrix:
        """Read the user's vectors and their filter columns at one consistent generation."""
        with self._pool.read() as conn:
            gen = queries.generation(conn, scope)
            cols, dims = queries.matrix_columns(conn, scope, channel)
        if len(dims) > 1:
            raise EmbeddingMismatch(
                f"user {scope.user_id} has vectors of dimensions {sorted(dims)}; run `jiyi reembed`"
            )
        return UserMatrix.from_columns(dims.pop() if dims else query_dim, gen, cols)

    def wait_for_indexes(self) -> None:
        """Block until background vector-index builds queued so far are done (benchmarks, tests)."""
        self._cache.wait_for_indexes()

    def keyword_search(
        self, scope: Scope, tokens: Sequence[str], k: int, flt: RecordFilter
    ) -> builtins.list[tuple[str, float]]:
        """BM25 (this user's statistics) over pre-tokenized keywords, any token matching; higher is better."""
        with self._texts.lock:
            return list(self._text_index(scope).keyword_ranking(tokens, k, flt).hits)

    def keyword_ranking(self, scope: Scope, tokens: Sequence[str], k: int, flt: RecordFilter, *, deep: int) -> Ranking:
        """Top k with the statistics of every matching row's score (the postings score them all)."""
        with self._texts.lock:
            return self._text_index(scope).keyword_ranking(tokens, k, flt, deep)

    def session_keyword_search(self, scope: Scope, tokens: Sequence[str], flt: RecordFilter,
                               k: int = 200) -> SessionScores:
        """BM25 over the user's sessions as documents (this user's session statistics)."""
        with self._texts.lock:
            return self._text_index(scope).session_search(tokens, flt, k)

    def recent(self, scope: Scope, k: int, flt: RecordFilter) -> builtins.list[tuple[str, float]]:
        """Most recently created (score = created_at as epoch seconds)."""
        return queries.recent(self._pool.get(), scope, k, flt)

    def entity_search(
        self, scope: Scope, entities: Sequence[str], k: int, flt: RecordFilter
    ) -> builtins.list[tuple[str, float]]:
        """Memories sharing entities (score = number shared, case-insensitive)."""
        with self._texts.lock:
            return self._text_index(scope).entity_search(entities, k, flt)

    def _text_index(self, scope: Scope) -> UserText:
        """The user's keyword/entity index at the file's current generation (loaded if stale)."""
        key = (scope.tenant, scope.user_id)
        idx = self._texts.get(key, queries.generation(self._pool.get(), scope))
        if idx is None:
            with self._pool.read() as conn:
                gen = queries.generation(conn, scope)
                idx = UserText.from_columns(gen, queries.text_columns(conn, scope))
            self._texts.put(key, idx)
        return idx

    # -- durable jobs --------------------------------------------------------------------

    def enqueue(self, scope: Scope, kind: str, payload: dict[str, Any], at: datetime) -> str:
        return self._pool.write(lambda conn: jobs.enqueue(conn, scope, kind, payload, at))

    def claim_jobs(
        self, limit: int, worker: str, at: datetime, lease_seconds: float = 60.0,
        scope: Scope | None = None, *, tenant: str | None = None,
    ) -> builtins.list[Job]:
        """Oldest pending (or lease-expired) jobs, tenants in turn, each handed to exactly one caller."""
        return self._pool.write(lambda conn: jobs.claim(conn, limit, worker, at, lease_seconds, scope, tenant))

    def fail_job(self, job_id: str, error: str, at: datetime) -> None:
        """Back to pending, or ``failed`` once it has been tried ``jobs.MAX_ATTEMPTS`` times."""
        self._pool.write(lambda conn: jobs.fail(conn, job_id, error, at))

    def pending_jobs(self, scope: Scope | None = None, *, tenant: str | None = None) -> int:
        """Jobs not finished yet: pending or claimed (done and failed ones don't count)."""
        return jobs.count_open(self._pool.get(), scope, tenant)

    def failed_jobs(self, tenant: str | None = None) -> int:
        return jobs.count_failed(self._pool.get(), tenant)

    def list_failed_jobs(self, tenant: str | None = None, limit: int = 100) -> builtins.list[FailedJob]:
        return jobs.list_failed(self._pool.get(), tenant, limit)

    def retry_failed_jobs(self, tenant: str | None, ids: Sequence[str] | None, at: datetime) -> int:
        return self._pool.write(lambda conn: jobs.retry_failed(conn, tenant, None if ids is None else list(ids), at))

    def drop_failed_jobs(self, tenant: str | None, ids: Sequence[str] | None) -> int:
        return self._pool.write(lambda conn: jobs.drop_failed(conn, tenant, None if ids is None else list(ids)))

    # -- embedding cache and key/value state -------------------------------------------

    def cache_get(self, model: str, hashes: Sequence[str]) -> dict[str, np.ndarray]:
        with self._cache_lock:
            out = {h: v for h in hashes if (v := self._unsaved.get((model, h))) is not None}
        rest = [h for h in hashes if h not in out]
        if rest:
            out.update(queries.cache_get(self._pool.get(), model, rest))
        return out

    def cache_put(self, model: str, items: dict[str, np.ndarray]) -> None:
        """Remember embeddings; they are written by the next ``apply`` (in its transaction).

        The embedding stage always precedes an ``apply`` that commits what was embedded,
        so riding along saves a transaction per add (a commit, ~6 ms here, even without
        fsync). More than :data:`CACHE_BEHIND` waiting, or ``close``, writes them at once.
        """
        with self._cache_lock:
            self._unsaved.update({(model, h): v for h, v in items.items()})
            full = len(self._unsaved) > CACHE_BEHIND
        if full:
            self.flush_cache()

    def flush_cache(self) -> None:
        """Write embeddings that ``cache_put`` holds back (not durable: a cache can be recomputed)."""
        unsaved = self._unsaved_cache()
        if unsaved and not self._pool.read_only:  # a read-only file keeps no cache: it is recomputed
            rows = self._cache_rows(unsaved)
            self._pool.write(lambda conn: writes.cache_put(conn, rows), durable=False)
            self._saved_cache(unsaved)

    def _drop_unsaved(self, hashes: Sequence[str]) -> None:
        drop = set(hashes)
        with self._cache_lock:
            for key in [k for k in self._unsaved if k[1] in drop]:
                del self._unsaved[key]

    def _unsaved_cache(self) -> dict[tuple[str, str], np.ndarray]:
        with self._cache_lock:
            return dict(self._unsaved)

    def _saved_cache(self, saved: dict[tuple[str, str], np.ndarray]) -> None:
        with self._cache_lock:
            for key, vec in saved.items():
                if self._unsaved.get(key) is vec:
                    del self._unsaved[key]

    def _cache_rows(self, items: dict[tuple[str, str], np.ndarray]) -> builtins.list[tuple[object, ...]]:
        return [(model, h, *writes.vector_cells(v, self.vector_dtype, None)) for (model, h), v in items.items()]

    def state_get(self, scope: Scope, key: str) -> Any:
        """The JSON value stored under ``key``, or None."""
        text = queries.state_get(self._pool.get(), scope, key)
        return None if text is None else json.loads(text)

    def state_set(self, scope: Scope, key: str, value: Any) -> None:
        """Store ``value`` as JSON under ``key``, committed without waiting for the disk.

        State written on its own is the short-term buffer (a cache of turns whose job
        or episodes hold the truth), so it skips the fsync (~3.4 ms here); the next
        durable commit (every ``apply``) syncs it too. State that must survive with
        the records goes in ``ChangeSet.state`` and commits with them.
        """
        text = json.dumps(value, ensure_ascii=False)
        self._pool.write(lambda conn: writes.state_set(conn, scope, key, text), durable=False)

    def export_rows(self, scope: Scope) -> Iterator[dict[str, Any]]:
        """Every record of the user (all statuses) with its history, in storage order, in pages.

        Each page is read in its own short transaction, so a slow consumer never pins
        a snapshot (or blocks its own thread's writes) while it works.
        """
        after = 0
        while True:
            with self._pool.read() as conn:
                page = queries.export_page(conn, scope, after, EXPORT_PAGE)
                events = queries.history(conn, scope, [rec.id for _, rec in page])
            for _, rec in page:
                yield {**rec.to_dict(), "history": [e.to_dict() for e in events.get(rec.id, [])]}
            if len(page) < EXPORT_PAGE:
                return
            after = page[-1][0]

    def close(self) -> None:
        """Close every thread's connection; the store cannot be used afterwards."""
        self.flush_cache()
        self._pool.close()
        self._cache.close()
        self._texts.invalidate()
        self._records.invalidate()
