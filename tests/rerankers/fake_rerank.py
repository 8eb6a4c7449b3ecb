"""A real rerank server for tests: ``POST /v1/rerank`` in the Jina / Cohere v2 shape, on loopback.

It listens on 127.0.0.1 on an ephemeral port in a background thread. What it answers,
in order of precedence:

1. the next :class:`Answer` pushed with :meth:`FakeRerank.push` (status, raw body, delay);
2. otherwise it scores each document with ``score(query, document)`` (by default the
   number of query words the document contains) and answers the ``top_n`` best as
   ``{"results": [{"index", "relevance_score"}]}``; ``keep`` (when set) cuts that list
   to its first ``keep`` results, a partial answer.

Every request is recorded (:attr:`FakeRerank.requests`), so tests can check what the
reranker was sent and whether a search hit the cache.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler
from typing import Any

from scripted_server import ScriptedServer

Score = Callable[[str, str], float]


def word_overlap(query: str, document: str) -> float:
    """How many distinct query words (or CJK characters) the document contains."""
    words = set(re.findall(r"[a-z0-9]+|[\u4e00-\u9fff]", query.lower()))
    return float(sum(1 for w in words if w in document.lower()))


@dataclass
class Answer:
    """One scripted answer; ``body`` JSON-encoded unless ``raw`` is given."""

    status: int = 200
    body: Any = None
    raw: bytes | None = None
    delay: float = 0.0
    headers: dict[str, str] = field(default_factory=dict)


@dataclass
class Request:
    path: str
    headers: dict[str, str]
    json: Any


class FakeRerank(ScriptedServer[Request, Answer]):
    """The server; ``base_url`` ends in ``/v1``."""

    name = "fake-rerank"

    def __init__(self, score: Score = word_overlap, *, keep: int | None = None) -> None:
        super().__init__(_handler)
        self.score = score
        self.keep = keep

    def _answer(self, request: Request) -> Answer:
        scripted = self._take(request)
        if scripted is not None:
            return scripted
        if not request.path.endswith("/rerank"):
            return Answer(404, {"error": f"no route {request.path}"})
        body = request.json if isinstance(request.json, dict) else {}
        query, docs = str(body.get("query", "")), list(body.get("documents") or [])
        if not docs:
            return Answer(400, {"error": "documents is required"})
        ranked = sorted(((self.score(query, str(d)), i) for i, d in enumerate(docs)), key=lambda p: (-p[0], p[1]))
        ranked = ranked[: int(body.get("top_n") or len(docs))]
        if self.keep is not None:
            ranked = ranked[: self.keep]
        return Answer(body={"model": body.get("model"),
                            "results": [{"index": i, "relevance_score": s} for s, i in ranked]})


def _handler(fake: FakeRerank) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, format: str, *args: Any) -> None:
            pass

        def do_POST(self) -> None:
            raw = self.rfile.read(int(self.headers.get("Content-Length") or 0))
            try:
                data = json.loads(raw) if raw else None
            except ValueError:
                data = None
            answer = fake._answer(Request(self.path, {k.lower(): v for k, v in self.headers.items()}, data))
            if answer.delay and fake._stopping.wait(answer.delay):
                return
            payload = answer.raw if answer.raw is not None else json.dumps(answer.body).encode()
            try:
                self.send_response(answer.status)
                self.send_header("Content-Type", "application/json")
                for key, value in answer.headers.items():
                    self.send_header(key, value)
                self.send_header("Content-Length", str(len(payload)))
                self.end_headers()
                self.wfile.write(payload)
            except (BrokenPipeError, ConnectionResetError):  # the client gave up (a timeout test)
                pass

    return Handler
