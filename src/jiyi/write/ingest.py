"""The write pipeline for one accepted batch: episodes → extract → normalise → embed → resolve → commit.

Called by the job worker (and by ``add(sync=True)`` through it). Everything a job
writes, including marking the job done, goes to the store in one ``apply`` call, so a
crash either loses nothing or redoes the whole job; episodes are keyed by message id,
so a redo does not duplicate them.
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

import numpy as np

from jiyi.clock import Clock, parse_iso
from jiyi.extractors.protocol import Candidate, Extractor
from jiyi.privacy.seal import SEALED_KEY, Keyring
from jiyi.read.profile import STANDING_IMPORTANCE, is_standing
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
from jiyi.stores.conflicts import redo_on_conflict
from jiyi.stores.protocol import ChangeSet, Job, RecordFilter, Store, Upsert
from jiyi.text import topics
from jiyi.text.consumption import kinds_of
from jiyi.text.ended import ENDED_KEY, OVER_KEY, declines
from jiyi.text.fillers import is_filler
from jiyi.text.smalltalk import SMALLTALK_IMPORTANCE, turn_importance
from jiyi.text.tokens import keywords_text
from jiyi.text.topics import OWNED, SINGLE, Change, family_slots
from jiyi.write.buffer import message_to_dict
from jiyi.write.destination import headed_for, moved_home, with_destination
from jiyi.write.embed import CachedEmbedder, self_contained_vectors
from jiyi.write.endings import (
    PER_KIND,
    PER_TERM,
    THREAD_MINUTES,
    Ending,
    carried_on,
    ended_by,
    endings,
    marked,
    said_alongside,
    said_in_parts,
    says,
)
from jiyi.write.episodes import EpisodeDraft, draft_episodes, episode_vectors, index_keywords
from jiyi.write.groups import group_sessions
from jiyi.write.judge import Judge, judged_decision, judged_ending
from jiyi.write.normalize import normalize_candidates
from jiyi.write.privacy import (
    forget_into,
    protect_candidates,
    protect_changes,
    sealed_by_message,
    split_forget_candidates,
    split_forget_messages,
)
from jiyi.write.reading import reading
from jiyi.write.resolve import (
    Decision,
    as_user,
    earlier_turn,
    ended_slots,
    ends_mention,
    family_turns,
    lang_of,
    over_names,
    resolvable_kinds,
    resolve_candidate,
    to_record,
    told_with,
    topic_change,
    topic_targets,
)
from jiyi.write.spouse import partner_name, with_spouse
from jiyi.write.triggers import should_extract
from jiyi.write.window import extraction_window, not_instructions

if TYPE_CHECKING:
    from jiyi.write.summaries import SessionSummarizer

log = logging.getLogger("jiyi.write")
ADD_JOB = "add"
SIMILAR_K = 5
ENDS_K = 30  # neighbours searched for the habits an ending (戒了咖啡) names
NAMED_TURNS = 50  # earlier turns looked at per name a change says is over
FAMILY_TURNS = 300  # the newest turns looked at for what a change of a single-valued family replaces


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
    return Message(role=d["role"], content=d["content"], timestamp=parse_iso(d["timestamp"]),
                   id=d.get("id"), name=d.get("name"))


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
    for d, channels in zip(drafts, episode_vecs):
        rec = d.record if d.record.embedding_model == model else d.record.replace(embedding_model=model)
        changes.upserts.append(Upsert(rec, channels, keywords_text(d.content_text)))
        events.append(WriteEvent(rec.id, EventType.ADD, rec.content, rec.kind))
    resolver = _BatchResolver(ctx, scope, now)
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
    for rec, vec, read_at in resolver.final_records():
        kw = index_keywords(rec) if vec is not None else None
        changes.upserts.append(Upsert(rec, self_contained_vectors(vec) if vec is not None else None, kw,
                                      expect=read_at))
    changes.history.extend(resolver.history)
    return changes, events


def _said_before(decision: Decision, holders: Sequence[MemoryRecord], now: datetime) -> Decision:
    """The newer one wins by when each was said, not by when it was processed.

    A slot value from an imported history (said 2025-03-10) that differs from what the slot
    holds since a later statement (said 2025-05-02) does not replace it: it is written as the
    past value it is, superseded by the later one from when that was said.
    """
    new = decision.record
    later = sorted((h for h in holders if h.created_at > new.created_at), key=lambda h: h.created_at)
    if not later:
        return decision
    after = later[0]
    ends = after.valid_from or after.created_at
    past = new.replace(status=Status.SUPERSEDED, superseded_by=after.id, links=(),
                       valid_until=min(new.valid_until, ends) if new.valid_until else ends)
    reason = f"said before what slot {new.slot} holds ({after.created_at.date().isoformat()})"
    return Decision(EventType.ADD, past, is_new=True, reason=reason,
                    history=[HistoryEvent(EventType.ADD, past.id, now, new=past.content, reason=reason)])


def _ended_in_batch(drafts: Sequence[EpisodeDraft], said_over: Sequence[Ending]) -> list[EpisodeDraft]:
    """``drafts`` with the turns a later turn of the same batch says are over (``said_over``, the endings
    among them) marked so (write/endings.py), and each ending with the words of what it ends."""
    records = {d.record.id: d.record for d in drafts}
    order = list(records)
    for ending in said_over:
        turn = records[ending.turn.id]  # the ending keeps what it ends beside it: a block reads it (read/context.py)
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


#: families whose turns tell more than the one thing a change ends: a move does not end what was said with the
#: old city ("我住在苏州 每天跑步"), so their outdated turns end no statement made with them
_KEYED_FAMILIES = frozenset({"residence", "employer", "partner", "phone", "email"})


class _BatchResolver:
    """Resolves candidates one by one, seeing the effects of earlier ones in the same batch."""

    def __init__(self, ctx: WriteContext, scope: Scope, now: datetime) -> None:
        self.ctx, self.scope, self.now = ctx, scope, now
        self.records: dict[str, MemoryRecord] = {}
        self.read_at: dict[str, datetime] = {}  # updated_at of each stored record as first read
        self.new_vectors: dict[str, np.ndarray] = {}
        self.history: list[Any] = []
        self._flt = RecordFilter(kinds=resolvable_kinds())
        self.group_sessions: list[str] | None = None

    def decide(self, cand: Candidate, new: MemoryRecord, vec: np.ndarray) -> Decision:
        similar = self._similar(vec)
        holders = self._slot_holders(cand.slot) if cand.slot else []
        change = topic_change(cand)
        if change is not None and change.cls == "move":
            cand, change = self._headed_for(cand, change)
            new = new.replace(content=cand.content)
        ended, topical = self._ended(cand, vec, change)
        decision = resolve_candidate(cand, new, similar=similar, slot_holders=holders, now=self.now,
                                     merge_threshold=self.ctx.merge_threshold, ended=ended)
        if self.ctx.judge is not None and topical:  # a change of topic: the judge sees what it would close
            decision = judged_ending(self.ctx.judge, cand, new, olds=ended, rule=decision, now=self.now,
                                     similar=similar)
        elif self.ctx.judge is not None and not ended:  # an ending is not a close call
            decision = judged_decision(self.ctx.judge, cand, new, similar=similar, slot_holders=holders,
                                       rule=decision, now=self.now, merge_threshold=self.ctx.merge_threshold)
        if decision.event is EventType.SUPERSEDE and cand.slot:
            decision = _said_before(decision, holders, self.now)
        if change is not None and change.families and decision.is_new:
            decision = dataclasses.replace(decision, record=self._as_read(decision.record, change, ended))
        if decision.is_new and decision.record.kind is not Kind.EVENT and any(
                is_standing(r) for r in (*ended, *(r for r in decision.changed if r.status is Status.SUPERSEDED))):
            # what replaced a standing fact stands in its place: "用户不用考了" where "用户在准备考研" stood
            decision = dataclasses.replace(decision, record=decision.record.replace(
                importance=max(decision.record.importance, STANDING_IMPORTANCE)))
        if decision.event is EventType.NONE:
            return decision
        self.records[decision.record.id] = decision.record
        if decision.is_new:
            self.new_vectors[decision.record.id] = vec
        for rec in decision.changed:
            self.records[rec.id] = rec
            if rec.status is Status.SUPERSEDED:
                self._mark_source_episodes(rec, decision.record.id)
        self._mark_named_turns(cand, change, decision.record.id, ended)
        if change is not None:
            self._mark_family_turns(cand, change, decision.record.id)
            if change.direction == "from" and not set(change.families) & _KEYED_FAMILIES and cand.kind is not Kind.EVENT:
                self._end_told_in([r for r in self.records.values() if r.kind is Kind.EPISODE
                                   and r.metadata.get("outdated_by") == decision.record.id], decision.record.id)
        self.history.extend(decision.history)
        return decision

    def _headed_for(self, cand: Candidate, change: Change) -> tuple[Candidate, Change]:
        """A move naming no place ("搬完家累瘫了") with the place the speaker said they were headed for before
        (write/destination.py), said in plain words after theirs; else as it was."""
        lang = lang_of(cand)
        said = as_user(cand.content, cand.speaker, lang)  # "Dana O: Settled in": the speaker is no place
        if topics.destination(said, lang, 0) or not moved_home(said):
            return cand, change
        turns = [ep for ep in self._read(self.ctx.store.list(self.scope, RecordFilter(kinds=(Kind.EPISODE,)),
                                                              FAMILY_TURNS)) if earlier_turn(ep, cand, self.now)]
        home = [r.content for r in self._slot_holders("user/city")]
        place = headed_for(turns, cand.valid_from or self.now, home, lang)
        if place is None:
            return cand, change
        moved = dataclasses.replace(cand, content=with_destination(cand.content, place, lang))
        log.debug("move %r headed for %s (said before)", cand.content, place)
        return moved, topic_change(moved) or change

    def _as_read(self, rec: MemoryRecord, change: Change, closed: Sequence[MemoryRecord]) -> MemoryRecord:
        """A new memory of a change with the change's plain reading (write/reading.py), and a wedding with the
        name of the spouse, as the memories it closes or the turns they came from give it (write/spouse.py)."""
        if change.cls == "marry" and closed:
            found = self.ctx.store.find_by_sources(self.scope, [s for r in closed for s in r.source_ids])
            turns = [t.content for r in closed for sid in r.source_ids for t in found.get(sid, ())
                     if t.kind is Kind.EPISODE]
            rec = with_spouse(rec, partner_name([*(r.content for r in closed), *turns]))
        return rec.replace(content=reading(rec.content, change.cls, change.families[0], lang_of(rec)))

    def _mark_named_turns(self, cand: Candidate, change: Change | None, new_id: str,
                          closed: list[MemoryRecord]) -> None:
        """Earlier turns of the speaker that name what ``cand`` says is over ("wedding planning is killing me,
        rohan wants 300 guests" before "called it off with rohan") are outdated too: past, not current."""
        for name in over_names(cand, change, closed):
            for ep in self._read(self.ctx.store.list(self.scope, RecordFilter(kinds=(Kind.EPISODE,), text=name),
                                                     NAMED_TURNS)):
                if ep.id in self.records or ep.metadata.get("outdated_by") or not earlier_turn(ep, cand, self.now):
                    continue
                self.records[ep.id] = ep.replace(metadata={**ep.metadata, "outdated_by": new_id}, updated_at=self.now)

    def _mark_family_turns(self, cand: Candidate, change: Change, new_id: str) -> None:
        """Earlier turns that state what ``change`` replaces ("我在苏州做UI的" before "进了鹭拾设计") are
        outdated too (write/resolve.py ``family_turns``)."""
        if not set(change.families) & (SINGLE | OWNED):
            return
        turns = [ep for ep in self._read(self.ctx.store.list(self.scope, RecordFilter(kinds=(Kind.EPISODE,)),
                                                              FAMILY_TURNS))
                 if ep.id not in self.records and not ep.metadata.get("outdated_by")]
        for ep in family_turns(cand, change, turns, self.now):
            self.records[ep.id] = ep.replace(metadata={**ep.metadata, "outdated_by": new_id}, updated_at=self.now)
        if change.cls not in ("end", "leave"):
            return
        # a couple's or a job's end also ends the speaker's events told of it before ("男朋友阿川下个月生日"), even
        # those still ahead (a move leaves a dinner planned in the old city as it was)
        events = {ev.id: ev for ev in self._read(self.ctx.store.list(self.scope, RecordFilter(kinds=(Kind.EVENT,)),
                                                                      FAMILY_TURNS))
                  if ev.id not in self.records and not ev.metadata.get(ENDED_KEY)
                  and ev.created_at < (cand.valid_from or self.now)}
        said = [ev.replace(valid_from=ev.created_at) for ev in events.values()]  # told before, whatever its day
        for ev in family_turns(cand, change, said, self.now):
            old = events[ev.id]
            self.records[ev.id] = old.replace(metadata={**old.metadata, ENDED_KEY: new_id}, updated_at=self.now)

    def mark_ended(self, found: Sequence[Ending], batch: Sequence[MemoryRecord] = ()) -> None:
        """The speaker's stored turns and memories that a new turn says are over ("奶茶我戒咯" after
        "我每日下昼都要饮一杯奶茶") are marked so (write/endings.py); a block shows them as past. ``batch`` are
        this write's turns, those a turn of it ended already marked: what was said with them ends too."""
        newest: list[MemoryRecord] | None = None  # listed once, for the first term that names a kind
        for ending in found:
            self._mark_said_alongside([t for t in batch if t.metadata.get(ENDED_KEY) == ending.turn.id], None, ending)
            for term in ending.terms:
                stored = self._read(self.ctx.store.list(self.scope, RecordFilter(text=term), PER_TERM))
                if kinds_of(term) or said_in_parts(term):  # 戒咖啡: the turns of 美式 too; 晨跑: "每天早上都跑"
                    if newest is None:
                        newest = self._read(self.ctx.store.list(self.scope, RecordFilter(), PER_KIND))
                    stored += newest
                pool = {r.id: self.records.get(r.id, r) for r in stored}
                pool.update((i, r) for i, r in self.records.items() if i not in pool)
                ended = ended_by(ending, term, [r for r in pool.values() if r.status is Status.ACTIVE],
                                 self._groups())
                for rec in ended:
                    self.records[rec.id] = marked(rec, ending)
                    if rec.kind is not Kind.EPISODE and declines(ending.turn.content):
                        self._restore_replaced_by(rec, ending)
                self._mark_said_alongside([r for r in ended if r.kind is Kind.EPISODE], term, ending)

    def _groups(self) -> list[str]:
        """The user's group chats, read once per write (write/groups.py)."""
        if self.group_sessions is None:
            self.group_sessions = group_sessions(self.ctx.store, self.scope)
        return self.group_sessions

    def _mark_said_alongside(self, turns: Sequence[MemoryRecord], term: str | None, ending: Ending) -> None:
        """What was said with the ended thing ends with it: the other statements of its turns ("报了个尤克里里班
        每周六下午上课") and, for stored turns (``term`` given), the speaker's reply when the bot carried the talk
        on (write/endings.py; a batch's own replies are marked with its turns, :func:`_ended_in_batch`)."""
        threads = list(turns)
        for turn in turns if term else ():
            window = RecordFilter(kinds=(Kind.EPISODE,), session_id=turn.session_id,
                                  created_after=turn.created_at - timedelta(seconds=1),
                                  created_before=turn.created_at + timedelta(minutes=THREAD_MINUTES))
            after = sorted(self._read(self.ctx.store.list(self.scope, window, 12)), key=lambda r: r.created_at)
            for reply in carried_on(turn, after, term):
                if reply.id != ending.turn.id and reply.status is Status.ACTIVE and not reply.metadata.get(ENDED_KEY):
                    self.records[reply.id] = marked(self.records.get(reply.id, reply), ending)
                    threads.append(reply)
        self._end_told_in(threads, ending.turn.id, ending.terms)

    def _end_told_in(self, turns: Sequence[MemoryRecord], by: str, judged: Sequence[str] = ()) -> None:
        """The speaker's unkeyed statements made from ``turns`` (write/endings.py ``said_alongside``) are over,
        ended by the turn or memory ``by``: "每晚收车都得整两口" with the turn a drink given up outdated."""
        sources = {s for t in turns for s in t.source_ids}
        if not sources:
            return
        found = self.ctx.store.find_by_sources(self.scope, list(sources))
        told = {r.id: r for r in self._read(r for rs in found.values() for r in rs)}
        told.update((i, r) for i, r in self.records.items() if sources & set(r.source_ids))
        for rec in told.values():
            rec = self.records.get(rec.id, rec)
            if (rec.kind is not Kind.EPISODE and rec.status is Status.ACTIVE and said_alongside(rec) and rec.id != by
                    and not any(says(rec.content, t) for t in judged)):  # what says the word, ended_by judged
                self.records[rec.id] = rec.replace(metadata={**rec.metadata, ENDED_KEY: by}, updated_at=self.now)

    def _restore_replaced_by(self, declined: MemoryRecord, ending: Ending) -> None:
        """A change the speaker then turned down ("拿到了青檬的offer 下个月入职" → "青檬那边我不去了 还是留在现在这家")
        did not happen: what its message replaced (the job they keep) holds again, the turns it came from are no
        longer outdated, and what else that message said of the change (下个月入职) is over with it."""
        found = self.ctx.store.find_by_sources(self.scope, declined.source_ids)
        told = [r for r in self._read(r for sid in declined.source_ids for r in found.get(sid, ()))
                if r.kind is not Kind.EPISODE and r.id != declined.id and r.status is Status.ACTIVE]
        for rec in told:
            self.records[rec.id] = marked(self.records.get(rec.id, rec), ending)
        replacers = {declined.id, *(r.id for r in told)}
        gone = self._read(self.ctx.store.list(self.scope, RecordFilter(statuses=(Status.SUPERSEDED,)), PER_KIND))
        for old in (r for r in gone if r.superseded_by in replacers and r.id not in self.records):
            self.records[old.id] = old.replace(status=Status.ACTIVE, superseded_by=None, valid_until=None,
                                               updated_at=self.now)
            found = self.ctx.store.find_by_sources(self.scope, old.source_ids)
            for ep in self._read(r for sid in old.source_ids for r in found.get(sid, ())):
                if ep.kind is Kind.EPISODE and ep.metadata.get("outdated_by") in replacers:
                    meta = {k: v for k, v in ep.metadata.items() if k != "outdated_by"}
                    self.records[ep.id] = self.records.get(ep.id, ep).replace(metadata=meta, updated_at=self.now)

    def _mark_source_episodes(self, old: MemoryRecord, new_id: str) -> None:
        """The turns an outdated memory came from are outdated too: recall ranks them below the new one."""
        found = self.ctx.store.find_by_sources(self.scope, old.source_ids)
        for ep in self._read(r for sid in old.source_ids for r in found.get(sid, ())):
            if ep.kind is Kind.EPISODE and ep.id not in self.records:
                self.records[ep.id] = ep.replace(metadata={**ep.metadata, "outdated_by": new_id},
                                                 updated_at=self.now)

    def final_records(self) -> list[tuple[MemoryRecord, np.ndarray | None, datetime | None]]:
        """Each record to write, its new vector (None: keep the stored one) and the ``updated_at``
        the store must still hold for it (None for a new record)."""
        return [(r, self.new_vectors.get(r.id), self.read_at.get(r.id)) for r in self.records.values()]

    def _read(self, records: Iterable[MemoryRecord]) -> list[MemoryRecord]:
        """Stored records, noting the version each was first read at (the change set expects it)."""
        out = list(records)
        for rec in out:
            self.read_at.setdefault(rec.id, rec.updated_at)
        return out

    def _active(self, rec: MemoryRecord) -> MemoryRecord | None:
        rec = self.records.get(rec.id, rec)
        return rec if rec.status is Status.ACTIVE else None

    def _similar(self, vec: np.ndarray, k: int = SIMILAR_K) -> list[tuple[MemoryRecord, float]]:
        found = self.ctx.store.vector_search(self.scope, vec, k, self._flt)
        by_id = {r.id: r for r in self._read(self.ctx.store.get_many(self.scope, [i for i, _ in found]))}
        out = [(r, s) for i, s in found if i in by_id and (r := self._active(by_id[i])) is not None]
        for rid, v in self.new_vectors.items():
            rec = self._active(self.records[rid])
            if rec is not None:
                out.append((rec, float(np.dot(v, vec))))
        return out

    def _ended(self, cand: Candidate, vec: np.ndarray, change: Change | None) -> tuple[list[MemoryRecord], bool]:
        """Active memories ``cand`` ends besides its own slot: other slots it names, habits naming its
        object, the standing memories of the topic ``change`` changes (then True: write/resolve.py
        topic_targets)."""
        out = [r for slot in ended_slots(cand) for r in self._slot_holders(slot)]
        topical = [] if change is None else topic_targets(cand, change, [
            *self._similar(vec, ENDS_K), *((h, 0.0) for f in change.families for s in family_slots(f)
                                           for h in self._slot_holders(s))], self.new_vectors.keys())
        out += topical
        if change is not None and change.direction == "from" and change.families:
            told = self._told_in_named_turns(cand, change, topical)
            topical += told
            out += told
        if cand.metadata.get("ends_mention"):
            found = self.ctx.store.vector_search(self.scope, vec, ENDS_K, self._flt)
            stored = self._read(self.ctx.store.get_many(self.scope, [i for i, _ in found]))
            batch = [r for r in self.records.values() if r.id not in {s.id for s in stored}]
            out += [a for r in (*stored, *batch) if (a := self._active(r)) is not None and ends_mention(cand, a)]
        return list({r.id: r for r in out}.values()), bool(topical)

    def _told_in_named_turns(self, cand: Candidate, change: Change, closed: list[MemoryRecord]) -> list[MemoryRecord]:
        """What the earlier turns naming what is over told of the change's families ("my car's doing the clunky
        noise again. the kestrel is 11 yrs old" before "sold the kestrel"): over with it (resolve.told_with)."""
        turns = [ep for name in over_names(cand, change, closed)
                 for ep in self.ctx.store.list(self.scope, RecordFilter(kinds=(Kind.EPISODE,), text=name), NAMED_TURNS)]
        if not turns:
            return []
        found = self.ctx.store.find_by_sources(self.scope, [sid for ep in turns for sid in ep.source_ids])
        made = self._read(r for rs in found.values() for r in rs)
        have = {r.id for r in closed}
        return [a for r in made if r.id not in have and (a := self._active(r)) is not None
                and told_with(cand, change, a, self.new_vectors.keys())]

    def _slot_holders(self, slot: str) -> list[MemoryRecord]:
        stored = self._read(self.ctx.store.find_by_slot(self.scope, slot))
        batch = [r for r in self.records.values() if r.slot == slot]
        merged = {r.id: r for r in stored} | {r.id: r for r in batch}
        return [r for r in merged.values() if (a := self._active(r)) is not None and a.slot == slot]
