"""`jiyi serve` and `jiyi proxy` as real processes at the default log level: every request gets its
access line, no record breaks a formatter ("--- Logging error ---" and a traceback per request
before), and credentials in what is logged stay masked."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests/: fake_openai

from fake_openai import FakeOpenAI

JIYI = [sys.executable, "-c", "from jiyi.cli import main; main()"]
SECRET = "sk-proj-abcdefghijklmnop1234"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def env_for(home: Path) -> dict[str, str]:
    env = {**os.environ, "JIYI_EMBEDDER": "hash", "JIYI_HOME": str(home)}
    env.pop("JIYI_LOG_LEVEL", None)
    return env


def wait_up(proc: subprocess.Popen[str], url: str) -> None:
    deadline = time.monotonic() + 60
    while True:
        try:
            httpx.get(url, timeout=2)
            return
        except httpx.TransportError:
            pass
        assert proc.poll() is None and time.monotonic() < deadline, "the server did not start"
        time.sleep(0.1)


def stop(proc: subprocess.Popen[str]) -> str:
    """SIGTERM, then everything the process wrote to stderr and stdout."""
    proc.send_signal(signal.SIGTERM)
    out, err = proc.communicate(timeout=30)
    return err + out


def assert_clean(log: str, *paths: str) -> None:
    assert "Logging error" not in log, log[-3000:]
    assert "Traceback" not in log, log[-3000:]
    for path in paths:
        assert f"{path.split('?')[0]}" in log and "HTTP/1.1" in log, f"no access line for {path}:\n{log[-3000:]}"
    assert SECRET not in log and "abcdefghijklmnop1234" not in log


@pytest.fixture
def serve(tmp_path: Path) -> Iterator[tuple[str, subprocess.Popen[str]]]:
    port = free_port()
    proc = subprocess.Popen([*JIYI, "serve", "--port", str(port), "--insecure-no-auth", "--rate-limit", "0"],
                            env=env_for(tmp_path), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    url = f"http://127.0.0.1:{port}"
    try:
        wait_up(proc, f"{url}/healthz")
        yield url, proc
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(10)


def test_serve_logs_access_lines_and_no_logging_error(serve: tuple[str, subprocess.Popen[str]]) -> None:
    url, proc = serve
    for _ in range(3):
        assert httpx.get(f"{url}/healthz").status_code == 200
    assert httpx.get(f"{url}/healthz?token={SECRET}").status_code == 200
    added = httpx.post(f"{url}/v1/memories", json={"messages": "我住在杭州", "user_id": "u1", "sync": True})
    assert added.status_code in (200, 201), added.text
    assert httpx.get(f"{url}/v1/nothing-here").status_code == 404
    log = stop(proc)
    assert_clean(log, "/healthz", "/v1/memories", "/v1/nothing-here")
    assert log.count("GET /healthz") >= 4
    assert "token=***" in log  # the query's credential is masked in its access line


def test_proxy_logs_access_lines_and_no_logging_error(tmp_path: Path) -> None:
    port = free_port()
    with FakeOpenAI() as upstream:
        proc = subprocess.Popen([*JIYI, "proxy", "--upstream", upstream.base_url, "--port", str(port)],
                                env=env_for(tmp_path), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            url = f"http://127.0.0.1:{port}"
            wait_up(proc, f"{url}/v1/models")
            for _ in range(2):
                reply = httpx.post(f"{url}/v1/chat/completions", timeout=30,
                                   headers={"Authorization": f"Bearer {SECRET}", "X-Jiyi-User": "u1"},
                                   json={"model": "fake-model", "messages": [{"role": "user", "content": "你好"}]})
                assert reply.status_code == 200, reply.text
            log = stop(proc)
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait(10)
    assert_clean(log, "/v1/chat/completions")
