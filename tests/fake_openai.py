"""A real OpenAI-compatible HTTP server for tests: scripted replies in, recorded requests out.

It listens on 127.0.0.1 on an ephemeral port in a background thread and speaks
``POST /v1/chat/completions`` (plain and ``stream: true`` server-sent events),
``POST /v1/embeddings`` and ``GET /v1/models``. Clients under test talk to it over a
real socket, so timeouts, connection handling and headers are exercised for real.

What it answers, in order of precedence:

1. the next :class:`Reply` pushed with :meth:`FakeOpenAI.push` (a queue shared by all paths);
2. ``rule(request)`` if a rule function is set (it may return None to fall through);
3. a default: chat answers ``"ok"``, embeddings are deterministic 8-dim vectors.

Builders for the usual cases: :func:`chat`, :func:`chat_json`, :func:`error`,
:func:`slow`, :func:`broken_body`, :func:`embeddings`. Every request is recorded
(:attr:`FakeOpenAI.requests`) so tests can assert on prompts and headers.

Usage::

    with FakeOpenAI() as fake:
        fake.push(error(429, retry_after="0.2"), chat_json({"memories": []}))
        client = OpenAICompatLLM(fake.base_url, "fake-model")
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler
from typing import Any

from scripted_server import ScriptedServer


@dataclass
class Reply:
    """One scripted answer. ``body`` is JSON-encoded unless ``raw`` is given instead."""

    status: int = 200
    body: Any = None
    raw: bytes | None = None
    headers: dict[str, str] = field(default_factory=dict)
    delay: float = 0.0  # seconds to wait before answering (a slow server)
    chunks: list[str] | None = None  # streamed content deltas, when the request asked to stream
    chunk_delay: float = 0.0  # seconds between streamed events (a slow stream a client may leave)
    usage: dict[str, int] | None = None


@dataclass
class Recorded:
    """A request the server received."""

    method: str
    path: str
    headers: dict[str, str]
    body: bytes

    @property
    def json(self) -> Any:
        return json.loads(self.body) if self.body else None

    @property
    def messages(self) -> list[dict[str, Any]]:
        data = self.json
        return list(data.get("messages", [])) if isinstance(data, dict) else []

    @property
    def prompt(self) -> str:
        """Every message's content, joined: what the model was shown."""
        return "\n".join(str(m.get("content", "")) for m in self.messages)


def chat(
    content: str,
    *,
    prompt_tokens: int = 11,
    completion_tokens: int = 7,
    model: str = "fake-model",
    finish_reason: str = "stop",
    delay: float = 0.0,
) -> Reply:
    """A chat completion whose message content is ``content`` (streamed in pieces if asked)."""
    usage = {
        "prompt_tokens": prompt_tokens,
        "completion_tokens": completion_tokens,
        "total_tokens": prompt_tokens + completion_tokens,
    }
    body = {
        "id": "chatcmpl-fake",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": model,
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": content},
                "finish_reason": finish_reason,
            }
        ],
        "usage": usage,
    }
    pieces = [content[i : i + 4] for i in range(0, len(content), 4)] or [""]
    return Reply(body=body, delay=delay, chunks=pieces, usage=usage)


def chat_json(obj: Any, **kw: Any) -> Reply:
    """A chat completion whose content is ``obj`` serialised as JSON."""
    return chat(json.dumps(obj, ensure_ascii=False), **kw)


def error(
    status: int,
    message: str = "fake error",
    *,
    retry_after: str | None = None,
    code: str | None = None,
) -> Reply:
    """An OpenAI-style error body with ``status`` (and a Retry-After header if given)."""
    headers = {"Retry-After": retry_after} if retry_after is not None else {}
    return Reply(
        status=status,
        headers=headers,
        body={"error": {"message": message, "type": "fake_error", "code": code}},
    )


def slow(seconds: float, then: Reply | None = None) -> Reply:
    """``then`` (default a chat "ok") after ``seconds``: for client timeouts."""
    reply = then or chat("ok")
    reply.delay = seconds
    return reply


def broken_body(status: int = 200, text: str = "<html>502 Bad Gateway</html>") -> Reply:
    """A body that is not JSON at all (a misconfigured proxy)."""
    return Reply(status=status, raw=text.encode(), headers={"Content-Type": "text/html"})


def embeddings(
    vectors: list[list[float]], *, prompt_tokens: int = 5, shuffle: bool = False
) -> Reply:
    """An embeddings answer; ``shuffle`` returns items in reverse order (clients must sort by index)."""
    data = [{"object": "embedding", "index": i, "embedding": v} for i, v in enumerate(vectors)]
    if shuffle:
        data.reverse()
    return Reply(
        body={
            "object": "list",
            "data": data,
            "model": "fake-embed",
            "usage": {"prompt_tokens": prompt_tokens, "total_tokens": prompt_tokens},
        }
    )


