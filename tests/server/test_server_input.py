"""Hostile and odd input: malformed JSON, wrong types, huge bodies, Unicode; rate limits; CORS."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any
from urllib.parse import quote

import httpx
import pytest
from server_support import LiveServer, add_sync, error_code


@pytest.mark.parametrize("path", ["/v1/memories", "/v1/memories/search", "/v1/context", "/v1/remember"])
@pytest.mark.parametrize("raw", [b"{bad", b'{"query": "x",}', b"\xff\xfe", b'{"query": "unterminated'])
def test_malformed_json_is_400(acme: httpx.Client, path: str, raw: bytes) -> None:
    resp = acme.post(path, content=raw, headers={"content-type": "application/json"})
    assert resp.status_code == 400, resp.text
    assert error_code(resp) == "malformed_json"


WRONG: list[tuple[str, dict[str, Any], str]] = [
    ("/v1/memories/search", {"query": "q", "user_id": "u", "limit": "5"}, "limit"),
    ("/v1/memories/search", {"query": "q", "user_id": "u", "limit": 0}, "limit"),
    ("/v1/memories/search", {"query": "q", "user_id": "u", "limit": 5.5}, "limit"),
    ("/v1/memories/search", {"query": "q", "user_id": 42}, "user_id"),
    ("/v1/memories/search", {"query": ["q"], "user_id": "u"}, "query"),
    ("/v1/memories/search", {"query": "q", "user_id": "u", "kinds": "fact"}, "kinds"),
    ("/v1/memories/search", {"query": "q", "user_id": "u", "kinds": ["gossip"]}, "kinds"),
    ("/v1/memories/search", {"query": "q", "userid": "u"}, "user_id"),
    ("/v1/memories/search", {"query": "q", "user_id": "u", "include_sensitive": "yes"}, "include_sensitive"),
    ("/v1/memories", {"messages": 5, "user_id": "u"}, "messages"),
    ("/v1/memories", {"messages": "hi", "user_id": "u", "sync": 1}, "sync"),
    ("/v1/memories", {"messages": [{"role": "robot", "content": "hi"}], "user_id": "u"}, "role"),
    ("/v1/memories", {"messages": [{"content": "hi", "mood": "happy"}], "user_id": "u"}, "mood"),
    ("/v1/memories", {"messages": [{"content": "hi", "utc_offset": 900}], "user_id": "u"}, "utc_offset"),
    ("/v1/memories", {"messages": [{"content": "hi", "utc_offset": "+08:00"}], "user_id": "u"}, "utc_offset"),
    ("/v1/remember", {"content": "c", "user_id": "u", "importance": 3}, "importance"),
    ("/v1/context", {"query": "q", "user_id": "u", "budget_tokens": -1}, "budget_tokens"),
]


@pytest.mark.parametrize(("path", "body", "field"), WRONG, ids=[f"{p}-{f}-{i}" for i, (p, _, f) in enumerate(WRONG)])
def test_wrong_types_and_unknown_fields_are_422_naming_the_field(acme: httpx.Client, path: str,
                                                                 body: dict[str, Any], field: str) -> None:
    resp = acme.post(path, json=body)
    assert resp.status_code == 422, resp.text
    err = resp.json()["error"]
    assert err["code"] == "validation_error"
    assert any(field in loc for d in err["details"] for loc in d["loc"]), err
    assert all("input" not in d for d in err["details"]), "rejected input is not echoed back"


def test_a_body_that_is_not_a_json_object_is_refused(acme: httpx.Client) -> None:
    form = acme.post("/v1/memories/search", content=b"query=q&user_id=u",
                     headers={"content-type": "application/x-www-form-urlencoded"})
    assert form.status_code == 415 and error_code(form) == "unsupported_media_type"
    untyped = acme.post("/v1/memories/search", content=b'{"query": "q", "user_id": "u"}')
    assert untyped.status_code == 415 and "application/json" in untyped.json()["error"]["message"]
    array = acme.post("/v1/memories/search", json=[{"query": "q", "user_id": "u"}])
    assert array.status_code == 422 and error_code(array) == "validation_error"


@pytest.mark.parametrize("body", [
    {"messages": "   ", "user_id": "U"},
    {"messages": [], "user_id": "U"},
    {"messages": [{"content": "hi", "timestamp": "yesterday"}], "user_id": "U"},
    {"messages": [{"content": "ok", "id": "bad id with spaces"}], "user_id": "U"},
    {"messages": "hi", "user_id": "   "},
])
def test_meaningless_input_is_refused_and_nothing_is_written(acme: httpx.Client, uid: str,
                                                             body: dict[str, Any]) -> None:
    body = json.loads(json.dumps(body).replace('"U"', json.dumps(uid)))
    resp = acme.post("/v1/memories", json={**body, "sync": True})
    assert resp.status_code == 422 and error_code(resp) == "invalid_input", resp.text
    assert acme.get("/v1/memories", params={"user_id": uid, "status": "all"}).json()["memories"] == []


def test_huge_bodies_get_413(acme: httpx.Client, uid: str) -> None:
    big = "记" * (1024 * 1024)  # 3 MiB of UTF-8, over the 2 MiB default
    resp = acme.post("/v1/memories", json={"messages": big, "user_id": uid})
    assert resp.status_code == 413 and error_code(resp) == "payload_too_large"
    assert acme.get("/v1/memories", params={"user_id": uid, "status": "all"}).json()["memories"] == []


def test_chunked_bodies_are_counted_too(limited_server: LiveServer, uid: str) -> None:
    def chunks() -> Iterator[bytes]:  # no Content-Length: the server must count
        yield b'{"messages": "'
        for _ in range(10):
            yield b"x" * 1000
        yield b'", "user_id": "' + uid.encode() + b'"}'

    with limited_server.http("globex") as client:
        resp = client.post("/v1/memories", content=chunks(), headers={"content-type": "application/json"})
    assert resp.status_code == 413 and error_code(resp) == "payload_too_large"


UNICODE = [
    "我的猫叫🐱咪咪，她👩‍👩‍👧 一家都爱🍣",   # emoji incl. ZWJ sequences
    "اسمي ليلى وأعيش في دبي",  # RTL Arabic
    "שמי דוד ואני גר בחיפה",  # RTL Hebrew
    "e\u0301 cafe\u0301 mixed ⁦isolates⁩ \u202eRLO\u202c",  # combining marks, bidi controls
    "𠀀𪚥 rare CJK Ext-B 𩸽",  # astral plane CJK
]


@pytest.mark.parametrize("text", UNICODE)
def test_unicode_round_trips(acme: httpx.Client, uid: str, text: str) -> None:
    rec = acme.post("/v1/remember", json={"content": text, "user_id": uid}).json()
    assert rec["content"] == text
    assert acme.get(f"/v1/memories/{rec['id']}", params={"user_id": uid}).json()["content"] == text
    exported = [json.loads(line) for line in acme.get(f"/v1/users/{uid}/export").text.splitlines()]
    assert [r["content"] for r in exported] == [text]


@pytest.mark.parametrize("suffix", ["🐼", "עברית", "用户/微信:张三", "a b", "%2F"])
def test_unicode_and_odd_user_ids_work_in_query_path_and_body(acme: httpx.Client, uid: str, suffix: str) -> None:
    user = uid + suffix
    acme.post("/v1/remember", json={"content": "用户喜欢熊猫", "user_id": user})
    listed = acme.get("/v1/memories", params={"user_id": user}).json()["memories"]
    assert [r["content"] for r in listed] == ["用户喜欢熊猫"]
    exported = acme.get(f"/v1/users/{quote(user, safe='')}/export").text.splitlines()
    assert [json.loads(line)["user_id"] for line in exported] == [user]
    assert user in acme.get("/v1/users").json()["users"]
    assert acme.delete(f"/v1/users/{quote(user, safe='')}").json() == {"deleted": 1}


def test_nul_bytes_are_dropped_from_text_and_refused_in_ids(acme: httpx.Client, uid: str) -> None:
    body = add_sync(acme, uid, "我住在\x00成都")
    assert all("\x00" not in e["memory"] for e in body["events"])
    rows = acme.get("/v1/memories", params={"user_id": uid, "status": "all"}).json()["memories"]
    assert rows and all("\x00" not in r["content"] for r in rows)
    bad = acme.post("/v1/memories/search", json={"query": "成都", "user_id": uid + "\x00"})
    assert bad.status_code == 422 and error_code(bad) == "invalid_input"


def test_lone_surrogates_are_422_not_500(acme: httpx.Client, uid: str) -> None:
    raw = ('{"content": "bad \\ud800 half", "user_id": "%s"}' % uid).encode()
    resp = acme.post("/v1/remember", content=raw, headers={"content-type": "application/json"})
    assert resp.status_code == 422 and error_code(resp) == "validation_error"


def test_rate_limit_per_key(limited_server: LiveServer) -> None:
    with limited_server.http("acme") as acme, limited_server.http("globex") as globex:
        codes = [acme.get("/v1/users").status_code for _ in range(6)]
        assert codes[:3] == [200, 200, 200] and 429 in codes[3:], codes
        limited = acme.get("/v1/users")
        assert limited.status_code == 429 and error_code(limited) == "rate_limited"
        assert int(limited.headers["retry-after"]) >= 1
        assert globex.get("/v1/users").status_code == 200, "each key has its own bucket"
        assert acme.get("/healthz").status_code == 200, "health checks are not limited"


def test_cors_is_off_by_default(anon: httpx.Client, acme: httpx.Client) -> None:
    preflight = anon.options("/v1/memories/search", headers={
        "Origin": "https://evil.example", "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers": "authorization,content-type"})
    assert "access-control-allow-origin" not in preflight.headers
    simple = acme.get("/v1/users", headers={"Origin": "https://evil.example"})
    assert simple.status_code == 200 and "access-control-allow-origin" not in simple.headers


def test_cors_allows_only_configured_origins(insecure_server: LiveServer) -> None:
    with insecure_server.http() as client:
        ok = client.options("/v1/memories/search", headers={
            "Origin": "https://panel.example", "Access-Control-Request-Method": "POST"})
        assert ok.headers.get("access-control-allow-origin") == "https://panel.example"
        other = client.get("/v1/users", headers={"Origin": "https://evil.example"})
        assert "access-control-allow-origin" not in other.headers
