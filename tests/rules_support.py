"""Shared helpers for the rules-extractor tests: a fixed message time and one-line runners."""

from __future__ import annotations

from datetime import datetime, timezone

from jiyi.extractors.protocol import Candidate
from jiyi.extractors.rules import (
    RulesExtractor,
)
from jiyi.records import Kind, Message

TS = datetime(2025, 3, 5, 10, 0, tzinfo=timezone.utc)
EX = RulesExtractor()


def _d(s: str) -> datetime:
    fmt = "%Y-%m-%d %H:%M" if " " in s else "%Y-%m-%d"
    return datetime.strptime(s, fmt).replace(tzinfo=timezone.utc)


def run(*texts: str, roles: tuple[str, ...] | None = None, hint: str | None = None,
        name: str | None = None) -> list[Candidate]:
    msgs = [Message(role=roles[i] if roles else "user", content=t, timestamp=TS, id=f"m{i}", name=name)
            for i, t in enumerate(texts)]
    return EX.extract(msgs, language_hint=hint)


def only(text: str, slot: str | None = None, kind: Kind | None = None) -> Candidate:
    """The single candidate of ``text`` that has ``slot`` (or ``kind``)."""
    found = [c for c in run(text) if (slot is None or c.slot == slot) and (kind is None or c.kind is kind)]
    assert len(found) == 1, f"{text!r} → {[(c.kind.value, c.slot, c.content) for c in run(text)]}"
    return found[0]