def hash_vector(text: str, dim: int = 8) -> list[float]:
    """A deterministic pseudo-embedding of ``text`` (the default embeddings answer)."""
    digest = hashlib.sha256(text.encode()).digest()
    return [(digest[i] - 127.5) / 127.5 for i in range(dim)]


Rule = Callable[[Recorded], "Reply | None"]


class FakeOpenAI(ScriptedServer[Recorded, Reply]):
    """The server. Start with :meth:`start` or ``with``; ``base_url`` ends in ``/v1``."""

    name = "fake-openai"

    def __init__(self, rule: Rule | None = None, *, embedding_dim: int = 8) -> None:
        super().__init__(_handler_class)
        self.rule = rule
        self.embedding_dim = embedding_dim

    def _record(self, request: Recorded) -> Reply:
        scripted = self._take(request)
        if scripted is not None:
            return scripted
        if self.rule is not None:
            reply = self.rule(request)
            if reply is not None:
                return reply
        return self._default(request)

    def _default(self, request: Recorded) -> Reply:
        if request.path.endswith("/embeddings"):
            texts = (request.json or {}).get("input", [])
            texts = [texts] if isinstance(texts, str) else texts
            return embeddings([hash_vector(str(t), self.embedding_dim) for t in texts])
        if request.path.endswith("/chat/completions"):
            return chat("ok")
        if request.path.endswith("/models"):
            return Reply(body={"object": "list", "data": [{"id": "fake-model", "object": "model"}]})
        return error(404, f"no route {request.path}")


def _handler_class(fake: FakeOpenAI) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, format: str, *args: Any) -> None:  # quiet
            pass

        def do_GET(self) -> None:
            self._serve(b"")

        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            self._serve(self.rfile.read(length) if length else b"")

        def _serve(self, body: bytes) -> None:
            recorded = Recorded(
                self.command, self.path, {k.lower(): v for k, v in self.headers.items()}, body
            )
            reply = fake._record(recorded)
            if reply.delay and fake._stopping.wait(reply.delay):
                return
            try:
                if _wants_stream(recorded) and reply.status == 200 and reply.chunks is not None:
                    self._send_stream(reply, recorded)
                else:
                    self._send_plain(reply)
            except ConnectionError:
                pass  # the client gave up (a timeout test): nothing to answer

        def _send_plain(self, reply: Reply) -> None:
            payload = reply.raw if reply.raw is not None else json.dumps(reply.body).encode()
            self.send_response(reply.status)
            headers = {"Content-Type": "application/json", **reply.headers}
            for key, value in headers.items():
                self.send_header(key, value)
            self.send_header("Content-Length", str(len(payload)))
            self.end_headers()
            self.wfile.write(payload)

        def _send_stream(self, reply: Reply, recorded: Recorded) -> None:
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.send_header("Cache-Control", "no-cache")
            self.send_header("Connection", "close")
            self.end_headers()
            self.close_connection = True
            for event in _stream_events(reply, recorded):
                self.wfile.write(f"data: {event}\n\n".encode())
                self.wfile.flush()
                if reply.chunk_delay and fake._stopping.wait(reply.chunk_delay):
                    return
            self.wfile.write(b"data: [DONE]\n\n")
            self.wfile.flush()

    return Handler


def _wants_stream(recorded: Recorded) -> bool:
    data = recorded.json if recorded.method == "POST" else None
    return isinstance(data, dict) and bool(data.get("stream"))


def _stream_events(reply: Reply, recorded: Recorded) -> list[str]:
    base = {
        "id": "chatcmpl-fake",
        "object": "chat.completion.chunk",
        "created": int(time.time()),
        "model": (recorded.json or {}).get("model", "fake-model"),
    }
    events = [
        {
            **base,
            "choices": [
                {"index": 0, "delta": {"role": "assistant", "content": ""}, "finish_reason": None}
            ],
        }
    ]
    for piece in reply.chunks or []:
        events.append(
            {**base, "choices": [{"index": 0, "delta": {"content": piece}, "finish_reason": None}]}
        )
    events.append({**base, "choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]})
    options = (recorded.json or {}).get("stream_options") or {}
    if options.get("include_usage") and reply.usage:
        events.append({**base, "choices": [], "usage": reply.usage})
    return [json.dumps(e, ensure_ascii=False) for e in events]
