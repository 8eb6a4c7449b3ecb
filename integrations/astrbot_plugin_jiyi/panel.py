"""The memory panel: inside AstrBot's dashboard (plugin Pages), or behind a signed ``/mem panel`` link.

- **Pages** (AstrBot ≥ 4.24.2): ``pages/memories/index.html`` is shown in the dashboard's
  plugin view; it calls the routes :func:`register_pages` adds with ``register_web_api``
  (``/api/plug/astrbot_plugin_jiyi/page/…``, behind the dashboard login). A dashboard user is
  the bot's admin: the page lists every person's memories and deletes any of them.
- **Signed link**: ``/mem panel`` gives the sender a link to a small page the plugin serves
  itself (aiohttp, ``panel_port``; ``panel_url`` is the address people open) carrying a token
  signed with a secret kept in the plugin's data dir (HMAC-SHA256, ``LINK_TTL`` seconds). The
  token names one owner: the page lists and deletes only that person's memories. An admin's
  link (``/mem panel all``) covers every owner, as the dashboard page does.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import secrets
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

LINK_TTL = 3600.0
ALL = "*"  # the owner of an admin token: every owner
PAGE_DIR = Path(__file__).resolve().parent / "pages" / "memories"
PAGE_PREFIX = "/astrbot_plugin_jiyi/page"


class Signer:
    """Tokens ``<payload>.<mac>`` for one owner (or ``*``) until an expiry."""

    def __init__(self, secret_file: Path) -> None:
        if not secret_file.is_file():
            secret_file.write_text(secrets.token_hex(32), "utf-8")
            secret_file.chmod(0o600)
        self._key = bytes.fromhex(secret_file.read_text("utf-8").strip())

    def sign(self, owner: str, ttl: float = LINK_TTL) -> str:
        payload = _b64(json.dumps({"o": owner, "e": int(time.time() + ttl)}, ensure_ascii=False).encode())
        return f"{payload}.{self._mac(payload)}"

    def owner(self, token: str) -> str | None:
        """The owner a valid, unexpired token names; None otherwise."""
        payload, _, mac = (token or "").partition(".")
        if not payload or not hmac.compare_digest(mac, self._mac(payload)):
            return None
        try:
            data = json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))
        except ValueError:
            return None
        if not isinstance(data, dict) or float(data.get("e", 0)) < time.time():
            return None
        return str(data.get("o") or "") or None

    def _mac(self, payload: str) -> str:
        return _b64(hmac.new(self._key, payload.encode(), hashlib.sha256).digest()[:18])


def _b64(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


@dataclass
class PanelData:
    """What both panels show and do, on the plugin's Memory (``run`` = MemoryHolder.run)."""

    run: Callable[..., Awaitable[Any]]

    async def users(self) -> list[str]:
        return list(await self.run("users"))

    async def memories(self, owner: str, query: str = "", limit: int = 200) -> list[dict[str, Any]]:
        if query:
            records = [h.record for h in await self.run("search", query, user_id=owner, limit=min(limit, 50))]
        else:
            records = await self.run("get_all", user_id=owner, limit=limit)
        return [{"id": r.id, "user": owner, "kind": r.kind.value, "content": r.content,
                 "created_at": r.created_at.isoformat(timespec="seconds")} for r in records]

    async def delete(self, owner: str, memory_id: str) -> bool:
        if await self.run("get", memory_id, user_id=owner) is None:
            return False
        await self.run("delete", memory_id, user_id=owner)
        return True

    async def listing(self, owner: str, wanted: str = "", query: str = "") -> dict[str, Any]:
        """The page's data for a viewer: ``owner`` (or ``*`` for an admin, then ``wanted`` picks one)."""
        if owner != ALL:
            return {"admin": False, "users": [owner], "user": owner, "memories": await self.memories(owner, query)}
        users = await self.users()
        user = wanted if wanted in users else (users[0] if users else "")
        return {"admin": True, "users": users, "user": user,
                "memories": await self.memories(user, query) if user else []}

    async def remove(self, owner: str, user: str, memory_id: str) -> dict[str, Any]:
        if owner != ALL and user != owner:
            return {"status": "error", "message": "只能删除自己的记忆"}
        done = await self.delete(user, memory_id)
        return {"status": "ok", "data": {"deleted": done}} if done else {"status": "error", "message": "没有这条记忆"}


