"""Filter and normalise candidates: trim, drop empty/too short, split the too long, de-duplicate."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Sequence
from datetime import datetime

from jiyi.extractors.protocol import Candidate
from jiyi.records import Kind

MAX_CONTENT_CHARS = 200
MIN_CONTENT_CHARS = 4
_SENTENCE_END = re.compile(r"(?<=[。！？!?；;])\s*|(?<=\.)\s+")
_SPACES = re.compile(r"\s+")


def normalize_candidates(candidates: Sequence[Candidate], *, said_at: datetime | None = None) -> list[Candidate]:
    """Canonical, bounded, unique candidates in their original order.

    ``said_at`` (when the newest message was sent) gives every event an end: a plan
    whose ``valid_until`` is still ahead then, with no ``expires_at`` of its own (an
    LLM extractor often leaves it out), expires when its time is over.
    """
    out: list[Candidate] = []
    seen: set[str] = set()
    for cand in (_with_end(c, said_at) for c in candidates):
        for piece in _split(_SPACES.sub(" ", cand.content).strip()):
            if len(piece) < MIN_CONTENT_CHARS:
                continue
            key = piece.lower()
            if key in seen:
                continue
            seen.add(key)
            out.append(dataclasses.replace(cand, content=piece, entities=_unique(cand.entities)))
    return out


def _with_end(cand: Candidate, said_at: datetime | None) -> Candidate:
    if (said_at is None or cand.kind is not Kind.EVENT or cand.expires_at is not None
            or cand.valid_until is None or cand.valid_until <= said_at):
        return cand
    return dataclasses.replace(cand, expires_at=cand.valid_until)


def _split(text: str) -> list[str]:
    if len(text) <= MAX_CONTENT_CHARS:
        return [text]
    pieces: list[str] = []
    current = ""
    for sentence in filter(None, _SENTENCE_END.split(text)):
        if current and len(current) + len(sentence) > MAX_CONTENT_CHARS:
            pieces.append(current.strip())
            current = ""
        current += sentence
    if current:
        pieces.append(current.strip())
    return [p[:MAX_CONTENT_CHARS] for p in pieces]


def _unique(items: Sequence[str]) -> tuple[str, ...]:
    seen: dict[str, None] = {}
    for item in items:
        item = item.strip()
        if item and item.lower() not in (s.lower() for s in seen):
            seen[item] = None
    return tuple(seen)
