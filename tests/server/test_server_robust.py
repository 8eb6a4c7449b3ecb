"""Client mistakes are 4xx, storage trouble 503, and a kept-alive connection survives any error."""

from __future__ import annotations

import sqlite3
from typing import Any

import httpx
import pytest
from server_support import LiveServer

from jiyi.server.errors import unexpected_answer


def _deep(n: int) -> Any:
    value: Any = []
    for _ in range(n):
        value = [value]
    return value


MISTAKES: list[tuple[str, str, Any, dict[str, str] | None]] = [
    ("POST", "/v1/memories/search", {"query": "北京", "user_id": "p1", "at": "9999-12-31T23:59:59Z"}, None),
    ("POST", "/v1/memories/search", {"query": "北京", "user_id": "p1", "filters": {"session_id": {"a": 1}}}, None),
    ("POST", "/v1/memories/search", {"query": "北京", "user_id": "p1", "filters": {"session_id": ["a"]}}, None),
    ("POST", "/v1/memories/search", b'{"query": "\\ud800", "user_id": "p1"}', None),  # a lone surrogate
    ("POST", "/v1/memories", b'{"messages": "a\\udfffb", "user_id": "p1"}', None),
    ("GET", "/v1/memories", None, {"user_id": "p1", "offset": str(2**70)}),
    ("GET", "/v1/memories", None, {"user_id": "p1", "offset": "-1"}),
    ("GET", "/v1/memories", None, {"user_id": "p1", "limit": "0"}),
    ("POST", "/v1/ui-links", {"ttl": "999999999999999"}, None),
    ("POST", "/v1/ui-links", {"ttl": 10**30}, None),
    ("POST", "/v1/memories", {"messages": [{"content": "明天我要去北京", "timestamp": "9999-12-31T23:59:59Z"}],
                              "user_id": "p1", "sync": True}, None),
    ("POST", "/v1/memories", {"messages": [{"content": "明天我要去北京", "timestamp": "9999-12-31T23:59:59Z"}],
                              "user_id": "p1"}, None),
    ("POST", "/v1/memories", {"messages": "明天", "user_id": "p1", "metadata": {"x": _deep(40)}}, None),
    ("POST", "/v1/memories", {"messages": "明天", "user_id": "p1", "metadata": "text"}, None),
    ("POST", "/v1/import", {"records": [{"id": "r1", "user_id": "p1", "content": "x" * 600_000, "kind": "fact",
                                         "created_at": "2025-01-01T00:00:00Z",
                                         "updated_at": "2025-01-01T00:00:00Z"}]}, None),
    ("POST", "/v1/import", {"records": [{"id": "r\n1", "user_id": "p1", "content": "x", "kind": "fact",
                                         "importance": 7, "created_at": "2025-01-01T00:00:00Z",
                                         "updated_at": "2025-01-01T00:00:00Z"}]}, None),
    ("POST", "/v1/gc", {"now": "9999-12-31T23:59:59Z"}, None),
    ("POST", "/v1/remember", {"content": "我喜欢咖啡", "user_id": "p1", "kind": "bogus"}, None),
    ("POST", "/v1/remember", {"content": "我喜欢咖啡", "user_id": "p1", "importance": 7}, None),
]


@pytest.mark.parametrize("method,path,body,params", MISTAKES)
def test_client_mistakes_are_4xx_and_the_connection_stays_usable(server: LiveServer, method: str, path: str,
                                                                  body: Any, params: dict[str, str] | None) -> None:
    with server.http("acme") as client:
        content = body if isinstance(body, bytes) else None
        body = None if content is not None else body
        resp = client.request(method, path, json=body, params=params, content=content,
                              headers={"content-type": "application/json"})
        assert 400 <= resp.status_code < 500, resp.text
        assert "error" in resp.json()
        assert client.get("/v1/stats").status_code == 200  # same connection


def test_metrics_need_an_operator_key(server: LiveServer) -> None:
    with server.http("globex") as globex:
        resp = globex.get("/metrics")
        assert resp.status_code == 403 and resp.json()["error"]["code"] == "forbidden"
        assert "jiyi_http_requests_total" not in resp.text


def test_storage_trouble_is_503_and_named() -> None:
    status, body = unexpected_answer(sqlite3.OperationalError("attempt to write a readonly database"))
    assert status == 503 and body["error"]["code"] == "store_unavailable"
    assert unexpected_answer(RuntimeError("bug"))[0] == 500


def test_failed_jobs_show_in_stats(server: LiveServer) -> None:
    with server.http("globex") as globex:
        stats = globex.get("/v1/stats").json()["stats"]
        assert stats["failed_jobs"] == 0 and "worker_errors" in stats


@pytest.mark.parametrize("ttl", ["999999999999999", 10**30, -5, "abc"])
def test_ui_link_ttl_out_of_range(server: LiveServer, ttl: Any) -> None:
    with httpx.Client(base_url=server.url, headers={"Authorization": f"Bearer {server.keys['acme']}"}) as c:
        assert 400 <= c.post("/v1/ui-links", json={"ttl": ttl}).status_code < 500


def test_failed_jobs_over_rest_and_the_client(server: LiveServer) -> None:
    from jiyi.client import JiyiClient
    from jiyi.memory import Memory
    from jiyi.records import Scope

    with Memory(home=server.home, embedder="hash", background_worker=False, tenant="globex") as mem:
        msg = {"role": "user", "content": "明天我要去北京", "timestamp": "not a time", "id": "m1", "name": None}
        job = mem.store.enqueue(Scope("globex", "fj1"), "add",
                                {"messages": [msg], "session_id": None, "agent_id": None, "metadata": {}},
                                mem.clock.now())
        assert mem.flush(timeout=30) is False
    with JiyiClient(server.url, api_key=server.keys["globex"]) as client:
        (failed,) = client.failed_jobs()
        assert failed.id == job and failed.scope.user_id == "fj1" and "ValueError" in (failed.error or "")
        assert client.stats()["failed_jobs"] == 1 and client.flush(timeout=5) is False
        assert client.retry_failed(["nope"]) == 0 and client.drop_failed([job]) == 1
        assert client.failed_jobs() == [] and client.stats()["failed_jobs"] == 0
    with server.http("acme") as acme:  # another tenant's key sees none of it
        assert acme.get("/v1/jobs/failed").json() == {"jobs": []}
