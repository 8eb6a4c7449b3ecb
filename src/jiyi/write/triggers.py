"""When to run extraction (SPEC §2.4).

A cheap extractor (the offline rules) runs on every batch. An expensive one (an LLM)
runs when R user rounds accumulated since its last run, a message is long, a message
carries a memory signal, or the caller forces it (``remember``/session end).
"""

from __future__ import annotations

from collections.abc import Sequence

from jiyi.records import Message
from jiyi.text.signals import has_memory_signal


def should_extract(
    pending: Sequence[Message],
    *,
    cheap: bool,
    every_rounds: int,
    long_chars: int,
    force: bool = False,
) -> bool:
    """True when the pending window should go to the extractor now."""
    user_turns = [m for m in pending if m.role == "user"]
    if not user_turns:
        return False
    if force or cheap:
        return True
    if len(user_turns) >= max(1, every_rounds):
        return True
    return any(len(m.content) >= long_chars or has_memory_signal(m.content) for m in user_turns)
