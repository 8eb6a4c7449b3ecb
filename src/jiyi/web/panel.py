"""The panel's request plumbing: sessions, who may see which user, CSRF, rendering, errors.

Routes get a :class:`Ctx` (the request, its session, the language) from the
``Panel.context`` dependency and call ``Panel.render``. Failures are exceptions
(``PanelError`` for the panel's own, ``JiyiError`` from ``Memory``) that
:class:`PanelRoute` turns into an HTML page with the right status, so the JSON
error handlers of the API never answer a browser page.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Coroutine, Iterable
from dataclasses import dataclass
from datetime import datetime, timezone, tzinfo
from pathlib import Path
from typing import Any, Protocol
from urllib.parse import quote, urlsplit
from zoneinfo import ZoneInfo

from fastapi import Request, Response
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, RedirectResponse
from fastapi.routing import APIRoute
from jinja2 import Environment, FileSystemLoader, pass_context, select_autoescape
from jinja2.runtime import Context

from jiyi.clock import Clock, SystemClock, to_local
from jiyi.errors import InvalidInput, JiyiError, NotFound, ScopeViolation
from jiyi.memory import Memory
from jiyi.web import i18n
from jiyi.web import session as sessions
from jiyi.web.session import Session

log = logging.getLogger("jiyi.web")
TEMPLATES = Path(__file__).parent / "templates"
PREFIX = "/ui"

SECURITY_HEADERS = {
    "Content-Security-Policy": "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
                               "img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; "
                               "form-action 'self'; base-uri 'none'",
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-store",
}


class KeyInfo(Protocol):
    """A key as the panel sees it: read-only (the key store hands out frozen records)."""

    @property
    def id(self) -> str: ...

    @property
    def tenant(self) -> str: ...


class KeyVerifier(Protocol):
    """What the panel needs of the API key store (``jiyi.server.keys.KeyStore`` is one)."""

    def verify(self, presented: str) -> KeyInfo | None: ...
    def list(self) -> Iterable[KeyInfo]: ...


class PanelError(Exception):
    """A refusal with an HTTP status and an i18n message key (``err.<key>``)."""

    def __init__(self, status: int, key: str, *, redirect: str | None = None) -> None:
        super().__init__(key)
        self.status, self.key, self.redirect = status, key, redirect


@dataclass(slots=True)
class Ctx:
    request: Request
    session: Session
    lang: str
    fresh: bool  # the session cookie must be (re)written on the response
    panel: Panel

    def t(self, key: str, **kw: Any) -> str:
        return i18n.translate(self.lang, key, **kw)

    def memory(self) -> Memory:
        """The signed-in tenant's Memory (the one the REST API uses)."""
        if not self.session.signed_in or self.session.tenant is None:
            raise PanelError(401, "signin", redirect=login_url(self.request))
        return self.panel.memory_for(self.session.tenant)

    def zone(self) -> tzinfo:
        """The signed-in tenant's ``timezone`` setting (UTC before sign-in, when no page shows a date)."""
        if not self.session.signed_in or self.session.tenant is None:
            return timezone.utc
        return ZoneInfo(self.panel.memory_for(self.session.tenant).settings.timezone)

    def user(self, requested: str | None, *, required: bool = True) -> str | None:
        """The user this request may look at: an end user only ever sees themself."""
        s = self.session
        requested = (requested or "").strip() or None
        if s.kind == "user":
            if requested is not None and requested != s.user_id:
                raise PanelError(403, "other_user")
            return s.user_id
        if requested is None and required:
            raise PanelError(303, "pick_user", redirect=f"{PREFIX}/")
        return requested

    def require_operator(self) -> None:
        if not self.session.is_operator:
            raise PanelError(403, "operators_only")

    def check_csrf(self, presented: str | None) -> None:
        """Refuse a state change whose token is missing or not this session's, or from another origin."""
        origin = self.request.headers.get("origin")
        if origin and origin != "null" and urlsplit(origin).netloc != self.request.url.netloc:
            raise PanelError(403, "csrf")
        if not self.session.csrf_ok(presented or self.request.headers.get("x-csrf-token")):
            raise PanelError(403, "csrf")


@pass_context
def _local_time(context: Context, value: datetime, fmt: str = "%Y-%m-%d %H:%M") -> str:
    """Jinja filter ``|local``: a stored (UTC) time as the tenant's wall-clock time."""
    zone = context.get("tz") or timezone.utc
    return to_local(value, zone).strftime(fmt)


def login_url(request: Request) -> str:
    here = request.url.path + (f"?{request.url.query}" if request.url.query else "")
    return f"{PREFIX}/login?next={quote(here, safe='')}"


def safe_next(value: str | None, default: str = f"{PREFIX}/") -> str:
    """Only same-site panel paths are followed after a form (no open redirect)."""
    if value and value.startswith(PREFIX + "/") and "//" not in value and "\\" not in value:
        return value
    return default


