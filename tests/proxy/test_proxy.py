"""The memory proxy over real HTTP: client → proxy (uvicorn, loopback) → fake OpenAI upstream."""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import httpx
import numpy as np
import pytest
from fake_openai import FakeOpenAI, chat, error
from proxy_harness import RunningProxy, serve_proxy

from jiyi import registry
from jiyi.config import Settings
from jiyi.memory import Memory
from jiyi.proxy import ProxyOptions, create_app

AUTH = {"Authorization": "Bearer sk-client-key"}


def post(url: str, body: dict[str, Any], **headers: str) -> httpx.Response:
    return httpx.post(f"{url}/chat/completions", json=body, headers={**AUTH, **headers}, timeout=30)


def test_recall_is_injected_into_the_system_message_and_the_turn_recorded(proxy: RunningProxy) -> None:
    proxy.memory.remember("用户对花生过敏", user_id="alice")
    proxy.upstream.push(chat("那就别吃花生酱了。"))
    body = {"model": "deepseek-chat", "user": "alice",
            "messages": [{"role": "system", "content": "你是贴心的助手。"},
                         {"role": "user", "content": "我能吃花生酱吗？"}]}
    r = post(proxy.url, body)

    assert r.status_code == 200
    assert r.json()["choices"][0]["message"]["content"] == "那就别吃花生酱了。"
    sent = proxy.upstream.requests[-1]
    assert sent.headers["authorization"] == "Bearer sk-client-key"
    system = sent.messages[0]["content"]
    assert system.startswith("<memories>") and "用户对花生过敏" in system and system.endswith("你是贴心的助手。")
    assert sent.messages[1:] == body["messages"][1:] and len(sent.messages) == 2
    assert sent.json["model"] == "deepseek-chat"

    assert set(proxy.wait_recorded("alice", 2)) == {"我能吃花生酱吗？", "那就别吃花生酱了。"}


def test_user_from_header_and_a_new_system_message(proxy: RunningProxy) -> None:
    proxy.memory.remember("用户住在上海浦东", user_id="bob")
    body = {"model": "m", "messages": [{"role": "user", "content": "周末上海天气怎么样"}]}
    r = post(proxy.url, body, **{"X-Jiyi-User": "bob", "X-Jiyi-Session": "tg-42"})
    assert r.status_code == 200
    sent = proxy.upstream.requests[-1]
    assert [m["role"] for m in sent.messages] == ["system", "user"]
    assert "用户住在上海浦东" in sent.messages[0]["content"]
    assert not any(k.startswith("x-jiyi") for k in sent.headers)  # jiyi's headers stay here
    proxy.wait_recorded("bob", 2)
    episodes = proxy.memory.get_all(user_id="bob", kinds=["episode"])
    assert {e.session_id for e in episodes} == {"tg-42"}


def test_streaming_is_relayed_and_recorded_when_complete(proxy: RunningProxy) -> None:
    proxy.memory.remember("用户下周三去北京出差", user_id="alice", kind="event")
    proxy.upstream.push(chat("记得带上身份证和充电器。"))
    body = {"model": "m", "user": "alice", "stream": True,
            "messages": [{"role": "user", "content": "出差去北京要准备什么"}]}
    pieces: list[str] = []
    with httpx.stream("POST", f"{proxy.url}/chat/completions", json=body, headers=AUTH, timeout=30) as r:
        assert r.status_code == 200 and r.headers["content-type"].startswith("text/event-stream")
        for line in r.iter_lines():
            if line.startswith("data: ") and line != "data: [DONE]":
                delta = json.loads(line[6:])["choices"][0]["delta"]
                pieces.append(delta.get("content") or "")
    assert "".join(pieces) == "记得带上身份证和充电器。" and len(pieces) > 2
    assert "用户下周三去北京出差" in proxy.upstream.requests[-1].messages[0]["content"]
    assert set(proxy.wait_recorded("alice", 2)) == {"出差去北京要准备什么", "记得带上身份证和充电器。"}


def test_memory_carries_over_between_requests(proxy: RunningProxy) -> None:
    post(proxy.url, {"model": "m", "user": "carol",
                     "messages": [{"role": "user", "content": "我养了一只橘猫，名字叫团子"}]})
    proxy.wait_recorded("carol", 1)
    post(proxy.url, {"model": "m", "user": "carol", "messages": [{"role": "user", "content": "团子最近不爱吃饭"}]})
    system = proxy.upstream.requests[-1].messages[0]
    assert system["role"] == "system" and "团子" in system["content"]


def test_without_a_user_the_request_passes_through_untouched(proxy: RunningProxy) -> None:
    proxy.memory.remember("用户对花生过敏", user_id="alice")
    raw = json.dumps({"model": "m", "messages": [{"role": "user", "content": "花生"}]}).encode()
    r = httpx.post(f"{proxy.url}/chat/completions", content=raw,
                   headers={**AUTH, "Content-Type": "application/json"}, timeout=30)
    assert r.status_code == 200 and r.json()["choices"][0]["message"]["content"] == "ok"
    assert proxy.upstream.requests[-1].body == raw
    time.sleep(0.3)
    proxy.memory.flush()
    assert proxy.memory.users() == ["alice"]  # nothing recorded for anyone else


