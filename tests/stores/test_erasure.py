"""Erasure that erases, on both stores: after delete (purged) and delete_all, the database files
hold none of the values a user told us, byte for byte. Database files are private (0600)."""

from __future__ import annotations

import os
import secrets
import stat
from collections.abc import Iterator
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from jiyi.clock import FrozenClock
from jiyi.memory import Memory
from jiyi.records import Scope
from jiyi.stores.protocol import Store

T0 = datetime(2025, 3, 5, 9, 0, tzinfo=timezone.utc)


def distinctive() -> dict[str, str]:
    """Values no other test writes: an ID number, a phone, a card, two passwords, an email."""
    n = secrets.randbelow(10**4)
    tag = secrets.token_hex(3)
    return {"id_number": f"11010519900307{n:04d}", "phone": f"1391234{n:04d}", "card": f"622202100{n:04d}1234",
            "wifi": f"Zebra{tag}Wifi", "pay": f"PayPw{tag}99", "email": f"xiao.{tag}@mail-{tag}.cn"}


def tell(mem: Memory, user: str, v: dict[str, str]) -> None:
    """The values as facts (remember) and as a conversation (add: raw turns, extracted facts, buffer)."""
    mem.remember(f"用户的身份证号是{v['id_number']}", user_id=user)
    mem.remember(f"用户的手机号是{v['phone']}", user_id=user)
    mem.remember(f"User's email is {v['email']}", user_id=user)
    mem.add([{"role": "user", "content": f"我的银行卡号是{v['card']}，WiFi 密码是 {v['wifi']}"},
             {"role": "assistant", "content": "好的，我记住了。"},
             {"role": "user", "content": f"记住我的支付密码是 {v['pay']}，邮箱 {v['email']}"}],
            user_id=user, session_id="s1", sync=True)


def found(files: list[Path], values: dict[str, str]) -> dict[str, list[str]]:
    """value name → the files whose bytes contain it (UTF-8, and UTF-16 for good measure)."""
    hits: dict[str, list[str]] = {}
    blobs = []
    for path in files:
        try:
            blobs.append((path.name, path.read_bytes()))
        except OSError:
            continue  # removed meanwhile (PostgreSQL unlinks old relation files at checkpoints)
    for name, value in values.items():
        forms = (value.encode(), value.encode("utf-16-le"))
        where = [fname for fname, blob in blobs if any(f in blob for f in forms)]
        if where:
            hits[name] = where
    return hits


class Backend:
    """One store under test: how to open it, and which files hold its bytes after compaction."""

    def __init__(self, kind: str, request: pytest.FixtureRequest, tmp_path: Path) -> None:
        self.kind, self.tmp_path = kind, tmp_path
        if kind == "sqlite":
            from jiyi.stores.sqlite.store import SQLiteStore

            self.path = tmp_path / "jiyi.db"
            self.store: Store = SQLiteStore(self.path)
            self.data_dir: Path | None = None
        else:
            from pg_server import create_schema, drop_schema

            from jiyi.stores.postgres.store import PostgresOptions, PostgresStore

            server = request.getfixturevalue("pg_server")
            name, uri = create_schema(server)
            request.addfinalizer(lambda: drop_schema(server, name))
            self.store = PostgresStore(uri, PostgresOptions(pool_min=1, pool_max=4))
            self.data_dir = server.base_dir / "data" if server.base_dir is not None else None

    def files(self) -> list[Path]:
        if self.kind == "sqlite":
            return [p for p in self.tmp_path.rglob("*") if p.is_file()]
        if self.data_dir is None:
            pytest.skip("an external PostgreSQL (JIYI_TEST_PG_URL): its data directory is not ours to read")
        # tables, indexes and TOAST of every database (WAL segments keep old bytes until recycled: docs)
        return [p for p in (self.data_dir / "base").rglob("*") if p.is_file()]

    def settle(self, mem: Memory) -> None:
        """What an operator runs after erasure: SQLite needs nothing more; PostgreSQL VACUUM FULL + CHECKPOINT."""
        if self.kind == "postgres":
            mem.purge(user_id="nobody-at-all", vacuum=True)


@pytest.fixture(params=["sqlite", "postgres"])
def backend(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Backend]:
    b = Backend(request.param, request, tmp_path)
    yield b
    b.store.close()


def memory(backend: Backend, clock: FrozenClock | None = None) -> Memory:
    return Memory(store=backend.store, home=backend.tmp_path, embedder="hash", background_worker=False,
                  clock=clock or FrozenClock(T0))


