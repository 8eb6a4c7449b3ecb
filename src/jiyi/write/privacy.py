"""The write path's privacy steps: masked candidates, a last check on every record, forget requests.

Messages are masked once, at ``add`` (:func:`jiyi.privacy.protect.protect_message`), so
the queue, the buffer, the extractor (and an LLM provider) and the episodes only ever
see placeholders. Here the values sealed with those messages follow the facts extracted
from them, every record a job writes is checked once more before it is stored, and a
forget request deletes what it names, in the job's own scope.
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime
from typing import Any

from jiyi.extractors.protocol import Candidate
from jiyi.privacy.detect import PLACEHOLDER, SECRET, find_values
from jiyi.privacy.forget import (
    ForgetRequest,
    covers,
    detect_forget,
    last_turn,
    matches,
    mentions,
    resolve_what,
)
from jiyi.privacy.mask import higher, level_of
from jiyi.privacy.protect import open_pairs, pairs_for, protect_record, protect_text
from jiyi.privacy.seal import SEALED_KEY, Keyring
from jiyi.records import (
    EventType,
    HistoryEvent,
    Kind,
    MemoryRecord,
    Message,
    Scope,
    Status,
    WriteEvent,
)
from jiyi.stores.protocol import ChangeSet, RecordFilter, Store, Upsert
from jiyi.write.buffer import BUFFER_KEY
from jiyi.write.episodes import index_keywords

log = logging.getLogger(__name__)

#: metadata key an extractor sets on a candidate that is a forget request, not a memory
FORGET_KEY = "forget"


def sealed_by_message(items: Iterable[Mapping[str, Any]]) -> dict[str, object]:
    """The sealed values of queued messages (``message_to_dict`` form), by message id."""
    return {str(d["id"]): d[SEALED_KEY] for d in items if d.get(SEALED_KEY) and d.get("id")}


def split_forget_messages(messages: Sequence[Message]) -> tuple[list[ForgetRequest], list[Message]]:
    """The forget requests among the user's messages, and the other messages (what is stored).
    A request is its speaker's (``Message.name``): in a group it reaches only their memories."""
    requests: list[ForgetRequest] = []
    kept: list[Message] = []
    for m in messages:
        req = detect_forget(m.content, speaker=m.name) if m.role == "user" else None
        if req is None:
            kept.append(m)
        else:
            requests.append(dataclasses.replace(req, sources=(m.id,) if m.id else ()))
    return requests, kept


def split_forget_candidates(candidates: Sequence[Candidate],
                            messages: Sequence[Message] = ()) -> tuple[list[ForgetRequest], list[Candidate]]:
    """Forget requests an extractor returned (``metadata["forget"]``: a family, a person's, or ``*``).

    Checked as a message is: an item counts only when a message it cites is itself a request
    (:func:`detect_forget`) and its target resolves within what that message asks; otherwise
    it is refused and logged (an LLM misled by a pasted text, or naming "用户", deletes nothing).
    """
    said = {m.id: m for m in messages if m.id and m.role == "user"}
    requests: list[ForgetRequest] = []
    kept: list[Candidate] = []
    for c in candidates:
        what = c.metadata.get(FORGET_KEY)
        if not isinstance(what, str) or not what.strip():
            if FORGET_KEY not in c.metadata:
                kept.append(c)
            continue
        asked = resolve_what(what)
        cited = [detect_forget(said[s].content, speaker=said[s].name) for s in c.source_ids if s in said]
        own = [q for q in cited if q is not None]
        if asked is None or not own or not any(covers(asked, q) for q in own):
            log.info("forget item refused: %r cites %s, which %s", what, list(c.source_ids),
                     "ask nothing" if not own else "ask something else")
            continue
        base = next(q for q in own if covers(asked, q))
        requests.append(dataclasses.replace(asked, owner=asked.owner, speaker=base.speaker, said=base.said,
                                            sources=c.source_ids))
    return requests, kept


