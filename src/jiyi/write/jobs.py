"""The durable write queue's worker: drains the store's jobs table in a background thread.

``add`` enqueues a job (durable once ``enqueue`` returns) and wakes the worker.
Jobs are claimed with a lease, so a crashed process's jobs are picked up again once
the lease runs out; a job that keeps failing is retried up to the store's limit, then
kept as ``failed`` (``Memory.failed_jobs()``, ``jiyi jobs list``) until it is retried or
dropped on purpose.

Isolated between users: a user's jobs run one at a time under that user's lock (one lock
per scope in the process), so a user's writes keep their order while another user's long
job (a slow LLM extraction) runs beside them, not ahead of them. A drain over many users
claims one job at a time, so it never holds another user's job claimed while it works on
a long one: a sync add, ``flush`` or ``delete_all`` of that user claims and runs its own
jobs in the caller's thread. ``stop()`` is seen between two jobs (jobs claimed but not run
go back to the queue when their lease runs out).
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from jiyi.clock import Clock
from jiyi.records import Scope, WriteEvent
from jiyi.stores.protocol import Job, Store

log = logging.getLogger("jiyi.write.jobs")
Handler = Callable[[Job], list[WriteEvent]]


class ScopeLocks:
    """One lock per scope, shared by every worker of the process; a lock lives while it is used."""

    def __init__(self) -> None:
        self._guard = threading.Lock()
        self._locks: dict[Scope, tuple[threading.Lock, int]] = {}

    @contextmanager
    def hold(self, scope: Scope) -> Iterator[None]:
        with self._guard:
            lock, users = self._locks.get(scope, (threading.Lock(), 0))
            self._locks[scope] = (lock, users + 1)
        try:
            with lock:
                yield
        finally:
            with self._guard:
                lock, users = self._locks[scope]
                if users <= 1:
                    del self._locks[scope]
                else:
                    self._locks[scope] = (lock, users - 1)


#: The process's scope locks: two Memories over one store (the server's tenants) share them.
SCOPE_LOCKS = ScopeLocks()


class JobWorker:
    """Claims and runs jobs; ``drain()`` runs them in the caller's thread, ``start()`` in a thread."""

    def __init__(self, store: Store, handler: Handler, clock: Clock, *, batch: int = 16,
                 lease_seconds: float = 60.0, poll_seconds: float = 0.5) -> None:
        self._store, self._handler, self._clock = store, handler, clock
        self._batch, self._lease, self._poll = batch, lease_seconds, poll_seconds
        self._name = f"{os.getpid()}-{id(self):x}"
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

    def stop(self, timeout: float = 10.0) -> None:
        """Stop after the job being run (waiting at most ``timeout`` seconds for it: the
        thread is a daemon, and a job cut short is redone from the queue)."""
        self._stop.set()
        self._wake.set()
        if self._thread is not None:
            self._thread.join(timeout=timeout)
            self._thread = None

    @property
    def stopping(self) -> bool:
        return self._stop.is_set()

    def drain(self, max_jobs: int | None = None, scope: Scope | None = None, tenant: str | None = None) -> int:
        """Run claimable jobs (``scope``'s only, or ``tenant``'s only, when given) until none is
        left, ``max_jobs`` ran or the worker is stopping; returns how many ran.

        One user's jobs are claimed in batches; jobs of many users one at a time, so that none
        waits claimed behind another user's long job."""
        done = 0
        while (max_jobs is None or done < max_jobs) and not self._stop.is_set():
            batch = self._batch if scope is not None else 1
            batch = batch if max_jobs is None else min(batch, max_jobs - done)
            jobs = self._store.claim_jobs(batch, self._name, self._clock.now(), self._lease, scope=scope,
                                          tenant=tenant)
            if not jobs:
                break
            for job in jobs:
                if self._stop.is_set():
                    break  # the rest go back to the queue when their lease runs out
                with SCOPE_LOCKS.hold(job.scope):
                    self._run(job)
                done += 1
        return done

    def run_inline(self, job: Job) -> list[WriteEvent]:
        """Run one job now in the caller's thread (errors propagate to the caller)."""
        with SCOPE_LOCKS.hold(job.scope):
            return self._handler(job)

    def wait_idle(self, timeout: float = 60.0, scope: Scope | None = None, tenant: str | None = None) -> bool:
        """Drain, then wait for jobs other workers hold: ``scope``'s only, or ``tenant``'s only,
        when given (a sync add waits for its own user's earlier writes, not for other users');
        False if time ran out."""
        deadline = time.monotonic() + timeout
        while True:
            self.drain(scope=scope, tenant=tenant)
            pending = self._store.pending_jobs(scope, tenant=tenant)
            if pending <= 0 or time.monotonic() > deadline or self._stop.is_set():
                return pending <= 0
            time.sleep(0.05)

    def _run(self, job: Job) -> None:
        try:
            self._handler(job)
        except Exception as exc:
            self.errors += 1
            log.exception("job %s failed (attempt %d); it will be retried", job.id, job.attempts)
            self._store.fail_job(job.id, f"{type(exc).__name__}: {exc}", self._clock.now())

    def _loop(self) -> None:
        while not self._stop.is_set():
            try:
                ran = self.drain()
            except Exception:
                log.exception("worker drain failed; retrying")
                ran = 0
            if not ran:
                self._wake.wait(self._poll)
                self._wake.clear()