def test_delete_by_id_with_purge_leaves_no_bytes(backend: Backend) -> None:
    alice, bob = distinctive(), distinctive()
    mem = memory(backend)
    tell(mem, "alice", alice)
    tell(mem, "bob", bob)
    assert set(found(backend.files(), alice)) or backend.kind == "postgres"  # the bytes are there before
    for rec in mem.get_all(user_id="alice", status=None):
        mem.delete(rec.id, user_id="alice", purge=True)
    mem.clear_buffer(user_id="alice")  # (purge already dropped the turns it came from)
    backend.settle(mem)

    assert mem.get_all(user_id="alice", status=None) == []
    assert found(backend.files(), alice) == {}
    assert set(found(backend.files(), bob)) >= {"phone", "email"}  # bob's data is untouched
    assert [r.content for r in mem.get_all(user_id="bob") if bob["phone"] in r.content]


def test_purge_drops_the_buffered_turns_and_history_texts(backend: Backend) -> None:
    v = distinctive()
    mem = memory(backend)
    tell(mem, "carol", v)
    # the password and the card are masked at add (no key: never kept); the email is a sensitive value kept as told
    assert any(v["email"] in m["content"] for m in mem.recent_messages(user_id="carol"))
    ids = [r.id for r in mem.get_all(user_id="carol", status=None)]
    assert mem.purge(ids[0], user_id="carol") == 1
    events = backend.store.history(Scope(mem.scope_tenant, "carol"), ids[0])  # the memory itself is gone
    assert events and events[-1].event.value == "PURGE"
    assert all(e.old is None and e.new is None for e in events)  # the events stay, their texts go
    for mid in ids[1:]:
        mem.delete(mid, user_id="carol", purge=True)
    assert not any(v["email"] in m["content"] or v["pay"] in m["content"] or v["card"] in m["content"]
                   for m in mem.recent_messages(user_id="carol"))
    backend.settle(mem)
    assert found(backend.files(), v) == {}


def test_soft_delete_is_restorable_then_purged_on_its_own(backend: Backend) -> None:
    v = distinctive()
    clock = FrozenClock(T0)
    mem = memory(backend, clock)
    rec = mem.remember(f"用户的手机号是{v['phone']}", user_id="dan")
    other = mem.remember("用户喜欢喝乌龙茶", user_id="dan")
    mem.delete(rec.id, user_id="dan")
    assert mem.restore(rec.id, user_id="dan").content.endswith(v["phone"])  # within the window
    mem.delete(rec.id, user_id="dan")
    clock.set(T0 + timedelta(days=8))
    mem.delete(other.id, user_id="dan")  # the next delete purges what is past the window
    assert mem.get(rec.id, user_id="dan") is None and mem.get(other.id, user_id="dan") is not None
    clock.set(T0 + timedelta(days=16))
    report = mem.gc(dry_run=False, user_id="dan")  # and so does gc
    assert report.counts["purge_deleted"] == 1 and mem.get_all(user_id="dan", status=None) == []
    backend.settle(mem)
    assert found(backend.files(), {"phone": v["phone"]}) == {}


def test_delete_all_leaves_no_bytes(backend: Backend) -> None:
    alice, bob = distinctive(), distinctive()
    mem = memory(backend)
    tell(mem, "alice", alice)
    tell(mem, "bob", bob)
    mem.add(f"我的新手机号是{alice['phone']}", user_id="alice", session_id="s2")  # a queued job too
    assert mem.delete_all(user_id="alice") > 0
    backend.settle(mem)
    assert mem.users() == ["bob"]
    assert found(backend.files(), alice) == {}
    assert set(found(backend.files(), bob)) >= {"phone", "email"}


def test_sqlite_files_are_private(tmp_path: Path) -> None:
    old = os.umask(0o022)
    try:
        with Memory(path=tmp_path / "jiyi.db", home=tmp_path, embedder="hash", background_worker=False) as mem:
            mem.remember("用户喜欢爬山", user_id="u1")
            files = [tmp_path / "jiyi.db", tmp_path / "jiyi.db-wal", tmp_path / "jiyi.db-shm"]
            modes = {p.name: stat.S_IMODE(p.stat().st_mode) for p in files if p.exists()}
    finally:
        os.umask(old)
    assert "jiyi.db" in modes and "jiyi.db-wal" in modes
    assert all(m == 0o600 for m in modes.values()), {k: oct(m) for k, m in modes.items()}


def test_an_existing_readable_store_is_made_private(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    with Memory(path=path, home=tmp_path, embedder="hash", background_worker=False) as mem:
        mem.remember("用户喜欢爬山", user_id="u1")
    path.chmod(0o644)
    with Memory(path=path, home=tmp_path, embedder="hash", background_worker=False) as mem:
        assert len(mem.get_all(user_id="u1")) == 1
    assert stat.S_IMODE(path.stat().st_mode) == 0o600


def test_sidecar_index_files_are_private(tmp_path: Path) -> None:
    import numpy as np

    from jiyi.stores.sqlite import ivf

    target = tmp_path / "idx" / "x.npz"
    ivf.save(target, np.zeros((2, 4), np.float32), np.arange(3), np.zeros(3, np.int32), np.zeros((3, 1), np.uint64))
    assert stat.S_IMODE(target.stat().st_mode) == 0o600
    assert stat.S_IMODE(target.parent.stat().st_mode) == 0o700
