"""Hit recording off the request path: searches queue ids, a thread writes them in batches.

The writer lingers up to ``linger`` seconds after the first queued hit, so a busy bot
pays one write transaction (and one fsync) per interval instead of one per search;
each write would otherwise take the database's write lock and a core away from the
next search. ``flush()`` cuts the wait short. A memory hit by several searches in one
batch still counts every hit.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections import Counter

from jiyi.clock import Clock
from jiyi.records import Scope
from jiyi.stores.protocol import Store

log = logging.getLogger("jiyi.read.hits")


class HitRecorder:
    """Batches ``record_hits`` calls; a full queue drops hits rather than slow a reply."""

    def __init__(self, store: Store, clock: Clock, *, max_queue: int = 10_000, linger: float = 0.5) -> None:
        self._store, self._clock, self._linger = store, clock, linger
        self._flushing = threading.Event()
        self._queue: queue.Queue[tuple[Scope, list[str]] | None] = queue.Queue(max_queue)
        self._thread = threading.Thread(target=self._loop, name="jiyi-hits", daemon=True)
        self._thread.start()

    def record(self, scope: Scope, ids: list[str]) -> None:
        if ids:
            try:
                self._queue.put_nowait((scope, ids))
            except queue.Full:
                log.warning("hit queue full; dropping %d hits", len(ids))

    def flush(self) -> None:
        """Wait until queued hits are written (tests, shutdown)."""
        self._flushing.set()
        try:
            self._queue.join()
        finally:
            self._flushing.clear()

    def close(self) -> None:
        self._flushing.set()
        self._queue.put(None)
        self._thread.join(timeout=10)

    def _loop(self) -> None:
        while True:
            items = self._collect()
            batch: dict[Scope, Counter[str]] = {}
            for item in items:
                if item is not None:
                    batch.setdefault(item[0], Counter()).update(item[1])
            for scope, counts in batch.items():  # one write per user and batch: repeats count in it
                try:
                    self._store.record_hits(scope, list(counts.elements()), self._clock.now())
                except Exception:
                    log.exception("recording hits failed")
            for _ in items:
                self._queue.task_done()  # only now: flush() means "written"
            if items[-1] is None:
                return

    def _collect(self) -> list[tuple[Scope, list[str]] | None]:
        """The next item and whatever else arrives within the linger time (or until a flush)."""
        items = [self._queue.get()]
        deadline = time.monotonic() + self._linger
        while items[-1] is not None:
            remaining = deadline - time.monotonic()
            try:
                if remaining <= 0 or self._flushing.is_set():
                    items.append(self._queue.get_nowait())
                else:
                    items.append(self._queue.get(timeout=min(remaining, 0.05)))
            except queue.Empty:
                if remaining <= 0 or self._flushing.is_set():
                    break
        return items
