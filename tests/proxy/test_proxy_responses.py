"""The Responses API (POST /v1/responses) through the proxy gets memory like chat completions:
recall into ``instructions``, the turn recorded once the answer is delivered, streamed or not.
Driven with the real OpenAI SDK; the upstream is the fake server answering in the Responses shape."""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest
from fake_openai import Reply
from proxy_harness import RunningProxy

openai = pytest.importorskip("openai")


def response(text: str) -> Reply:
    return Reply(body={
        "id": "resp_fake", "object": "response", "created_at": 1764720000, "status": "completed", "model": "m",
        "output": [{"type": "message", "id": "msg_1", "status": "completed", "role": "assistant",
                    "content": [{"type": "output_text", "text": text, "annotations": []}]}],
        "parallel_tool_calls": True, "tool_choice": "auto", "tools": [],
    })


def streamed(text: str) -> Reply:
    events: list[dict[str, Any]] = [{"type": "response.created", "sequence_number": 0,
                                     "response": {"id": "resp_fake", "object": "response", "status": "in_progress",
                                                  "output": [], "model": "m", "created_at": 1764720000}}]
    for i in range(0, len(text), 3):
        events.append({"type": "response.output_text.delta", "sequence_number": len(events), "item_id": "msg_1",
                       "output_index": 0, "content_index": 0, "delta": text[i:i + 3]})
    events.append({"type": "response.completed", "sequence_number": len(events),
                   "response": {"id": "resp_fake", "object": "response", "status": "completed", "model": "m",
                                "created_at": 1764720000, "output": []}})
    raw = "".join(f"event: {e['type']}\ndata: {json.dumps(e)}\n\n" for e in events).encode()
    return Reply(raw=raw, headers={"Content-Type": "text/event-stream"})


def test_a_response_gets_memory_and_is_recorded(proxy: RunningProxy) -> None:
    proxy.memory.remember("The user is vegetarian", user_id="rita")
    proxy.upstream.push(response("Try the mushroom risotto."))
    client = openai.OpenAI(base_url=proxy.url, api_key="sk-test")
    got = client.responses.create(model="m", user="rita", instructions="Answer in one line.",
                                  input="What should I cook tonight?")
    assert got.output_text == "Try the mushroom risotto."
    sent = proxy.upstream.requests[-1]
    assert sent.path.endswith("/responses")
    instructions = sent.json["instructions"]
    assert instructions.startswith("<memories>") and "vegetarian" in instructions
    assert instructions.endswith("Answer in one line.") and sent.json["input"] == "What should I cook tonight?"
    assert set(proxy.wait_recorded("rita", 2)) == {"What should I cook tonight?", "Try the mushroom risotto."}


def test_a_streamed_response_gets_memory_and_is_recorded_when_complete(proxy: RunningProxy) -> None:
    proxy.memory.remember("The user plays the cello", user_id="sam")
    proxy.upstream.push(streamed("Bach's cello suites, then."))
    client = openai.OpenAI(base_url=proxy.url, api_key="sk-test")
    stream = client.responses.create(model="m", user="sam", stream=True, input=[
        {"role": "user", "content": "I want to practise tonight"},
        {"role": "assistant", "content": "Great, what instrument?"},
        {"role": "user", "content": [{"type": "input_text", "text": "Suggest a piece for my instrument"}]}])
    text = "".join(e.delta for e in stream if e.type == "response.output_text.delta")
    assert text == "Bach's cello suites, then."
    assert "cello" in proxy.upstream.requests[-1].json["instructions"]
    assert set(proxy.wait_recorded("sam", 2)) == {"Suggest a piece for my instrument", "Bach's cello suites, then."}


def test_a_response_without_a_user_passes_through_untouched(proxy: RunningProxy) -> None:
    proxy.upstream.push(response("hi"))
    body = {"model": "m", "input": "hello"}
    r = httpx.post(f"{proxy.url}/responses", json=body, headers={"Authorization": "Bearer k"})
    assert r.status_code == 200 and proxy.upstream.requests[-1].json == body


@pytest.mark.parametrize("path", ["chat/completions", "responses"])
@pytest.mark.parametrize("user", [42, ["alice"], {"id": "alice"}, True])
def test_a_user_that_is_not_a_string_is_a_400(proxy: RunningProxy, path: str, user: Any) -> None:
    before = len(proxy.upstream.requests)
    body = {"model": "m", "user": user, "input": "hi", "messages": [{"role": "user", "content": "hi"}]}
    r = httpx.post(f"{proxy.url}/{path}", json=body, headers={"Authorization": "Bearer k"})
    assert r.status_code == 400 and "`user` must be a string" in r.json()["error"]["message"]
    assert len(proxy.upstream.requests) == before
