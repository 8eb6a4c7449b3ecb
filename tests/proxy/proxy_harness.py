"""Serving the proxy with uvicorn on a real loopback port, and waiting for what it records."""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass

from fake_openai import FakeOpenAI
from live_uvicorn import serve_in_thread

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


def serve_proxy(app: object) -> Iterator[str]:
    """Serve the proxy app; yields its OpenAI-style base URL (…/v1) and stops it afterwards."""
    url, server, thread = serve_in_thread(app, "jiyi-proxy")
    try:
        yield f"{url}/v1"
    finally:
        server.should_exit = True
        thread.join(timeout=10)
