"""Request body size limit, as plain ASGI middleware (no buffering, works for chunked bodies).

A declared ``Content-Length`` over the limit is refused without parsing a byte; a
chunked body is counted as it arrives and refused as soon as it passes the limit.
Either way the rest of the body is read and thrown away (up to ``DRAIN_BYTES``) before
the 413 goes out: a client still sending when the server closes would see a
connection reset instead of the answer.
"""

from __future__ import annotations

import json

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from jiyi.server.errors import error_body, payload_too_large

DRAIN_BYTES = 64 * 1024 * 1024


class BodyLimitMiddleware:
    """Answer 413 ``payload_too_large`` to bodies over ``max_bytes``."""

    def __init__(self, app: ASGIApp, max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or self.max_bytes <= 0:
            await self.app(scope, receive, send)
            return
        declared = _content_length(scope)
        if declared is not None and declared > self.max_bytes:
            await _drain(receive)
            await _send_413(send, self.max_bytes)
            return
        seen = 0

        async def counted() -> Message:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.max_bytes:
                    if message.get("more_body", False):
                        await _drain(receive)
                    raise payload_too_large(self.max_bytes)  # FastAPI re-raises it to the error handler
            return message

        await self.app(scope, counted, send)


def _content_length(scope: Scope) -> int | None:
    for name, value in scope.get("headers", ()):
        if name == b"content-length":
            try:
                return int(value)
            except ValueError:
                return None
    return None


async def _drain(receive: Receive) -> None:
    """Read and discard the rest of the request body (at most DRAIN_BYTES)."""
    drained = 0
    while drained <= DRAIN_BYTES:
        message = await receive()
        if message["type"] != "http.request":
            return
        drained += len(message.get("body", b""))
        if not message.get("more_body", False):
            return


async def _send_413(send: Send, limit: int) -> None:
    exc = payload_too_large(limit)
    body = json.dumps(error_body(exc.code, str(exc.detail))).encode()
    await send({"type": "http.response.start", "status": 413,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
                            (b"connection", b"close")]})
    await send({"type": "http.response.body", "body": body})
