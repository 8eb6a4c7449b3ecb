"""End to end: a PostgreSQL store configured with ``?host=…&password=…`` (a standard libpq form)
never shows its password to an API client, whatever fails."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests/: pg_server, live_uvicorn

from live_uvicorn import serve_in_thread
from pg_server import create_schema, drop_schema

from jiyi.config import Settings
from jiyi.server.app import ServerOptions, create_app
from jiyi.server.keys import KeyStore

PASSWORD = "Sup3r-S3cret-pw"


@pytest.fixture
def pg_service(tmp_path: Path, pg_server: object) -> Iterator[tuple[httpx.Client, object, str]]:
    name, uri = create_schema(pg_server)  # type: ignore[arg-type]
    store = f"{uri}&password={PASSWORD}&sslpassword={PASSWORD}x"  # trust auth: libpq sends it only if asked
    key = KeyStore.in_home(tmp_path).create("acme", name="redact")[1]
    app = create_app(Settings(home=tmp_path, embedder="hash", store=store), ServerOptions(worker=False, rate_limit=0))
    url, server, thread = serve_in_thread(app, "uvicorn-redact")
    client = httpx.Client(base_url=url, headers={"Authorization": f"Bearer {key}"}, timeout=60)
    try:
        yield client, pg_server, name
    finally:
        client.close()
        server.should_exit = True
        thread.join(timeout=60)
        drop_schema(pg_server, name)  # type: ignore[arg-type]


def test_no_password_in_any_error(pg_service: tuple[httpx.Client, object, str]) -> None:
    client, server, schema = pg_service
    ok = client.post("/v1/remember", json={"content": "用户喜欢狗", "user_id": "u1"})
    assert ok.status_code == 200, ok.text

    nul = client.post("/v1/remember", json={"content": "用户\u0000喜欢狗", "user_id": "u1"})
    assert nul.status_code == 200 and "\x00" not in nul.json()["content"]  # the one text rule drops NUL
    added = client.post("/v1/memories", json={"messages": [{"role": "user", "content": "我\u0000喜欢猫"}],
                                               "user_id": "u1", "sync": True})
    assert added.status_code in (200, 422)
    for r in (nul, added):
        assert PASSWORD not in r.text

    drop_schema(server, schema)  # type: ignore[arg-type]  # the store's tables vanish under it
    broken = [client.get("/v1/memories", params={"user_id": "u1"}),
              client.post("/v1/remember", json={"content": "用户喜欢猫", "user_id": "u1"}),
              client.post("/v1/memories/search", json={"query": "狗", "user_id": "u1"})]
    assert any(r.status_code == 503 for r in broken), [r.text for r in broken]
    for r in broken:
        assert PASSWORD not in r.text, r.text
    failed = next(r for r in broken if r.status_code == 503)
    message = failed.json()["error"]["message"]
    assert "host=" not in message and "search_path" not in message and "postgresql://" not in message  # no DSN
