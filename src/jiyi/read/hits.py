"""Hit recording off the request path: searches queue ids, a thread writes them in batches."""

from __future__ import annotations

import logging
import queue
import threading

from jiyi.clock import Clock
from jiyi.records import Scope
from jiyi.stores.protocol import Store

log = logging.getLogger("jiyi.read.hits")


class HitRecorder:
    """Batches ``record_hits`` calls; a full queue drops hits rather than slow a reply."""

    def __init__(self, store: Store, clock: Clock, *, max_queue: int = 10_000) -> None:
        self._store, self._clock = store, clock
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
        self._queue.join()

    def close(self) -> None:
        self._queue.put(None)
        self._thread.join(timeout=10)

    def _loop(self) -> None:
        while True:
            items = [self._queue.get()]
            while items[-1] is not None:
                try:
                    items.append(self._queue.get_nowait())
                except queue.Empty:
                    break
            batch: dict[Scope, list[str]] = {}
            for item in items:
                if item is not None:
                    batch.setdefault(item[0], []).extend(item[1])
            for scope, ids in batch.items():
                try:
                    self._store.record_hits(scope, ids, self._clock.now())
                except Exception:  # noqa: BLE001 - usage stats must never break recall
                    log.exception("recording hits failed")
            for _ in items:
                self._queue.task_done()  # only now: flush() means "written"
            if items[-1] is None:
                return
