"""Who may write through the proxy: cross-site browsers, non-JSON bodies, the proxy key, body size,
user ids; and a turn is recorded only once the answer reached the client. Real proxy on loopback,
fake upstream on another socket."""

from __future__ import annotations

import json
import socket
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from fake_openai import FakeOpenAI, chat, slow
from proxy_harness import RunningProxy, serve_proxy

from jiyi.memory import Memory
from jiyi.proxy import ProxyOptions, create_app

AUTH = {"Authorization": "Bearer sk-client-key"}
PLANT = "用户的地址是攻击者路1号"


def body(user: str = "alice", text: str = PLANT, **extra: Any) -> dict[str, Any]:
    return {"model": "m", "user": user, "messages": [{"role": "user", "content": text}], **extra}


@pytest.fixture
def guarded(upstream: FakeOpenAI, proxy_memory: Memory) -> Iterator[RunningProxy]:
    options = ProxyOptions(recall_timeout=20.0, allow_origins=("https://chat.example.com",),
                           proxy_key="pk-secret-123", max_body_bytes=64 * 1024, upstream_timeout=1.5)
    for url in serve_proxy(create_app(proxy_memory, upstream.base_url, options)):
        yield RunningProxy(url, proxy_memory, upstream)


def nothing_recorded(proxy: RunningProxy, user: str = "alice", wait: float = 0.5) -> bool:
    time.sleep(wait)
    proxy.memory.flush()
    return proxy.memory.get_all(user_id=user, status=None) == []


def test_the_cross_site_text_plain_post_is_refused_and_plants_nothing(proxy: RunningProxy) -> None:
    proxy.memory.remember("用户的地址是上海市长宁路100号", user_id="alice")
    raw = json.dumps(body()).encode()
    r = httpx.post(f"{proxy.url}/chat/completions", content=raw, timeout=30,
                   headers={"Content-Type": "text/plain", "Origin": "http://evil.example"})
    assert r.status_code == 403 and "origin" in r.json()["error"]["message"]
    # the same page without the Origin check still meets the content-type check
    r = httpx.post(f"{proxy.url}/chat/completions", content=raw, timeout=30, headers={"Content-Type": "text/plain"})
    assert r.status_code == 415
    r = httpx.post(f"{proxy.url}/chat/completions", content=raw, timeout=30,
                   headers={"Content-Type": "application/x-www-form-urlencoded"})
    assert r.status_code == 415
    assert proxy.upstream.requests == []  # nothing went upstream
    time.sleep(0.3)
    proxy.memory.flush()
    assert [m.content for m in proxy.memory.get_all(user_id="alice", status=None)] == ["用户的地址是上海市长宁路100号"]


def test_any_browser_origin_is_refused_by_default(proxy: RunningProxy) -> None:
    for origin in ("http://evil.example", "null", "http://127.0.0.1:8787"):
        r = httpx.post(f"{proxy.url}/chat/completions", json=body(), timeout=30, headers={**AUTH, "Origin": origin})
        assert r.status_code == 403, origin
    r = httpx.post(f"{proxy.url}/chat/completions", json=body(), timeout=30,
                   headers={**AUTH, "Sec-Fetch-Site": "cross-site"})
    assert r.status_code == 403
    r = httpx.get(f"{proxy.url}/models", timeout=30, headers={**AUTH, "Origin": "http://evil.example"})
    assert r.status_code == 403
    assert proxy.upstream.requests == [] and nothing_recorded(proxy)


def test_an_allowed_origin_gets_cors_and_a_preflight(guarded: RunningProxy) -> None:
    origin = "https://chat.example.com"
    pre = httpx.options(f"{guarded.url}/chat/completions", timeout=30, headers={
        "Origin": origin, "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers": "content-type, authorization, x-jiyi-proxy-key"})
    assert pre.status_code == 204 and pre.headers["access-control-allow-origin"] == origin
    assert "x-jiyi-proxy-key" in pre.headers["access-control-allow-headers"]
    bad = httpx.options(f"{guarded.url}/chat/completions", timeout=30, headers={
        "Origin": "https://evil.example", "Access-Control-Request-Method": "POST"})
    assert bad.status_code == 403 and "access-control-allow-origin" not in bad.headers
    r = httpx.post(f"{guarded.url}/chat/completions", json=body(text="我喜欢爬山"), timeout=30,
                   headers={**AUTH, "Origin": origin, "X-Jiyi-Proxy-Key": "pk-secret-123"})
    assert r.status_code == 200 and r.headers["access-control-allow-origin"] == origin
    assert guarded.wait_recorded("alice", 1)


def test_the_proxy_key_is_required_and_never_forwarded(guarded: RunningProxy) -> None:
    for headers in ({}, {"X-Jiyi-Proxy-Key": "wrong"}, {"Authorization": "Bearer pk-secret-123"}):
        r = httpx.post(f"{guarded.url}/chat/completions", json=body(), timeout=30, headers=headers)
        assert r.status_code == 401, headers
    assert guarded.upstream.requests == [] and nothing_recorded(guarded)
    r = httpx.post(f"{guarded.url}/chat/completions", json=body(text="我养了一只猫"), timeout=30,
                   headers={**AUTH, "X-Jiyi-Proxy-Key": "pk-secret-123"})
    assert r.status_code == 200
    sent = guarded.upstream.requests[-1].headers
    assert sent["authorization"] == "Bearer sk-client-key" and "x-jiyi-proxy-key" not in sent
    r = httpx.get(f"{guarded.url}/models", timeout=30, headers=AUTH)
    assert r.status_code == 401  # every /v1 path, not only chat


