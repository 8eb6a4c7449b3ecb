"""The one place where exceptions become HTTP responses.

Every error body has the same shape and a stable ``code`` that clients branch on
(``jiyi.client`` turns codes back into the same exception classes ``Memory``
raises)::

    {"error": {"code": "not_found", "message": "no memory 'x' for user 'u1'"}}

Validation errors add ``details`` (where and what, never the rejected input: it may
be a user's private text).
"""

from __future__ import annotations

import json
import logging
import re
import sqlite3
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from jiyi.errors import (
    ConfigError,
    EmbeddingMismatch,
    InvalidInput,
    JiyiError,
    MissingDependency,
    NotFound,
    ProviderBadOutput,
    ProviderError,
    ProviderUnavailable,
    ScopeViolation,
    StoreError,
    WriteConflict,
)
from jiyi.redact import redact

log = logging.getLogger("jiyi.server")

#: Core exception → (HTTP status, stable code). Most specific first.
ERROR_MAP: tuple[tuple[type[JiyiError], int, str], ...] = (
    (InvalidInput, 422, "invalid_input"),
    (NotFound, 404, "not_found"),
    (ScopeViolation, 403, "scope_violation"),
    (EmbeddingMismatch, 500, "embedding_mismatch"),
    (WriteConflict, 409, "write_conflict"),
    (StoreError, 503, "store_unavailable"),
    (ProviderUnavailable, 503, "provider_unavailable"),
    (ProviderBadOutput, 502, "provider_bad_output"),
    (ProviderError, 502, "provider_error"),
    (MissingDependency, 500, "missing_dependency"),
    (ConfigError, 500, "config_error"),
    (JiyiError, 500, "internal_error"),
)

#: Status → code for errors raised by the HTTP layer itself (routing, body, auth, limits).
HTTP_CODES: dict[int, str] = {
    400: "bad_request",
    401: "unauthorized",
    403: "forbidden",
    404: "not_found",
    405: "method_not_allowed",
    413: "payload_too_large",
    415: "unsupported_media_type",
    429: "rate_limited",
    500: "internal_error",
}


class ServiceError(StarletteHTTPException):
    """An error of the HTTP layer with a chosen code (auth, rate limit, body size).

    It subclasses Starlette's HTTPException so that FastAPI passes it through when
    it is raised while the body is being read (the body-size limit does that).
    """

    def __init__(self, status: int, code: str, message: str, headers: dict[str, str] | None = None) -> None:
        super().__init__(status_code=status, detail=message, headers=headers)
        self.code = code


def unauthorized(message: str) -> ServiceError:
    return ServiceError(401, "unauthorized", message, {"WWW-Authenticate": 'Bearer realm="jiyi"'})


def rate_limited(retry_after: float) -> ServiceError:
    seconds = max(1, int(retry_after + 0.999))
    return ServiceError(429, "rate_limited", f"too many requests for this API key; retry in {seconds}s",
                        {"Retry-After": str(seconds)})


def payload_too_large(limit: int) -> ServiceError:
    return ServiceError(413, "payload_too_large", f"request body is larger than {limit} bytes; split it up")


