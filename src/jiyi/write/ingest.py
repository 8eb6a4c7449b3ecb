"""The write pipeline for one accepted batch: episodes → extract → normalise → embed → resolve → commit.

Called by the job worker (and by ``add(sync=True)`` through it). Everything a job
writes, including marking the job done, goes to the store in one ``apply`` call, so a
crash either loses nothing or redoes the whole job; episodes are keyed by message id,
so a redo does not duplicate them.
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any

from jiyi.clock import UTC_OFFSET_KEY, Clock, parse_iso
from jiyi.extractors.protocol import Candidate, Extractor
from jiyi.privacy.seal import SEALED_KEY, Keyring
from jiyi.records import (
    EventType,
    Kind,
    Message,
    Scope,
    WriteEvent,
)
from jiyi.stores.conflicts import redo_on_conflict
from jiyi.stores.protocol import ChangeSet, Job, Store, Upsert
from jiyi.text.ended import ENDED_KEY, OVER_KEY
from jiyi.text.fillers import is_filler
from jiyi.text.smalltalk import SMALLTALK_IMPORTANCE, turn_importance
from jiyi.text.tokens import keywords_text
from jiyi.write.batch import BatchResolver, with_over
from jiyi.write.buffer import message_to_dict
from jiyi.write.embed import CachedEmbedder, self_contained_vectors
from jiyi.write.endings import (
    Ending,
    carried_on,
    ended_by,
    endings,
    marked,
)
from jiyi.write.episodes import EpisodeDraft, draft_episodes, episode_vectors, index_keywords
from jiyi.write.judge import Judge
from jiyi.write.normalize import normalize_candidates
from jiyi.write.privacy import (
    forget_into,
    protect_candidates,
    protect_changes,
    sealed_by_message,
    split_forget_candidates,
    split_forget_messages,
)
from jiyi.write.resolve import (
    to_record,
)
from jiyi.write.triggers import should_extract
from jiyi.write.window import extraction_window, not_instructions

if TYPE_CHECKING:
    from jiyi.write.summaries import SessionSummarizer

log = logging.getLogger("jiyi.write")
ADD_JOB = "add"


@dataclass(slots=True)
class WriteContext:
    """The parts the write path needs (built once by Memory)."""

    store: Store
    embedder: CachedEmbedder
    extractor: Extractor
    clock: Clock
    merge_threshold: float = 0.95
    every_rounds: int = 4
    long_chars: int = 120
    judge: Judge | None = None  # asked about close calls when set (write/judge.py)
    summarizer: SessionSummarizer | None = None  # session digests (write/summaries.py)
    context_mode: str = "joint"  # how episodes' context vectors are made (write/episodes.py)
    keyring: Keyring | None = None  # seals sensitive and secret values (jiyi.privacy.seal)


def message_from_dict(d: dict[str, Any]) -> Message:
    offset = d.get("utc_offset")
    return Message(role=d["role"], content=d["content"], timestamp=parse_iso(d["timestamp"]),
                   id=d.get("id"), name=d.get("name"), utc_offset=offset if isinstance(offset, int) else None)


def run_add_job(ctx: WriteContext, job: Job, *, force_extract: bool = False) -> list[WriteEvent]:
    """Process one ``add`` job and commit it atomically with the job's completion."""
    scope, payload = job.scope, job.payload
    messages = [message_from_dict(d) for d in payload["messages"]]
    sealed = sealed_by_message(payload["messages"])
    forget, messages = split_forget_messages(messages)  # an instruction, not a turn: never stored
    session_id, agent_id = payload.get("session_id"), payload.get("agent_id")
    now = ctx.clock.now()
    state_key = f"extract:{session_id or '-'}"
    state = ctx.store.state_get(scope, state_key) or {}
    previous = message_from_dict(state["last"]) if state.get("last") else None

    own = frozenset(payload.get("as_user") or ())  # the user's one display name (write/names.py)
    drafts = _weighed(_new_episodes(ctx.store, scope, draft_episodes(
        messages, scope=scope, session_id=session_id, agent_id=agent_id, previous=previous, now=now,
        metadata=payload.get("metadata"), model=ctx.embedder.model, sealed=sealed, as_user=own)))
    messages = [dataclasses.replace(m, name=None) if m.name in own else m for m in messages]  # read as the user's
    sealed.update(sealed_by_message(state.get("pending", [])))
    window = [message_from_dict(d) for d in state.get("pending", [])] + messages
    candidates: list[Candidate] = []
    said: dict[str, datetime] = {}
    if should_extract(window, cheap=getattr(ctx.extractor, "cheap", False), every_rounds=ctx.every_rounds,
                      long_chars=ctx.long_chars, force=force_extract or bool(payload.get("force"))):
        # a default end for plans an extractor left open (an LLM often does); not for one that ends its own
        said_at = None if getattr(ctx.extractor, "ends_events", False) else max((m.timestamp for m in window), default=None)
        asked, extracted = split_forget_candidates(ctx.extractor.extract(extraction_window(window)), window)
        forget += asked
        extracted = not_instructions(extracted, window)
        candidates = protect_candidates(normalize_candidates(extracted, said_at=said_at), ctx.keyring, sealed,
                                        sources=window)
        candidates = with_speaker_clock(candidates, window)
        log.debug("extract in=%d messages out=%d candidates: %s", len(window), len(candidates),
                  [(c.kind.value, c.slot, c.content) for c in candidates])
        said = said_times(window, now)
        window = []
    def resolve_and_write() -> list[WriteEvent]:
        changes, events = build_changes(ctx, scope, drafts, candidates, session_id=session_id,
                                        agent_id=agent_id, now=now, said=said)
        if ctx.summarizer is not None and session_id:
            due = ctx.summarizer.due(ctx, scope, session_id, agent_id=agent_id, now=now,
                                     new_episodes=[d.record for d in drafts], candidates=candidates,
                                     closing=bool(payload.get("end_session")))
            for summary in due.writes:
                summary.add_to(changes, events)
            changes.state.update(due.state)
        forget_into(ctx.store, scope, forget, changes, events, now)
        protect_changes(changes, ctx.keyring)
        changes.done_job_id = job.id
        last = next((m for m in reversed(messages) if m.role != "system"), previous)
        changes.state[state_key] = {  # commits with the records: the window never disagrees with them
            "pending": [{**message_to_dict(m), **({SEALED_KEY: sealed[m.id]} if m.id and m.id in sealed else {})}
                        for m in window][-50:],
            "last": message_to_dict(last) if last else None,
        }
        ctx.store.apply(changes)
        return events

    # A memory the candidates merge into may change meanwhile (a user's edit): resolve again
    # on fresh reads, without extracting again; after the last try the queue retries the job.
    return redo_on_conflict(resolve_and_write, f"job {job.id}")


