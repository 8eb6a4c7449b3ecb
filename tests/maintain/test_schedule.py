"""gc that runs by itself: due a while after start, then every interval (shared by the processes of
one store and home), off with 0, run by `jiyi serve`'s lifespan, shown by `jiyi doctor`."""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path

import httpx
import pytest
from click.testing import CliRunner

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests/: live_uvicorn

from live_uvicorn import serve_in_thread

from jiyi.cli import cli
from jiyi.clock import FrozenClock
from jiyi.config import Settings
from jiyi.maintain.erase import RESTORE_WINDOW
from jiyi.maintain.schedule import (
    GcSchedule,
    every_scope,
    for_memory,
    read_status,
    status,
    status_path,
)
from jiyi.memory import Memory
from jiyi.server.app import ServerOptions, create_app

ON = {"gc_interval_hours": 6}


def deleted_memory(mem: Memory) -> str:
    rec = mem.remember("我的旧地址是西湖区文三路", user_id="u1")
    mem.delete(rec.id, user_id="u1")
    return rec.id


def test_due_after_start_then_every_interval(make_memory: Callable[..., Memory], clock: FrozenClock) -> None:
    mem = make_memory(**ON)
    doomed = deleted_memory(mem)
    schedule = for_memory(mem, start=False)
    assert schedule is not None
    assert schedule.run_if_due() is None  # not in the first minute
    clock.set(clock.now() + RESTORE_WINDOW + timedelta(minutes=2))
    report = schedule.run_if_due()
    assert report is not None and not report.dry_run and report.counts["purge_deleted"] == 1
    assert mem.get(doomed, user_id="u1") is None  # erased, the window over, without a cron job
    saved = read_status(status_path(mem.settings))
    assert saved["counts"]["purge_deleted"] == 1 and saved["last_run"] == clock.now().isoformat()
    assert schedule.run_if_due() is None  # ran: the next is an interval away
    other = for_memory(make_memory(**ON), start=False)  # another process of the same store and home
    assert other is not None and other.run_if_due() is None  # it skips the run the first one did
    clock.set(clock.now() + timedelta(hours=6))
    assert other.run_if_due() is not None


def test_off_with_zero(make_memory: Callable[..., Memory], tmp_path: Path) -> None:
    mem = make_memory(gc_interval_hours=0)
    assert for_memory(mem) is None
    assert status(mem.settings)["enabled"] is False


def test_the_thread_runs_it(make_memory: Callable[..., Memory], clock: FrozenClock) -> None:
    mem = make_memory(**ON)
    doomed = deleted_memory(mem)
    clock.set(clock.now() + RESTORE_WINDOW + timedelta(days=1))
    path = status_path(mem.settings)
    schedule = GcSchedule(mem.store, every_scope(mem.store), interval=timedelta(hours=6), path=path, clock=clock,
                          first_delay=timedelta(0)).start()
    try:
        deadline = time.monotonic() + 30
        while "last_run" not in read_status(path):
            assert time.monotonic() < deadline, "the schedule's thread never ran gc"
            time.sleep(0.05)
    finally:
        schedule.stop()
    assert mem.get(doomed, user_id="u1") is None


def test_serve_runs_it_and_doctor_shows_it(tmp_path: Path, clock: FrozenClock,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("JIYI_GC_INTERVAL_HOURS", "6")
    monkeypatch.setenv("JIYI_EMBEDDER", "hash")
    settings = Settings(home=tmp_path)
    with Memory(clock=clock, home=tmp_path, background_worker=False) as mem:
        doomed = deleted_memory(mem)
    app = create_app(settings, ServerOptions(worker=False, rate_limit=0, insecure_no_auth=True), clock=clock)
    url, server, thread = serve_in_thread(app, "uvicorn-gc-schedule")
    try:
        assert httpx.get(f"{url}/healthz").status_code == 200
        assert "last_run" not in read_status(status_path(settings))
        clock.set(clock.now() + RESTORE_WINDOW + timedelta(days=1))  # due, and the window is over
        deadline = time.monotonic() + 60
        while "last_run" not in read_status(status_path(settings)):
            assert time.monotonic() < deadline, "jiyi serve never ran the scheduled gc"
            time.sleep(0.1)
    finally:
        server.should_exit = True
        thread.join(timeout=60)
    with Memory(clock=clock, home=tmp_path, background_worker=False) as mem:
        assert mem.get(doomed, user_id="u1") is None
    out = CliRunner().invoke(cli, ["--home", str(tmp_path), "doctor", "--json"])
    assert out.exit_code == 0, out.output
    shown = json.loads(out.output)["gc_schedule"]
    assert shown["enabled"] is True and shown["counts"]["purge_deleted"] == 1
    assert shown["last_run"] == clock.now().isoformat() and shown["next_run"] > shown["last_run"]
