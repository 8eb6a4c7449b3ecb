"""Episodes: every non-trivial turn kept verbatim, with its message id and timestamp."""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime

import numpy as np

from jiyi.clock import UTC_OFFSET_KEY
from jiyi.privacy.mask import level_of
from jiyi.privacy.protect import protect_text
from jiyi.privacy.seal import SEALED_KEY
from jiyi.records import Kind, MemoryRecord, Message, Scope, new_id
from jiyi.text.chunks import PART_CHARS, split_text
from jiyi.text.smalltalk import is_smalltalk
from jiyi.text.tokens import keywords_text
from jiyi.write.embed import CachedEmbedder, self_contained_vectors

#: How an episode's ``context`` vector (the turn with the one before it) is made:
#: ``joint`` embeds "previous turn\nthis turn" (one more model call per turn, and a long one);
#: ``mean`` averages the two turns' own vectors (the previous one is a cache hit: no model call);
#: ``off`` reuses the turn's own vector.
CONTEXT_MODES = ("joint", "mean", "off")


@dataclass(slots=True, frozen=True)
class EpisodeDraft:
    """An episode record plus the texts to embed for each vector channel."""

    record: MemoryRecord
    content_text: str
    context_text: str
    prev_text: str | None = None


def speaker_text(m: Message) -> str:
    """How a turn reads in the index: "Name: text" (dense models lean on speaker names)."""
    return f"{m.name}: {m.content}" if m.name else m.content


def index_text(rec: MemoryRecord) -> str:
    """The text a stored memory's ``content`` vector embeds: :func:`speaker_text` for a turn."""
    if rec.kind is Kind.EPISODE:
        return speaker_text(Message("user", rec.content, rec.created_at, name=rec.display_name))
    return rec.content


def index_keywords(rec: MemoryRecord) -> str:
    """The keyword text of a stored memory, as the write path indexes it (a fact with its entities)."""
    return keywords_text(index_text(rec) if rec.kind is Kind.EPISODE else " ".join((rec.content, *rec.entities)))


def turns_by_message(records: Iterable[MemoryRecord]) -> dict[str, MemoryRecord]:
    """The episodes among ``records`` by the message id of their turn (what ``metadata["prev_id"]`` names)."""
    return {r.source_ids[0]: r for r in records if r.kind is Kind.EPISODE and len(r.source_ids) == 1}


