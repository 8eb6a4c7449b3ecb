"""The ``recent`` body field of /v1/memories/search and /v1/context, and the client's kwarg."""

from __future__ import annotations

import httpx
import pytest
from server_support import LiveServer

from jiyi.client import JiyiClient
from jiyi.errors import InvalidInput


def test_recent_is_taken_by_search_and_context(acme: httpx.Client, uid: str) -> None:
    assert acme.post("/v1/remember", json={"content": "用户的猫叫年糕", "user_id": uid}).status_code == 200
    recent = ["我家猫今天又把花盆打翻了", {"role": "assistant", "content": "它是什么品种？"}]
    resp = acme.post("/v1/memories/search", json={"query": "它叫什么？", "user_id": uid, "recent": recent})
    assert resp.status_code == 200 and "年糕" in resp.json()["hits"][0]["content"]
    resp = acme.post("/v1/context", json={"query": "它叫什么？", "user_id": uid, "recent": recent})
    assert resp.status_code == 200 and isinstance(resp.json()["context"], str)


@pytest.mark.parametrize("bad", ["a string", [{"role": "bot", "content": "x"}], [{"content": ""}],
                                 [{"role": "user", "content": "x", "mood": 1}], ["x"] * 51])
def test_bad_recent_is_a_4xx(acme: httpx.Client, uid: str, bad: object) -> None:
    for path in ("/v1/memories/search", "/v1/context"):
        resp = acme.post(path, json={"query": "它叫什么？", "user_id": uid, "recent": bad})
        assert resp.status_code == 422, (path, resp.text)


def test_client_passes_recent_and_refuses_a_string(server: LiveServer, uid: str) -> None:
    with JiyiClient(server.url, api_key=server.keys["acme"]) as client:
        client.remember("用户的猫叫年糕", user_id=uid)
        hits = client.search("它叫什么？", user_id=uid, recent=[{"role": "user", "content": "我家猫又挑食了"}])
        assert hits and "年糕" in hits[0].content
        assert isinstance(client.build_context("它叫什么？", user_id=uid, recent=["我家猫又挑食了"]), str)
        with pytest.raises(InvalidInput, match="recent"):
            client.search("它叫什么？", user_id=uid, recent="我家猫又挑食了")
