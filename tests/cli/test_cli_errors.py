"""User mistakes at the CLI: one clear line on stderr, a non-zero exit, no traceback (unless --debug)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from jiyi.cli import cli

ROOT = Path(__file__).resolve().parents[2]


class Result:
    def __init__(self, returncode: int, stdout: str, stderr: str) -> None:
        self.returncode, self.stdout, self.stderr = returncode, stdout, stderr


def jiyi(home: Path, *args: str | bytes, env: dict[str, str] | None = None) -> Result:
    """The CLI in this process; bytes arguments arrive as Python decodes argv (surrogateescape)."""
    argv = [os.fsdecode(a) for a in args]
    full = {"JIYI_HOME": str(home), "JIYI_EMBEDDER": "hash", "JIYI_DEBUG": None, **(env or {})}
    result = CliRunner().invoke(cli, argv, env=full)
    return Result(result.exit_code, result.stdout, result.stderr)


def jiyi_process(home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src"), "JIYI_HOME": str(home), "JIYI_EMBEDDER": "hash"}
    argv = [sys.executable, "-c", "from jiyi.cli import main; main()", *args]
    return subprocess.run(argv, check=False, env=env, capture_output=True, text=True, timeout=120)


CASES: list[tuple[str, tuple[str | bytes, ...], dict[str, str]]] = [
    ("invalid UTF-8 text", ("add", "-u", "u1", b"\xff\xfe\xfd"), {}),
    ("invalid UTF-8 user", ("search", "-u", b"u\xff", "hello"), {}),
    ("timestamp 9999", ("add", "-u", "u1", "--timestamp", "9999-12-31T23:59:59Z", "明天去北京"), {}),
    ("timestamp garbage", ("add", "-u", "u1", "--timestamp", "soon", "明天去北京"), {}),
    ("kind bogus", ("remember", "-u", "u1", "--kind", "bogus", "我喜欢咖啡"), {}),
    ("broken JIYI_WEIGHTS", ("search", "-u", "u1", "hi"), {"JIYI_WEIGHTS": "{not json"}),
    ("store is a directory", ("--store", "/", "search", "-u", "u1", "hi"), {}),
    ("home is a file", ("--home", "/etc/hostname", "search", "-u", "u1", "hi"), {}),
]


@pytest.mark.parametrize("label,args,env", CASES, ids=[c[0] for c in CASES])
def test_a_user_mistake_is_one_line_and_a_non_zero_exit(tmp_path: Path, label: str, args: tuple[str | bytes, ...],
                                                        env: dict[str, str]) -> None:
    result = jiyi(tmp_path, *args, env=env)
    err = result.stderr.strip()
    assert result.returncode != 0, err
    assert "Traceback" not in err and len(err.splitlines()) == 1 and err.startswith("Error:"), err


def test_a_broken_config_file_is_one_line(tmp_path: Path) -> None:
    (tmp_path / "config.toml").write_text("store = [\n", encoding="utf-8")
    result = jiyi(tmp_path, "search", "-u", "u1", "hi")
    err = result.stderr
    assert result.returncode != 0 and "Traceback" not in err and len(err.strip().splitlines()) == 1


def test_debug_shows_the_traceback(tmp_path: Path) -> None:
    result = jiyi_process(tmp_path, "--debug", "--store", "/", "search", "-u", "u1", "hi")
    assert result.returncode != 0 and "Traceback" in result.stderr


def test_failed_jobs_are_listed_retried_and_dropped(tmp_path: Path) -> None:
    from jiyi.memory import Memory
    from jiyi.records import Scope

    with Memory(home=tmp_path, embedder="hash", background_worker=False) as mem:
        msg = {"role": "user", "content": "明天我要去北京", "timestamp": "not a time", "id": "m1", "name": None}
        job = mem.store.enqueue(Scope(mem.scope_tenant, "u1"), "add",
                                {"messages": [msg], "session_id": None, "agent_id": None, "metadata": {}},
                                mem.clock.now())
        assert mem.flush(timeout=30) is False
    listed = jiyi(tmp_path, "jobs", "list")
    assert listed.returncode == 0 and job in listed.stdout
    doctor = jiyi(tmp_path, "doctor")
    assert job in doctor.stdout and "jobs retry" in doctor.stdout
    assert jiyi(tmp_path, "jobs", "retry").returncode != 0  # ids or --all
    assert "1 job(s) queued again" in jiyi(tmp_path, "jobs", "retry", job).stdout
    assert "0 job(s) dropped" in jiyi(tmp_path, "jobs", "drop", "--all").stdout  # pending, not failed
