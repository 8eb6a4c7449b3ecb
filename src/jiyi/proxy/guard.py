"""Who may talk to the proxy: browsers from allowed origins only, JSON bodies only, the proxy key.

A plain ASGI middleware in front of every ``/v1/*`` route, checked before a byte of the body is
read:

- **origin**: a request carrying an ``Origin`` header (every browser cross-origin request does,
  simple ``text/plain`` POSTs included) is refused with 403 unless the origin is in
  ``allow_origins``; so is a browser request marked ``Sec-Fetch-Site: cross-site``. Allowed
  origins get CORS headers, and their preflight ``OPTIONS`` is answered (204); others' is 403.
  Server-side clients (SDKs, curl, bots) send no ``Origin`` and are not affected.
- **content type**: ``POST /v1/chat/completions`` must be ``application/json`` (415 otherwise);
  other ``/v1`` bodies must be JSON or ``multipart/form-data`` (file and audio uploads).
- **proxy key**: when set, every ``/v1`` request must carry it in ``X-Jiyi-Proxy-Key``, else 401
  (``Authorization`` stays the upstream's key). The key is never forwarded upstream.

Refusals use OpenAI's error shape, so SDKs show the message.
"""

from __future__ import annotations

import hmac
import json
from collections.abc import Iterable
from dataclasses import dataclass

from starlette.types import ASGIApp, Receive, Scope, Send

PROXY_KEY_HEADER = "x-jiyi-proxy-key"
_ALLOW_HEADERS = "authorization, content-type, x-jiyi-user, x-jiyi-session, x-jiyi-proxy-key, openai-organization"


@dataclass(frozen=True, slots=True)
class GuardOptions:
    allow_origins: tuple[str, ...] = ()
    proxy_key: str | None = None


def normalize_origin(origin: str) -> str:
    """``https://Chat.Example.com/`` → ``https://chat.example.com`` (scheme://host[:port], lower case)."""
    return origin.strip().rstrip("/").lower()


class ProxyGuard:
    """Refuse foreign browser origins, non-JSON bodies and requests without the proxy key."""

    def __init__(self, app: ASGIApp, options: GuardOptions) -> None:
        self.app = app
        self.allowed = frozenset(normalize_origin(o) for o in options.allow_origins)
        self.key = options.proxy_key.encode() if options.proxy_key else None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or not str(scope.get("path", "")).startswith("/v1"):
            await self.app(scope, receive, send)
            return
        headers = _headers(scope)
        origin = headers.get("origin")
        method = scope.get("method", "GET")
        if origin is not None or headers.get("sec-fetch-site") == "cross-site":
            if origin is None or normalize_origin(origin) not in self.allowed:
                await _refuse(send, 403, "forbidden_origin",
                              "jiyi proxy: requests from this web origin are refused; start the proxy with "
                              "--allow-origin ORIGIN to allow a web app")
                return
            if method == "OPTIONS" and "access-control-request-method" in headers:
                await _preflight(send, origin)
                return
            send = _with_cors(send, origin)
        if self.key is not None:
            presented = headers.get(PROXY_KEY_HEADER, "").encode()
            if not hmac.compare_digest(presented, self.key):
                await _refuse(send, 401, "invalid_proxy_key",
                              "jiyi proxy: send the proxy key in the X-Jiyi-Proxy-Key header")
                return
        if method in ("POST", "PUT", "PATCH") and not _acceptable_type(str(scope["path"]), headers):
            await _refuse(send, 415, "unsupported_media_type",
                          "jiyi proxy: send the body as JSON with 'Content-Type: application/json'")
            return
        await self.app(scope, receive, send)


def _headers(scope: Scope) -> dict[str, str]:
    out: dict[str, str] = {}
    for name, value in scope.get("headers", ()):
        out[name.decode("latin-1").lower()] = value.decode("latin-1")
    return out


def _acceptable_type(path: str, headers: dict[str, str]) -> bool:
    media = headers.get("content-type", "").split(";", 1)[0].strip().lower()
    is_json = media == "application/json" or (media.startswith("application/") and media.endswith("+json"))
    if path.rstrip("/") == "/v1/chat/completions":
        return is_json
    if not media:  # no body declared (e.g. a POST without one): nothing to parse
        return headers.get("content-length", "0") == "0" and "transfer-encoding" not in headers
    return is_json or media == "multipart/form-data"


def _cors_headers(origin: str) -> list[tuple[bytes, bytes]]:
    return [(b"access-control-allow-origin", origin.encode("latin-1")), (b"vary", b"Origin")]


def _with_cors(send: Send, origin: str) -> Send:
    async def wrapped(message: dict[str, object]) -> None:
        if message["type"] == "http.response.start":
            existing = list(message.get("headers", ()))  # type: ignore[call-overload]
            message = {**message, "headers": [*existing, *_cors_headers(origin)]}
        await send(message)

    return wrapped  # type: ignore[return-value]


async def _preflight(send: Send, origin: str) -> None:
    headers = [*_cors_headers(origin), (b"access-control-allow-methods", b"GET, POST, PUT, PATCH, DELETE"),
               (b"access-control-allow-headers", _ALLOW_HEADERS.encode()), (b"access-control-max-age", b"600"),
               (b"content-length", b"0")]
    await send({"type": "http.response.start", "status": 204, "headers": headers})
    await send({"type": "http.response.body", "body": b""})


async def _refuse(send: Send, status: int, code: str, message: str) -> None:
    body = json.dumps({"error": {"message": message, "type": "invalid_request_error", "code": code}}).encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]})
    await send({"type": "http.response.body", "body": body})


def origins(values: Iterable[str]) -> tuple[str, ...]:
    """The ``--allow-origin`` values, normalised; ``*`` is refused (name each web app)."""
    out = tuple(normalize_origin(v) for v in values if v.strip())
    if "*" in out:
        from jiyi.errors import InvalidInput

        raise InvalidInput("--allow-origin '*' would let every web page write into users' memories; "
                           "name each origin (e.g. https://chat.example.com)")
    return out
