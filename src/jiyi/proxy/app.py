"""The memory-adding OpenAI-compatible proxy (``jiyi proxy --upstream URL``).

For ``POST /v1/chat/completions`` and ``POST /v1/responses`` (the Responses API) with a known
user (``X-Jiyi-User`` header or the ``user`` field, which must be a string):

1. recall: ``build_context`` for the last user message, with the messages before it as
   ``recent`` (what a follow-up refers to), bounded by ``recall_timeout`` (a slow
   or failing memory never blocks the chat: the request then goes out unchanged);
2. inject the block into the first system message (:func:`~jiyi.proxy.messages.inject_context`),
   or in front of a Responses request's ``instructions``;
3. forward to the upstream, streamed or not, passing the client's headers through;
4. once the answer reached the client (for a stream: after its last chunk was written), record
   the turn, user message plus assistant reply, with ``Memory.add``. A client that disconnected
   or timed out before the end records nothing.

Without a user, and for every other ``/v1/*`` path, the proxy is a plain pass-through, so
any OpenAI client works unchanged with only its base URL pointed here.

In front of every ``/v1`` route (:mod:`jiyi.proxy.guard`): browser requests from origins not
allowed (``--allow-origin``) are refused, bodies must be JSON, the proxy key (``--proxy-key``)
is checked when set, and bodies over ``max_body_bytes`` get 413. User ids follow the one rule
(:mod:`jiyi.userid`): an invalid one is refused with 400, never trimmed into another user.
"""

from __future__ import annotations

import asyncio
import functools
import json
import logging
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import anyio.to_thread
from fastapi import FastAPI, Request
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.responses import JSONResponse, Response, StreamingResponse

from jiyi.errors import JiyiError
from jiyi.proxy.delivery import DeliveredResponse, DeliveredStream, OnDelivered
from jiyi.proxy.forward import StreamText, Upstream, relay, reply_text, response_headers
from jiyi.proxy.guard import GuardOptions, ProxyGuard, origins
from jiyi.proxy.messages import (
    RECENT_TURNS,
    inject_context,
    inject_instructions,
    input_items,
    last_user_text,
    pick_session,
    pick_user,
    recent_turns,
    response_text,
)
from jiyi.redact import redact
from jiyi.server.limits import BodyLimitMiddleware
from jiyi.userid import user_id_problem

#: The same request body limit as ``jiyi serve`` (its ServiceOptions.max_body_bytes).
MAX_BODY_BYTES = 2 * 1024 * 1024

if TYPE_CHECKING:
    import httpx

    from jiyi.memory import Memory

log = logging.getLogger("jiyi.proxy")


@dataclass(slots=True, frozen=True)
class ProxyOptions:
    """How the proxy recalls: ``budget_tokens`` for the block, ``recall_timeout`` seconds at most."""

    budget_tokens: int = 800
    recall_timeout: float = 3.0
    record: bool = True
    allow_origins: tuple[str, ...] = ()
    """Web origins (``https://chat.example.com``) whose browser requests are allowed; none by default."""
    proxy_key: str | None = None
    """When set, clients must send it in ``X-Jiyi-Proxy-Key``."""
    max_body_bytes: int = MAX_BODY_BYTES
    upstream_timeout: float = 120.0
    """Seconds the upstream may take to answer (between bytes, for a stream) before the client gets 504."""
    recent_turns: int = RECENT_TURNS
    """How many of the conversation's previous messages recall reads besides the question (0: none)."""


@dataclass(slots=True, frozen=True)
class Turn:
    """Who is talking and what they asked, for one memory-enabled request."""

    user_id: str
    session_id: str | None
    question: str
    model: str | None
    recent: tuple[dict[str, str], ...] = ()
    """The conversation's messages before the question (what a follow-up refers to)."""


@dataclass(slots=True, frozen=True)
class Dialect:
    """How one memory-enabled route reads and rewrites its requests."""

    path: str
    messages: Callable[[dict[str, Any]], list[Any] | None]
    """The conversation in the request (None: not a request memory applies to)."""
    inject: Callable[[dict[str, Any], str], dict[str, Any]]
    reply: Callable[[Any], str]
    """The assistant's text in a whole (non-streamed) answer."""


def _chat_messages(body: dict[str, Any]) -> list[Any] | None:
    return body["messages"] if isinstance(body.get("messages"), list) else None


