"""One ``Memory`` per tenant, all sharing one store, one embedding model and one extractor.

A ``Memory`` is bound to a single tenant. The server opens the configured tenant's
Memory at start (this loads the model and opens the store, so a bad configuration
fails at start rather than on the first request) and opens the others on first use,
handing them the same store, embedder and extractor objects: one model in RAM, one
connection pool.

The shared store belongs to the pool: tenant Memories get it wrapped so that their
``close()`` leaves it open, and the pool closes it once, last.

The in-process worker is the primary Memory's own background worker. Jobs carry their
tenant and user, so one worker drains the queue of every tenant.
"""

from __future__ import annotations

import threading
from typing import Any, cast

from jiyi.clock import Clock
from jiyi.config import Settings
from jiyi.memory import Memory
from jiyi.stores.protocol import Store


class _BorrowedStore:
    """A store handed to a tenant Memory: everything passes through except ``close``."""

    def __init__(self, store: Store) -> None:
        self._store = store

    def __getattr__(self, name: str) -> Any:
        return getattr(self._store, name)

    def close(self) -> None:
        """The pool closes the real store once every tenant is done with it."""


class TenantPool:
    """Lazily built, thread-safe map tenant → Memory."""

    def __init__(self, settings: Settings, *, clock: Clock | None = None, worker: bool = False) -> None:
        self.settings = settings
        self.clock = clock
        self.worker = worker
        self._lock = threading.Lock()
        self._memories: dict[str, Memory] = {}
        self._primary: Memory | None = None

    def open(self) -> Memory:
        """Open the configured tenant's Memory (and the worker, when asked); idempotent."""
        with self._lock:
            if self._primary is None:
                config = {**self.settings.model_dump(), "background_worker": self.worker}
                self._primary = Memory(clock=self.clock, **config)
                self._memories[self.settings.tenant] = self._primary
            return self._primary

    def get(self, tenant: str) -> Memory:
        """The Memory of ``tenant``, opened on first use."""
        mem = self._memories.get(tenant)
        if mem is not None:
            return mem
        primary = self.open()
        with self._lock:
            mem = self._memories.get(tenant)
            if mem is None:
                config = {**self.settings.model_dump(), "tenant": tenant, "background_worker": False}
                mem = Memory(clock=self.clock, store=cast(Store, _BorrowedStore(primary.store)),
                             embedder=primary.embedder.inner, extractor=primary.extractor, **config)
                self._memories[tenant] = mem
            return mem

    @property
    def store(self) -> Store | None:
        return self._primary.store if self._primary is not None else None

    def tenants(self) -> list[str]:
        return sorted(self._memories)

    def pending_jobs(self) -> int:
        """Queue depth across every tenant (0 before the store is open)."""
        return self._primary.store.pending_jobs() if self._primary is not None else 0

    def failed_jobs(self) -> int:
        return self._primary.store.failed_jobs() if self._primary is not None else 0

    def close(self) -> None:
        """Close tenant Memories first, then the primary one, which closes the shared store."""
        with self._lock:
            others = [m for m in self._memories.values() if m is not self._primary]
            primary, self._primary = self._primary, None
            self._memories.clear()
        for mem in others:
            mem.close()
        if primary is not None:
            primary.close()
