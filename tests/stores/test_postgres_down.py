"""PostgreSQL going away under a running server: every REST call gets its 503 within the store's
short connect timeout (not psycopg_pool's 30 s), and the 503 names no DSN (host, socket, options):
the server's log has the details."""

from __future__ import annotations

import logging
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests/: live_uvicorn

from live_uvicorn import serve_in_thread

from jiyi.config import Settings
from jiyi.eval import pg_embedded
from jiyi.server.app import ServerOptions, create_app
from jiyi.server.keys import KeyStore
from jiyi.stores.postgres.options import PostgresOptions


@pytest.fixture
def own_server() -> Iterator[pg_embedded.PgServer]:
    """A PostgreSQL of this test alone: it is stopped mid-test."""
    server = pg_embedded.start_embedded()
    try:
        yield server
    finally:
        server.stop()


def test_the_default_connect_timeout_is_short() -> None:
    assert PostgresOptions().connect_timeout <= 5
    assert PostgresOptions.split_uri("postgresql:///db?jiyi_connect_timeout=2")[1].connect_timeout == 2


def test_a_stopped_server_gives_quick_503s_naming_no_dsn(tmp_path: Path, own_server: pg_embedded.PgServer,
                                                       caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.WARNING, logger="jiyi.stores.postgres")
    sep = "&" if "?" in own_server.uri else "?"
    key = KeyStore.in_home(tmp_path).create("acme", name="down")[1]
    app = create_app(Settings(home=tmp_path, embedder="hash", store=f"{own_server.uri}{sep}jiyi_connect_timeout=1"),
                     ServerOptions(worker=False, rate_limit=0))
    url, server, thread = serve_in_thread(app, "uvicorn-pg-down")
    client = httpx.Client(base_url=url, headers={"Authorization": f"Bearer {key}"}, timeout=120)
    try:
        ok = client.post("/v1/remember", json={"content": "用户喜欢狗", "user_id": "u1"})
        assert ok.status_code == 200, ok.text
        own_server.stop()
        for _ in range(3):
            t0 = time.monotonic()
            r = client.get("/v1/memories", params={"user_id": "u1"})
            took = time.monotonic() - t0
            assert r.status_code == 503, r.text
            message = r.json()["error"]["message"]
            for leak in ("host=", "/tmp", "search_path", "postgresql:", "port", "socket"):
                assert leak not in message, message
            assert took < 25, f"a 503 took {took:.1f}s (psycopg_pool's default wait is 30 s)"
        assert any("PostgreSQL store at" in r.getMessage() for r in caplog.records)  # the log names it
    finally:
        client.close()
        server.should_exit = True
        thread.join(timeout=60)
