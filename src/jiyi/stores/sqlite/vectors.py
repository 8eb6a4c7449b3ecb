"""Exact vector search over one user's vectors, kept in memory as a float32 matrix.

Personal memory stores are small per user (hundreds to tens of thousands of rows),
so brute-force cosine over a contiguous matrix is both exact and faster than an ANN
index at that size. The matrix is loaded once per (tenant, user, channel), updated
in place by every ``apply`` of this process, and trusted only while the user's
generation number in the database equals the one it was built at: a write from
another process bumps the number and the next search reloads. Filters are numpy
masks over per-row columns kept next to the matrix, never SQL per row.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

import numpy as np

from jiyi.clock import ensure_utc
from jiyi.errors import EmbeddingMismatch
from jiyi.records import Kind, MemoryRecord, Status, Visibility
from jiyi.stores.protocol import RecordFilter

_KIND_CODE = {k: i for i, k in enumerate(Kind)}
_STATUS_CODE = {s: i for i, s in enumerate(Status)}
CacheKey = tuple[str, str, str]  # tenant, user_id, channel


@dataclass(slots=True, frozen=True)
class RowMeta:
    """The fields of a memory that a vector-search filter may look at."""

    memory_id: str
    kind: Kind
    status: Status
    sensitive: bool
    session_id: str | None
    agent_id: str | None
    created_ts: float

    @classmethod
    def of(cls, rec: MemoryRecord) -> RowMeta:
        return cls(
            rec.id,
            rec.kind,
            rec.status,
            rec.visibility is Visibility.SENSITIVE,
            rec.session_id,
            rec.agent_id,
            ensure_utc(rec.created_at).timestamp(),
        )


class UserMatrix:
    """One user's vectors of one channel plus filter columns; rows are tombstoned, not shifted."""

    def __init__(self, dim: int, gen: int, capacity: int = 16) -> None:
        self.dim = dim
        self.gen = gen
        self.n = 0
        self.ids: list[str] = []
        self.index: dict[str, int] = {}
        self.matrix = np.zeros((capacity, dim), dtype=np.float32)
        self.alive = np.zeros(capacity, dtype=bool)
        self.kind = np.zeros(capacity, dtype=np.int8)
        self.status = np.zeros(capacity, dtype=np.int8)
        self.sensitive = np.zeros(capacity, dtype=bool)
        self.session = np.full(capacity, -1, dtype=np.int32)
        self.agent = np.full(capacity, -1, dtype=np.int32)
        self.created = np.zeros(capacity, dtype=np.float64)
        self._codes: dict[str, int] = {}

    @classmethod
    def build(cls, dim: int, gen: int, rows: list[tuple[RowMeta, np.ndarray]]) -> UserMatrix:
        """A matrix holding ``rows``, filled column-wise (a user's first search pays this once)."""
        m = cls(dim, gen, capacity=max(16, len(rows)))
        if not rows:
            return m
        m.n = len(rows)
        m.ids = [meta.memory_id for meta, _ in rows]
        m.index = {mid: i for i, mid in enumerate(m.ids)}
        m.matrix[: m.n] = np.stack([vec for _, vec in rows])
        m.alive[: m.n] = True
        m.kind[: m.n] = [_KIND_CODE[meta.kind] for meta, _ in rows]
        m.status[: m.n] = [_STATUS_CODE[meta.status] for meta, _ in rows]
        m.sensitive[: m.n] = [meta.sensitive for meta, _ in rows]
        m.session[: m.n] = [m._code(meta.session_id) for meta, _ in rows]
        m.agent[: m.n] = [m._code(meta.agent_id) for meta, _ in rows]
        m.created[: m.n] = [meta.created_ts for meta, _ in rows]
        return m

    @property
    def nbytes(self) -> int:
        return int(self.matrix.nbytes) + 32 * len(self.alive)

    def upsert(self, meta: RowMeta, vector: np.ndarray | None) -> None:
        """Set a row's filter columns, and its vector when given (a new id needs one)."""
        row = self.index.get(meta.memory_id)
        if row is None:
            if vector is None:
                return
            row = self._append(meta.memory_id)
        if vector is not None:
            if vector.shape[0] != self.dim:
                raise EmbeddingMismatch(
                    f"vector of dimension {vector.shape[0]} in a matrix of {self.dim}"
                )
            self.matrix[row] = vector
        self.kind[row] = _KIND_CODE[meta.kind]
        self.status[row] = _STATUS_CODE[meta.status]
        self.sensitive[row] = meta.sensitive
        self.session[row] = self._code(meta.session_id)
        self.agent[row] = self._code(meta.agent_id)
        self.created[row] = meta.created_ts

    def remove(self, memory_id: str) -> None:
        row = self.index.pop(memory_id, None)
        if row is not None:
            self.alive[row] = False
        if self.n > 64 and len(self.index) < self.n // 2:
            self._compact()

    def search(self, query: np.ndarray, k: int, flt: RecordFilter) -> list[tuple[str, float]]:
        """Top ``k`` ids by dot product (= cosine: vectors are normalised) among rows passing ``flt``."""
        if query.shape[0] != self.dim:
            raise EmbeddingMismatch(
                f"query vector has dimension {query.shape[0]} but stored vectors have {self.dim}; "
                "open the store with the embedder it was built with, or run `jiyi reembed`"
            )
        mask = self._mask(flt)
        candidates = int(mask.sum())
        if k <= 0 or candidates == 0:
            return []
        scores = self.matrix[: self.n] @ query
        scores[~mask] = -np.inf
        k = min(k, candidates)
        top = np.argpartition(-scores, k - 1)[:k]
        top = top[np.argsort(-scores[top], kind="stable")]
        return [(self.ids[i], float(scores[i])) for i in top]

    def _mask(self, flt: RecordFilter) -> np.ndarray:
        n = self.n
        mask = self.alive[:n].copy()
        if flt.kinds is not None:
            mask &= np.isin(self.kind[:n], [_KIND_CODE[k] for k in flt.kinds])
        if flt.statuses is not None:
            mask &= np.isin(self.status[:n], [_STATUS_CODE[s] for s in flt.statuses])
        if not flt.include_sensitive:
            mask &= ~self.sensitive[:n]
        if flt.session_id is not None:
            mask &= self.session[:n] == self._codes.get(flt.session_id, -2)
        if flt.agent_id is not None:
            mask &= self.agent[:n] == self._codes.get(flt.agent_id, -2)
        if flt.created_after is not None:
            mask &= self.created[:n] >= _ts(flt.created_after)
        if flt.created_before is not None:
            mask &= self.created[:n] < _ts(flt.created_before)
        return mask

    def _code(self, value: str | None) -> int:
        if value is None:
            return -1
        return self._codes.setdefault(value, len(self._codes))

    def _append(self, memory_id: str) -> int:
        if self.n == len(self.alive):
            self._resize(max(16, 2 * self.n))
        row = self.n
        self.n += 1
        self.ids.append(memory_id)
        self.index[memory_id] = row
        self.alive[row] = True
        return row

    def _resize(self, capacity: int) -> None:
        """Grow or shrink every column to ``capacity`` rows (amortised doubling on append)."""
        for name in (
            "matrix",
            "alive",
            "kind",
            "status",
            "sensitive",
            "session",
            "agent",
            "created",
        ):
            old = getattr(self, name)
            new = np.zeros((capacity, *old.shape[1:]), dtype=old.dtype)
            keep = min(len(old), capacity)
            new[:keep] = old[:keep]
            setattr(self, name, new)

    def _compact(self) -> None:
        """Drop tombstoned rows once they are the majority, so searches stop paying for them."""
        live = np.flatnonzero(self.alive[: self.n])
        for name in (
            "matrix",
            "alive",
            "kind",
            "status",
            "sensitive",
            "session",
            "agent",
            "created",
        ):
            col = getattr(self, name)
            col[: len(live)] = col[live]
        self.ids = [self.ids[i] for i in live]
        self.index = {mid: i for i, mid in enumerate(self.ids)}
        self.n = len(live)
        self.alive[self.n :] = False
        self._resize(max(16, 2 * self.n))