def register_pages(context: Any, data: PanelData) -> bool:
    """Routes for the dashboard page (admin view); False when this AstrBot has no ``register_web_api``."""
    register = getattr(context, "register_web_api", None)
    if register is None:
        return False

    async def memories() -> dict[str, Any]:
        query = _request_query()
        return {"status": "ok", "data": await data.listing(ALL, query.get("user", ""), query.get("q", ""))}

    async def delete() -> dict[str, Any]:
        body = await _request_json()
        return await data.remove(ALL, str(body.get("user") or ""), str(body.get("id") or ""))

    register(f"{PAGE_PREFIX}/memories", memories, ["GET"], "jiyi: memories of one user (admin)")
    register(f"{PAGE_PREFIX}/delete", delete, ["POST"], "jiyi: delete one memory (admin)")
    return True


def _request_query() -> dict[str, str]:
    try:
        from astrbot.api.web import request  # AstrBot ≥ 4.28 (FastAPI)

        return {k: str(request.query.get(k) or "") for k in ("user", "q")}
    except ImportError:  # older AstrBot serves plugin routes with Quart
        from quart import request as quart_request

        return {k: str(quart_request.args.get(k) or "") for k in ("user", "q")}


async def _request_json() -> dict[str, Any]:
    try:
        from astrbot.api.web import request

        body = await request.json(default={})
    except ImportError:
        from quart import request as quart_request

        body = await quart_request.get_json(silent=True)
    return body if isinstance(body, dict) else {}


class LinkServer:
    """The signed-link panel: one aiohttp site on ``host:port`` (started on the first ``/mem panel``)."""

    def __init__(self, data: PanelData, signer: Signer, host: str, port: int) -> None:
        self.data, self.signer, self.host, self.port = data, signer, host, port
        self._runner: Any = None

    @property
    def started(self) -> bool:
        return self._runner is not None

    async def start(self) -> int:
        from aiohttp import web

        app = web.Application()
        app.router.add_get("/", self._page)
        app.router.add_get("/api/memories", self._memories)
        app.router.add_post("/api/delete", self._delete)
        runner = web.AppRunner(app)
        await runner.setup()
        site = web.TCPSite(runner, self.host, self.port)
        await site.start()
        self._runner = runner
        sockets = getattr(site._server, "sockets", None) or []  # the real port when 0 was asked for
        if sockets:
            self.port = int(sockets[0].getsockname()[1])
        return self.port

    async def stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    def _viewer(self, request: Any) -> str | None:
        token = request.query.get("t") or request.headers.get("X-Jiyi-Token", "")
        return self.signer.owner(token)

    async def _page(self, request: Any) -> Any:
        from aiohttp import web

        html = (PAGE_DIR / "index.html").read_text("utf-8")
        return web.Response(text=html, content_type="text/html", headers={"Cache-Control": "no-store",
                                                                           "Referrer-Policy": "no-referrer"})

    async def _memories(self, request: Any) -> Any:
        from aiohttp import web

        owner = self._viewer(request)
        if owner is None:
            return web.json_response({"status": "error", "message": "链接无效或已过期，请重新发送 /mem panel"}, status=401)
        listing = await self.data.listing(owner, request.query.get("user", ""), request.query.get("q", ""))
        return web.json_response({"status": "ok", "data": listing})

    async def _delete(self, request: Any) -> Any:
        from aiohttp import web

        owner = self._viewer(request)
        if owner is None:
            return web.json_response({"status": "error", "message": "链接无效或已过期，请重新发送 /mem panel"}, status=401)
        try:
            body = await request.json()
        except ValueError:
            body = {}
        body = body if isinstance(body, dict) else {}
        answer = await self.data.remove(owner, str(body.get("user") or owner), str(body.get("id") or ""))
        return web.json_response(answer, status=200 if answer["status"] == "ok" else 403)
