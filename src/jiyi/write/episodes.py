"""Episodes: every non-trivial turn kept verbatim, with its message id and timestamp."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from jiyi.records import Kind, MemoryRecord, Message, Scope, new_id
from jiyi.text.smalltalk import is_smalltalk


@dataclass(slots=True, frozen=True)
class EpisodeDraft:
    """An episode record plus the texts to embed for each vector channel."""

    record: MemoryRecord
    content_text: str
    context_text: str


def speaker_text(m: Message) -> str:
    """How a turn reads in the index: "Name: text" (dense models lean on speaker names)."""
    return f"{m.name}: {m.content}" if m.name else m.content


def draft_episodes(
    messages: Sequence[Message],
    *,
    scope: Scope,
    session_id: str | None,
    agent_id: str | None,
    previous: Message | None,
    now: datetime,
    metadata: dict[str, object] | None = None,
    model: str | None = None,
) -> list[EpisodeDraft]:
    """One draft per non-trivial user/assistant turn; ``previous`` is the turn before the batch.

    Each episode keeps the id of the turn before it (``metadata["prev_id"]``): recall
    pairs a turn with its reply through it (read/boosts.py). ``model`` is the embedding
    model the drafts will be embedded with (recorded on them).
    """
    out: list[EpisodeDraft] = []
    prev = previous
    for m in messages:
        if m.role == "system" or is_smalltalk(m.content):
            prev = m if m.role != "system" else prev
            continue
        text = speaker_text(m)
        context = f"{speaker_text(prev)}\n{text}" if prev is not None else text
        record = MemoryRecord(
            id=new_id(),
            tenant=scope.tenant,
            user_id=scope.user_id,
            content=m.content,
            kind=Kind.EPISODE,
            created_at=now,
            updated_at=now,
            importance=0.3,
            confidence=1.0,
            valid_from=m.timestamp,
            source_ids=(m.id,) if m.id else (),
            session_id=session_id,
            agent_id=agent_id,
            speaker=m.name,
            embedding_model=model,
            metadata={"role": m.role, **({"prev_id": prev.id} if prev is not None and prev.id else {}),
                      **(metadata or {})},
        )
        out.append(EpisodeDraft(record, text, context))
        prev = m
    return out
