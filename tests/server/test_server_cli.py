"""`jiyi serve` as a user runs it: a subprocess with real options, stopped by SIGTERM."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx

from jiyi.client import JiyiClient

JIYI = [sys.executable, "-c", "from jiyi.cli import main; main()"]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def test_jiyi_serve_end_to_end(tmp_path: Path) -> None:
    env = {**os.environ, "JIYI_EMBEDDER": "hash"}
    env.pop("JIYI_HOME", None)
    made = subprocess.run([*JIYI, "--home", str(tmp_path), "keys", "create", "--tenant", "acme"], env=env,
                          capture_output=True, text=True, timeout=60)
    assert made.returncode == 0, made.stderr
    key = made.stdout.strip()
    port = free_port()
    proc = subprocess.Popen([*JIYI, "--home", str(tmp_path), "serve", "--port", str(port), "--rate-limit", "0",
                             "--max-body-bytes", "1000", "--log-level", "warning"],
                            env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        url = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 60
        while True:
            try:
                if httpx.get(f"{url}/healthz").status_code == 200:
                    break
            except httpx.TransportError:
                pass
            assert proc.poll() is None and time.monotonic() < deadline, proc.stderr.read()  # type: ignore[union-attr]
            time.sleep(0.1)
        with JiyiClient(url, api_key=key) as mem:
            mem.add("记住，我对芒果过敏", user_id="u1")  # the in-process worker (on by default) picks it up
            deadline = time.monotonic() + 30
            while not mem.get_all(user_id="u1", status=None):
                assert time.monotonic() < deadline, "the --worker default did not process the write"
                time.sleep(0.1)
        big = httpx.post(f"{url}/v1/memories", headers={"Authorization": f"Bearer {key}"},
                         json={"messages": "x" * 2000, "user_id": "u1"})
        assert big.status_code == 413, "--max-body-bytes reached the app"
    finally:
        proc.send_signal(signal.SIGTERM)
        # uvicorn shuts down gracefully, then re-raises the signal so the exit status tells why it stopped
        assert proc.wait(30) in (0, -signal.SIGTERM)