#: the key of :func:`said_times` for a candidate that cites no message (the newest one's time)
NEWEST = ""


def said_times(messages: Sequence[Message], now: datetime) -> dict[str, datetime]:
    """When each message of ``messages`` was said, by id (and :data:`NEWEST`), never after ``now``.

    A memory's time is when its source was said, not when a worker got to it: a fact from an
    imported history dated 2025-03-10 is dated 2025-03-10 in the block, in freshness and in
    ``at=``. A timestamp ahead of the clock (a client's clock running fast) counts as now.
    """
    out = {m.id: min(m.timestamp, now) for m in messages if m.id}
    if messages:
        out[NEWEST] = min(max(m.timestamp for m in messages), now)
    return out


def with_speaker_clock(candidates: Sequence[Candidate], messages: Sequence[Message]) -> list[Candidate]:
    """``candidates``, each marked with the UTC offset its message was written with (``Message.utc_offset``): its
    days are shown by the speaker's clock (read/gate.zone_of), as its 明天 was read by it."""
    offsets = {m.id: m.utc_offset for m in messages if m.id and m.utc_offset is not None}
    out = []
    for cand in candidates:
        offset = next((offsets[s] for s in cand.source_ids if s in offsets), None)
        out.append(cand if offset is None or UTC_OFFSET_KEY in cand.metadata
                   else dataclasses.replace(cand, metadata={**cand.metadata, UTC_OFFSET_KEY: offset}))
    return out


def said_at(cand: Candidate, said: Mapping[str, datetime], now: datetime) -> datetime:
    """When ``cand`` was said: the newest of the messages it cites, else the newest of the batch, else ``now``."""
    times = [said[s] for s in cand.source_ids if s in said]
    return max(times) if times else said.get(NEWEST, now)


def _weighed(drafts: Sequence[EpisodeDraft]) -> list[EpisodeDraft]:
    """Each turn's importance from what it says (text/smalltalk.py ``turn_importance``).

    A pleasantry ("你好！有什么可以帮你？", "很高兴认识你，小明！", "恭喜乔迁！", "thanks!")
    is kept at importance 0.05 with ``metadata["smalltalk"] = True``, so a context block
    can leave it out; so is a filler (text/fillers.py: "没有啦哈哈", "没去哈哈", "nah not really lol");
    a user turn with a memory signal (我对花生过敏) gets 0.4, others 0.3.
    """
    out = []
    for d in drafts:
        rec = d.record
        weight = (SMALLTALK_IMPORTANCE if is_filler(rec.content)  # 没有啦哈哈 / "nah lol": a bare answer
                  else turn_importance(rec.content, str(rec.metadata.get("role", "user"))))
        meta = {**rec.metadata, "smalltalk": True} if weight <= SMALLTALK_IMPORTANCE else rec.metadata
        out.append(dataclasses.replace(d, record=rec.replace(importance=weight, metadata=meta)))
    return out


