"""What the fake services share: a real HTTP server on loopback, in a background thread,
that records every request and answers the scripted ones first (tests/fake_openai.py,
tests/rerankers/fake_rerank.py). A subclass says how to answer; its handler class calls
:meth:`ScriptedServer._take` for each request.
"""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Generic, TypeVar

RequestT = TypeVar("RequestT")
AnswerT = TypeVar("AnswerT")


class ScriptedServer(Generic[RequestT, AnswerT]):
    """Start with :meth:`start` or ``with``; ``base_url`` ends in ``/v1``."""

    name = "fake-server"

    def __init__(self, handler: Callable[[Any], type[BaseHTTPRequestHandler]]) -> None:
        self._handler = handler
        self._queue: deque[AnswerT] = deque()
        self._requests: list[RequestT] = []
        self._lock = threading.Lock()
        self._stopping = threading.Event()  # set on stop: wakes handlers sleeping in a slow answer
        self._server: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    @property
    def base_url(self) -> str:
        if self._server is None:
            raise RuntimeError(f"{type(self).__name__} is not started")
        host, port = self._server.server_address[:2]
        return f"http://{host!s}:{port}/v1"

    @property
    def requests(self) -> list[RequestT]:
        with self._lock:
            return list(self._requests)

    def push(self, *answers: AnswerT) -> None:
        """Answers for the next requests, in order (before any default answer)."""
        with self._lock:
            self._queue.extend(answers)

    def pending(self) -> int:
        """Scripted answers not consumed yet."""
        with self._lock:
            return len(self._queue)

    def start(self) -> Any:
        server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler(self))
        server.daemon_threads = True
        self._server = server
        self._thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05},
                                        name=self.name, daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stopping.set()
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
        if self._thread is not None:
            self._thread.join(timeout=5)

    def __enter__(self) -> Any:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def _take(self, request: RequestT) -> AnswerT | None:
        """Record ``request``; the next scripted answer, or None when none is queued."""
        with self._lock:
            self._requests.append(request)
            return self._queue.popleft() if self._queue else None
