"""Round trips as a property: whatever state the engine reaches, ``export`` → ``import_`` into a
fresh store gives back every record as it was (content, kind, slot, times, strength, hits,
visibility, history, sealed values, sessions), on SQLite and PostgreSQL.

Hypothesis draws a program of adds, remembers, searches, updates, deletes, restores, clock
steps, gc runs and re-embeds (with the hashing embedder, switching dimension, so a re-embed
really rewrites the vectors); the program runs on a fresh store, every user is exported,
imported into another fresh store, and exported again. Bounded and seeded.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from pg_server import PgServer, create_schema, drop_schema, pg_server  # noqa: F401

from jiyi.clock import FrozenClock
from jiyi.embedders.hashing import HashingEmbedder
from jiyi.errors import InvalidInput, NotFound
from jiyi.maintain.reembed import reembed
from jiyi.memory import Memory
from jiyi.privacy.seal import SEALED_KEY, generate_key
from jiyi.records import MemoryRecord, Scope
from jiyi.stores.protocol import Store
from jiyi.write.embed import CachedEmbedder

T0 = datetime(2026, 2, 3, 10, 0, tzinfo=timezone.utc)
KEY = generate_key()
USERS = ("ana", "bo")
SAYINGS = (  # written for this test; secrets and contacts included so sealing is exercised
    "I just adopted a grey cat called Pebble",
    "My wifi password is quartz-lemon-8841",
    "我下个月搬去成都工作",
    "I prefer green tea over coffee in the morning",
    "我的手机号是 13912345678",
    "My card PIN is 4721, keep it safe",
    "We are flying to Lisbon on March 14",
    "我不吃香菜",
    "ok thanks",
    "Actually I moved from Berlin to Oslo last week",
)
QUERIES = ("what pet do I have", "wifi password", "搬去哪里", "tea or coffee", "手机号", "trip")

op = st.one_of(
    st.tuples(st.just("add"), st.sampled_from(USERS), st.sampled_from(SAYINGS), st.sampled_from([None, "s1", "s2"])),
    st.tuples(st.just("remember"), st.sampled_from(USERS), st.sampled_from(SAYINGS),
              st.sampled_from([None, "preference", "event"])),
    st.tuples(st.just("search"), st.sampled_from(USERS), st.sampled_from(QUERIES), st.integers(1, 3)),
    st.tuples(st.just("update"), st.sampled_from(USERS), st.integers(0, 20), st.sampled_from(SAYINGS)),
    st.tuples(st.just("delete"), st.sampled_from(USERS), st.integers(0, 20), st.booleans()),
    st.tuples(st.just("restore"), st.sampled_from(USERS), st.integers(0, 20), st.none()),
    st.tuples(st.just("wait"), st.none(), st.integers(1, 400), st.none()),
    st.tuples(st.just("reply"), st.sampled_from(USERS), st.sampled_from(SAYINGS), st.sampled_from(["s1", "s2"])),
    st.tuples(st.just("end"), st.sampled_from(USERS), st.sampled_from(["s1", "s2"]), st.none()),
    st.tuples(st.just("gc"), st.none(), st.none(), st.none()),
    st.tuples(st.just("reembed"), st.none(), st.none(), st.none()),
)
programs = st.lists(op, min_size=3, max_size=24)
PROPS = settings(max_examples=50, derandomize=True, deadline=None, database=None,
                 suppress_health_check=list(HealthCheck))

StoreMaker = Callable[[], Store]


class Engine:
    """A Memory over a store it does not own, reopened when a re-embed switches the model."""

    def __init__(self, store: Store, clock: FrozenClock, home: Path) -> None:
        self.store, self.clock, self.home, self.dim = store, clock, home, 256
        self.mem = self._open()

    def _open(self) -> Memory:
        return Memory(store=self.store, embedder=HashingEmbedder(self.dim), clock=self.clock, home=self.home,
                      background_worker=False, encryption_key=KEY)

    def reembed(self) -> None:
        self.mem.close()
        self.dim = 128 if self.dim == 256 else 256
        reembed(self.store, CachedEmbedder(HashingEmbedder(self.dim), self.store))
        self.mem = self._open()

    def ids(self, user: str) -> list[str]:
        return sorted(r["id"] for r in self.mem.export(user_id=user))


def run(engine: Engine, program: list[tuple[Any, ...]]) -> None:
    for name, user, a, b in program:
        mem = engine.mem
        if name == "add":
            mem.add(a, user_id=user, session_id=b, sync=True)
        elif name == "reply":
            mem.add([{"role": "user", "content": a}, {"role": "assistant", "content": f"Noted: {a}"}],
                    user_id=user, session_id=b, sync=True)
        elif name == "end":
            mem.end_session(user_id=user, session_id=a)
        elif name == "remember":
            mem.remember(a, user_id=user, kind=b, session_id="s1")
        elif name == "search":
            mem.search(a, user_id=user, limit=b)
        elif name == "wait":
            engine.clock.set(engine.clock.now() + timedelta(days=a))
        elif name == "gc":
            mem.gc(dry_run=False)
        elif name == "reembed":
            engine.reembed()
        else:
            ids = engine.ids(user)
            if not ids:
                continue
            target = ids[a % len(ids)]
            try:
                if name == "update":
                    mem.update(target, b, user_id=user)
                elif name == "delete":
                    mem.delete(target, user_id=user, purge=b)
                else:
                    mem.restore(target, user_id=user)
            except NotFound:
                pass  # purged, or not in a state the verb applies to


def comparable(row: dict[str, Any]) -> dict[str, Any]:
    """An exported row without what belongs to the store it sits in (tenant, the seal's nonce)."""
    out = {k: v for k, v in row.items() if k not in ("tenant", "format")}
    out["metadata"] = {k: v for k, v in (row.get("metadata") or {}).items() if k != SEALED_KEY}
    return out


def stored(store: Store, scope: Scope) -> dict[str, MemoryRecord]:
    return {r["id"]: MemoryRecord.from_dict(r) for r in store.export_rows(scope)}


def check_round_trip(make_store: StoreMaker, tmp: Path, program: list[tuple[Any, ...]]) -> None:
    source = Engine(make_store(), FrozenClock(T0), tmp / "a")
    target: Engine | None = None
    try:
        run(source, program)
        exported = {u: list(source.mem.export(user_id=u)) for u in USERS}
        describe([r for rows in exported.values() for r in rows], source)
        target = Engine(make_store(), FrozenClock(source.clock.now() + timedelta(hours=1)), tmp / "b")
        if source.dim != target.dim:
            target.reembed()
        for user, rows in exported.items():
            assert target.mem.import_(rows) == len(rows)
        for user, rows in exported.items():
            back = list(target.mem.export(user_id=user))
            assert [comparable(r) for r in back] == [comparable(r) for r in rows]
            scope_a, scope_b = Scope(source.mem.scope_tenant, user), Scope(target.mem.scope_tenant, user)
            raw_a, raw_b = stored(source.store, scope_a), stored(target.store, scope_b)
            for mid, rec in raw_a.items():  # at rest as at the source: masked the same, sealed when it was
                assert raw_b[mid].content == rec.content
                assert raw_b[mid].visibility == rec.visibility
                assert (SEALED_KEY in raw_b[mid].metadata) == (SEALED_KEY in rec.metadata)
            assert len(target.store.vectors(scope_b, list(raw_b), "content")) == len(
                source.store.vectors(scope_a, list(raw_a), "content"))
    finally:
        for engine in (source, target):
            if engine is not None:
                engine.mem.close()
                engine.store.close()


def describe(rows: list[dict[str, Any]], source: Engine) -> None:
    """What states the examples reached (``--hypothesis-show-statistics``)."""
    raw = [r for u in USERS for r in stored(source.store, Scope(source.mem.scope_tenant, u)).values()]
    for label, seen in (("sealed", any(SEALED_KEY in r.metadata for r in raw)),
                        ("strength>1", any(r["strength"] > 1 for r in rows)),
                        ("not active", any(r["status"] != "active" for r in rows)),
                        ("edited", any(len(r["history"]) > 1 for r in rows)),
                        ("summary", any(r["kind"] == "summary" for r in rows)),
                        ("re-embedded", source.dim != 256)):
        if seen:
            event(label)


@pytest.fixture
def sqlite_stores(tmp_path_factory: pytest.TempPathFactory) -> StoreMaker:
    from jiyi.stores.sqlite.store import SQLiteStore

    return lambda: SQLiteStore(tmp_path_factory.mktemp("rt") / "store.db")


@pytest.fixture
def pg_stores(pg_server: PgServer) -> Iterator[StoreMaker]:  # noqa: F811
    from jiyi.stores.postgres.store import PostgresOptions, PostgresStore

    schemas: list[str] = []

    def make() -> Store:
        name, uri = create_schema(pg_server)
        schemas.append(name)
        return PostgresStore(uri, PostgresOptions(pool_min=1, pool_max=2))

    yield make
    for name in schemas:
        drop_schema(pg_server, name)


@PROPS
@given(program=programs)
def test_sqlite_round_trip(sqlite_stores: StoreMaker, tmp_path_factory: pytest.TempPathFactory,
                           program: list[tuple[Any, ...]]) -> None:
    check_round_trip(sqlite_stores, tmp_path_factory.mktemp("home"), program)


@settings(PROPS, max_examples=25)
@given(program=programs)
def test_postgres_round_trip(pg_stores: StoreMaker, tmp_path_factory: pytest.TempPathFactory,
                             program: list[tuple[Any, ...]]) -> None:
    check_round_trip(pg_stores, tmp_path_factory.mktemp("home"), program)


def test_a_recalled_memory_survives_the_round_trip(make_memory: Any) -> None:
    """The reported case: strength grows past 1 with hits, and the backup still restores."""
    source: Memory = make_memory(embedder="hash")
    source.remember("I keep bees on the roof", user_id="u")
    for _ in range(4):
        source.search("bees", user_id="u")
    rows = list(source.export(user_id="u"))
    assert rows[0]["strength"] > 1
    target: Memory = make_memory(embedder="hash", path=Path(str(source.settings.path) + ".copy"))
    assert target.import_(rows) == 1
    [back] = target.export(user_id="u")
    assert back["strength"] == rows[0]["strength"]


@pytest.mark.parametrize(("field", "value", "message"), [
    ("strength", 3.5, "strength must be a number between 0 and 3"),
    ("strength", -0.1, "strength must be a number between 0 and 3"),
    ("strength", True, "strength must be a number"),
    ("history", "ADD", "history must be a list"),
    ("history", [{"event": "ADD", "memory_id": "m1", "at": "2026-01-01T00:00:00Z", "new": 5}], "history new"),
])
def test_what_no_engine_wrote_is_refused(make_memory: Any, field: str, value: Any, message: str) -> None:
    mem: Memory = make_memory(embedder="hash")
    row = {"id": "m1", "user_id": "u", "content": "I keep bees", "kind": "fact",
           "created_at": "2026-01-01T00:00:00Z", "updated_at": "2026-01-01T00:00:00Z", field: value}
    with pytest.raises(InvalidInput, match=message):
        mem.import_([row])
    assert list(mem.export(user_id="u")) == []


def test_a_row_written_by_hand_gets_an_import_event(make_memory: Any) -> None:
    mem: Memory = make_memory(embedder="hash")
    mem.import_([{"id": "m1", "user_id": "u", "content": "I keep bees", "kind": "fact",
                  "created_at": "2026-01-01T00:00:00Z", "updated_at": "2026-01-01T00:00:00Z"}])
    [row] = mem.export(user_id="u")
    assert [(h["event"], h["reason"]) for h in row["history"]] == [("ADD", "import")]
