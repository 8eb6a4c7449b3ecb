"""One ``Memory`` per tenant, all sharing one store, one embedding model and one extractor.

A ``Memory`` is bound to a single tenant. The server opens the configured tenant's
Memory at start (this loads the model and opens the store, so a bad configuration
fails at start rather than on the first request) and opens the others on first use,
handing them the same store, embedder and extractor objects: one model in RAM, one
connection pool.

The shared store belongs to the pool: tenant Memories get it wrapped so that their
``close()`` leaves it open, and the pool closes it once, last. The parts are built
here with the registry, exactly as ``Memory`` builds them, so that every tenant gets
the same objects.

The in-process worker is the configured tenant's Memory's own background worker. Jobs carry their
tenant and user, so one worker drains the queue of every tenant.
"""

from __future__ import annotations

import threading
from typing import Any, cast

from jiyi import registry
from jiyi.clock import Clock
from jiyi.config import Settings
from jiyi.extractors.protocol import Extractor
from jiyi.memory import Memory
from jiyi.stores.protocol import Store
from jiyi.text.tokens import warm as warm_tokenizers


class _BorrowedStore:
    """A store handed to a tenant Memory: everything passes through except ``close``."""

    def __init__(self, store: Store) -> None:
        self._store = store

    def __getattr__(self, name: str) -> Any:
        return getattr(self._store, name)

    def close(self) -> None:
        """The pool closes the real store once every tenant is done with it."""


#: Settings fields that name a component; ``Memory`` receives the built objects instead.
_COMPONENTS = ("store", "embedder", "extractor")


class Engine:
    """The shared, expensive parts: one store (connection pool), one model, one extractor, one LLM client."""

    def __init__(self, store: Store, embedder: Any, extractor: Extractor) -> None:
        self.store, self.embedder, self.extractor = store, embedder, extractor
        self.llm: Any = None  # the first Memory's LLM client (if one is configured), lent to the others

    @classmethod
    def build(cls, settings: Settings) -> Engine:
        """Build each part the way ``Memory`` would from the same settings."""
        store = registry.create("store", settings.store_backend(), settings)
        try:
            engine = cls(store, registry.create("embedder", settings.embedder, settings),
                         registry.create("extractor", settings.extractor, settings))
        except BaseException:
            store.close()
            raise
        warm_tokenizers()  # (not on the first request: jieba's dictionary takes ~0.5 s to load)
        return engine

    def memory(self, settings: Settings, *, tenant: str | None = None, background_worker: bool = False,
               clock: Clock | None = None) -> Memory:
        """A Memory for ``tenant`` over the shared parts; closing it leaves the store open."""
        config = {k: v for k, v in settings.model_dump().items() if k not in _COMPONENTS}
        config.update(tenant=tenant or settings.tenant, background_worker=background_worker)
        mem = Memory(clock=clock, store=cast(Store, _BorrowedStore(self.store)), embedder=self.embedder,
                     extractor=self.extractor, llm=self.llm, **config)
        if self.llm is None:
            self.llm = mem.llm
        return mem


class TenantPool:
    """Lazily built, thread-safe map tenant → Memory over one shared :class:`Engine`."""

    def __init__(self, settings: Settings, *, clock: Clock | None = None, worker: bool = False) -> None:
        self.settings = settings
        self.clock = clock
        self.worker = worker
        self._lock = threading.Lock()
        self._memories: dict[str, Memory] = {}
        self._engine: Engine | None = None

    def open(self) -> Engine:
        """Open the store and model and the configured tenant's Memory (running the worker, when
        asked); idempotent."""
        with self._lock:
            if self._engine is None:
                engine = Engine.build(self.settings)
                try:
                    self._memories[self.settings.tenant] = engine.memory(
                        self.settings, background_worker=self.worker, clock=self.clock)
                except BaseException:
                    engine.store.close()
                    raise
                self._engine = engine
            return self._engine

    def get(self, tenant: str) -> Memory:
        """The Memory of ``tenant``, opened on first use."""
        mem = self._memories.get(tenant)
        if mem is not None:
            return mem
        engine = self.open()
        with self._lock:
            mem = self._memories.get(tenant)
            if mem is None:
                mem = engine.memory(self.settings, tenant=tenant, clock=self.clock)
                self._memories[tenant] = mem
            return mem

    def tenants(self) -> list[str]:
        return sorted(self._memories)

    def pending_jobs(self) -> int:
        """Queue depth across every tenant (0 before the store is open)."""
        return self._engine.store.pending_jobs() if self._engine is not None else 0

    def failed_jobs(self) -> int:
        return self._engine.store.failed_jobs() if self._engine is not None else 0

    def close(self) -> None:
        """Close every tenant's Memory (stopping the worker), then the shared store."""
        with self._lock:
            memories, engine = list(self._memories.values()), self._engine
            self._memories.clear()
            self._engine = None
        for mem in memories:
            mem.close()
        if engine is not None:
            engine.store.close()
