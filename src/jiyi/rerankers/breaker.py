"""A circuit breaker for a backend that may hang or fail: after ``failures`` failures in a row,
skip it for ``cooldown`` seconds, then let one call through (a probe) to see if it is back.

    closed ──(failures in a row)──▶ open ──(cooldown over)──▶ half-open ──(probe ok)──▶ closed
                                      ▲                                 │
                                      └────────(probe failed)───────────┘

While open the caller skips the backend (no call, no timeout); while half-open exactly one
caller probes and the others skip. Each state change is logged once (open: WARNING, probe
and close: INFO), not every failure. Time comes from the caller's :class:`~jiyi.clock.Clock`,
so the cooling period follows a frozen clock in tests. ``failures=0`` turns it off.
"""

from __future__ import annotations

import logging
import threading
from datetime import datetime, timedelta
from typing import Any

from jiyi.clock import Clock, SystemClock

log = logging.getLogger("jiyi.rerankers.breaker")

CLOSED, OPEN, HALF_OPEN = "closed", "open", "half-open"


class CircuitBreaker:
    """Thread-safe; ask :meth:`allow` before a call, then report :meth:`success` or :meth:`failure`."""

    def __init__(self, name: str, *, failures: int = 3, cooldown: float = 30.0, clock: Clock | None = None) -> None:
        self.name = name
        self.threshold = max(0, failures)
        self.cooldown = timedelta(seconds=max(0.0, cooldown))
        self._clock = clock or SystemClock()
        self._lock = threading.Lock()
        self._state = CLOSED
        self._in_a_row = 0
        self._opened_at: datetime | None = None
        self._probing = False
        self._counts = {"opened": 0, "skipped": 0}
        self._last_error: str | None = None

    @property
    def state(self) -> str:
        with self._lock:
            return self._state

    def allow(self) -> bool:
        """True if the call may go out now: closed, or this caller is the half-open probe."""
        if self.threshold == 0:
            return True
        with self._lock:
            if self._state == OPEN and self._opened_at is not None \
                    and self._clock.now() >= self._opened_at + self.cooldown:
                self._move(HALF_OPEN, f"cooling period of {self.cooldown.total_seconds():g}s over; probing")
            if self._state == CLOSED:
                return True
            if self._state == HALF_OPEN and not self._probing:
                self._probing = True
                return True
            self._counts["skipped"] += 1
            return False

    def success(self) -> None:
        with self._lock:
            self._in_a_row, self._probing = 0, False
            if self._state != CLOSED:
                self._move(CLOSED, "the probe succeeded")

    def failure(self, reason: str) -> None:
        with self._lock:
            self._in_a_row += 1
            self._last_error = reason
            was_probe, self._probing = self._probing, False
            if self.threshold and (was_probe or self._state == CLOSED and self._in_a_row >= self.threshold):
                self._opened_at = self._clock.now()
                self._counts["opened"] += 1
                self._move(OPEN, f"{self._in_a_row} failure(s) in a row, last: {reason}; skipping it for "
                                 f"{self.cooldown.total_seconds():g}s")

    def snapshot(self) -> dict[str, Any]:
        """For ``stats()`` and ``jiyi doctor``: state, failures in a row, times opened, calls skipped,
        the last error and (while open) when the next probe may go."""
        with self._lock:
            out: dict[str, Any] = {"state": self._state, "failures_in_a_row": self._in_a_row, **self._counts,
                                   "threshold": self.threshold, "cooldown_s": self.cooldown.total_seconds()}
            if self._last_error is not None:
                out["last_error"] = self._last_error
            if self._state == OPEN and self._opened_at is not None:
                out["probe_at"] = (self._opened_at + self.cooldown).isoformat()
            return out

    def _move(self, state: str, why: str) -> None:
        self._state = state
        level = logging.WARNING if state == OPEN else logging.INFO
        log.log(level, "%s circuit %s: %s", self.name, state, why)
