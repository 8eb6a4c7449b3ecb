"""The process's user matrices (an LRU bounded by bytes) and the thread that indexes large ones.

Every access holds one re-entrant lock, so a search, a write's patch and an index
swap never interleave. Index *building* (k-means and assignment, seconds at 100k
rows) runs outside the lock on a snapshot; only the final reorder takes it (about
0.1 s at 100k rows), and a build whose rows moved meanwhile (a compaction) is
simply redone.
"""

from __future__ import annotations

import logging
import os
import queue
import threading
from collections import OrderedDict
from collections.abc import Iterable
from pathlib import Path

import numpy as np

from jiyi.errors import EmbeddingMismatch
from jiyi.stores.sqlite import ivf
from jiyi.stores.sqlite.vectors import ANN_MIN_ROWS, CacheKey, RowMeta, UserMatrix

log = logging.getLogger("jiyi.stores.sqlite.index")
Change = tuple[RowMeta, dict[str, np.ndarray] | None, int]  # meta, vectors (None: keep), rid


class VectorCache:
    """LRU of :class:`UserMatrix` by (tenant, user, channel), plus their IVF indexes.

    ``index_dir`` is where indexes are persisted (None: in memory only).
    ``background=False`` builds indexes in the calling thread (tests, benchmarks).
    """

    def __init__(self, max_bytes: int = 512 * 1024 * 1024, *, index_dir: Path | None = None,
                 ann_min_rows: int = ANN_MIN_ROWS, background: bool = True) -> None:
        self.max_bytes = max_bytes
        self.index_dir = index_dir
        self.ann_min_rows = ann_min_rows
        self.background = background
        self.lock = threading.RLock()
        self._entries: OrderedDict[CacheKey, UserMatrix] = OrderedDict()
        self._queue: queue.Queue[CacheKey | None] = queue.Queue()
        self._queued: set[CacheKey] = set()
        self._thread: threading.Thread | None = None
        self.builds = 0

    # -- entries --------------------------------------------------------------------------------

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
        """Cache a freshly loaded matrix, reusing its persisted clusters when they still fit."""
        with self.lock:
            if matrix.live >= self.ann_min_rows:
                self._restore_clusters(key, matrix)
            self._entries[key] = matrix
            self._entries.move_to_end(key)
            total = sum(m.nbytes for m in self._entries.values())
            while total > self.max_bytes and len(self._entries) > 1:
                _, evicted = self._entries.popitem(last=False)
                total -= evicted.nbytes
            self._maybe_schedule(key, matrix)

    def apply(self, scope: tuple[str, str], old_gen: int, new_gen: int, upserts: Iterable[Change],
              removed: Iterable[str]) -> None:
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
                channel = key[2]
                rows = []
                gone = list(removed)
                for meta, vectors, rid in upserts:
                    if vectors is not None and channel not in vectors:
                        gone.append(meta.memory_id)
                    else:
                        vec = None if vectors is None else np.asarray(vectors[channel], np.float32).reshape(-1)
                        rows.append((meta, vec, rid))
                try:
                    m.upsert_many(rows)
                except EmbeddingMismatch:
                    del self._entries[key]
                    continue
                for memory_id in gone:
                    m.remove(memory_id)
                m.gen = new_gen
                self._maybe_schedule(key, m)

    def invalidate(self, scope: tuple[str, str] | None = None) -> None:
        """Forget one user's matrices, or all of them."""
        with self.lock:
            for key in list(self._entries):
                if scope is None or key[:2] == scope:
                    del self._entries[key]

    # -- indexes ----------------------------------------------------------------------------------

    def index_file(self, key: CacheKey) -> Path | None:
        return None if self.index_dir is None else ivf.index_path(self.index_dir, *key)

    def forget_indexes(self, keys: Iterable[CacheKey] | None = None) -> None:
        """Delete persisted indexes (of ``keys``, or all): a forgotten user leaves no vectors behind."""
        if self.index_dir is None or not self.index_dir.is_dir():
            return
        paths = (self.index_dir.glob("*.npz") if keys is None
                 else [p for k in keys if (p := self.index_file(k)) is not None])
        for path in paths:
            path.unlink(missing_ok=True)

    def build_index(self, key: CacheKey) -> bool:
        """Cluster ``key``'s matrix now (in this thread); False if it is gone or its rows moved meanwhile."""
        with self.lock:
            m = self._entries.get(key)
            if m is None or m.live < self.ann_min_rows:
                return False
            n, tick, layout, matrix = m.n, m.tick, m.layout, m.matrix
            alive = m.alive[:n].copy()
        vectors = matrix[:n]
        live_rows = np.flatnonzero(alive)
        centroids = ivf.train(vectors[live_rows], ivf.n_clusters(len(live_rows)))
        labels = ivf.assign(vectors, centroids)
        with self.lock:
            if self._entries.get(key) is not m or m.layout != layout:
                return False
            labels = np.concatenate([labels, np.full(m.n - n, -1, dtype=np.int32)])
            labels[: n][m.vtick[:n] > tick] = -1  # vector rewritten after the snapshot
            m.install_clusters(centroids, labels)
            end = m.clusters.end if m.clusters is not None else 0
            saved = (centroids, m.rid[:end].copy(), m.label[:end].copy(), ivf.fingerprints(m.matrix[:end]))
            self.builds += 1
        path = self.index_file(key)
        if path is not None:
            try:
                ivf.save(path, *saved)
            except OSError as exc:
                log.warning("could not persist the vector index at %s: %s", path, exc)
            with self.lock:
                if self._entries.get(key) is not m:  # the user was forgotten while we saved
                    path.unlink(missing_ok=True)
        return True

    def _restore_clusters(self, key: CacheKey, m: UserMatrix) -> None:
        path = self.index_file(key)
        saved = ivf.load(path, m.dim) if path is not None and path.is_file() else None
        if saved is None:
            return
        labels = ivf.labels_from_file(saved, m.rid[: m.n], m.matrix[: m.n])
        if np.count_nonzero(labels >= 0) * 2 >= m.live:
            m.install_clusters(saved[0], labels)

    def _maybe_schedule(self, key: CacheKey, m: UserMatrix) -> None:
        if not m.needs_index(self.ann_min_rows):
            if m.clusters is not None and m.live < self.ann_min_rows // 2:
                m.drop_clusters()
            return
        if not self.background:
            self.build_index(key)
            return
        if key in self._queued:
            return
        self._queued.add(key)
        self._queue.put(key)
        if self._thread is None or not self._thread.is_alive():
            self._thread = threading.Thread(target=self._run, name="jiyi-vector-index", daemon=True)
            self._thread.start()

    def _run(self) -> None:
        _lower_priority()
        while True:
            key = self._queue.get()
            if key is None:
                return
            with self.lock:
                self._queued.discard(key)
            try:
                self.build_index(key)
            except Exception:
                log.exception("building a vector index failed; searches stay exact")
            finally:
                self._queue.task_done()

    def wait_for_indexes(self) -> None:
        """Block until queued builds are done (benchmarks, tests)."""
        self._queue.join()

    def close(self) -> None:
        if self._thread is not None and self._thread.is_alive():
            self._queue.put(None)
            self._thread.join(timeout=30)
        self._thread = None
        self.invalidate()


def _lower_priority() -> None:
    """Index builds yield the CPU to searches and writes (Linux: per-thread nice)."""
    try:
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), 10)
    except (AttributeError, OSError):
        pass
