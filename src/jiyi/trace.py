"""The debug switch: ``JIYI_DEBUG=1`` / ``Memory(debug=True)`` / ``jiyi --debug``.

Each stage logs one event on its own logger (``jiyi.write`` for extraction and resolve
decisions, ``jiyi.read`` for recall candidates and scores, ``jiyi.write.jobs`` for the
queue). Memory content appears only at DEBUG level, never at INFO (privacy).
"""

from __future__ import annotations

import logging
import sys
import threading
from collections import Counter

_HANDLER_FLAG = "_jiyi_debug_handler"


def enable_debug() -> None:
    """Send jiyi's DEBUG logs to stderr (once), without touching the root logger."""
    logger = logging.getLogger("jiyi")
    logger.setLevel(logging.DEBUG)
    if not any(getattr(h, _HANDLER_FLAG, False) for h in logger.handlers):
        handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(logging.Formatter("%(asctime)s %(name)s %(message)s"))
        setattr(handler, _HANDLER_FLAG, True)
        logger.addHandler(handler)


class StageCounts:
    """Thread-safe named counters for a stage's ``stats`` (calls, fallbacks, actions chosen)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._counts: Counter[str] = Counter()

    def add(self, key: str) -> None:
        with self._lock:
            self._counts[key] += 1

    def snapshot(self) -> dict[str, int]:
        with self._lock:
            return dict(self._counts)
