"""A real jiyi server (uvicorn on 127.0.0.1, an ephemeral port) with seeded memories, for the panel tests.

Seeding goes through the server's own per-tenant ``Memory`` objects (the pool the
REST API uses), as conversations at several past dates under a frozen clock that
then stands at ``NOW``. The offline ``hash`` embedder keeps it fast and deterministic.
"""

from __future__ import annotations

import os
import re
import threading
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import httpx
import uvicorn
from live_uvicorn import serve_in_thread

from jiyi.clock import FrozenClock
from jiyi.config import Settings
from jiyi.memory import Memory
from jiyi.server.app import ServerOptions, create_app
from jiyi.server.keys import KeyStore

# Screenshots go to test-artifacts/screenshots/ (gitignored) on every run; JIYI_UPDATE_SCREENSHOTS=1
# writes them to docs/screenshots/ instead, the copies the README and docs/web.md show.
_REPO = Path(__file__).resolve().parents[2]
SCREENSHOTS = (_REPO / "docs" / "screenshots" if os.environ.get("JIYI_UPDATE_SCREENSHOTS")
               else _REPO / "test-artifacts" / "screenshots")
NOW = datetime(2026, 11, 30, 9, 0, tzinfo=timezone.utc)

#: alice of acme: a move (superseded chain), an allergy, family, a past trip (expired), a phone (sensitive).
ALICE = [
    (NOW - timedelta(days=180), ["我叫王小明，我住在上海。", "记住，我对花生过敏。"]),
    (NOW - timedelta(days=150), ["我妈妈叫李红，她是医生。", "我喜欢喝拿铁，不喜欢加糖。"]),
    (NOW - timedelta(days=110), ["我下周三要飞去成都出差。", "我的手机号是13812345678。"]),
    (NOW - timedelta(days=60), ["我搬家了，现在住在北京。", "记住，我女儿叫王小雨，她在北京上小学。"]),
    (NOW - timedelta(days=20), ["我每周六早上去游泳。", "我在华恒集团做产品经理。"]),
    (NOW - timedelta(days=2), ["我最近在学钢琴，老师叫陈静。", "以后回复我请简短一点。"]),
]
BOB = [(NOW - timedelta(days=30), ["我叫赵大海，我住在深圳。", "我养了一只猫叫咪咪。"])]
#: the same user id in another tenant, with a marker no acme session may ever show.
GLOBEX_ALICE = [(NOW - timedelta(days=10), ["我叫GLOBEX机密用户，我住在广州。"])]


@dataclass
class Site:
    url: str
    home: Path
    clock: FrozenClock
    app: Any
    keys: dict[str, str] = field(default_factory=dict)
    _server: uvicorn.Server | None = None
    _thread: threading.Thread | None = None

    def memory(self, tenant: str) -> Memory:
        """The server's own Memory of ``tenant``."""
        mem: Memory = self.app.state.jiyi.pool.get(tenant)
        return mem

    def stop(self) -> None:
        assert self._server is not None and self._thread is not None
        self._server.should_exit = True
        self._thread.join(timeout=60)


def seed(mem: Memory, clock: FrozenClock, user_id: str, script: list[tuple[datetime, list[str]]]) -> None:
    for at, texts in script:
        clock.set(at)
        mem.add([{"role": "user", "content": t} for t in texts], user_id=user_id, sync=True)


def start_site(home: Path) -> Site:
    clock = FrozenClock(NOW)
    keystore = KeyStore.in_home(home)
    keys = {t: keystore.create(t, name=f"web test {t}")[1] for t in ("acme", "globex")}
    app = create_app(Settings(home=home, embedder="hash"), ServerOptions(worker=False, rate_limit=0), clock=clock)
    url, server, thread = serve_in_thread(app, "uvicorn-web")
    site = Site(url, home, clock, app, keys, server, thread)
    seed(site.memory("acme"), clock, "alice", ALICE)
    seed(site.memory("acme"), clock, "bob", BOB)
    seed(site.memory("globex"), clock, "alice", GLOBEX_ALICE)
    clock.set(NOW)
    return site


def sign_in(page: Any, site: Site, tenant: str = "acme") -> None:
    page.goto(f"{site.url}/ui/login")
    page.get_by_label("API 密钥").fill(site.keys[tenant])
    page.get_by_role("button", name="登录").click()
    page.wait_for_url(re.compile(r"/ui/$"))


def shoot(page: Any, name: str, *, full_page: bool = False) -> Path:
    """Save <SCREENSHOTS>/<name>.png (viewport-sized unless asked, to keep the files small)."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=full_page, animations="disabled")
    return path


def csrf_of(page: Any) -> str:
    token: str = page.locator("input[name=csrf]").first.get_attribute("value")
    return token


def remember_all(site: Site, tenant: str, user_id: str, contents: list[str], **kw: Any) -> list[Any]:
    """Store statements for a fresh user straight through the server's Memory (no extraction wait)."""
    mem = site.memory(tenant)
    return [mem.remember(text, user_id=user_id, **kw) for text in contents]


def user_link(site: Site, tenant: str, user_id: str, ttl: str = "1h") -> str:
    """An end-user link made by the REST endpoint, as a bot backend would."""
    resp = httpx.post(f"{site.url}/v1/ui-links", json={"user_id": user_id, "ttl": ttl},
                      headers={"Authorization": f"Bearer {site.keys[tenant]}"}, timeout=30)
    assert resp.status_code == 200, resp.text
    url: str = resp.json()["url"]
    return url
