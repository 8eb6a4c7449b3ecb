"""Serving the proxy with uvicorn on a real loopback port, and waiting for what it records."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass

import uvicorn
from fake_openai import FakeOpenAI

from jiyi.memory import Memory


@dataclass
class RunningProxy:
    url: str  # ends in /v1, like an OpenAI base URL
    memory: Memory
    upstream: FakeOpenAI

    def wait_recorded(self, user_id: str, count: int, timeout: float = 10.0) -> list[str]:
        """Episode texts of ``user_id`` once at least ``count`` exist (the proxy records in the background)."""
        deadline = time.monotonic() + timeout
        while True:
            self.memory.flush()
            texts = [r.content for r in self.memory.get_all(user_id=user_id, kinds=["episode"])]
            if len(texts) >= count or time.monotonic() > deadline:
                return texts
            time.sleep(0.05)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def serve_in_thread(app: object) -> Iterator[str]:
    port = _free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))  # type: ignore[arg-type]
    thread = threading.Thread(target=server.run, name="jiyi-proxy", daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        assert thread.is_alive() and time.monotonic() < deadline, "proxy did not start"
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}/v1"
    finally:
        server.should_exit = True
        thread.join(timeout=10)
