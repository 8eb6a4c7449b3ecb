"""The panel shows dates in the tenant's ``timezone`` setting: table, detail, history, timeline, filters, stats.

A memory recorded at 16:30 UTC on Nov 30 is 00:30 on Dec 1 in Shanghai: every page must
show the Shanghai day (and month: it falls in December there), and the table's
since/until filters take whole Shanghai days. The same store under ``timezone=UTC``
shows the UTC times, so the setting, not a hard-coded zone, decides.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from jiyi.clock import FrozenClock
from jiyi.config import Settings
from jiyi.server.app import ServerOptions, create_app
from jiyi.web.timeline import build_axis, build_timeline

SAID = datetime(2026, 11, 30, 16, 30, tzinfo=timezone.utc)


def panel(home: Path, zone: str) -> Iterator[tuple[TestClient, str]]:
    clock = FrozenClock(SAID)
    app = create_app(Settings(home=home, embedder="hash", tenant="solo", timezone=zone),
                     ServerOptions(insecure_no_auth=True, worker=False), clock=clock)
    with TestClient(app, base_url="http://127.0.0.1") as client:
        mem = app.state.jiyi.pool.get("solo")
        rec = mem.remember("用户喜欢下围棋", user_id="u1")
        clock.set(SAID + timedelta(days=2))
        form = client.get("/ui/login")
        csrf = re.search(r'name="csrf" value="([^"]+)"', form.text)
        assert csrf is not None
        assert client.post("/ui/login", data={"csrf": csrf.group(1)}).status_code == 200
        yield client, rec.id


@pytest.fixture
def shanghai(tmp_path: Path) -> Iterator[tuple[TestClient, str]]:
    yield from panel(tmp_path, "Asia/Shanghai")


@pytest.fixture
def utc(tmp_path: Path) -> Iterator[tuple[TestClient, str]]:
    yield from panel(tmp_path, "UTC")


def visible(html: str) -> str:
    """The page's text with tags and attributes dropped (``<time datetime=...>`` keeps UTC for machines)."""
    return re.sub(r"<[^>]+>", " ", html)


def test_table_detail_and_history_show_local_times(shanghai: tuple[TestClient, str]) -> None:
    client, mid = shanghai
    table = visible(client.get("/ui/memories?user=u1").text)
    assert "下围棋" in table and "2026-12-01 00:30" in table and "2026-11-30" not in table
    detail = visible(client.get(f"/ui/memories/{mid}?user=u1").text)
    assert detail.count("2026-12-01 00:30") >= 3  # recorded, updated, and the ADD line of the history
    assert "16:30" not in detail


def test_timeline_groups_by_local_month(shanghai: tuple[TestClient, str]) -> None:
    client, _ = shanghai
    page = visible(client.get("/ui/timeline?user=u1").text)
    assert "12-01 00:30" in page and "2026-12" in page and "2026-11" not in page


def test_since_and_until_are_local_days(shanghai: tuple[TestClient, str]) -> None:
    client, _ = shanghai
    assert "下围棋" in client.get("/ui/memories?user=u1&since=2026-12-01&until=2026-12-01").text
    assert "下围棋" not in client.get("/ui/memories?user=u1&until=2026-11-30").text
    assert "下围棋" not in client.get("/ui/memories?user=u1&since=2026-12-02").text


def test_stats_count_the_local_day(shanghai: tuple[TestClient, str]) -> None:
    client, _ = shanghai
    page = client.get("/ui/stats").text
    assert "2026-12-01：新增 1，累计 1" in page and "2026-11-30：新增 1" not in page


def test_the_setting_decides(utc: tuple[TestClient, str]) -> None:
    client, _ = utc
    table = visible(client.get("/ui/memories?user=u1").text)
    assert "2026-11-30 16:30" in table
    assert "2026-11" in visible(client.get("/ui/timeline?user=u1").text)
    assert "下围棋" in client.get("/ui/memories?user=u1&until=2026-11-30").text


def test_timeline_and_axis_take_the_zone() -> None:
    from jiyi.records import Kind, MemoryRecord

    rec = MemoryRecord(id="m", tenant="t", user_id="u", content="x", kind=Kind.FACT, created_at=SAID, updated_at=SAID)
    from zoneinfo import ZoneInfo

    zone = ZoneInfo("Asia/Shanghai")
    groups = build_timeline([rec], now=SAID, tz=zone)
    assert [g.label for g in groups] == ["2026-12"]
    assert [g.label for g in build_timeline([rec], now=SAID)] == ["2026-11"]
    axis = build_axis(groups, zone)
    assert axis.dots[0].title.startswith("2026-12-01") and axis.ticks[0][1].startswith("2026-12")
