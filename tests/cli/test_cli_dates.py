"""The CLI shows times in the ``timezone`` setting (default Asia/Shanghai); --json keeps UTC ISO 8601."""

from __future__ import annotations

import json
from datetime import datetime, timezone
from pathlib import Path

import pytest
from click.testing import CliRunner

from jiyi.cli import cli
from jiyi.clock import FrozenClock
from jiyi.memory import Memory

#: 16:30 UTC on Nov 30 is 00:30 on Dec 1 in Shanghai: the UTC and the local day differ.
SAID = datetime(2026, 11, 30, 16, 30, tzinfo=timezone.utc)


@pytest.fixture
def home(tmp_path: Path) -> tuple[Path, str]:
    with Memory(path=tmp_path / "jiyi.db", home=tmp_path, embedder="hash", background_worker=False,
                clock=FrozenClock(SAID)) as mem:
        rec = mem.remember("用户喜欢下围棋", user_id="u1")
    return tmp_path, rec.id


def run(home: Path, *args: str, zone: str | None = None) -> str:
    env = {"JIYI_EMBEDDER": "hash", "COLUMNS": "200"}
    if zone:
        env["JIYI_TIMEZONE"] = zone
    result = CliRunner().invoke(cli, ["--home", str(home), *args], env=env, catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result.output


def test_list_shows_the_local_day_and_time(home: tuple[Path, str]) -> None:
    folder, _ = home
    out = run(folder, "list", "-u", "u1")
    assert "2026-12-01 00:30" in out and "2026-11-30" not in out
    assert "2026-11-30 16:30" in run(folder, "list", "-u", "u1", zone="UTC")


def test_show_and_history_use_the_zone_and_json_stays_utc(home: tuple[Path, str]) -> None:
    folder, mid = home
    shown = run(folder, "show", "-u", "u1", mid)
    assert "created_at      2026-12-01 00:30:00+08:00" in shown and "16:30" not in shown
    berlin = run(folder, "show", "-u", "u1", mid, zone="Europe/Berlin")
    assert "created_at      2026-11-30 17:30:00+01:00" in berlin
    assert run(folder, "history", "-u", "u1", mid).startswith("2026-12-01 00:30:00+08:00 ADD")
    assert json.loads(run(folder, "show", "-u", "u1", mid, "--json"))["created_at"] == "2026-11-30T16:30:00+00:00"
