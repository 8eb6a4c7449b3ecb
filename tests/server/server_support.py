"""Running a real jiyi server for tests: uvicorn in a thread on 127.0.0.1, an ephemeral port.

The servers use the offline ``hash`` embedder (fast, deterministic) and the default
extractor over a temp SQLite home; nothing of jiyi is patched.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import uvicorn
from live_uvicorn import serve_in_thread

from jiyi.config import Settings
from jiyi.server.app import ServerOptions, create_app
from jiyi.server.keys import KeyStore


@dataclass
class LiveServer:
    """A running server: its URL, data home, and one API key per tenant."""

    url: str
    home: Path
    keys: dict[str, str] = field(default_factory=dict)
    _server: uvicorn.Server | None = None
    _thread: threading.Thread | None = None

    def http(self, tenant: str | None = None, **kw: Any) -> httpx.Client:
        """An httpx client, authenticated as ``tenant`` when one is given."""
        headers = {"Authorization": f"Bearer {self.keys[tenant]}"} if tenant else {}
        return httpx.Client(base_url=self.url, headers=headers, timeout=60, **kw)

    def stop(self) -> None:
        assert self._server is not None and self._thread is not None
        self._server.should_exit = True
        self._thread.join(timeout=60)
        assert not self._thread.is_alive(), "server did not stop"


def settings_for(home: Path, **extra: Any) -> Settings:
    return Settings(home=home, embedder="hash", **extra)


def start_server(home: Path, options: ServerOptions, tenants: tuple[str, ...] = ()) -> LiveServer:
    """Create keys for ``tenants``, build the app, serve it on a fresh loopback port."""
    keystore = KeyStore.in_home(home)
    keys = {t: keystore.create(t, name=f"test {t}")[1] for t in tenants}
    app = create_app(settings_for(home), options)
    url, server, thread = serve_in_thread(app)
    return LiveServer(url, home, keys, server, thread)


def add_sync(client: httpx.Client, user_id: str, text: str, **extra: Any) -> dict[str, Any]:
    """POST /v1/memories with sync=true; asserts success and returns the answer."""
    resp = client.post("/v1/memories", json={"messages": text, "user_id": user_id, "sync": True, **extra})
    assert resp.status_code == 200, resp.text
    body: dict[str, Any] = resp.json()
    assert body["pending"] is False
    return body


def error_code(resp: httpx.Response) -> str:
    code: str = resp.json()["error"]["code"]
    return code
