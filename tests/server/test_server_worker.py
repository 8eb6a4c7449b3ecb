"""Workers: the server's in-process worker, and `jiyi worker` processes draining one queue."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from datetime import timedelta
from pathlib import Path

import httpx
import pytest
from server_support import LiveServer

from jiyi.clock import utc_now
from jiyi.embedders.hashing import HashingEmbedder
from jiyi.memory import Memory

JIYI = [sys.executable, "-c", "from jiyi.cli import main; main()"]


def wait_for(check: Callable[[], bool], timeout: float = 60.0, what: str = "condition") -> None:
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.1)


def memories(client: httpx.Client, user: str) -> list[dict[str, object]]:
    rows: list[dict[str, object]] = client.get("/v1/memories", params={"user_id": user, "status": "all"}).json()[
        "memories"]
    return rows


def start_worker(home: Path, *args: str) -> subprocess.Popen[str]:
    env = {**os.environ, "JIYI_EMBEDDER": "hash"}
    env.pop("JIYI_HOME", None)
    return subprocess.Popen([*JIYI, "--home", str(home), "worker", *args], env=env, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)


@pytest.fixture
def workers() -> Iterator[list[subprocess.Popen[str]]]:
    """Worker processes a test starts; any still running at the end are stopped (SIGKILL)."""
    procs: list[subprocess.Popen[str]] = []
    yield procs
    for proc in procs:
        if proc.poll() is None:
            proc.kill()
            proc.wait(10)


def test_in_process_worker_processes_writes_without_flush(insecure_server: LiveServer, uid: str) -> None:
    with insecure_server.http() as client:
        resp = client.post("/v1/memories", json={"messages": "我叫韩梅梅，住在南京，喜欢吃鸭血粉丝汤",
                                                  "user_id": uid})
        assert resp.json()["pending"] is True
        wait_for(lambda: bool(memories(client, uid)), 30, "the in-process worker")
        assert client.get("/v1/stats").json()["stats"]["pending_jobs"] == 0


def test_jiyi_worker_drains_the_queue_and_stops_on_sigterm(server: LiveServer, acme: httpx.Client, uid: str,
                                                           workers: list[subprocess.Popen[str]]) -> None:
    resp = acme.post("/v1/memories", json={"messages": "我在成都开了一家火锅店", "user_id": uid})
    assert resp.json()["pending"] is True
    time.sleep(0.5)
    assert memories(acme, uid) == [], "the server runs no worker: the job waits"

    workers.append(start_worker(server.home))
    wait_for(lambda: bool(memories(acme, uid)), 90, "`jiyi worker`")
    workers[0].send_signal(signal.SIGTERM)
    assert workers[0].wait(30) == 0
    assert "stopping" in workers[0].stderr.read()  # type: ignore[union-attr]


def test_two_workers_share_one_queue_and_no_job_takes_effect_twice(
        server: LiveServer, acme: httpx.Client, uid: str, workers: list[subprocess.Popen[str]]) -> None:
    users = [f"{uid}-{i}" for i in range(12)]
    for i, user in enumerate(users):
        msgs = [{"role": "user", "content": f"我的幸运数字是{i}，我住在第{i}区", "id": f"msg-{i}"}]
        assert acme.post("/v1/memories", json={"messages": msgs, "user_id": user}).json()["pending"] is True
    workers.extend([start_worker(server.home), start_worker(server.home)])
    wait_for(lambda: acme.get("/v1/stats").json()["stats"]["pending_jobs"] == 0, 120, "both workers")
    for i, user in enumerate(users):
        rows = memories(acme, user)
        episodes = [r for r in rows if r["kind"] == "episode"]
        assert len(episodes) == 1, (user, rows)
        assert episodes[0]["source_ids"] == [f"msg-{i}"]
        contents = [r["content"] for r in rows]
        assert len(contents) == len(set(contents)), f"duplicated memories for {user}: {contents}"
    for proc in workers:
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(30) == 0


def test_a_job_whose_worker_died_mid_job_is_retried(server: LiveServer, acme: httpx.Client, uid: str) -> None:
    msgs = [{"content": "我下个月搬去厦门", "id": "crash-1"}]
    acme.post("/v1/memories", json={"messages": msgs, "user_id": uid})
    # A worker claims the job and dies before committing: its claim is all that is left of it.
    with Memory(home=server.home, embedder=HashingEmbedder(), background_worker=False) as mem:
        claimed = mem.store.claim_jobs(100, "worker-that-died", utc_now() - timedelta(seconds=120), 60.0)
    assert any(job.scope.user_id == uid for job in claimed)
    assert memories(acme, uid) == [], "nothing of the job was written"

    done = subprocess.run([*JIYI, "--home", str(server.home), "worker", "--once"], text=True, capture_output=True,
                          env={**os.environ, "JIYI_EMBEDDER": "hash"}, timeout=120)
    assert done.returncode == 0, done.stderr
    rows = memories(acme, uid)
    assert [r["source_ids"] for r in rows if r["kind"] == "episode"] == [["crash-1"]]
    assert acme.get("/v1/stats").json()["stats"]["pending_jobs"] == 0