def stored_vectors(records: Sequence[MemoryRecord], turns: Mapping[str, MemoryRecord], embedder: CachedEmbedder,
                   mode: str) -> list[dict[str, np.ndarray]]:
    """The vectors of stored memories as the write path makes them, in one batched call, in order.

    ``turns`` maps a message id to the episode of that turn (:func:`turns_by_message`): an episode's ``context``
    vector is made from the turn before it (``metadata["prev_id"]``) when that turn is
    stored (a small-talk turn is not, and the episode then has none).
    """
    drafts = []
    for rec in records:
        if rec.kind is not Kind.EPISODE:
            continue
        own = index_text(rec)
        prev_id = rec.metadata.get("prev_id")
        prev = turns.get(prev_id) if isinstance(prev_id, str) else None
        prev_text = index_text(prev) if prev is not None else None
        drafts.append(EpisodeDraft(rec, own, f"{prev_text}\n{own}" if prev_text else own, prev_text))
    episodes = iter(episode_vectors(drafts, embedder, mode))
    others = [r for r in records if r.kind is not Kind.EPISODE]
    vecs = iter(embedder.embed_passages([index_text(r) for r in others]) if others else [])
    return [next(episodes) if rec.kind is Kind.EPISODE else self_contained_vectors(next(vecs)) for rec in records]


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
    sealed: Mapping[str, object] | None = None,
    as_user: Collection[str] = (),
) -> list[EpisodeDraft]:
    """One draft per non-trivial user/assistant turn; ``previous`` is the turn before the batch.

    A turn sent under a name of ``as_user`` (the user's one display name: write/names.py) is the
    user's (no speaker); its name stays in ``metadata["name"]``.

    A turn longer than :data:`~jiyi.text.chunks.PART_CHARS` gives one draft per part, each
    with the turn's id; the first part has the turn before as its context, the later ones none.

    Each episode keeps the id of the turn before it (``metadata["prev_id"]``): recall
    pairs a turn with its reply through it (read/boosts.py). ``model`` is the embedding
    model the drafts will be embedded with (recorded on them). The turns come masked
    (jiyi.privacy.protect at ``add``): an episode takes the level of what its turn said
    (a password → ``secret``, a phone number → ``sensitive``) and keeps the sealed values
    of its message id from ``sealed``.
    """
    out: list[EpisodeDraft] = []
    prev = previous
    turn_before: dict[str, str] = {}  # message id → the id of the turn before it (its parts share it)
    for m in _parts(messages):
        if m.role == "system" or is_smalltalk(m.content):
            prev = m if m.role != "system" else prev
            continue
        m = replace(m, content=protect_text(m.content, None).text)  # masked at add already; a secret never slips by
        text = speaker_text(m)
        prev_id = turn_before.setdefault(m.id, prev.id) if m.id and prev is not None and prev.id else None
        if m.id and prev_id == m.id:
            prev_id = None
        if prev is not None and m.id and prev.id == m.id:  # a later part of a long turn: the part before
            prev = None  # is no context worth a second model call per part (it halves a long turn's cost)
        context = f"{speaker_text(prev)}\n{text}" if prev is not None else text
        record = MemoryRecord(
            id=new_id(),
            tenant=scope.tenant,
            user_id=scope.user_id,
            content=m.content,
            kind=Kind.EPISODE,
            created_at=min(m.timestamp, now),  # when it was said (an imported turn keeps its date)
            updated_at=now,
            importance=0.3,
            confidence=1.0,
            valid_from=m.timestamp,
            source_ids=(m.id,) if m.id else (),
            session_id=session_id,
            agent_id=agent_id,
            speaker=None if m.name in as_user else m.name,
            embedding_model=model,
            visibility=level_of(m.content),
            metadata={"role": m.role, **({"prev_id": prev_id} if prev_id else {}),
                      **({"name": m.name} if m.name and m.name in as_user else {}),
                      **({UTC_OFFSET_KEY: m.utc_offset} if m.utc_offset is not None else {}),
                      **(metadata or {}),
                      **({SEALED_KEY: sealed[m.id]} if sealed and m.id and m.id in sealed else {})},
        )
        out.append(EpisodeDraft(record, text, context, speaker_text(prev) if prev is not None else None))
        prev = m
    return out


def _parts(messages: Sequence[Message]) -> list[Message]:
    """Each turn, a long one as several (:func:`~jiyi.text.chunks.split_text`, same id and time):
    the model reads a part whole, so the end of a long message stays findable."""
    out: list[Message] = []
    for m in messages:
        parts = split_text(m.content) if len(m.content) > PART_CHARS else [m.content]
        out.extend(replace(m, content=p) for p in parts)
    return out


def episode_vectors(drafts: Sequence[EpisodeDraft], embedder: CachedEmbedder, mode: str) -> list[dict[str, np.ndarray]]:
    """The ``content`` vector of each draft, and its ``context`` vector when a turn came before it
    (and the mode makes one), in one batched embedding call."""
    texts = [d.content_text for d in drafts]
    if mode == "joint":
        texts += [d.context_text for d in drafts]
    elif mode == "mean":
        texts += [d.prev_text or d.content_text for d in drafts]
    vecs = embedder.embed_passages(texts) if texts else np.zeros((0, embedder.dim), dtype=np.float32)
    n = len(drafts)
    out = []
    for i in range(n):
        own = vecs[i]
        if mode == "off" or drafts[i].prev_text is None:  # no context of its own: the context
            out.append({"content": own})  # route reads its vector z-score (read.fuse.FALLBACK)
            continue
        if mode == "joint":
            context = vecs[n + i]
        else:
            summed = own + vecs[n + i]
            context = (summed / max(float(np.linalg.norm(summed)), 1e-12)).astype(np.float32)
        out.append({"content": own, "context": context})
    return out