def test_upstream_errors_are_relayed_and_not_recorded(proxy: RunningProxy) -> None:
    proxy.upstream.push(error(401, "Incorrect API key provided"), error(429, "slow down"))
    r = post(proxy.url, {"model": "m", "user": "dave", "messages": [{"role": "user", "content": "我叫大卫"}]})
    assert r.status_code == 401 and r.json()["error"]["message"] == "Incorrect API key provided"
    r = post(proxy.url, {"model": "m", "user": "dave", "stream": True,
                         "messages": [{"role": "user", "content": "我叫大卫"}]})
    assert r.status_code == 429 and r.json()["error"]["message"] == "slow down"
    time.sleep(0.3)
    proxy.memory.flush()
    assert proxy.memory.get_all(user_id="dave") == []


def test_other_endpoints_pass_through(proxy: RunningProxy) -> None:
    r = httpx.get(f"{proxy.url}/models", headers=AUTH, timeout=30)
    assert r.status_code == 200 and r.json()["data"][0]["id"] == "fake-model"
    assert proxy.upstream.requests[-1].path == "/v1/models"
    r = httpx.post(f"{proxy.url}/embeddings", json={"model": "e", "input": "你好"}, headers=AUTH, timeout=30)
    assert r.status_code == 200 and len(r.json()["data"][0]["embedding"]) == 8


def test_images_are_not_stored(proxy: RunningProxy) -> None:
    picture = "data:image/png;base64," + "iVBORw0KGgo" * 200
    content = [{"type": "text", "text": "这是我家猫团子的照片"}, {"type": "image_url", "image_url": {"url": picture}}]
    r = post(proxy.url, {"model": "m", "user": "erin", "messages": [{"role": "user", "content": content}]})
    assert r.status_code == 200
    assert proxy.upstream.requests[-1].messages[-1]["content"] == content  # the model still sees the image
    texts = proxy.wait_recorded("erin", 1)
    assert "这是我家猫团子的照片" in texts and not any("base64" in t for t in texts)


def test_openai_sdk_works_by_changing_the_base_url(proxy: RunningProxy) -> None:
    openai = pytest.importorskip("openai")
    proxy.memory.remember("用户喜欢简短的回答", user_id="frank")
    proxy.upstream.push(chat("好。"), chat("明白，简短回答。"))
    client = openai.OpenAI(base_url=proxy.url, api_key="sk-test")
    reply = client.chat.completions.create(model="m", user="frank", messages=[{"role": "user", "content": "解释一下回答风格"}])
    assert reply.choices[0].message.content == "好。"
    stream = client.chat.completions.create(model="m", user="frank", stream=True,
                                            messages=[{"role": "user", "content": "回答风格是什么"}])
    assert "".join(c.choices[0].delta.content or "" for c in stream if c.choices) == "明白，简短回答。"
    assert all("用户喜欢简短的回答" in r.messages[0]["content"] for r in proxy.upstream.requests[-2:])
    assert proxy.upstream.requests[-1].headers["authorization"] == "Bearer sk-test"


def test_unreachable_upstream_is_a_502(proxy_memory: Memory) -> None:
    app = create_app(proxy_memory, "http://127.0.0.1:9/v1")
    for url in serve_proxy(app):
        r = post(url, {"model": "m", "user": "x", "messages": [{"role": "user", "content": "在吗"}]})
        assert r.status_code == 502 and "upstream unreachable" in r.json()["error"]["message"]


class SlowEmbedder:
    """A real embedder (the store's default) that takes its time on queries: a stalled recall."""

    def __init__(self, inner: Any, delay: float) -> None:
        self.inner, self.delay = inner, delay
        self.model, self.dim = inner.model, inner.dim

    def embed_passages(self, texts: Sequence[str]) -> np.ndarray:
        return self.inner.embed_passages(texts)  # type: ignore[no-any-return]

    def embed_query(self, text: str) -> np.ndarray:
        time.sleep(self.delay)
        return self.inner.embed_query(text)  # type: ignore[no-any-return]


def test_a_slow_recall_never_blocks_the_chat(tmp_path: Path, upstream: FakeOpenAI) -> None:
    settings = Settings(home=tmp_path)
    inner = registry.create("embedder", settings.embedder, settings)
    with Memory(path=tmp_path / "b.db", home=tmp_path, background_worker=False,
                embedder=SlowEmbedder(inner, delay=3.0)) as mem:
        mem.remember("用户对花生过敏", user_id="alice")
        app = create_app(mem, upstream.base_url, ProxyOptions(recall_timeout=0.3))
        for url in serve_proxy(app):
            started = time.monotonic()
            r = post(url, {"model": "m", "user": "alice", "messages": [{"role": "user", "content": "花生酱"}]})
            assert r.status_code == 200 and time.monotonic() - started < 2.5
            assert [m["role"] for m in upstream.requests[-1].messages] == ["user"]  # sent without memory
