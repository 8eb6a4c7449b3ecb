"""OpenAICompatLLM against a real local HTTP server (tests/fake_openai.py)."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator

import pytest
from fake_openai import FakeOpenAI, Recorded, Reply, broken_body, chat, chat_json, error, slow

from jiyi import registry
from jiyi.config import Settings
from jiyi.errors import (
    ConfigError,
    MissingDependency,
    ProviderBadOutput,
    ProviderError,
    ProviderUnavailable,
)
from jiyi.llms.endpoint import ProviderRejected, RetryPolicy
from jiyi.llms.openai_compat import OpenAICompatLLM, from_settings
from jiyi.llms.protocol import LLM, Usage

MSGS = [{"role": "user", "content": "你好，请回答 JSON"}]


@pytest.fixture
def make_client(fake_openai: FakeOpenAI) -> Iterator[object]:
    clients: list[OpenAICompatLLM] = []

    def make(**kw: object) -> OpenAICompatLLM:
        kw.setdefault("timeout", 2.0)
        kw.setdefault("backoff", 0.01)
        kw.setdefault("max_retries", 2)
        client = OpenAICompatLLM(fake_openai.base_url, "fake-model", "sk-test", **kw)  # type: ignore[arg-type]
        clients.append(client)
        return client

    yield make
    for c in clients:
        c.close()


def test_complete_returns_text_usage_and_sends_the_request(
    fake_openai: FakeOpenAI, make_client: object
) -> None:
    fake_openai.push(chat("你好！", prompt_tokens=12, completion_tokens=3, model="served-model"))
    client = make_client()  # type: ignore[operator]
    assert isinstance(client, LLM)
    out = client.complete(MSGS, temperature=0.2, max_tokens=50)
    assert out.text == "你好！"
    assert out.usage == Usage(12, 3) and out.usage.total_tokens == 15
    assert out.model == "served-model"
    (req,) = fake_openai.requests
    assert req.path == "/v1/chat/completions"
    assert req.headers["authorization"] == "Bearer sk-test"
    body = req.json
    assert body["model"] == "fake-model" and body["messages"] == MSGS
    assert body["temperature"] == 0.2 and body["max_tokens"] == 50
    assert "response_format" not in body


def test_usage_totals_add_up_over_calls(fake_openai: FakeOpenAI, make_client: object) -> None:
    fake_openai.push(
        chat("a", prompt_tokens=10, completion_tokens=1),
        chat("b", prompt_tokens=20, completion_tokens=2),
    )
    client = make_client()  # type: ignore[operator]
    client.complete(MSGS)
    client.complete(MSGS)
    assert client.usage == Usage(30, 3) and client.calls == 2
    client.reset_usage()
    assert client.usage == Usage(0, 0) and client.calls == 0


def test_json_mode_sends_response_format(fake_openai: FakeOpenAI, make_client: object) -> None:
    fake_openai.push(chat_json({"ok": True}))
    out = make_client().complete(MSGS, json_mode=True)  # type: ignore[operator]
    assert out.text == '{"ok": true}'
    assert fake_openai.requests[0].json["response_format"] == {"type": "json_object"}


def test_json_mode_rejected_falls_back_and_remembers(
    fake_openai: FakeOpenAI, make_client: object
) -> None:
    fake_openai.push(error(400, "response_format is not supported"), chat("{}"), chat("{}"))
    client = make_client()  # type: ignore[operator]
    assert client.complete(MSGS, json_mode=True).text == "{}"
    assert client.supports_json_mode is False
    client.complete(MSGS, json_mode=True)
    sent = [r.json for r in fake_openai.requests]
    assert "response_format" in sent[0]
    assert "response_format" not in sent[1] and "response_format" not in sent[2]


def test_other_400_is_not_retried(fake_openai: FakeOpenAI, make_client: object) -> None:
    fake_openai.push(error(400, "bad model"))
    with pytest.raises(ProviderRejected) as info:
        make_client().complete(MSGS)  # type: ignore[operator]
    assert info.value.status_code == 400 and "bad model" in str(info.value)
    assert len(fake_openai.requests) == 1


@pytest.mark.parametrize(
    ("status", "hint"),
    [(401, "JIYI_LLM_API_KEY"), (403, "JIYI_LLM_API_KEY"), (404, "JIYI_LLM_BASE_URL")],
)
def test_client_errors_say_what_to_check(
    fake_openai: FakeOpenAI, make_client: object, status: int, hint: str
) -> None:
    fake_openai.push(error(status))
    with pytest.raises(ProviderError, match=hint):
        make_client().complete(MSGS)  # type: ignore[operator]
    assert len(fake_openai.requests) == 1


def test_5xx_is_retried_then_succeeds(fake_openai: FakeOpenAI, make_client: object) -> None:
    fake_openai.push(error(500), error(503), chat("third time"))
    assert make_client(max_retries=2).complete(MSGS).text == "third time"  # type: ignore[operator]
    assert len(fake_openai.requests) == 3


def test_5xx_forever_becomes_provider_unavailable(
    fake_openai: FakeOpenAI, make_client: object
) -> None:
    fake_openai.rule = lambda req: error(500, "boom")
    client = make_client(max_retries=2)  # type: ignore[operator]
    with pytest.raises(ProviderUnavailable, match="gave up after 3 attempts"):
        client.complete(MSGS)
    assert len(fake_openai.requests) == 3
    assert client.calls == 0


def test_non_json_5xx_body_is_retried(fake_openai: FakeOpenAI, make_client: object) -> None:
    fake_openai.push(broken_body(502), chat("ok after proxy"))
    assert make_client().complete(MSGS).text == "ok after proxy"  # type: ignore[operator]


def test_429_honours_retry_after(fake_openai: FakeOpenAI, make_client: object) -> None:
    fake_openai.push(error(429, "slow down", retry_after="0.4"), chat("done"))
    start = time.monotonic()
    assert make_client().complete(MSGS).text == "done"  # type: ignore[operator]
    assert time.monotonic() - start >= 0.4
    assert len(fake_openai.requests) == 2


def test_429_honours_retry_after_ms(fake_openai: FakeOpenAI, make_client: object) -> None:
    fake_openai.push(
        Reply(status=429, body={"error": {}}, headers={"retry-after-ms": "300"}), chat("done")
    )
    start = time.monotonic()
    make_client().complete(MSGS)  # type: ignore[operator]
    assert time.monotonic() - start >= 0.3


def test_429_asking_for_too_long_a_pause_fails_at_once(
    fake_openai: FakeOpenAI, make_client: object
) -> None:
    fake_openai.push(error(429, retry_after="3600"))
    with pytest.raises(ProviderUnavailable, match="3600"):
        make_client().complete(MSGS)  # type: ignore[operator]
    assert len(fake_openai.requests) == 1


def test_timeout_is_retried_then_reported(fake_openai: FakeOpenAI, make_client: object) -> None:
    fake_openai.rule = lambda req: slow(3.0)
    client = make_client(timeout=0.3, max_retries=1)  # type: ignore[operator]
    start = time.monotonic()
    with pytest.raises(ProviderUnavailable, match="timed out.*JIYI_LLM_TIMEOUT"):
        client.complete(MSGS)
    assert len(fake_openai.requests) == 2
    assert time.monotonic() - start < 2.5


def test_one_timeout_then_success(fake_openai: FakeOpenAI, make_client: object) -> None:
    fake_openai.push(slow(2.0), chat("fast now"))
    assert make_client(timeout=0.3).complete(MSGS).text == "fast now"  # type: ignore[operator]


def test_connection_refused_names_the_setting() -> None:
    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    client = OpenAICompatLLM(
        f"http://127.0.0.1:{port}/v1", "m", max_retries=1, backoff=0.01, timeout=1
    )
    with pytest.raises(ProviderUnavailable, match="connection failed.*JIYI_LLM_BASE_URL"):
        client.complete(MSGS)
    client.close()


@pytest.mark.parametrize(
    "reply",
    [
        broken_body(200, "this is not json"),
        Reply(body={"choices": []}),
        Reply(
            body={
                "choices": [
                    {"message": {"role": "assistant", "content": ""}, "finish_reason": "length"}
                ]
            }
        ),
        Reply(
            body={"choices": [{"message": {"role": "assistant", "content": None, "refusal": "no"}}]}
        ),
    ],
)
def test_unusable_answers_are_bad_output(
    fake_openai: FakeOpenAI, make_client: object, reply: Reply
) -> None:
    fake_openai.push(reply)
    with pytest.raises(ProviderBadOutput):
        make_client().complete(MSGS)  # type: ignore[operator]
    assert len(fake_openai.requests) == 1


def test_no_key_sends_no_authorization(fake_openai: FakeOpenAI) -> None:
    with OpenAICompatLLM(fake_openai.base_url + "/chat/completions/", "m") as client:
        client.complete(MSGS)
    assert client.base_url == fake_openai.base_url
    assert "authorization" not in fake_openai.requests[0].headers


def test_concurrency_limit_and_thread_safe_totals(
    fake_openai: FakeOpenAI, make_client: object
) -> None:
    lock = threading.Lock()
    state = {"now": 0, "max": 0}

    def rule(req: Recorded) -> Reply:
        with lock:
            state["now"] += 1
            state["max"] = max(state["max"], state["now"])
        time.sleep(0.15)
        with lock:
            state["now"] -= 1
        return chat("x", prompt_tokens=3, completion_tokens=2)

    fake_openai.rule = rule
    client = make_client(concurrency=2)  # type: ignore[operator]
    threads = [threading.Thread(target=client.complete, args=(MSGS,)) for _ in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert state["max"] == 2
    assert client.calls == 6 and client.usage == Usage(18, 12)


def test_stream_yields_deltas_and_counts_usage(
    fake_openai: FakeOpenAI, make_client: object
) -> None:
    fake_openai.push(chat("流式输出的一段文字", prompt_tokens=9, completion_tokens=4))
    client = make_client()  # type: ignore[operator]
    pieces = list(client.stream(MSGS))
    assert len(pieces) > 1 and "".join(pieces) == "流式输出的一段文字"
    body = fake_openai.requests[0].json
    assert body["stream"] is True and body["stream_options"] == {"include_usage": True}
    assert client.usage == Usage(9, 4)


def test_stream_retries_before_the_first_byte(fake_openai: FakeOpenAI, make_client: object) -> None:
    fake_openai.push(error(503), chat("hello"))
    assert "".join(make_client().stream(MSGS)) == "hello"  # type: ignore[operator]
    assert len(fake_openai.requests) == 2


def test_retry_policy_backoff_grows_with_jitter_and_caps() -> None:
    policy = RetryPolicy(base_delay=1.0, max_delay=8.0)
    for attempt, cap in [(0, 1.0), (1, 2.0), (2, 4.0), (3, 8.0), (6, 8.0)]:
        delays = {policy.delay(attempt, None) for _ in range(20)}
        assert all(cap / 2 <= d <= cap for d in delays)
        assert len(delays) > 1  # jittered
    assert 5.0 <= policy.delay(0, 5.0) <= 5.5


def test_from_settings_requires_url_and_model() -> None:
    with pytest.raises(ConfigError, match="JIYI_LLM_BASE_URL and JIYI_LLM_MODEL"):
        from_settings(Settings())
    with pytest.raises(ConfigError, match="JIYI_LLM_MODEL"):
        from_settings(Settings(llm_base_url="deepseek"))


def test_registry_builds_client_from_environment(
    monkeypatch: pytest.MonkeyPatch, fake_openai: FakeOpenAI
) -> None:
    monkeypatch.setenv("JIYI_LLM_BASE_URL", fake_openai.base_url)
    monkeypatch.setenv("JIYI_LLM_MODEL", "env-model")
    monkeypatch.setenv("JIYI_LLM_API_KEY", "sk-env")
    client = registry.create("llm", "openai", Settings(llm_max_retries=0))
    assert isinstance(client, OpenAICompatLLM) and client.model == "env-model"
    fake_openai.push(error(500))
    with pytest.raises(ProviderUnavailable, match="after 1 attempt\\)"):
        client.complete(MSGS)  # max_retries from the explicit argument
    assert fake_openai.requests[0].headers["authorization"] == "Bearer sk-env"
    client.close()


def test_preset_name_as_base_url() -> None:
    client = from_settings(Settings(llm_base_url="qwen", llm_model="qwen-plus"))
    assert client.base_url == "https://dashscope.aliyuncs.com/compatible-mode/v1"
    client.close()
    with pytest.raises(ConfigError, match="http"):
        OpenAICompatLLM("ftp://example", "m")


def test_missing_httpx_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    import importlib
    import sys

    monkeypatch.setitem(sys.modules, "httpx", None)  # what an install without the extra looks like
    monkeypatch.delitem(sys.modules, "jiyi.llms.endpoint")
    monkeypatch.delitem(sys.modules, "jiyi.llms.openai_compat")
    with pytest.raises(MissingDependency, match=r"pip install 'jiyi\[llm\]'"):
        importlib.import_module("jiyi.llms.openai_compat")