def _new_episodes(store: Store, scope: Scope, drafts: Sequence[EpisodeDraft]) -> list[EpisodeDraft]:
    """Drafts whose turn has no episode in its session yet (a redone job, a re-added message).

    One ``find_by_sources`` for the whole batch: a query per turn was the write path's
    largest remaining per-message cost.
    """
    found = store.find_by_sources(scope, [sid for d in drafts for sid in d.record.source_ids])
    return [d for d in drafts
            if not any(r.kind is Kind.EPISODE and r.session_id == d.record.session_id
                       for sid in d.record.source_ids for r in found.get(sid, ()))]


def build_changes(
    ctx: WriteContext,
    scope: Scope,
    drafts: Sequence[EpisodeDraft],
    candidates: Sequence[Candidate],
    *,
    session_id: str | None,
    agent_id: str | None,
    now: datetime,
    said: Mapping[str, datetime] | None = None,
) -> tuple[ChangeSet, list[WriteEvent]]:
    """Embed everything in one batch, resolve candidates, and collect one ChangeSet.

    ``said`` (:func:`said_times`) dates each new memory by its source message: ``created_at``
    is when it was said; ``updated_at`` stays the processing time (what a later write expects).
    """
    model = ctx.embedder.model
    episode_vecs = episode_vectors(drafts, ctx.embedder, ctx.context_mode)
    vecs = ctx.embedder.embed_passages([c.content for c in candidates])
    changes = ChangeSet(scope)
    events: list[WriteEvent] = []
    said_over = endings(d.record for d in drafts)  # read once: marks this batch's turns, then the stored ones
    drafts = _ended_in_batch(drafts, said_over)
    resolver = BatchResolver(ctx, scope, now)
    resolver.take_turns([d.record for d in drafts], [channels["content"] for channels in episode_vecs])
    for j, cand in enumerate(candidates):
        vec = vecs[j]
        new = to_record(cand, scope=scope, session_id=session_id, agent_id=agent_id, now=now, model=model)
        if said:
            new = new.replace(created_at=said_at(cand, said, now))
        decision = resolver.decide(cand, new, vec)
        log.debug("resolve %s %r → %s (%s)", cand.kind.value, cand.content, decision.event.value, decision.reason)
        events.append(WriteEvent(decision.record.id, decision.event, decision.record.content,
                                 decision.record.kind, decision.previous))
    resolver.mark_ended(said_over, [d.record for d in drafts])
    resolver.mark_rearranged()
    resolver.stamp_over(said_over)
    told: list[WriteEvent] = []
    for d, channels in zip(drafts, episode_vecs):  # after resolving: a turn keeps the old values its change named
        rec = d.record if d.record.embedding_model == model else d.record.replace(embedding_model=model)
        if gone := resolver.over_said_with(rec):
            rec = with_over(rec, gone)
        if (by := resolver.outdated_in_batch.get(rec.id)) and not rec.metadata.get("outdated_by"):
            rec = rec.replace(metadata={**rec.metadata, "outdated_by": by})
        if (by := resolver.ended_in_batch.get(rec.id)) and not rec.metadata.get(ENDED_KEY):
            rec = rec.replace(metadata={**rec.metadata, ENDED_KEY: by})
        changes.upserts.append(Upsert(rec, channels, keywords_text(d.content_text)))
        told.append(WriteEvent(rec.id, EventType.ADD, rec.content, rec.kind))
    events[:0] = told
    for rec, vec, read_at in resolver.final_records():
        kw = index_keywords(rec) if vec is not None else None
        changes.upserts.append(Upsert(rec, self_contained_vectors(vec) if vec is not None else None, kw,
                                      expect=read_at))
    changes.history.extend(resolver.history)
    return changes, events


def _ended_in_batch(drafts: Sequence[EpisodeDraft], said_over: Sequence[Ending]) -> list[EpisodeDraft]:
    """``drafts`` with the turns a later turn of the same batch says are over (``said_over``, the endings
    among them) marked so (write/endings.py), and each ending with the words of what it ends."""
    records = {d.record.id: d.record for d in drafts}
    order = list(records)
    for ending in said_over:
        turn = records[ending.turn.id]  # the ending keeps what it ends beside it: a block reads it (read/context.py)
        if ending.says_over:
            records[turn.id] = turn.replace(metadata={**turn.metadata, OVER_KEY: list(ending.terms)})
        before = [records[i] for i in order[:order.index(ending.turn.id)]]
        for term in ending.terms:
            for rec in ended_by(ending, term, before):
                records[rec.id] = marked(rec, ending)
                for reply in carried_on(rec, before, term):  # the speaker's answer when the bot took the talk on
                    if not reply.metadata.get(ENDED_KEY):
                        records[reply.id] = marked(reply, ending)
    return [d if records[d.record.id] is d.record else dataclasses.replace(d, record=records[d.record.id])
            for d in drafts]