def protect_candidates(candidates: Sequence[Candidate], keyring: Keyring | None,
                       sealed: Mapping[str, object], sources: Sequence[Message] = ()) -> list[Candidate]:
    """Candidates with secrets masked, their level raised to their values', and their values sealed.

    A placeholder in a candidate gets the value of the same placeholder in the messages it
    cites (all messages of the window when it cites none). A value found sensitive in the
    messages it cites (``sources``) keeps its level in the candidate though the words that told
    what it is stayed behind ("passport no. R5520913K, it expires in april 2027" → "User: R5520913K, …").
    """
    told = {m.id or "": [(f.value, f.level) for f in find_values(m.content)] for m in sources}
    out = []
    everything = open_pairs(sealed.values(), keyring) if candidates and keyring is not None else []
    for c in candidates:
        p = protect_text(c.content, keyring)
        meta = {k: v for k, v in c.metadata.items() if k != SEALED_KEY}
        if keyring is not None and PLACEHOLDER.search(p.text):
            cited = [sealed[s] for s in c.source_ids if s in sealed]
            pool = [*(open_pairs(cited, keyring) if cited else everything), *p.pairs]
            if pairs := pairs_for(p.text, pool):
                meta[SEALED_KEY] = keyring.seal(pairs)
        hidden = [f.value for f in find_values(c.content) if f.level is SECRET or keyring is not None]
        entities = tuple(e for e in c.entities
                         if not PLACEHOLDER.search(e) and not any(e in v for v in hidden))
        level = higher(c.visibility, p.level)
        for value, value_level in (f for sid in (c.source_ids or list(told)) for f in told.get(sid, ())):
            if value in c.content:
                level = higher(level, value_level)
        out.append(dataclasses.replace(c, content=p.text, visibility=level, entities=entities, metadata=meta))
    return out


def protect_changes(changes: ChangeSet, keyring: Keyring | None) -> None:
    """The last check before a job's records are stored: none carries an unmasked secret or
    a level below its values' (a session summary, a merge), whatever stage made it."""
    for i, up in enumerate(changes.upserts):
        rec = up.record
        safe = protect_record(rec, keyring) if _needs_protection(rec.content, keyring) else rec
        level = higher(safe.visibility, level_of(safe.content))
        if safe is rec and level is rec.visibility:
            continue
        safe = safe.replace(visibility=level)
        keywords = index_keywords(safe) if safe.content != rec.content else up.keywords
        changes.upserts[i] = dataclasses.replace(up, record=safe, keywords=keywords)


def _needs_protection(text: str, keyring: Keyring | None) -> bool:
    return any(f.level is SECRET or keyring is not None for f in find_values(text))


def forget_into(store: Store, scope: Scope, requests: Sequence[ForgetRequest], changes: ChangeSet,
                events: list[WriteEvent], now: datetime) -> None:
    """Delete what ``requests`` name, in ``scope`` only: stored memories (every status but deleted),
    records this job writes, and the user's buffered turns; one DELETE event per memory."""
    if not requests:
        return
    batch = {up.record.id: i for i, up in enumerate(changes.upserts)}
    why = "forgotten by message: " + "; ".join(r.describe() for r in requests)
    stored = store.list(scope, RecordFilter(statuses=None), None, 0)
    turns = set().union(*(last_turn([*stored, *(up.record for up in changes.upserts)], q) for q in requests))

    def named(rec: MemoryRecord) -> bool:
        return any(matches(rec, q) for q in requests) or (
            bool(turns) and rec.status is not Status.DELETED and bool(rec.source_ids) and set(rec.source_ids) <= turns)

    for rec in stored:
        if rec.id not in batch and named(rec):
            changes.upserts.append(Upsert(rec.replace(status=Status.DELETED, updated_at=now), expect=rec.updated_at))
            changes.history.append(HistoryEvent(EventType.DELETE, rec.id, now, None, None, why, "user"))
            events.append(WriteEvent(rec.id, EventType.DELETE, rec.content, rec.kind))
    asking = {s for q in requests for s in q.sources}
    for rec_id, i in batch.items():
        up = changes.upserts[i]
        said_it = up.record.kind is Kind.EPISODE and bool(up.record.source_ids) and set(up.record.source_ids) <= asking
        if said_it or named(up.record):
            changes.upserts[i] = dataclasses.replace(up, record=up.record.replace(status=Status.DELETED))
            events.append(WriteEvent(rec_id, EventType.DELETE, up.record.content, up.record.kind))
    buffered = list(store.state_get(scope, BUFFER_KEY) or [])
    changes.state[BUFFER_KEY] = [
        item for item in buffered
        if not any(mentions(str(item.get("content", "")), q, speaker=item.get("name")) for q in requests)
        and not (turns and item.get("id") in turns)]