class Panel:
    """Shared state of the panel routes: tenants' Memories, keys, the signing secret, templates."""

    def __init__(self, memory_for: Callable[[str], Memory], keys: KeyVerifier | None,
                 secret: bytes | Callable[[], bytes], *, default_tenant: str = "default",
                 clock: Clock | None = None) -> None:
        self.memory_for = memory_for
        self.keys = keys
        self._secret = secret
        self.default_tenant = default_tenant
        self.clock = clock or SystemClock()
        self.env = Environment(loader=FileSystemLoader(TEMPLATES), autoescape=select_autoescape(["html"]),
                               trim_blocks=True, lstrip_blocks=True)
        self.env.globals.update(PREFIX=PREFIX, KINDS=i18n.KIND_ORDER)
        self.env.filters["local"] = _local_time

    @property
    def secret(self) -> bytes:
        return self._secret() if callable(self._secret) else self._secret

    @property
    def open(self) -> bool:
        """No API keys (``--insecure-no-auth``): operators sign in without one, as the default tenant."""
        return self.keys is None

    # ---- sessions ----------------------------------------------------------------------------
    def context(self, request: Request) -> Ctx:
        """FastAPI dependency: the request's session (a new anonymous one if none or invalid)."""
        now = self.clock.now()
        found = sessions.decode(self.secret, request.cookies.get(sessions.COOKIE), now=now)
        if found is not None and found.is_operator and not self._key_active(found.key_id):
            found = None
        session = found or sessions.anonymous(now)
        ctx = Ctx(request, session, i18n.pick(request.cookies.get(sessions.LANG_COOKIE)), found is None, self)
        request.state.panel_ctx = ctx
        return ctx

    def _key_active(self, key_id: str | None) -> bool:
        if self.keys is None:
            return True
        return any(k.id == key_id for k in self.keys.list())

    def sign_in(self, ctx: Ctx, new: Session) -> None:
        ctx.session, ctx.fresh = new, True

    def write_cookie(self, ctx: Ctx, response: Response) -> None:
        if ctx.fresh:
            max_age = max(0, ctx.session.exp - int(self.clock.now().timestamp()))
            response.set_cookie(sessions.COOKIE, sessions.encode(self.secret, ctx.session), max_age=max_age,
                                path=PREFIX, httponly=True, samesite="lax",
                                secure=ctx.request.url.scheme == "https")

    def sign_out(self, response: Response) -> None:
        response.delete_cookie(sessions.COOKIE, path=PREFIX)

    # ---- responses ---------------------------------------------------------------------------
    def render(self, ctx: Ctx, template: str, *, status: int = 200, **values: Any) -> HTMLResponse:
        values.setdefault("tz", ctx.zone())
        html = self.env.get_template(template).render(ctx=ctx, t=ctx.t, lang=ctx.lang, session=ctx.session,
                                                      csrf=ctx.session.csrf, now=self.clock.now(), **values)
        response = HTMLResponse(html, status_code=status, headers=SECURITY_HEADERS)
        self.write_cookie(ctx, response)
        return response

    def redirect(self, ctx: Ctx, url: str) -> Response:
        """After a form: 303 to ``url``; for htmx, ask it to navigate there."""
        if ctx.request.headers.get("hx-request") == "true":
            response: Response = Response(status_code=204, headers={"HX-Redirect": url})
        else:
            response = RedirectResponse(url, status_code=303)
        response.headers.update(SECURITY_HEADERS)
        self.write_cookie(ctx, response)
        return response

    def error_page(self, request: Request, status: int, key: str, detail: str | None = None) -> HTMLResponse:
        ctx = getattr(request.state, "panel_ctx", None) or self.context(request)
        return self.render(ctx, "error.html", status=status, message=ctx.t(f"err.{key}"), detail=detail,
                           status_code=status)


#: Core exceptions → (status, message key) on panel pages.
_JIYI_ERRORS: tuple[tuple[type[JiyiError], int, str], ...] = (
    (NotFound, 404, "not_found"), (InvalidInput, 422, "invalid"), (ScopeViolation, 403, "other_user"))


class PanelRoute(APIRoute):
    """An APIRoute whose failures become the panel's HTML error page (never the API's JSON)."""

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        handler = super().get_route_handler()

        async def guarded(request: Request) -> Response:
            try:
                return await handler(request)
            except (PanelError, JiyiError, RequestValidationError) as exc:
                ctx: Ctx | None = getattr(request.state, "panel_ctx", None)
                if ctx is None:  # failed before the session was read: let the app's handlers answer
                    raise
                return _error_response(ctx, request, exc)

        return guarded


def _error_response(ctx: Ctx, request: Request, exc: PanelError | JiyiError | RequestValidationError) -> Response:
    if isinstance(exc, RequestValidationError):  # a hand-edited URL or form: say which field
        where = ", ".join(".".join(str(p) for p in e.get("loc", ())[1:]) for e in exc.errors())
        return ctx.panel.error_page(request, 422, "invalid", where or None)
    if isinstance(exc, PanelError):
        if exc.redirect is not None and request.method == "GET":
            return RedirectResponse(exc.redirect, status_code=303, headers=SECURITY_HEADERS)
        return ctx.panel.error_page(request, max(exc.status, 400), exc.key)
    status, key = next(((s, k) for cls, s, k in _JIYI_ERRORS if isinstance(exc, cls)), (500, "internal"))
    if status >= 500:
        log.error("%s %s failed: %s", request.method, request.url.path, type(exc).__name__)
    # InvalidInput messages say what to fix and hold no stored data; others stay generic.
    return ctx.panel.error_page(request, status, key, str(exc) if status == 422 else None)
