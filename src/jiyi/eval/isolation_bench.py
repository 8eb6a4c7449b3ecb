"""``jiyi bench-service --isolation``: how long one tenant waits while another's long messages run.

Per backend (SQLite, PostgreSQL) one store holds two tenants. ``slow`` queues long messages
whose LLM extraction takes ``slow_seconds`` each (an OpenAI-compatible server on loopback that
sleeps before it answers), drained by a background worker as in ``jiyi serve``. Meanwhile
``fast`` does ``writes`` sync adds (to the same LLM server, answered at once), one ``flush()``
after queuing a write, and a ``delete_all`` of a user it never had; another user of ``slow`` (the
tenant whose Memory runs the worker, like the configured tenant of ``jiyi serve``) does sync adds too. Each call is timed; the
target (issue 25) is that none takes more than 2 s, however long the other tenant's work.
Prints p50 / p95 / max per call. The embedder is ``hash`` (the queue is measured, not a model).
"""

from __future__ import annotations

import json
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import asdict, dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from jiyi.eval.metrics import percentile

TARGET_S = 2.0
MARKER = "(bench: a long message)"
Progress = Callable[[str], None]


@dataclass(slots=True, frozen=True)
class IsolationOptions:
    slow_seconds: float = 8.0  # one long message's extraction
    slow_messages: int = 3
    writes: int = 10
    backends: tuple[str, ...] = ("sqlite", "postgres")
    pg_url: str | None = None


@dataclass(slots=True)
class CallTimes:
    call: str
    seconds: list[float] = field(default_factory=list)

    def row(self) -> dict[str, Any]:
        s = sorted(self.seconds)
        return {"call": self.call, "n": len(s), "p50_s": round(percentile(s, 50), 3),
                "p95_s": round(percentile(s, 95), 3), "max_s": round(s[-1], 3) if s else 0.0}


@dataclass(slots=True)
class IsolationReport:
    options: IsolationOptions
    backends: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    slow_calls_seen: dict[str, int] = field(default_factory=dict)  # LLM calls of the slow tenant under way

    @property
    def worst(self) -> float:
        return max((r["max_s"] for rows in self.backends.values() for r in rows), default=0.0)

    def to_dict(self) -> dict[str, Any]:
        return {"options": asdict(self.options), "backends": self.backends, "worst_s": self.worst,
                "target_s": TARGET_S, "ok": self.worst <= TARGET_S, "slow_calls_seen": self.slow_calls_seen}


