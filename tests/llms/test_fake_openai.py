"""The fake OpenAI server itself, since other test directories rely on it."""

from __future__ import annotations

import httpx
from fake_openai import FakeOpenAI, Recorded, Reply, chat, error, hash_vector

from jiyi.llms.openai_compat import OpenAICompatLLM


def test_queue_wins_over_rule_and_rule_may_fall_through(fake_openai: FakeOpenAI) -> None:
    seen: list[str] = []

    def rule(req: Recorded) -> Reply | None:
        seen.append(req.path)
        return chat("from rule") if "rule" in req.prompt else None

    fake_openai.rule = rule
    fake_openai.push(chat("queued"))
    url = fake_openai.base_url + "/chat/completions"

    def ask(text: str) -> str:
        body = {"model": "m", "messages": [{"role": "user", "content": text}]}
        return str(httpx.post(url, json=body).json()["choices"][0]["message"]["content"])

    assert [ask("rule"), ask("rule"), ask("other")] == ["queued", "from rule", "ok"]
    assert seen == ["/v1/chat/completions"] * 2 and fake_openai.pending() == 0
    assert [r.prompt for r in fake_openai.requests] == ["rule", "rule", "other"]


def test_default_routes(fake_openai: FakeOpenAI) -> None:
    base = fake_openai.base_url
    emb = httpx.post(base + "/embeddings", json={"model": "e", "input": "你好"}).json()
    assert emb["data"][0]["embedding"] == hash_vector("你好")
    assert httpx.get(base + "/models").json()["data"][0]["id"] == "fake-model"
    assert httpx.post(base + "/nothing", json={}).status_code == 404


def test_raw_sse_stream(fake_openai: FakeOpenAI) -> None:
    fake_openai.push(chat("abcdefgh"))
    body = {"model": "m", "messages": [], "stream": True}
    with httpx.stream("POST", fake_openai.base_url + "/chat/completions", json=body) as resp:
        assert resp.headers["content-type"] == "text/event-stream"
        lines = [line for line in resp.iter_lines() if line]
    assert lines[-1] == "data: [DONE]" and all(line.startswith("data: ") for line in lines)
    assert (
        len(lines) == 5
    )  # role chunk, 2 content chunks, finish chunk, [DONE] (no usage: not asked)


def test_stream_request_answered_with_plain_json(fake_openai: FakeOpenAI) -> None:
    fake_openai.push(
        Reply(body=chat("whole answer").body)
    )  # no chunks: the server ignores `stream`
    with OpenAICompatLLM(fake_openai.base_url, "m") as client:
        assert list(client.stream([{"role": "user", "content": "hi"}])) == ["whole answer"]


def test_error_builder_sets_retry_after(fake_openai: FakeOpenAI) -> None:
    fake_openai.push(error(429, "slow", retry_after="7"))
    resp = httpx.post(fake_openai.base_url + "/chat/completions", json={})
    assert resp.status_code == 429 and resp.headers["retry-after"] == "7"
    assert resp.json()["error"]["message"] == "slow"
