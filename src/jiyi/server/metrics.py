"""Prometheus metrics in the text exposition format, without a client library.

Requests are labelled by route *template* (``/v1/memories/{memory_id}``), never by
the raw path, so ids and user names neither leak into metrics nor explode their
cardinality. Gauges (queue depth, failed jobs, open tenants) are read at scrape time.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from starlette.types import ASGIApp, Message, Receive, Scope, Send

BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0)


@dataclass(slots=True)
class _Histogram:
    counts: list[int] = field(default_factory=lambda: [0] * len(BUCKETS))
    total: int = 0
    sum: float = 0.0

    def observe(self, seconds: float) -> None:
        self.total += 1
        self.sum += seconds
        for i, bound in enumerate(BUCKETS):
            if seconds <= bound:
                self.counts[i] += 1


class Metrics:
    """Counters and latency histograms per (method, route); thread-safe."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._requests: dict[tuple[str, str, int], int] = {}
        self._latency: dict[tuple[str, str], _Histogram] = {}
        self.gauges: dict[str, tuple[str, Callable[[], float]]] = {}

    def observe(self, method: str, route: str, status: int, seconds: float) -> None:
        with self._lock:
            key = (method, route, status)
            self._requests[key] = self._requests.get(key, 0) + 1
            self._latency.setdefault((method, route), _Histogram()).observe(seconds)

    def gauge(self, name: str, help_text: str, read: Callable[[], float]) -> None:
        """Register a gauge whose value ``read()`` gives at scrape time."""
        self.gauges[name] = (help_text, read)

    def render(self) -> str:
        """The whole exposition, ``text/plain; version=0.0.4``."""
        out = ["# HELP jiyi_http_requests_total HTTP requests by method, route template and status.",
               "# TYPE jiyi_http_requests_total counter"]
        with self._lock:
            requests = sorted(self._requests.items())
            latency = sorted((k, (list(h.counts), h.total, h.sum)) for k, h in self._latency.items())
        for (method, route, status), n in requests:
            out.append(f'jiyi_http_requests_total{{method="{method}",route="{_esc(route)}",status="{status}"}} {n}')
        out += ["# HELP jiyi_http_request_duration_seconds Time to answer, by method and route template.",
                "# TYPE jiyi_http_request_duration_seconds histogram"]
        for (method, route), (counts, total, seconds) in latency:
            labels = f'method="{method}",route="{_esc(route)}"'
            for bound, n in zip(BUCKETS, counts):
                out.append(f'jiyi_http_request_duration_seconds_bucket{{{labels},le="{bound}"}} {n}')
            out.append(f'jiyi_http_request_duration_seconds_bucket{{{labels},le="+Inf"}} {total}')
            out.append(f"jiyi_http_request_duration_seconds_sum{{{labels}}} {seconds:.6f}")
            out.append(f"jiyi_http_request_duration_seconds_count{{{labels}}} {total}")
        for name, (help_text, read) in sorted(self.gauges.items()):
            try:
                value = float(read())
            except Exception:  # noqa: BLE001 - a failing gauge must not break the scrape
                value = float("nan")
            out += [f"# HELP {name} {help_text}", f"# TYPE {name} gauge", f"{name} {value:g}"]
        return "\n".join(out) + "\n"


class MetricsMiddleware:
    """Times every HTTP request and records it under its route template."""

    def __init__(self, app: ASGIApp, metrics: Metrics) -> None:
        self.app = app
        self.metrics = metrics

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        start = time.perf_counter()
        status = 500

        async def send_status(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = int(message["status"])
            await send(message)

        try:
            await self.app(scope, receive, send_status)
        finally:
            route = getattr(scope.get("route"), "path", None) or "unmatched"
            self.metrics.observe(scope["method"], route, status, time.perf_counter() - start)


def _esc(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
