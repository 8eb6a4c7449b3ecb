"""The durable write queue's worker: drains the store's jobs table in a background thread.

``add`` enqueues a job (durable once ``enqueue`` returns) and wakes the worker.
Jobs are claimed with a lease, so a crashed process's jobs are picked up again once
the lease runs out; a job that keeps failing is retried up to the store's limit.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections.abc import Callable

from jiyi.clock import Clock
from jiyi.records import WriteEvent
from jiyi.stores.protocol import Job, Store

log = logging.getLogger("jiyi.write.jobs")
Handler = Callable[[Job], list[WriteEvent]]


class JobWorker:
    """Claims and runs jobs; ``drain()`` runs them in the caller's thread, ``start()`` in a thread."""

    def __init__(self, store: Store, handler: Handler, clock: Clock, *, batch: int = 16,
                 lease_seconds: float = 60.0, poll_seconds: float = 0.5) -> None:
        self._store, self._handler, self._clock = store, handler, clock
        self._batch, self._lease, self._poll = batch, lease_seconds, poll_seconds
        self._name = f"{os.getpid()}-{id(self):x}"
        self._lock = threading.Lock()  # one drain at a time per process keeps per-user order
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.errors = 0

    def start(self) -> None:
        if self._thread is None:
            self._thread = threading.Thread(target=self._loop, name="jiyi-worker", daemon=True)
            self._thread.start()

    def wake(self) -> None:
        self._wake.set()

    def stop(self) -> None:
        self._stop.set()
        self._wake.set()
        if self._thread is not None:
            self._thread.join(timeout=30)
            self._thread = None

    def drain(self, max_jobs: int | None = None) -> int:
        """Run claimable jobs until none is left (or ``max_jobs`` ran); returns how many ran."""
        done = 0
        with self._lock:
            while max_jobs is None or done < max_jobs:
                jobs = self._store.claim_jobs(self._batch, self._name, self._clock.now(), self._lease)
                if not jobs:
                    break
                for job in jobs:
                    self._run(job)
                    done += 1
        return done

    def run_inline(self, job: Job) -> list[WriteEvent]:
        """Run one job now in the caller's thread (errors propagate to the caller)."""
        with self._lock:
            return self._handler(job)

    def wait_idle(self, timeout: float = 60.0) -> bool:
        """Drain, then wait for jobs other workers hold; False if time ran out."""
        deadline = time.monotonic() + timeout
        while True:
            self.drain()
            pending = self._store.pending_jobs()
            if pending <= 0 or time.monotonic() > deadline:
                return pending <= 0
            time.sleep(0.05)

    def _run(self, job: Job) -> None:
        try:
            self._handler(job)
        except Exception as exc:  # noqa: BLE001 - any failure must go back to the queue, not vanish
            self.errors += 1
            log.exception("job %s failed (attempt %d); it will be retried", job.id, job.attempts)
            self._store.fail_job(job.id, f"{type(exc).__name__}: {exc}", self._clock.now())

    def _loop(self) -> None:
        while not self._stop.is_set():
            try:
                ran = self.drain()
            except Exception:  # noqa: BLE001 - the worker must survive a store hiccup
                log.exception("worker drain failed; retrying")
                ran = 0
            if not ran:
                self._wake.wait(self._poll)
                self._wake.clear()
