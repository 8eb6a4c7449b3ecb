"""Time: the only place that reads the system clock, and ISO-8601 parsing.

Every datetime inside jiyi is timezone-aware UTC. Naive inputs are taken as UTC.
"""

from __future__ import annotations

from datetime import datetime, timezone, tzinfo
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