CHAT = Dialect("chat/completions", _chat_messages,
               lambda body, block: {**body, "messages": inject_context(body["messages"], block)}, reply_text)
RESPONSES = Dialect("responses", lambda body: input_items(body) if "input" in body else None,
                    inject_instructions, response_text)


class MemoryProxy:
    """The request handlers, bound to one Memory and one upstream."""

    def __init__(self, memory: Memory, upstream: Upstream, options: ProxyOptions) -> None:
        self.memory = memory
        self.upstream = upstream
        self.options = options

    async def chat(self, request: Request) -> Response:
        return await self.converse(request, CHAT)

    async def responses(self, request: Request) -> Response:
        return await self.converse(request, RESPONSES)

    async def converse(self, request: Request, dialect: Dialect) -> Response:
        """Recall, inject, forward, record: one memory-enabled request of ``dialect``'s route."""
        raw = await request.body()
        try:
            body = json.loads(raw)
        except ValueError:
            body = None
        if isinstance(body, dict) and body.get("user") is not None and not isinstance(body["user"], str):
            return _error(400, "invalid_user", "jiyi proxy: the request's `user` must be a string (the id of the "
                                               f"user whose memory this is), not {type(body['user']).__name__}")
        user_id = pick_user(body, request.headers) if isinstance(body, dict) else None
        if user_id is not None and (problem := user_id_problem(user_id)) is not None:
            return _error(400, "invalid_user", f"jiyi proxy: the user id {problem}: {user_id!r}")
        messages = dialect.messages(body) if isinstance(body, dict) else None
        if not isinstance(body, dict) or user_id is None or messages is None:
            return await self.passthrough(request, dialect.path, raw)
        turn = Turn(user_id, pick_session(request.headers), last_user_text(messages),
                    body.get("model") if isinstance(body.get("model"), str) else None, tuple(recent_turns(messages, self.options.recent_turns)))
        if turn.question:
            block = await self.recall(turn)
            if block:
                body = dialect.inject(body, block)
        content = json.dumps(body, ensure_ascii=False).encode()
        if body.get("stream") is True:
            return await self.stream(request, dialect.path, content, turn)
        upstream = await self.upstream.send("POST", dialect.path, request.headers, content)
        task = None
        if upstream.is_success:
            task = self.record_later(turn, dialect.reply(_json_or_none(upstream)))
        return _relay_whole(upstream, task)

    async def stream(self, request: Request, path: str, content: bytes, turn: Turn) -> Response:
        upstream = await self.upstream.open_stream(path, request.headers, content)
        if not upstream.is_success:
            await upstream.aread()
            await upstream.aclose()
            return _relay_whole(upstream, None)
        collector = StreamText()
        return DeliveredStream(relay(upstream, collector), upstream.status_code, response_headers(upstream.headers),
                               functools.partial(self._record_stream, turn, collector))

    async def recall(self, turn: Turn) -> str:
        """The memory block for the question, or "" when recall fails or is too slow."""
        call = functools.partial(self.memory.build_context, turn.question, user_id=turn.user_id,
                                 budget_tokens=self.options.budget_tokens, recent=list(turn.recent) or None)
        try:
            return await asyncio.wait_for(anyio.to_thread.run_sync(call), self.options.recall_timeout)
        except (asyncio.TimeoutError, JiyiError) as exc:
            log.warning("recall skipped for this request: %s", type(exc).__name__)
            return ""

    def record_later(self, turn: Turn, reply: str) -> OnDelivered:
        if not self.options.record or not turn.question:
            return None
        return functools.partial(self.record, turn, reply)

    async def _record_stream(self, turn: Turn, collector: StreamText) -> None:
        if collector.complete and self.options.record and turn.question:
            await self.record(turn, collector.text)

    async def record(self, turn: Turn, reply: str) -> None:
        """Store the user message and the reply (extraction continues in jiyi's worker)."""
        messages = [{"role": "user", "content": turn.question}]
        if reply:
            messages.append({"role": "assistant", "content": reply})
        call = functools.partial(self.memory.add, messages, user_id=turn.user_id, session_id=turn.session_id,
                                 metadata={"source": "proxy", "model": turn.model})
        try:
            await anyio.to_thread.run_sync(call)
        except JiyiError as exc:
            log.warning("turn not recorded: %s", exc)

    async def passthrough(self, request: Request, path: str, raw: bytes | None = None) -> Response:
        """Forward any request unchanged (streamed answers stay streamed)."""
        content = raw if raw is not None else await request.body()
        if request.method == "POST" and _wants_stream(content):
            upstream = await self.upstream.open_stream(path, request.headers, content)
            return StreamingResponse(relay(upstream, StreamText()), status_code=upstream.status_code,
                                     headers=response_headers(upstream.headers))
        upstream = await self.upstream.send(request.method, path, request.headers, content,
                                            params=dict(request.query_params))
        return _relay_whole(upstream, None)


