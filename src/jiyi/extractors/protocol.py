"""The Extractor role: turn recent messages into candidate memories."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Protocol, runtime_checkable

from jiyi.records import Kind, Message, Visibility


@dataclass(slots=True, frozen=True)
class Candidate:
    """A memory an extractor proposes; resolve decides what becomes of it.

    ``content`` is a canonical third-person statement (用户住在上海 / "User lives in Shanghai").
    ``corrects`` marks an explicit correction (不对/我说错了/actually): it supersedes the
    active memory in the same slot, or the most similar one.
    """

    content: str
    kind: Kind
    slot: str | None = None
    entities: tuple[str, ...] = ()
    importance: float = 0.5
    confidence: float = 0.8
    valid_from: datetime | None = None
    valid_until: datetime | None = None
    expires_at: datetime | None = None
    visibility: Visibility = Visibility.NORMAL
    source_ids: tuple[str, ...] = ()
    corrects: bool = False
    speaker: str | None = None
    metadata: dict[str, object] = field(default_factory=dict)


@runtime_checkable
class Extractor(Protocol):
    """Proposes memories from ``messages`` (oldest first, already validated).

    ``user_name`` is how the user is called in the output ("用户"/"User" when None).
    Extractors never see or choose the owner: the pipeline scopes what they return.
    """

    name: str

    def extract(self, messages: Sequence[Message], *, language_hint: str | None = None) -> list[Candidate]: ...