def _ts(dt: datetime) -> float:
    return ensure_utc(dt).timestamp()


class VectorCache:
    """Process-wide LRU of :class:`UserMatrix`, bounded by bytes; every access holds one lock."""

    def __init__(self, max_bytes: int = 512 * 1024 * 1024) -> None:
        self.max_bytes = max_bytes
        self.lock = threading.RLock()
        self._entries: OrderedDict[CacheKey, UserMatrix] = OrderedDict()

    def get(self, key: CacheKey, gen: int) -> UserMatrix | None:
        """The cached matrix if built at generation ``gen``; otherwise it is stale and dropped."""
        with self.lock:
            m = self._entries.get(key)
            if m is None:
                return None
            if m.gen != gen:
                del self._entries[key]
                return None
            self._entries.move_to_end(key)
            return m

    def put(self, key: CacheKey, matrix: UserMatrix) -> None:
        with self.lock:
            self._entries[key] = matrix
            self._entries.move_to_end(key)
            total = sum(m.nbytes for m in self._entries.values())
            while total > self.max_bytes and len(self._entries) > 1:
                _, evicted = self._entries.popitem(last=False)
                total -= evicted.nbytes

    def apply(
        self,
        scope: tuple[str, str],
        old_gen: int,
        new_gen: int,
        upserts: Iterable[tuple[RowMeta, dict[str, np.ndarray] | None]],
        removed: Iterable[str],
    ) -> None:
        """Replay a committed change set on this user's cached matrices.

        Only a matrix built at ``old_gen`` saw every write before this one; any other
        (another process wrote in between) is dropped and reloads on the next search.
        ``vectors`` of None keep a row's vector; a dict replaces the record's vectors,
        so a channel missing from it loses the row.
        """
        with self.lock:
            upserts, removed = list(upserts), list(removed)
            for key in [k for k in self._entries if k[:2] == scope]:
                m = self._entries[key]
                if m.gen == new_gen:  # loaded after this commit: it already holds it
                    continue
                if m.gen != old_gen:
                    del self._entries[key]
                    continue
                try:
                    for meta, vectors in upserts:
                        if vectors is not None and key[2] not in vectors:
                            m.remove(meta.memory_id)
                        else:
                            vec = (
                                None
                                if vectors is None
                                else np.asarray(vectors[key[2]], dtype=np.float32).reshape(-1)
                            )
                            m.upsert(meta, vec)
                    for memory_id in removed:
                        m.remove(memory_id)
                except EmbeddingMismatch:
                    del self._entries[key]
                    continue
                m.gen = new_gen

    def invalidate(self, scope: tuple[str, str] | None = None) -> None:
        """Forget one user's matrices, or all of them."""
        with self.lock:
            for key in list(self._entries):
                if scope is None or key[:2] == scope:
                    del self._entries[key]
