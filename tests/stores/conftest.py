"""Fixtures for the store tests: one ``store`` fixture over every backend, and test data builders.

To run the contract suite against another backend, add one entry to :data:`BACKENDS`:
a function ``(request, tmp_path) -> Store`` that returns an open, empty store. It may
pull session fixtures through ``request.getfixturevalue`` (a PostgreSQL server, say).
Nothing else changes; ``test_contract.py`` only talks to the ``Store`` protocol.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from pg_server import make_postgres, pg_server  # noqa: F401  (pg_server: the session's PostgreSQL)

from jiyi.records import EventType, HistoryEvent, Kind, MemoryRecord, Scope
from jiyi.stores.protocol import ChangeSet, Store, Upsert

T0 = datetime(2025, 3, 5, 9, 0, tzinfo=timezone.utc)
DIM = 8


def make_sqlite(request: pytest.FixtureRequest, tmp_path: Path) -> Store:
    from jiyi.stores.sqlite.store import SQLiteStore

    return SQLiteStore(tmp_path / "store.db")


#: backend name → factory. The ``store`` fixture is parametrized over these keys.
BACKENDS: dict[str, Callable[[pytest.FixtureRequest, Path], Store]] = {
    "sqlite": make_sqlite,
    "postgres": make_postgres,
}


@pytest.fixture(params=list(BACKENDS))
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Store]:
    """An open, empty store of each registered backend, closed after the test."""
    opened = BACKENDS[request.param](request, tmp_path)
    assert isinstance(opened, Store)
    yield opened
    opened.close()


class Data:
    """Builds records, vectors and change sets with defaults, so tests show only what matters."""

    alice = Scope("acme", "alice")
    bob = Scope("acme", "bob")
    alice_elsewhere = Scope("globex", "alice")  # same user id, other tenant
    t0 = T0
    dim = DIM

    def at(self, minutes: float = 0, days: float = 0) -> datetime:
        return self.t0 + timedelta(minutes=minutes, days=days)

    def record(
        self, id: str, content: str | None = None, scope: Scope | None = None, **kw: Any
    ) -> MemoryRecord:
        """A record owned by ``scope`` (Alice by default); ``minute=`` sets created_at relative to t0."""
        scope = scope or self.alice
        created = self.at(kw.pop("minute", 0))
        kw.setdefault("kind", Kind.FACT)
        return MemoryRecord(
            id=id,
            tenant=scope.tenant,
            user_id=scope.user_id,
            content=content or f"memory {id}",
            created_at=kw.pop("created_at", created),
            updated_at=kw.pop("updated_at", created),
            **kw,
        )

    def vec(self, *weights: float) -> np.ndarray:
        """A unit vector whose first components are ``weights`` (so cosines are easy to reason about)."""
        v = np.zeros(self.dim, dtype=np.float32)
        v[: len(weights)] = weights
        return v / np.linalg.norm(v)

    def upsert(
        self,
        rec: MemoryRecord,
        vec: np.ndarray | None = None,
        keywords: str | None = None,
        **channels: np.ndarray,
    ) -> Upsert:
        vectors = dict(channels)
        if vec is not None:
            vectors["content"] = vec
        return Upsert(rec, vectors or None, keywords)

    def put(
        self,
        store: Store,
        *upserts: Upsert | MemoryRecord,
        history: bool = True,
        job: str | None = None,
    ) -> None:
        """Apply records (bare or as Upserts) of one scope in one change set, with an ADD event each."""
        ups = [u if isinstance(u, Upsert) else Upsert(u) for u in upserts]
        scope = ups[0].record.scope
        events = [
            HistoryEvent(EventType.ADD, u.record.id, u.record.created_at, new=u.record.content)
            for u in ups
        ]
        store.apply(ChangeSet(scope, ups, events if history else [], done_job_id=job))


@pytest.fixture
def data() -> Data:
    return Data()
