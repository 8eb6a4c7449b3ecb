"""Responses that run an action only once the answer reached the client.

Starlette's background tasks run even when the client has gone (uvicorn drops what is sent to
a closed connection), so a client that timed out would still get its turn recorded. These
responses send the answer, then check that every send went through and the connection is
still open, and only then call ``on_delivered``. A streamed answer counts as delivered after its
last chunk was written; a client that disconnects midway records nothing.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable, Mapping

import anyio
import anyio.lowlevel
from starlette.responses import Response
from starlette.types import Receive, Scope, Send

OnDelivered = Callable[[], Awaitable[None]] | None


def _raw_headers(headers: Mapping[str, str], media_type: str | None) -> list[tuple[bytes, bytes]]:
    out = [(k.lower().encode("latin-1"), v.encode("latin-1")) for k, v in headers.items()]
    if media_type and not any(k == b"content-type" for k, _ in out):
        out.append((b"content-type", media_type.encode("latin-1")))
    return out


class _Watch:
    """Listens for ``http.disconnect`` while the answer is sent; ``early`` when it came before the end.

    (Servers report a disconnect for every receive once the response is complete, so only one
    seen before the last send counts.)
    """

    def __init__(self) -> None:
        self.finished = False
        self.early = False
        self.scope: anyio.CancelScope | None = None

    async def listen(self, receive: Receive) -> None:
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                self.early = self.early or not self.finished
                if self.early and self.scope is not None:
                    self.scope.cancel()  # stop relaying: nobody is reading
                return


class _Delivering(Response):
    """Sends the start, the chunks and the end; runs ``on_delivered`` when the client stayed to the end.

    A Starlette Response (so FastAPI passes it through as it is) with its own ``__call__``.
    """

    def __init__(self, status_code: int, headers: list[tuple[bytes, bytes]], on_delivered: OnDelivered) -> None:
        super().__init__(status_code=status_code)
        self.raw_headers, self.on_delivered = headers, on_delivered

    def chunks(self) -> AsyncIterator[bytes]:
        raise NotImplementedError

    async def close(self) -> None:
        return None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        watch = _Watch()
        try:
            async with anyio.create_task_group() as tg:
                watch.scope = tg.cancel_scope
                tg.start_soon(watch.listen, receive)
                await anyio.lowlevel.checkpoint()  # a client already gone is noticed before the first byte
                await self._send_all(send, watch)
                tg.cancel_scope.cancel()
        except OSError:  # the connection broke under a send
            watch.early = True
        finally:
            await self.close()
        if watch.finished and not watch.early and self.on_delivered is not None:
            await self.on_delivered()

    async def _send_all(self, send: Send, watch: _Watch) -> None:
        if watch.early:
            return
        await send({"type": "http.response.start", "status": self.status_code, "headers": self.raw_headers})
        async for chunk in self.chunks():
            if watch.early:
                return
            await send({"type": "http.response.body", "body": chunk, "more_body": True})
        await anyio.lowlevel.checkpoint()
        if watch.early:
            return
        watch.finished = True
        await send({"type": "http.response.body", "body": b"", "more_body": False})


class DeliveredResponse(_Delivering):
    """A whole response; ``on_delivered`` runs after it was sent to a client still connected."""

    def __init__(self, body: bytes, status_code: int, headers: Mapping[str, str],
                 on_delivered: OnDelivered = None) -> None:
        raw = [*_raw_headers(headers, None), (b"content-length", str(len(body)).encode())]
        super().__init__(status_code, raw, on_delivered)
        self._payload = body

    async def chunks(self) -> AsyncIterator[bytes]:
        if self._payload:
            yield self._payload


class DeliveredStream(_Delivering):
    """A streamed response relayed chunk by chunk; ``on_delivered`` runs after the last chunk was
    written to a client still connected."""

    def __init__(self, chunks: AsyncIterator[bytes], status_code: int, headers: Mapping[str, str],
                 on_delivered: OnDelivered = None) -> None:
        super().__init__(status_code, _raw_headers(headers, "text/event-stream"), on_delivered)
        self._chunks = chunks

    def chunks(self) -> AsyncIterator[bytes]:
        return self._chunks

    async def close(self) -> None:
        aclose = getattr(self._chunks, "aclose", None)
        if aclose is not None:
            await aclose()
