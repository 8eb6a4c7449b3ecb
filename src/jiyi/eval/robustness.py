"""Stall, fairness and shutdown, measured over real HTTP against ``jiyi serve`` in a child process.

    python -m jiyi.eval.robustness [--chars 20000] [--backlog 300]

Prints three measurements (the default e5 model, a temp SQLite home, an in-process worker):

* stall: tenant ``alpha`` adds one long message (``--chars`` characters, Chinese prose);
  while the worker ingests it, tenant ``beta`` searches every 0.2 s. Also with the long
  add made ``sync`` (the request itself embeds it).
* fairness: ``beta`` queues ``--backlog`` messages, then ``alpha`` makes one sync add.
* shutdown: SIGTERM while ``beta``'s backlog is still being processed; seconds to exit.
"""

from __future__ import annotations

import argparse
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path

import httpx

from jiyi.eval.live_server import _free_port, _wait_healthy
from jiyi.eval.pg_embedded import die_with_parent
from jiyi.server.keys import KeyStore

_JIYI = "from jiyi.cli import main; main()"
SENTENCES = ("我上周去了杭州出差，顺便在西湖边走了走。", "周末我一般会去爬山，然后和朋友吃火锅。",
             "最近在学弹吉他，每天晚上练半个小时。", "我女儿今年上小学二年级了，很喜欢画画。",
             "公司下个月要搬到浦东新区，通勤时间会变长。", "我对花生过敏，吃东西的时候要特别小心。")


def long_text(chars: int) -> str:
    out: list[str] = []
    size, i = 0, 0
    while size < chars:
        out.append(f"第{i}段：{SENTENCES[i % len(SENTENCES)]}")
        size += len(out[-1])
        i += 1
    return "".join(out)[:chars]


def _searches_while(client: httpx.Client, until: Callable[[], bool]) -> list[float]:
    times = []
    while not until():
        t0 = time.perf_counter()
        resp = client.post("/v1/memories/search", json={"query": "周末做什么", "user_id": "b1", "limit": 5})
        resp.raise_for_status()
        times.append(time.perf_counter() - t0)
        time.sleep(0.2)
    return times


def _pending(client: httpx.Client) -> int:
    return int(client.get("/v1/stats").json()["stats"]["pending_jobs"])


def _summary(name: str, times: list[float]) -> str:
    if not times:
        return f"{name}: no searches ran"
    return (f"{name}: {len(times)} searches of the other tenant, p50 {statistics.median(times):.3f} s, "
            f"max {max(times):.3f} s")


def _sync_stall(a: httpx.Client, b: httpx.Client, text: str, chars: int) -> None:
    done = threading.Event()
    took: list[float] = []

    def sync_add() -> None:
        t = time.perf_counter()
        try:
            a.post("/v1/memories", json={"messages": text, "user_id": "a2", "sync": True}).raise_for_status()
        finally:
            took.append(time.perf_counter() - t)
            done.set()

    th = threading.Thread(target=sync_add)
    th.start()
    times = _searches_while(b, done.is_set)
    th.join()
    print(_summary(f"stall (sync {chars:,}-character add, answered in {took[0]:.1f} s)", times))


def run(chars: int, backlog: int, phases: set[str]) -> None:
    with tempfile.TemporaryDirectory(prefix="jiyi-robust-") as tmp:
        home = Path(tmp)
        keys = KeyStore(home / "keys.db")
        alpha, beta = (keys.create(t)[1] for t in ("alpha", "beta"))
        port = _free_port()
        env = {**os.environ, "JIYI_HOME": str(home)}
        cmd = [sys.executable, "-c", _JIYI, "serve", "--host", "127.0.0.1", "--port", str(port), "--worker",
               "--rate-limit", "0", "--keys-db", str(home / "keys.db"), "--log-level", "warning",
               "--max-body-bytes", str(8 * 1024 * 1024)]
        log_path = home / "serve.log"
        with log_path.open("wb") as log:
            proc = subprocess.Popen(cmd, env=env, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                    preexec_fn=die_with_parent)  # noqa: PLW1509
        url = f"http://127.0.0.1:{port}"
        try:
            _wait_healthy(proc, url, log_path)
            a = httpx.Client(base_url=url, headers={"Authorization": f"Bearer {alpha}"}, timeout=600)
            b = httpx.Client(base_url=url, headers={"Authorization": f"Bearer {beta}"}, timeout=600)
            b.post("/v1/memories", json={"messages": "我周末喜欢去爬山", "user_id": "b1", "sync": True}).raise_for_status()
            idle = _searches_while(b, iter([False] * 10 + [True]).__next__)
            print(_summary("idle", idle))
            text = long_text(chars)

            if "queued" in phases:
                t0 = time.perf_counter()
                a.post("/v1/memories", json={"messages": text, "user_id": "a1"}).raise_for_status()
                times = _searches_while(b, lambda: _pending(a) == 0)
                print(_summary(f"stall (queued {chars:,}-character add, ingested in {time.perf_counter() - t0:.1f} s)",
                               times))
            if "sync" in phases:
                _sync_stall(a, b, text[:-1] + "。", chars)
            if "fairness" not in phases:
                return

            t0 = time.perf_counter()
            for i in range(0, backlog, 50):
                msgs = [{"content": f"第{j}条：{SENTENCES[j % len(SENTENCES)]}"} for j in range(i, min(i + 50, backlog))]
                for m in msgs:  # one job per message, as a chat sends them
                    b.post("/v1/memories", json={"messages": [m], "user_id": f"b{i % 7}"}).raise_for_status()
            queued = time.perf_counter() - t0
            t0 = time.perf_counter()
            a.post("/v1/memories", json={"messages": "我下周三去上海开会", "user_id": "a3", "sync": True}).raise_for_status()
            sync_s = time.perf_counter() - t0
            left = _pending(b)
            print(f"fairness: sync add of one tenant {sync_s:.2f} s behind the other's {backlog} queued messages "
                  f"(queued in {queued:.1f} s; {left} still pending after it)")

            t0 = time.perf_counter()
            proc.send_signal(signal.SIGTERM)
            proc.wait(timeout=120)
            print(f"shutdown: SIGTERM with {left} queued jobs, exited in {time.perf_counter() - t0:.2f} s "
                  f"(status {proc.returncode})")
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--chars", type=int, default=20_000)
    ap.add_argument("--backlog", type=int, default=300)
    ap.add_argument("--phases", default="queued,sync,fairness",
                    help="which to run, comma-separated: queued, sync, fairness (shutdown follows fairness)")
    args = ap.parse_args()
    run(args.chars, args.backlog, set(args.phases.split(",")))


if __name__ == "__main__":
    main()
