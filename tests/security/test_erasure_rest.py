"""Erasure over REST and the Python client: DELETE ?purge=true and POST /v1/memories/purge leave
no bytes in the tenant's SQLite files."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from live_uvicorn import serve_in_thread

from jiyi.client import JiyiClient
from jiyi.config import Settings
from jiyi.memory import Memory
from jiyi.server.app import ServerOptions, create_app
from jiyi.server.keys import KeyStore


@pytest.fixture
def service(tmp_path: Path) -> Iterator[tuple[JiyiClient, Memory]]:
    key = KeyStore.in_home(tmp_path).create("acme", name="erasure")[1]
    app = create_app(Settings(home=tmp_path, embedder="hash"), ServerOptions(worker=False, rate_limit=0))
    url, server, thread = serve_in_thread(app, "uvicorn-erasure")
    try:
        with JiyiClient(url, api_key=key) as client:
            yield client, app.state.jiyi.pool.get("acme")
    finally:
        server.should_exit = True
        thread.join(timeout=60)


def db_bytes(mem: Memory) -> bytes:
    path = Path(mem.store.path)  # type: ignore[attr-defined]
    return b"".join(p.read_bytes() for p in path.parent.glob(path.name + "*") if p.is_file())


def test_rest_purge_erases(service: tuple[JiyiClient, Memory]) -> None:
    client, mem = service
    one = client.remember("用户的护照号是E98765432", user_id="u1")
    two = client.remember("用户的门禁密码是Door4417", user_id="u1")
    keep = client.remember("用户喜欢喝乌龙茶", user_id="u1")

    client.delete(one.id, user_id="u1", purge=True)
    assert client.get(one.id, user_id="u1") is None
    client.delete(two.id, user_id="u1")  # soft: restorable
    assert client.restore(two.id, user_id="u1").status.value == "active"
    client.delete(two.id, user_id="u1")
    assert client.purge(user_id="u1") == 1
    assert client.get(two.id, user_id="u1") is None and client.get(keep.id, user_id="u1") is not None

    data = db_bytes(mem)
    assert b"E98765432" not in data and b"Door4417" not in data
    assert "乌龙茶".encode() in data