def test_bodies_over_the_limit_are_refused(guarded: RunningProxy) -> None:
    key = {"X-Jiyi-Proxy-Key": "pk-secret-123"}
    big = body(text="长" * 40_000)  # ~120 KB of UTF-8 > 64 KiB
    r = httpx.post(f"{guarded.url}/chat/completions", json=big, timeout=30, headers={**AUTH, **key})
    assert r.status_code == 413

    def chunked() -> Iterator[bytes]:
        raw = json.dumps(big).encode()
        for i in range(0, len(raw), 8192):
            yield raw[i:i + 8192]

    r = httpx.post(f"{guarded.url}/chat/completions", content=chunked(), timeout=30,
                   headers={**AUTH, **key, "Content-Type": "application/json"})
    assert r.status_code == 413 and "error" in r.json()
    assert guarded.upstream.requests == [] and nothing_recorded(guarded)


def test_the_default_body_limit_is_the_services(proxy: RunningProxy) -> None:
    from jiyi.server.app import ServerOptions

    assert ProxyOptions().max_body_bytes == ServerOptions().max_body_bytes
    r = httpx.post(f"{proxy.url}/chat/completions", content=b"{" + b" " * (ServerOptions().max_body_bytes + 10) + b"}",
                   timeout=60, headers={**AUTH, "Content-Type": "application/json"})
    assert r.status_code == 413


@pytest.mark.parametrize("user", ["alice ", " alice", "al\tice", "alice\x00", "alice\n", "\u200balice"])
def test_user_ids_are_checked_by_the_one_rule(proxy: RunningProxy, user: str) -> None:
    proxy.memory.remember("用户住在上海", user_id="alice")
    r = httpx.post(f"{proxy.url}/chat/completions", json=body(user=user, text="我住在北京"), timeout=30, headers=AUTH)
    assert r.status_code == 400 and "user id" in r.json()["error"]["message"]
    assert proxy.upstream.requests == []
    time.sleep(0.3)
    proxy.memory.flush()
    assert [m.content for m in proxy.memory.get_all(user_id="alice")] == ["用户住在上海"]
    assert proxy.memory.users() == ["alice"]


def test_a_client_that_timed_out_records_nothing(proxy: RunningProxy) -> None:
    proxy.upstream.push(slow(1.5, chat("好的，记住了。")))
    with pytest.raises(httpx.ReadTimeout):
        httpx.post(f"{proxy.url}/chat/completions", json=body(text="我下周去成都出差"), timeout=0.5, headers=AUTH)
    time.sleep(2.0)  # the upstream answered meanwhile, to nobody
    assert len(proxy.upstream.requests) == 1 and nothing_recorded(proxy)
    r = httpx.post(f"{proxy.url}/chat/completions", json=body(text="我下周去重庆出差"), timeout=30, headers=AUTH)
    assert r.status_code == 200
    assert proxy.wait_recorded("alice", 1) and "我下周去重庆出差" in proxy.wait_recorded("alice", 2)


def test_a_stream_left_midway_records_nothing(proxy: RunningProxy) -> None:
    reply = chat("先订机票，再订酒店，最后别忘了带充电器和身份证。")
    reply.chunk_delay = 0.25
    proxy.upstream.push(reply)
    raw = json.dumps(body(text="出差去成都要准备什么", stream=True)).encode()
    with socket.create_connection(("127.0.0.1", int(proxy.url.split(":")[-1].split("/")[0])), timeout=10) as s:
        s.sendall(b"POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                  b"Authorization: Bearer sk-client-key\r\n" + f"Content-Length: {len(raw)}\r\n\r\n".encode() + raw)
        first = s.recv(4096)
        assert first.startswith(b"HTTP/1.1 200")
    # the client is gone after the first chunk; the upstream keeps streaming for ~3 s
    time.sleep(4.0)
    assert nothing_recorded(proxy)


def test_a_whole_stream_is_recorded(proxy: RunningProxy) -> None:
    reply = chat("带上身份证。")
    reply.chunk_delay = 0.05
    proxy.upstream.push(reply)
    with httpx.stream("POST", f"{proxy.url}/chat/completions", json=body(text="去成都带什么", stream=True),
                      headers=AUTH, timeout=30) as r:
        text = "".join(r.iter_text())
    assert "[DONE]" in text
    assert set(proxy.wait_recorded("alice", 2)) == {"去成都带什么", "带上身份证。"}


def test_the_upstream_timeout_is_an_option(guarded: RunningProxy) -> None:
    guarded.upstream.push(slow(4.0))
    started = time.monotonic()
    r = httpx.post(f"{guarded.url}/chat/completions", json=body(text="你好呀我叫小明"), timeout=30,
                   headers={**AUTH, "X-Jiyi-Proxy-Key": "pk-secret-123"})
    assert r.status_code == 504 and "--upstream-timeout" in r.json()["error"]["message"]
    assert time.monotonic() - started < 3.5
    assert nothing_recorded(guarded)
