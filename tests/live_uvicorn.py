"""Serve an ASGI app with uvicorn in a thread on a free loopback port (server, web and proxy tests)."""

from __future__ import annotations

import threading
import time
from typing import Any

import uvicorn


def serve_in_thread(app: Any, name: str = "uvicorn-test") -> tuple[str, uvicorn.Server, threading.Thread]:
    """Start ``app``; returns its base URL, the server (set ``should_exit`` to stop) and the thread.

    Port 0 lets the OS pick a free port. (Handing uvicorn a pre-bound socket instead would
    leave TCP_NODELAY off and add ~40 ms of Nagle/delayed-ACK wait to every response.)
    """
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=0, log_level="warning", lifespan="on"))
    thread = threading.Thread(target=server.run, name=name, daemon=True)
    thread.start()
    deadline = time.monotonic() + 120
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise RuntimeError("the test server did not start (see the log above)")
        time.sleep(0.02)
    port = server.servers[0].sockets[0].getsockname()[1]
    return f"http://127.0.0.1:{port}", server, thread
