"""A message written with its own UTC offset is read by the speaker's clock: a user in Vancouver of a bot
configured for Shanghai means their own tomorrow. A UTC timestamp tells nothing of where the speaker is."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from zoneinfo import ZoneInfo

import pytest

from jiyi import Memory
from jiyi.clock import FrozenClock, speaker_zone, written_offset
from jiyi.errors import InvalidInput
from jiyi.records import Kind

SHANGHAI = ZoneInfo("Asia/Shanghai")


@pytest.mark.parametrize(("value", "minutes"), [
    ("2026-10-31T23:40:00-07:00", -420), ("2026-11-03T08:15:00+09:00", 540), ("2026-11-03T08:15:00+05:30", 330),
    ("2026-11-03T08:15:00Z", None), ("2026-11-03T08:15:00+00:00", None), ("2026-11-03T08:15:00", None),
    (datetime(2026, 11, 3, 8, 15, tzinfo=timezone(timedelta(hours=-5))), -300), ("not a time", None),
])
def test_the_offset_a_timestamp_was_written_with(value: object, minutes: int | None) -> None:
    assert written_offset(value) == minutes


def test_the_configured_zone_reads_a_message_written_at_its_own_offset() -> None:
    at = datetime(2026, 11, 3, tzinfo=timezone.utc)
    assert speaker_zone(480, SHANGHAI, at) is SHANGHAI
    assert speaker_zone(None, SHANGHAI, at) is SHANGHAI
    assert speaker_zone(-420, SHANGHAI, at).utcoffset(at) == timedelta(hours=-7)


@pytest.fixture
def clock() -> FrozenClock:
    return FrozenClock(datetime(2026, 11, 1, 7, 0, tzinfo=timezone.utc))


def test_tomorrow_said_late_in_vancouver_is_vancouvers_tomorrow(make_memory: object) -> None:
    mem: Memory = make_memory(timezone="Asia/Shanghai")  # type: ignore[operator]
    # 23:40 on Oct 31 in Vancouver is already Nov 1 in Shanghai: the speaker's tomorrow is Nov 1
    mem.add([{"role": "user", "content": "tomorrow at 10 I get my flu shot at the pharmacy on Fir street",
              "timestamp": "2026-10-31T23:40:00-07:00"}], user_id="u", sync=True)
    facts = [r.content for r in mem.get_all(user_id="u") if r.kind is not Kind.EPISODE]
    assert any("2026-11-01" in f for f in facts) and not any("2026-11-02" in f for f in facts), facts
    turn = next(r for r in mem.get_all(user_id="u") if r.kind is Kind.EPISODE)
    assert turn.metadata.get("utc_offset") == -420


def test_a_utc_timestamp_is_read_in_the_configured_zone(make_memory: object) -> None:
    mem: Memory = make_memory(timezone="Asia/Shanghai")  # type: ignore[operator]
    # 23:40 UTC is 07:40 in Shanghai on Nov 1: tomorrow is Nov 2
    mem.add([{"role": "user", "content": "明天上午十点去打流感疫苗", "timestamp": "2026-10-31T23:40:00Z"}],
            user_id="u", sync=True)
    facts = [r.content for r in mem.get_all(user_id="u") if r.kind is not Kind.EPISODE]
    assert any("11月2日" in f for f in facts), facts


def test_a_plan_told_in_osaka_keeps_its_day_in_the_block(make_memory: object, clock: FrozenClock) -> None:
    mem: Memory = make_memory(timezone="Asia/Shanghai")  # type: ignore[operator]
    # 07:30 on Nov 2 in Osaka (still Nov 1 in UTC): 明後日 is Nov 4, a day that starts at 23:00 on Nov 3 in Shanghai
    mem.add([{"role": "user", "content": "明後日ゼミ発表 还没做完スライド", "timestamp": "2026-11-02T07:30:00+09:00"}],
            user_id="u", sync=True)
    clock.set(datetime(2026, 11, 2, 12, 0, tzinfo=timezone.utc))
    block = mem.build_context("ゼミ発表是哪天来着", user_id="u")
    assert "11月4日" in block and "2026-11-03" not in block, block


def test_an_offset_given_beside_a_utc_timestamp_is_the_speakers(make_memory: object) -> None:
    """A caller that knows the speaker is in London says so (``utc_offset: 0``): 23:30 on Nov 5 in London is
    already Nov 6 in Shanghai, yet the speaker's "the day after tomorrow" is Nov 7."""
    mem: Memory = make_memory(timezone="Asia/Shanghai")  # type: ignore[operator]
    mem.add([{"role": "user", "content": "Van's booked, we're moving the day after tomorrow",
              "timestamp": "2026-11-05T23:30:00+00:00", "utc_offset": 0}], user_id="u", sync=True)
    facts = [r.content for r in mem.get_all(user_id="u") if r.kind is not Kind.EPISODE]
    assert any("2026-11-07" in f for f in facts) and not any("2026-11-08" in f for f in facts), facts


@pytest.mark.parametrize("offset", [900, -780, "480", True, 4.5])
def test_an_offset_out_of_range_or_not_whole_minutes_is_refused(make_memory: object, offset: object) -> None:
    mem: Memory = make_memory(timezone="Asia/Shanghai")  # type: ignore[operator]
    with pytest.raises(InvalidInput, match="utc_offset"):
        mem.add([{"role": "user", "content": "hi", "utc_offset": offset}], user_id="u", sync=True)
