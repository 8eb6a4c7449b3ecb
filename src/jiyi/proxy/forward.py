"""Forwarding to the upstream OpenAI-compatible API with httpx, streamed or not.

Request headers pass through (``Authorization`` above all: the proxy holds no key of its
own), minus hop-by-hop headers and jiyi's own ``X-Jiyi-*``. A streamed answer is relayed
chunk by chunk as it arrives while :class:`StreamText` collects the assistant's text from
the server-sent events on the side, so the turn can be recorded once the stream is complete.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Mapping
from typing import Any

import httpx

_DROP_REQUEST = {"host", "content-length", "connection", "keep-alive", "transfer-encoding", "te", "upgrade",
                 "proxy-authorization", "proxy-connection", "accept-encoding", "trailer"}
_DROP_RESPONSE = {"content-length", "connection", "keep-alive", "transfer-encoding", "content-encoding", "trailer",
                  "upgrade", "date", "server"}


def request_headers(headers: Mapping[str, str]) -> dict[str, str]:
    """Headers to send upstream."""
    return {k: v for k, v in headers.items() if k.lower() not in _DROP_REQUEST and not k.lower().startswith("x-jiyi-")}


def response_headers(headers: Mapping[str, str]) -> dict[str, str]:
    """Upstream response headers safe to relay (the body is re-framed by our server)."""
    return {k: v for k, v in headers.items() if k.lower() not in _DROP_RESPONSE}


def reply_text(body: Any) -> str:
    """The assistant text of a non-streamed chat completion ("" for tool calls or odd bodies)."""
    try:
        content = body["choices"][0]["message"].get("content")
    except (KeyError, IndexError, TypeError, AttributeError):
        return ""
    return content.strip() if isinstance(content, str) else ""


class StreamText:
    """Collects the assistant's text from an SSE byte stream fed in arbitrary chunks: chat's
    ``choices[0].delta.content``, or the Responses API's ``response.output_text.delta`` events."""

    def __init__(self) -> None:
        self._pending = b""
        self._parts: list[str] = []
        self.done = False  # saw ``data: [DONE]``
        self.finish_reason: str | None = None

    def feed(self, chunk: bytes) -> None:
        self._pending += chunk
        *lines, self._pending = self._pending.split(b"\n")
        for line in lines:
            self._line(line.strip())

    def _line(self, line: bytes) -> None:
        if not line.startswith(b"data:"):
            return
        data = line[5:].strip()
        if data == b"[DONE]":
            self.done = True
            return
        try:
            event = json.loads(data)
            if isinstance(event, dict) and isinstance(event.get("type"), str):
                self._response_event(event)
                return
            choice = event["choices"][0]
            delta = choice.get("delta") or {}
        except (ValueError, KeyError, IndexError, TypeError, AttributeError):
            return
        if isinstance(choice.get("finish_reason"), str):
            self.finish_reason = choice["finish_reason"]
        piece = delta.get("content") if isinstance(delta, dict) else None
        if isinstance(piece, str):
            self._parts.append(piece)

    def _response_event(self, event: dict[str, Any]) -> None:
        """A Responses API stream event: text deltas, then ``response.completed`` (or failed/incomplete)."""
        kind = event["type"]
        if kind == "response.output_text.delta" and isinstance(event.get("delta"), str):
            self._parts.append(event["delta"])
        elif kind == "response.completed":
            self.finish_reason = "stop"

    @property
    def complete(self) -> bool:
        """The upstream ended the answer properly (a finish reason or ``[DONE]``), not a cut stream."""
        return self.done or self.finish_reason is not None

    @property
    def text(self) -> str:
        return "".join(self._parts).strip()


class Upstream:
    """One shared httpx client for the upstream base URL (e.g. ``https://api.deepseek.com/v1``)."""

    def __init__(self, base_url: str, *, timeout: float = 600.0, transport: httpx.AsyncBaseTransport | None = None):
        self.base_url = base_url.rstrip("/")
        self.client = httpx.AsyncClient(
            timeout=httpx.Timeout(timeout, connect=min(timeout, 15.0)), transport=transport,
            follow_redirects=False)

    def url(self, path: str) -> str:
        """``path`` is relative to ``/v1`` on our side: ``chat/completions`` → ``{base}/chat/completions``."""
        return f"{self.base_url}/{path.lstrip('/')}"

    async def send(self, method: str, path: str, headers: Mapping[str, str], content: bytes,
                   params: Mapping[str, str] | None = None) -> httpx.Response:
        """A whole request and response (body read)."""
        return await self.client.request(method, self.url(path), headers=request_headers(headers),
                                         content=content, params=params)

    async def open_stream(self, path: str, headers: Mapping[str, str], content: bytes) -> httpx.Response:
        """Start a streamed POST; the caller iterates ``aiter_raw`` and must ``aclose`` it."""
        req = self.client.build_request("POST", self.url(path), headers=request_headers(headers), content=content)
        return await self.client.send(req, stream=True)

    async def close(self) -> None:
        await self.client.aclose()


async def relay(response: httpx.Response, collector: StreamText) -> AsyncIterator[bytes]:
    """Yield the upstream's bytes as they come, feeding ``collector``; always closes the response."""
    try:
        async for chunk in response.aiter_bytes():
            collector.feed(chunk)
            yield chunk
    finally:
        await response.aclose()