def error_body(code: str, message: str, details: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    err: dict[str, Any] = {"code": code, "message": message}
    if details is not None:
        err["details"] = details
    return {"error": err}


def error_response(status: int, code: str, message: str, details: list[dict[str, Any]] | None = None,
                   headers: dict[str, str] | None = None) -> JSONResponse:
    return JSONResponse(error_body(code, message, details), status_code=status, headers=headers)


def classify(exc: JiyiError) -> tuple[int, str]:
    """HTTP status and stable code for a core exception."""
    for cls, status, code in ERROR_MAP:
        if isinstance(exc, cls):
            return status, code
    return 500, "internal_error"  # pragma: no cover - JiyiError is the last row


async def _on_jiyi_error(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, JiyiError)
    status, code = classify(exc)
    message = redact(str(exc))
    if status >= 500:
        log.error("%s %s failed: %s: %s", request.method, request.url.path, type(exc).__name__, message)
    return error_response(status, code, message)


async def _on_validation_error(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, RequestValidationError)
    errors = list(exc.errors())
    if any(e.get("type") == "json_invalid" for e in errors):
        return error_response(400, "malformed_json", "the request body is not valid JSON")
    if any(tuple(e.get("loc", ())) == ("body",) and e.get("type") == "model_attributes_type" for e in errors):
        if "json" not in request.headers.get("content-type", ""):
            return error_response(415, "unsupported_media_type",
                                  "send the body as JSON with 'Content-Type: application/json'")
        return error_response(422, "validation_error", "the body must be a JSON object")
    details = [{"loc": [str(p) for p in e.get("loc", ())], "msg": str(e.get("msg", "")), "type": str(e.get("type"))}
               for e in errors]
    first = details[0] if details else {"loc": [], "msg": "invalid request"}
    where = ".".join(p for p in first["loc"] if p != "body") or "request"
    return error_response(422, "validation_error", f"{where}: {first['msg']}", details)


async def _on_http_error(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, StarletteHTTPException)
    code = exc.code if isinstance(exc, ServiceError) else HTTP_CODES.get(exc.status_code, "http_error")
    message = redact(exc.detail) if exc.detail else code.replace("_", " ")
    if exc.status_code == 400 and not isinstance(exc, ServiceError):
        code, message = "malformed_body", "the request body could not be read; send JSON with a content-type"
    headers = dict(exc.headers or {})
    if exc.status_code == 405:
        headers["Allow"] = allowed_methods(request) or headers.get("Allow", "")
    return error_response(exc.status_code, code, message, headers=headers)


def allowed_methods(request: Request) -> str:
    """Every method the API document gives this path (RFC 9110 §15.5.6): Starlette's 405 names only
    the first route whose path matched (``/v1/memories`` is both POST add and GET list, two routes)."""
    paths: dict[str, dict[str, Any]] = request.app.openapi().get("paths", {})
    methods: set[str] = set()
    for template, operations in paths.items():
        if _template_re(template).fullmatch(request.url.path):
            methods |= {m.upper() for m in operations if m in _METHODS}
    if "GET" in methods:
        methods.add("HEAD")
    return ", ".join(sorted(methods))


_METHODS = frozenset({"get", "put", "post", "delete", "patch", "head", "options"})


def _template_re(template: str) -> re.Pattern[str]:
    """``/v1/users/{user_id}/export`` as a regex; a user id may hold a slash (its routes take ``:path``)."""
    parts = re.split(r"(\{[^}]+\})", template)
    return re.compile("".join((".+" if p == "{user_id}" else "[^/]+") if p.startswith("{") else re.escape(p)
                              for p in parts))


async def _on_unexpected(request: Request, exc: Exception) -> JSONResponse:
    log.exception("%s %s crashed", request.method, request.url.path, exc_info=exc)
    return error_response(500, "internal_error", "internal server error; the server log has the details")


def unexpected_answer(exc: BaseException) -> tuple[int, dict[str, Any]]:
    """Status and body for an exception no handler took: storage trouble is 503, the rest 500."""
    if isinstance(exc, sqlite3.OperationalError) or type(exc).__module__.startswith("psycopg"):
        return 503, error_body("store_unavailable", f"the store failed: {exc}")
    return 500, error_body("internal_error", "internal server error; the server log has the details")


class CatchAllMiddleware:
    """Answers an unexpected exception itself (500, or 503 for storage trouble) instead of
    letting it reach the server: Starlette re-raises those after its 500, and uvicorn then
    drops the kept-alive connection, so the client's next request got a reset."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = False

        async def tracked(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, receive, tracked)
        except Exception as exc:
            if started:
                raise  # too late for an answer of our own
            log.exception("%s %s crashed", scope.get("method"), scope.get("path"), exc_info=exc)
            status, body = unexpected_answer(exc)
            data = json.dumps(body).encode()
            await send({"type": "http.response.start", "status": status,
                        "headers": [(b"content-type", b"application/json"),
                                    (b"content-length", str(len(data)).encode())]})
            await send({"type": "http.response.body", "body": data})


def install_error_handlers(app: FastAPI) -> None:
    """Register the handlers above on ``app`` (the only exception handlers jiyi installs)."""
    app.add_exception_handler(JiyiError, _on_jiyi_error)
    app.add_exception_handler(RequestValidationError, _on_validation_error)
    app.add_exception_handler(StarletteHTTPException, _on_http_error)
    app.add_exception_handler(Exception, _on_unexpected)
    app.add_middleware(CatchAllMiddleware)  # innermost of the middlewares: see its docstring