def create_app(memory: Memory, upstream: str | Upstream, options: ProxyOptions | None = None) -> FastAPI:
    """The proxy app; ``memory`` stays the caller's to close, the upstream client is closed on shutdown."""
    opts = options or ProxyOptions()
    up = upstream if isinstance(upstream, Upstream) else Upstream(upstream, timeout=opts.upstream_timeout)
    proxy = MemoryProxy(memory, up, opts)

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        yield
        await up.close()

    app = FastAPI(title="jiyi memory proxy", lifespan=lifespan, docs_url=None, redoc_url=None, openapi_url=None)
    app.state.proxy = proxy
    app.add_middleware(BodyLimitMiddleware, max_bytes=opts.max_body_bytes)
    app.add_middleware(ProxyGuard, options=GuardOptions(origins(opts.allow_origins), opts.proxy_key))

    @app.exception_handler(StarletteHTTPException)
    async def http_error(_: Request, exc: StarletteHTTPException) -> Response:  # 413 of a chunked body, 404, 405
        return _error(exc.status_code, "payload_too_large" if exc.status_code == 413 else "http_error",
                      f"jiyi proxy: {redact(exc.detail)}")

    @app.get("/healthz")
    async def healthz() -> dict[str, str]:
        return {"status": "ok", "upstream": redact(up.base_url)}

    @app.post("/v1/chat/completions")
    async def chat_completions(request: Request) -> Response:
        return await _guard(proxy.chat(request))

    @app.post("/v1/responses")
    async def responses(request: Request) -> Response:
        return await _guard(proxy.responses(request))

    @app.api_route("/v1/{path:path}", methods=["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"])
    async def other(request: Request, path: str) -> Response:
        return await _guard(proxy.passthrough(request, path))

    return app


def serve(memory: Memory, upstream: str, *, host: str = "127.0.0.1", port: int = 8787,
          options: ProxyOptions | None = None) -> None:
    """Run the proxy with uvicorn until interrupted."""
    import uvicorn

    from jiyi.redact import install_log_redaction
    from jiyi.text.tokens import warm

    install_log_redaction()
    warm()  # jieba's dictionary and the stemmer now, not on the first request

    uvicorn.run(create_app(memory, upstream, options), host=host, port=port, log_level="info")


async def _guard(call: Any) -> Response:
    """Upstream unreachable → 502 in OpenAI's error shape (clients show the message)."""
    import httpx

    try:
        return await call  # type: ignore[no-any-return]
    except httpx.TimeoutException as exc:
        log.warning("upstream timed out: %s", type(exc).__name__)
        return _error(504, "upstream_timeout", f"jiyi proxy: the upstream did not answer in time "
                                               f"({type(exc).__name__}); raise --upstream-timeout if it is slow")
    except httpx.HTTPError as exc:
        log.warning("upstream request failed: %s", type(exc).__name__)
        return JSONResponse({"error": {"message": f"jiyi proxy: upstream unreachable ({type(exc).__name__})",
                                       "type": "upstream_error", "code": None}}, status_code=502)


def _error(status: int, code: str, message: str) -> JSONResponse:
    return JSONResponse({"error": {"message": message, "type": "invalid_request_error" if status < 500
                                   else "upstream_error", "code": code}}, status_code=status)


def _relay_whole(upstream: httpx.Response, on_delivered: OnDelivered) -> Response:
    return DeliveredResponse(upstream.content, upstream.status_code, response_headers(upstream.headers),
                             on_delivered)


def _json_or_none(response: httpx.Response) -> Any:
    try:
        return response.json()
    except ValueError:
        return None


def _wants_stream(raw: bytes) -> bool:
    try:
        body = json.loads(raw)
    except ValueError:
        return False
    return isinstance(body, dict) and body.get("stream") is True
