"""Time: the only place that reads the system clock, and ISO-8601 parsing.

Every datetime inside jiyi is timezone-aware UTC. Naive inputs are taken as UTC. A message's timestamp written
with an offset other than UTC keeps that offset beside it (:func:`written_offset`): it tells the speaker's own
clock, by which their 明天 / "tomorrow" is read (:func:`speaker_zone`), whatever the configured timezone.
"""

from __future__ import annotations

from datetime import datetime, timedelta, timezone, tzinfo
from typing import Protocol


class Clock(Protocol):
    def now(self) -> datetime: ...


class SystemClock:
    """The real clock."""

    def now(self) -> datetime:
        return datetime.now(timezone.utc)


class FrozenClock:
    """A clock for tests and replays: it says what you set."""

    def __init__(self, at: datetime) -> None:
        self._at = ensure_utc(at)

    def now(self) -> datetime:
        return self._at

    def set(self, at: datetime) -> None:
        self._at = ensure_utc(at)


def utc_now() -> datetime:
    return datetime.now(timezone.utc)


def ensure_utc(dt: datetime) -> datetime:
    """Attach UTC to a naive datetime, convert an aware one to UTC."""
    if dt.tzinfo is None:
        return dt.replace(tzinfo=timezone.utc)
    return dt.astimezone(timezone.utc)


def parse_iso(text: str) -> datetime:
    """Parse ISO 8601 (``Z`` suffix allowed) into aware UTC; ValueError if it is not one."""
    s = text.strip()
    if s.endswith(("Z", "z")):
        s = s[:-1] + "+00:00"
    return ensure_utc(datetime.fromisoformat(s))


def format_iso(dt: datetime) -> str:
    return ensure_utc(dt).isoformat()


def to_local(dt: datetime, zone: tzinfo) -> datetime:
    """``dt`` (naive = UTC) as wall-clock time in ``zone``: what a date shown to a person uses."""
    return ensure_utc(dt).astimezone(zone)


#: a turn's metadata key for the offset its message was written with (:func:`written_offset`)
UTC_OFFSET_KEY = "utc_offset"


def written_offset(value: object) -> int | None:
    """The UTC offset, in minutes, that a timestamp (an ISO 8601 string or an aware datetime) was written with, or
    None for a naive one or one at UTC (``Z``, ``+00:00``: a server's clock as often as a speaker's, so it tells
    nothing of where the speaker is)."""
    try:
        dt = value if isinstance(value, datetime) else datetime.fromisoformat(str(value).strip().replace("Z", "+00:00"))
    except ValueError:
        return None
    offset = dt.utcoffset()
    if offset is None or not offset:
        return None
    return int(offset.total_seconds() // 60)


def speaker_zone(offset: int | None, configured: tzinfo, at: datetime) -> tzinfo:
    """The zone a message said at ``at`` is read in: the configured one, unless the message was written with another
    offset (``offset``, minutes east of UTC; a user in Vancouver of a bot configured for Shanghai)."""
    if offset is None or configured.utcoffset(at) == timedelta(minutes=offset):
        return configured
    return timezone(timedelta(minutes=offset))
