"""``jiyi serve`` in a child process on 127.0.0.1, for measurements over real HTTP.

A child process rather than a thread of the caller: the server then has its own
interpreter lock, its own model and its own store connections, as in a deployment,
and the measuring process's threads cannot slow it down. The port is one the kernel
just handed out as free (bound to port 0 and released; the tiny window in which
another process could take it ends in a clear start error, not a hang). The child
gets SIGINT if we die (``PR_SET_PDEATHSIG``) and is stopped with SIGINT (uvicorn's
graceful shutdown) when the block ends.
"""

from __future__ import annotations

import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path

import httpx

from jiyi.errors import JiyiError
from jiyi.eval.pg_embedded import die_with_parent, tail

START_TIMEOUT = 180.0  # imports, the model and the store, on a busy machine
_JIYI = "from jiyi.cli import main; main()"


class ServerStartError(JiyiError, RuntimeError):
    """``jiyi serve`` did not answer ``/healthz`` (the message carries its log)."""


@contextmanager
def served(env: Mapping[str, str], keys_db: Path, log_path: Path, *, worker: bool = False) -> Iterator[str]:
    """Run ``jiyi serve`` with environment ``env`` (``JIYI_STORE``, ``JIYI_HOME``, ...) and yield its URL.

    No rate limit (a benchmark sends as fast as it can), and no in-process worker
    unless asked: an idle worker's polling would add queries the measurement is not about.
    """
    port = _free_port()
    cmd = [sys.executable, "-c", _JIYI, "serve", "--host", "127.0.0.1", "--port", str(port),
           "--worker" if worker else "--no-worker", "--rate-limit", "0", "--keys-db", str(keys_db),
           "--log-level", "warning"]
    with log_path.open("wb") as log:
        proc = subprocess.Popen(cmd, env=dict(env), stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                preexec_fn=die_with_parent)  # noqa: PLW1509 - one prctl call, see there
    try:
        url = f"http://127.0.0.1:{port}"
        _wait_healthy(proc, url, log_path)
        yield url
    finally:
        _stop(proc)


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _wait_healthy(proc: subprocess.Popen[bytes], url: str, log_path: Path) -> None:
    deadline = time.monotonic() + START_TIMEOUT
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise ServerStartError(f"jiyi serve exited with {proc.returncode}:\n{tail(log_path)}")
        try:
            if httpx.get(f"{url}/healthz", timeout=2.0).status_code == 200:
                return
        except httpx.TransportError:
            pass
        time.sleep(0.1)
    raise ServerStartError(f"jiyi serve not healthy after {START_TIMEOUT:.0f}s:\n{tail(log_path)}")


def _stop(proc: subprocess.Popen[bytes]) -> None:
    if proc.poll() is not None:
        return
    proc.send_signal(signal.SIGINT)  # uvicorn drains and runs the app's shutdown
    try:
        proc.wait(timeout=30)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(timeout=10)
