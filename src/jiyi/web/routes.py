"""The panel's pages under ``/ui``: sign-in, users, memories, timeline, graph, debugger, stats.

Mount it with one line in the app factory::

    app.include_router(build_router(pool.get, keys, SecretFile.in_home(settings.home), api_auth=authenticate))

Every page reads and writes through the tenant's ``Memory`` that ``memory_for``
returns (the service's own objects), never through a second path to the store.
Pages are plain HTML forms and links; htmx (vendored) only makes some of them
smoother (live filtering, inline edit, row actions), so everything works without
JavaScript except the graph canvas, which has a list beside it.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Annotated, Any
from urllib.parse import quote, urlencode

from fastapi import APIRouter, Depends, Form, Request, Response
from fastapi.responses import FileResponse, RedirectResponse, StreamingResponse

from jiyi.clock import Clock
from jiyi.errors import NotFound
from jiyi.memory import Memory
from jiyi.records import MemoryRecord, Status
from jiyi.web import i18n
from jiyi.web import session as sessions
from jiyi.web.api import build_api_router
from jiyi.web.debugger import run_debug
from jiyi.web.graph import collect_entities, graph_elements
from jiyi.web.listing import (
    KINDS,
    PER_PAGE,
    SENSITIVE,
    STATUSES,
    ListQuery,
    is_greyed,
    list_memories,
)
from jiyi.web.panel import (
    PREFIX,
    Ctx,
    KeyVerifier,
    Panel,
    PanelError,
    PanelRoute,
    login_url,
    safe_next,
)
from jiyi.web.signing import read_user_link_token
from jiyi.web.stats import gc_preview, tenant_stats
from jiyi.web.timeline import build_axis, build_timeline

STATIC = Path(__file__).parent / "static"
STATIC_FILES = {"htmx.min.js": "text/javascript", "cytoscape.min.js": "text/javascript",
                "panel.js": "text/javascript", "panel.css": "text/css"}
USERS_PER_PAGE = 50


def current(request: Request) -> Ctx:
    """The Ctx the router-level dependency (``Panel.context``) put on the request."""
    ctx: Ctx = request.state.panel_ctx
    return ctx


CtxDep = Annotated[Ctx, Depends(current)]
UserParam = Annotated[str | None, Form()]
Csrf = Annotated[str | None, Form()]
pages = APIRouter(route_class=PanelRoute)


def build_router(memory_for: Callable[[str], Memory], keys: KeyVerifier | None, secret: bytes | Callable[[], bytes],
                 *, api_auth: Callable[..., Any] | None = None, default_tenant: str = "default",
                 clock: Clock | None = None) -> APIRouter:
    """The panel (``/ui``) and, given the API's auth dependency, ``POST /v1/ui-links``.

    ``memory_for(tenant)`` is the service's Memory of a tenant; ``keys`` verifies API
    keys for operator sign-in (None: no auth, operators enter as ``default_tenant``);
    ``secret`` (bytes, or a callable returning them) signs cookies and links.
    """
    panel = Panel(memory_for, keys, secret, default_tenant=default_tenant, clock=clock)
    router = APIRouter()
    static = APIRouter(prefix=PREFIX, include_in_schema=False)
    static.add_api_route("/static/{name}", static_file, methods=["GET"])
    router.include_router(static)
    ui = APIRouter(prefix=PREFIX, include_in_schema=False, dependencies=[Depends(panel.context)])
    ui.include_router(pages)
    router.include_router(ui)
    if api_auth is not None:
        router.include_router(build_api_router(panel, api_auth))
    return router


def static_file(name: str) -> Response:
    """The vendored scripts and the stylesheet (cached for a day; no directory listing)."""
    if name not in STATIC_FILES:
        return Response("not found", status_code=404, media_type="text/plain")
    return FileResponse(STATIC / name, media_type=STATIC_FILES[name],
                        headers={"Cache-Control": "public, max-age=86400", "X-Content-Type-Options": "nosniff"})


# ---- sign-in, language, links ------------------------------------------------------------------
@pages.get("/login")
def login_form(ctx: CtxDep, next: str | None = None) -> Response:
    if ctx.session.signed_in:
        return ctx.panel.redirect(ctx, safe_next(next))
    return ctx.panel.render(ctx, "login.html", next=safe_next(next), error=None)


@pages.post("/login")
def login(ctx: CtxDep, key: Annotated[str, Form()] = "", csrf: Csrf = None,
          next: Annotated[str | None, Form()] = None) -> Response:
    ctx.check_csrf(csrf)
    panel = ctx.panel
    if panel.keys is None:
        panel.sign_in(ctx, sessions.operator(panel.default_tenant, None, panel.clock.now()))
        return panel.redirect(ctx, safe_next(next))
    info = panel.keys.verify(key.strip()) if key.strip() else None
    if info is None:
        ctx.session, ctx.fresh = ctx.session.with_new_csrf(), True
        return panel.render(ctx, "login.html", status=401, next=safe_next(next), error=ctx.t("login.bad_key"))
    panel.sign_in(ctx, sessions.operator(info.tenant, info.id, panel.clock.now()))
    return panel.redirect(ctx, safe_next(next))


@pages.post("/logout")
def logout(ctx: CtxDep, csrf: Csrf = None) -> Response:
    ctx.check_csrf(csrf)
    response = RedirectResponse(f"{PREFIX}/login", status_code=303)
    ctx.panel.sign_out(response)
    return response


@pages.get("/lang/{code}")
def set_language(code: str, next: str | None = None) -> Response:
    """Switch the interface language (a plain cookie: it is a preference, not a credential)."""
    response = RedirectResponse(safe_next(next), status_code=303)
    response.set_cookie(sessions.LANG_COOKIE, i18n.pick(code), max_age=365 * 86400, path=PREFIX, samesite="lax")
    return response


@pages.get("/u/{token}")
def open_link(ctx: CtxDep, token: str) -> Response:
    """An end-user link: becomes a session limited to that user, until the link expires."""
    found = read_user_link_token(ctx.panel.secret, token, now=ctx.panel.clock.now())
    if found is None:
        raise PanelError(403, "link_invalid")
    tenant, user_id, exp = found
    ctx.panel.sign_in(ctx, sessions.end_user(tenant, user_id, exp))
    return ctx.panel.redirect(ctx, f"{PREFIX}/memories")


# ---- users (operators) ---------------------------------------------------------------------------
@pages.get("/")
def home(ctx: CtxDep, q: str = "", page: int = 1) -> Response:
    if not ctx.session.signed_in:
        return ctx.panel.redirect(ctx, f"{PREFIX}/login")
    if not ctx.session.is_operator:
        return ctx.panel.redirect(ctx, f"{PREFIX}/memories")
    mem = ctx.memory()
    users = [u for u in mem.users() if q.strip().casefold() in u.casefold()]
    pages_n = max(1, -(-len(users) // USERS_PER_PAGE))
    page = min(max(page, 1), pages_n)
    shown = users[(page - 1) * USERS_PER_PAGE: page * USERS_PER_PAGE]
    rows = [(u, len(mem.get_all(user_id=u)), len(mem.get_all(user_id=u, status=None))) for u in shown]
    return ctx.panel.render(ctx, "users.html", rows=rows, q=q, page=page, pages=pages_n, total=len(users))


# ---- memories ------------------------------------------------------------------------------------
@pages.get("/memories")
def memories(ctx: CtxDep, request: Request, user: str | None = None, done: str | None = None,
             n: int | None = None) -> Response:
    uid = _uid(ctx, user)
    params = {k: request.query_params.getlist(k) for k in request.query_params}
    lq = ListQuery.parse(params)
    result = list_memories(ctx.memory(), uid, lq, ctx.zone())
    here = f"{PREFIX}/memories?{_user_q(ctx, uid)}{lq.params(page=result.page)}"
    return ctx.panel.render(ctx, "memories.html", uid=uid, lq=lq, result=result, here=here, done=done, n=n,
                            kinds=KINDS, statuses=STATUSES, sensitive_opts=SENSITIVE, per_page_opts=PER_PAGE,
                            user_q=_user_q(ctx, uid), is_greyed=is_greyed)


@pages.get("/memories/{memory_id}")
def memory_detail(ctx: CtxDep, memory_id: str, user: str | None = None, done: str | None = None) -> Response:
    uid = _uid(ctx, user)
    mem = ctx.memory()
    rec = _get(mem, memory_id, uid)
    related = {mid: mem.get(mid, user_id=uid) for mid in (*rec.links, rec.superseded_by) if mid}
    return ctx.panel.render(ctx, "memory.html", uid=uid, rec=rec, history=mem.history(memory_id, user_id=uid),
                            related={k: v for k, v in related.items() if v is not None}, done=done,
                            user_q=_user_q(ctx, uid), greyed=is_greyed(rec, ctx.panel.clock.now()))


@pages.get("/memories/{memory_id}/edit")
def edit_form(ctx: CtxDep, request: Request, memory_id: str, user: str | None = None,
              next: str | None = None) -> Response:
    uid = _uid(ctx, user)
    if request.headers.get("hx-request") != "true":
        return RedirectResponse(f"{PREFIX}/memories/{memory_id}?{_user_q(ctx, uid)}#edit", status_code=303)
    rec = _get(ctx.memory(), memory_id, uid)
    return ctx.panel.render(ctx, "row_edit.html", uid=uid, rec=rec, here=safe_next(next), user_q=_user_q(ctx, uid))


@pages.get("/memories/{memory_id}/row")
def row(ctx: CtxDep, memory_id: str, user: str | None = None, next: str | None = None) -> Response:
    uid = _uid(ctx, user)
    return _row(ctx, _get(ctx.memory(), memory_id, uid), uid, next)


@pages.post("/memories/{memory_id}/edit")
def edit(ctx: CtxDep, request: Request, memory_id: str, content: Annotated[str, Form()], user: UserParam = None,
         csrf: Csrf = None, next: Annotated[str | None, Form()] = None) -> Response:
    ctx.check_csrf(csrf)
    uid = _uid(ctx, user)
    rec = ctx.memory().update(memory_id, content, user_id=uid)
    if request.headers.get("hx-request") == "true" and next and next.startswith(f"{PREFIX}/memories?"):
        return _row(ctx, rec, uid, next)
    return ctx.panel.redirect(ctx, f"{PREFIX}/memories/{memory_id}?{_user_q(ctx, uid)}done=updated")


@pages.post("/memories/{memory_id}/{action}")
def set_status(ctx: CtxDep, request: Request, memory_id: str, action: str, user: UserParam = None,
               csrf: Csrf = None, next: Annotated[str | None, Form()] = None) -> Response:
    """Delete (soft) or restore one memory."""
    ctx.check_csrf(csrf)
    uid = _uid(ctx, user)
    mem = ctx.memory()
    if action == "delete":
        mem.delete(memory_id, user_id=uid)
    elif action == "restore":
        mem.restore(memory_id, user_id=uid)
    else:
        raise PanelError(404, "not_found")
    if request.headers.get("hx-request") == "true" and next and next.startswith(f"{PREFIX}/memories?"):
        return _row(ctx, _get(mem, memory_id, uid), uid, next)
    back = f"{PREFIX}/memories/{memory_id}?{_user_q(ctx, uid)}done={action}d"
    return ctx.panel.redirect(ctx, safe_next(next, back) if next else back)


@pages.post("/memories")
def delete_many(ctx: CtxDep, ids: Annotated[list[str], Form()] = [], user: UserParam = None,  # noqa: B006
                csrf: Csrf = None, next: Annotated[str | None, Form()] = None) -> Response:
    """Soft-delete the ticked memories (ids not of this user are skipped)."""
    ctx.check_csrf(csrf)
    uid = _uid(ctx, user)
    mem = ctx.memory()
    done = 0
    for mid in dict.fromkeys(ids):
        rec = mem.get(mid, user_id=uid)
        if rec is not None and rec.status is not Status.DELETED:
            mem.delete(mid, user_id=uid)
            done += 1
    back = safe_next(next, f"{PREFIX}/memories?{_user_q(ctx, uid)}")
    return ctx.panel.redirect(ctx, _with(back, done="deleted_many", n=str(done)))


@pages.get("/export")
def export(ctx: CtxDep, user: str | None = None) -> Response:
    """Every memory of the user (all statuses, with history) as JSON lines."""
    uid = _uid(ctx, user)
    rows = ctx.memory().export(user_id=uid)

    def lines() -> Iterator[str]:
        for r in rows:
            yield json.dumps(r, ensure_ascii=False) + "\n"

    name = re.sub(r"[^A-Za-z0-9_.-]", "_", uid)[:64] or "user"
    return StreamingResponse(lines(), media_type="application/x-ndjson",
                             headers={"Content-Disposition": f'attachment; filename="jiyi-{name}.jsonl"',
                                      "Cache-Control": "no-store", "X-Content-Type-Options": "nosniff"})


@pages.get("/forget")
def forget_form(ctx: CtxDep, user: str | None = None) -> Response:
    uid = _uid(ctx, user)
    count = len(ctx.memory().get_all(user_id=uid, status=None))
    return ctx.panel.render(ctx, "forget.html", uid=uid, count=count, user_q=_user_q(ctx, uid), error=None)


@pages.post("/forget")
def forget(ctx: CtxDep, user: UserParam = None, csrf: Csrf = None,
           confirm: Annotated[str | None, Form()] = None) -> Response:
    """Erase everything about the user (after an explicit confirmation); an end user is signed out."""
    ctx.check_csrf(csrf)
    uid = _uid(ctx, user)
    mem = ctx.memory()
    if confirm != "yes":
        count = len(mem.get_all(user_id=uid, status=None))
        return ctx.panel.render(ctx, "forget.html", status=422, uid=uid, count=count, user_q=_user_q(ctx, uid),
                                error=ctx.t("forget.need_confirm"))
    removed = mem.delete_all(user_id=uid)
    response = ctx.panel.render(ctx, "forgotten.html", uid=uid, removed=removed)
    if not ctx.session.is_operator:
        ctx.panel.sign_out(response)
    return response


# ---- timeline, graph, debugger, stats -----------------------------------------------------------
@pages.get("/timeline")
def timeline(ctx: CtxDep, user: str | None = None, deleted: bool = False) -> Response:
    uid = _uid(ctx, user)
    records = ctx.memory().get_all(user_id=uid, status=None)
    zone = ctx.zone()
    groups = build_timeline(records, now=ctx.panel.clock.now(), include_deleted=deleted, tz=zone)
    return ctx.panel.render(ctx, "timeline.html", uid=uid, groups=groups, axis=build_axis(groups, zone),
                            deleted=deleted, user_q=_user_q(ctx, uid))


@pages.get("/graph")
def graph(ctx: CtxDep, user: str | None = None, inactive: bool = False) -> Response:
    uid = _uid(ctx, user)
    entities = collect_entities(ctx.memory().get_all(user_id=uid, status=None), include_inactive=inactive)
    return ctx.panel.render(ctx, "graph.html", uid=uid, entities=entities, inactive=inactive,
                            elements=graph_elements(entities),
                            user_q=_user_q(ctx, uid))


@pages.get("/debug")
def debug_form(ctx: CtxDep, user: str | None = None) -> Response:
    uid = _uid(ctx, user)
    return ctx.panel.render(ctx, "debug.html", uid=uid, result=None, message="", budget=800, limit=10,
                            sensitive=False, user_q=_user_q(ctx, uid))


@pages.post("/debug")
def debug(ctx: CtxDep, message: Annotated[str, Form()], user: UserParam = None, csrf: Csrf = None,
          budget: Annotated[int, Form(ge=16, le=32000)] = 800, limit: Annotated[int, Form(ge=1, le=50)] = 10,
          sensitive: Annotated[bool, Form()] = False) -> Response:
    ctx.check_csrf(csrf)
    uid = _uid(ctx, user)
    result = run_debug(ctx.memory(), user_id=uid, message=message, budget=budget, limit=limit,
                       include_sensitive=sensitive)
    return ctx.panel.render(ctx, "debug.html", uid=uid, result=result, message=message, budget=budget, limit=limit,
                            sensitive=sensitive, user_q=_user_q(ctx, uid))


@pages.get("/stats")
def stats(ctx: CtxDep, gc: bool = False) -> Response:
    ctx.require_operator()
    mem, now = ctx.memory(), ctx.panel.clock.now()
    return ctx.panel.render(ctx, "stats.html", stats=tenant_stats(mem, now=now, tz=ctx.zone()),
                            gc=gc_preview(mem, now=now) if gc else None, uid=None, user_q="")


# ---- helpers -------------------------------------------------------------------------------------
def _uid(ctx: Ctx, requested: str | None) -> str:
    if not ctx.session.signed_in:
        raise PanelError(401, "signin", redirect=login_url(ctx.request))
    uid = ctx.user(requested)
    assert uid is not None
    return uid


def _user_q(ctx: Ctx, uid: str) -> str:
    """``user=ID&`` for operators (who pick the user in the URL); nothing for end users."""
    return f"user={quote(uid, safe='')}&" if ctx.session.is_operator else ""


def _with(url: str, **params: str) -> str:
    sep = "&" if "?" in url else "?"
    return f"{url}{sep}{urlencode(params)}"


def _get(mem: Memory, memory_id: str, uid: str) -> MemoryRecord:
    rec = mem.get(memory_id, user_id=uid)
    if rec is None:
        raise NotFound(f"no memory {memory_id!r}")
    return rec


def _row(ctx: Ctx, rec: MemoryRecord, uid: str, next: str | None) -> Response:
    return ctx.panel.render(ctx, "row.html", uid=uid, rec=rec, here=safe_next(next), user_q=_user_q(ctx, uid),
                            is_greyed=is_greyed)
