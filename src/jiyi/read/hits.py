"""Hit recording off the request path: searches list ids, a thread writes them in batches.

A search appends its ids to a per-user list (~1 µs); the writer lingers up to ``linger``
seconds after the first hit of a batch, so a busy bot pays one write transaction per user
and interval instead of one per search, then takes the lists whole and hands each to
``record_hits``, which counts the repeats once. Keeping the writer's own Python short
matters: whatever it runs between its SQLite calls holds the GIL against the searches
beside it (counting a batch of ~180 searches there took ~0.3 ms). ``flush()`` cuts the
wait short. A memory hit by several searches in one batch still counts every hit.
"""

from __future__ import annotations

import logging
import threading
import time

from jiyi.clock import Clock
from jiyi.records import Scope
from jiyi.stores.protocol import Store

log = logging.getLogger("jiyi.read.hits")


class HitRecorder:
    """Batches ``record_hits`` calls; past ``max_pending`` uncounted hits it drops them rather than slow a reply."""

    def __init__(self, store: Store, clock: Clock, *, max_pending: int = 100_000, linger: float = 0.5) -> None:
        self._store, self._clock, self._linger, self._max = store, clock, linger, max_pending
        self._cond = threading.Condition()
        self._pending: dict[Scope, list[str]] = {}
        self._count = 0  # hits in ``_pending``
        self._first = 0.0  # when the oldest of them arrived (monotonic)
        self._added = self._written = 0  # record() calls accepted / written (or failed) so far
        self._flushing = self._closing = False
        self._thread = threading.Thread(target=self._loop, name="jiyi-hits", daemon=True)
        self._thread.start()

    @property
    def linger(self) -> float:
        """Seconds a batch waits after its first hit before it is written."""
        return self._linger

    def record(self, scope: Scope, ids: list[str]) -> None:
        if not ids:
            return
        with self._cond:
            if self._closing:
                return
            if self._count + len(ids) > self._max:
                log.warning("hit buffer full; dropping %d hits", len(ids))
                return
            if not self._pending:
                self._first = time.monotonic()
                self._cond.notify_all()
            self._pending.setdefault(scope, []).extend(ids)
            self._count += len(ids)
            self._added += 1

    def flush(self) -> None:
        """Wait until the hits recorded so far are written (tests, shutdown)."""
        with self._cond:
            target = self._added
            self._flushing = True
            self._cond.notify_all()
            try:
                while self._written < target and self._thread.is_alive():
                    self._cond.wait(0.1)
            finally:
                self._flushing = False

    def close(self) -> None:
        """Write what is pending, then stop the thread."""
        with self._cond:
            self._closing = True
            self._cond.notify_all()
        self._thread.join(timeout=10)

    def _loop(self) -> None:
        while True:
            batch, added = self._next_batch()
            for scope, ids in batch.items():  # one write per user and batch: repeats count in it
                try:
                    self._store.record_hits(scope, ids, self._clock.now())
                except Exception:
                    log.exception("recording hits failed")
            with self._cond:
                self._written = added  # only now: flush() means "written"
                self._cond.notify_all()
                if self._closing and not self._pending:
                    return

    def _next_batch(self) -> tuple[dict[Scope, list[str]], int]:
        """The lists once the oldest hit has lingered (or a flush or close asks), and the calls they hold."""
        with self._cond:
            while not self._pending and not self._closing:
                self._cond.wait()
            while not (self._flushing or self._closing):
                remaining = self._first + self._linger - time.monotonic()
                if remaining <= 0:
                    break
                self._cond.wait(remaining)
            batch, self._pending, self._count = self._pending, {}, 0
            return batch, self._added
