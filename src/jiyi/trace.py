"""The debug switch: ``JIYI_DEBUG=1`` / ``Memory(debug=True)`` / ``jiyi --debug``.

Each stage logs one event on its own logger (``jiyi.write`` for extraction and resolve
decisions, ``jiyi.read`` for recall candidates and scores, ``jiyi.write.jobs`` for the
queue). Memory content appears only at DEBUG level, never at INFO (privacy).
"""

from __future__ import annotations

import logging
import sys

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
