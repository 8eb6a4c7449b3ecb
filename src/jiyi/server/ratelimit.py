"""Per-key token buckets: ``rate`` requests per second on average, bursts up to ``burst``.

In-process state: with several server processes each enforces its own limit, so the
effective limit is ``processes × rate``. Keys that stayed idle long enough to refill
completely are forgotten, so the table stays as small as the set of active keys.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable


class RateLimiter:
    """``take(key)`` returns 0.0 when a request may go ahead, else seconds until it may."""

    def __init__(self, rate: float, burst: int, *, clock: Callable[[], float] = time.monotonic) -> None:
        if rate < 0 or burst < 1:
            raise ValueError("rate must be >= 0 and burst >= 1")
        self.rate, self.burst = float(rate), int(burst)
        self._clock = clock
        self._lock = threading.Lock()
        self._buckets: dict[str, tuple[float, float]] = {}  # key -> (tokens, last refill time)
        self._last_sweep = clock()

    @property
    def enabled(self) -> bool:
        return self.rate > 0

    def take(self, key: str) -> float:
        """Spend one token of ``key``'s bucket; the wait in seconds if none is left."""
        if not self.enabled:
            return 0.0
        now = self._clock()
        with self._lock:
            tokens, last = self._buckets.get(key, (float(self.burst), now))
            tokens = min(float(self.burst), tokens + (now - last) * self.rate)
            if tokens >= 1.0:
                self._buckets[key] = (tokens - 1.0, now)
                wait = 0.0
            else:
                self._buckets[key] = (tokens, now)
                wait = (1.0 - tokens) / self.rate
            self._sweep(now)
        return wait

    def _sweep(self, now: float) -> None:
        """Drop buckets that are full again (called under the lock, at most once a minute)."""
        if now - self._last_sweep < 60:
            return
        self._last_sweep = now
        full_after = self.burst / self.rate
        for key in [k for k, (_, last) in self._buckets.items() if now - last > full_after]:
            del self._buckets[key]
