"""The gate: only what is active (or was valid at ``at``), unexpired and visible gets through."""

from __future__ import annotations

from datetime import datetime

from jiyi.records import MemoryRecord, Status, Visibility


def passes_gate(rec: MemoryRecord, *, at: datetime, historical: bool, show_sensitive: bool) -> bool:
    """True when ``rec`` may be recalled at time ``at``.

    ``historical`` (an explicit ``at``) also admits superseded memories whose validity
    window covers ``at``: "where did I live last year" sees the old city.
    """
    if rec.visibility is Visibility.SECRET:  # never recalled into a prompt, asked for or not
        return False
    if rec.visibility is Visibility.SENSITIVE and not show_sensitive:
        return False
    if rec.expires_at is not None and rec.expires_at <= at:
        return False
    if rec.status is Status.ACTIVE:
        return rec.valid_from is None or rec.valid_from <= at or rec.kind.value == "event"
    if historical and rec.status is Status.SUPERSEDED:
        started = rec.valid_from is None or rec.valid_from <= at
        return started and (rec.valid_until is None or at < rec.valid_until)
    return False