class SlowLLM:
    """A chat-completions server on loopback: a prompt with :data:`MARKER` is answered after
    ``seconds``; any other at once; every answer is an empty extraction."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.slow_started = 0
        self._stop = threading.Event()
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True, name="bench-slow-llm")

    @property
    def base_url(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host!s}:{port}/v1"

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        llm = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, format: str, *args: Any) -> None:
                pass

            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0)).decode("utf-8", "replace")
                if MARKER in body:
                    llm.slow_started += 1
                    if llm._stop.wait(llm.seconds):
                        return
                content = json.dumps({"memories": []})
                payload = json.dumps({"id": "bench", "object": "chat.completion", "model": "bench",
                                      "choices": [{"index": 0, "finish_reason": "stop",
                                                   "message": {"role": "assistant", "content": content}}],
                                      "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2}})
                data = payload.encode()
                try:
                    self.send_response(200)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(data)))
                    self.end_headers()
                    self.wfile.write(data)
                except (BrokenPipeError, ConnectionResetError):
                    pass

        return Handler

    @contextmanager
    def running(self) -> Iterator[SlowLLM]:
        self._thread.start()
        try:
            yield self
        finally:
            self._stop.set()
            self._server.shutdown()
            self._server.server_close()


def run_isolation_bench(options: IsolationOptions, progress: Progress | None = None) -> IsolationReport:
    from jiyi.eval.service_bench import _postgres_schema

    say = progress or (lambda _msg: None)
    report = IsolationReport(options)
    with ExitStack() as stack:
        home = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="jiyi-isolation-")))
        for backend in options.backends:
            llm = stack.enter_context(SlowLLM(options.slow_seconds).running())
            store = str(home / f"{backend}.db") if backend == "sqlite" else _postgres_schema(stack, options.pg_url, say)[0]
            say(f"{backend}: {options.slow_messages} long messages of {options.slow_seconds:g}s each for tenant "
                f"'slow'; {options.writes} sync adds, a flush and a delete for tenant 'fast'")
            report.backends[backend] = _one_backend(store, home / backend, llm, options)
            report.slow_calls_seen[backend] = llm.slow_started
    return report


def _one_backend(store: str, home: Path, llm: SlowLLM, options: IsolationOptions) -> list[dict[str, Any]]:
    from jiyi.memory import Memory
    from jiyi.text.tokens import warm as warm_tokenizers

    config: dict[str, Any] = {"home": home, "store": store, "embedder": "hash", "extractor": "llm",
                              "llm_base_url": llm.base_url, "llm_model": "bench", "llm_api_key": "sk-bench",
                              "llm_timeout": options.slow_seconds * 3 + 10, "llm_max_retries": 0,
                              "gc_interval_hours": 0}
    times = {name: CallTimes(name) for name in ("sync add", "sync add, worker's tenant", "flush",
                                                "delete_all (no such user)")}
    warm_tokenizers()  # as `jiyi serve` does at start (jieba's dictionary is not the queue's cost)
    with Memory(tenant="slow", background_worker=True, **config) as slow, \
            Memory(tenant="fast", background_worker=False, **config) as fast:
        for i in range(options.slow_messages):
            slow.add(f"{MARKER} 第{i}段：" + "我最近在学做菜，周末会去菜市场买新鲜的蔬菜。" * 40, user_id=f"s{i % 2}")
        deadline = time.monotonic() + 30
        while llm.slow_started == 0 and time.monotonic() < deadline:  # the worker is inside a long job
            time.sleep(0.02)
        for i in range(options.writes):
            t0 = time.perf_counter()
            fast.add(f"第{i}条：我住在杭州，喜欢喝龙井茶", user_id=f"f{i % 3}", sync=True)
            times["sync add"].seconds.append(time.perf_counter() - t0)
        for i in range(max(1, options.writes // 2)):  # another user of the tenant whose Memory runs the worker
            t0 = time.perf_counter()
            slow.add(f"第{i}条：我在杭州上班", user_id="neighbour", sync=True)
            times["sync add, worker's tenant"].seconds.append(time.perf_counter() - t0)
        fast.add("我养了一只猫", user_id="f0")
        t0 = time.perf_counter()
        fast.flush(timeout=120)
        times["flush"].seconds.append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        fast.delete_all(user_id="never-seen")
        times["delete_all (no such user)"].seconds.append(time.perf_counter() - t0)
    return [t.row() for t in times.values()]


def format_isolation(report: IsolationReport) -> str:
    o = report.options
    head = (f"tenant isolation: tenant 'slow' has {o.slow_messages} long messages of {o.slow_seconds:g}s of LLM "
            f"each; tenant 'fast' is timed (target: every call ≤ {TARGET_S:g}s)")
    lines = [head, "",
             f"{'backend':10} {'call':30} {'n':>4} {'p50 s':>8} {'p95 s':>8} {'max s':>8}"]
    for backend, rows in report.backends.items():
        for r in rows:
            lines.append(f"{backend:10} {r['call']:30} {r['n']:>4} {r['p50_s']:>8.3f} {r['p95_s']:>8.3f} "
                         f"{r['max_s']:>8.3f}")
    verdict = "ok" if report.worst <= TARGET_S else "OVER the target"
    lines += ["", f"worst {report.worst:.3f}s: {verdict} (slow LLM calls under way: {report.slow_calls_seen})"]
    return "\n".join(lines)
