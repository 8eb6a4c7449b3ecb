"""One write's candidates resolved one by one, each seeing what the earlier ones changed.

:class:`BatchResolver` decides for each candidate of a job (write/ingest.py ``build_changes``): a new
memory, a merge, a supersession (write/resolve.py), and what else the change closes or marks: the
speaker's earlier turns that stated the old value, the turns and memories a later turn says are over
(write/endings.py), and the old values a change names itself, kept beside it (``metadata["over"]``).
"""

from __future__ import annotations

import dataclasses
import logging
import re
from collections.abc import Iterable, Sequence
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

import numpy as np

from jiyi.extractors.protocol import Candidate
from jiyi.read.profile import STANDING_IMPORTANCE, is_standing
from jiyi.records import (
    EventType,
    HistoryEvent,
    Kind,
    MemoryRecord,
    Scope,
    Status,
)
from jiyi.stores.protocol import RecordFilter
from jiyi.text.consumption import kinds_of
from jiyi.text.ended import ENDED_KEY, OVER_KEY, declines
from jiyi.text.new_value import destination, places_named
from jiyi.text.topics import OWNED, SINGLE, Change, cue_of, family_slots, names
from jiyi.write.destination import headed_for, moved_home, place_now, with_destination
from jiyi.write.endings import (
    PER_KIND,
    PER_TERM,
    THREAD_MINUTES,
    Ending,
    carried_on,
    ended_by,
    marked,
    said_alongside,
    said_in_parts,
    says,
)
from jiyi.write.groups import group_sessions
from jiyi.write.judge import judged_decision, judged_ending
from jiyi.write.like_turns import like_turns
from jiyi.write.pets import mentions_a_death, pet_gone, pet_names
from jiyi.write.reading import reading, says_no_longer
from jiyi.write.rearranged import change_cue, rearranged_turn
from jiyi.write.resolve import (
    Decision,
    as_user,
    earlier_turn,
    ended_slots,
    ends_mention,
    family_turns,
    lang_of,
    old_names_said,
    over_names,
    resolvable_kinds,
    resolve_candidate,
    told_with,
    topic_change,
    topic_targets,
)
from jiyi.write.spouse import partner_name, with_spouse

if TYPE_CHECKING:
    from jiyi.write.ingest import WriteContext

log = logging.getLogger("jiyi.write")

SIMILAR_K = 5
ENDS_K = 30  # neighbours searched for the habits an ending (戒了咖啡) names
NAMED_TURNS = 50  # earlier turns looked at per name a change says is over
FAMILY_TURNS = 300  # the newest turns looked at for what a change of a single-valued family replaces


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




#: families whose turns tell more than the one thing a change ends: a move does not end what was said with the
#: old city ("我住在苏州 每天跑步"), so their outdated turns end no statement made with them
_KEYED_FAMILIES = frozenset({"residence", "employer", "partner", "phone", "email"})


def with_over(rec: MemoryRecord, names: Iterable[str], **changes: Any) -> MemoryRecord:
    """``rec`` keeping ``names`` beside it as no longer so (``metadata["over"]``, read/context.py), after those it kept."""
    kept: dict[str, str] = {}  # one per name, whatever its case ("alliance" said, "Alliance" closed)
    for name in [*(rec.metadata.get(OVER_KEY) or ()), *names]:
        kept.setdefault(name.casefold(), name)
    return rec.replace(metadata={**rec.metadata, OVER_KEY: list(kept.values())}, **changes)


#: a loss that may be of a thing (lost, stolen), not a death: 发票丢了, 钥匙被偷了
_A_THING_LOST = re.compile(r"丢了|被(?:人|贼)?偷|被盗|(?i:\blost\b|\bstolen\b)")


class BatchResolver:
    """Resolves candidates one by one, seeing the effects of earlier ones in the same batch."""

    def __init__(self, ctx: WriteContext, scope: Scope, now: datetime) -> None:
        self.ctx, self.scope, self.now = ctx, scope, now
        self.records: dict[str, MemoryRecord] = {}
        self.read_at: dict[str, datetime] = {}  # updated_at of each stored record as first read
        self.new_vectors: dict[str, np.ndarray] = {}
        self.history: list[Any] = []
        self._flt = RecordFilter(kinds=resolvable_kinds())
        self.group_sessions: list[str] | None = None
        self.over_by_source: dict[str, list[str]] = {}  # message id → old values its changes named (OVER_KEY)
        self.batch_turns: dict[str, MemoryRecord] = {}  # this write's turns (take_turns)
        self.turn_vectors: dict[str, np.ndarray] = {}  # their content vectors, by turn id and by message id
        self.outdated_in_batch: dict[str, str] = {}  # this write's turns a change of it outdated → by what
        self.ended_in_batch: dict[str, str] = {}  # this write's turns a later one of it rearranged → by which
        self._turns: list[MemoryRecord] | None = None  # the stored turns (_stored_turns)

    def decide(self, cand: Candidate, new: MemoryRecord, vec: np.ndarray) -> Decision:
        similar = self._without_the_name(cand, self._similar(vec))
        holders = self._slot_holders(cand.slot) if cand.slot else []
        change = topic_change(cand) or self._pet_lost(cand)
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
            self._mark_like_turns(cand, change, vec, decision.record.id)
            if change.direction == "from" and not set(change.families) & _KEYED_FAMILIES and cand.kind is not Kind.EVENT:
                self._end_told_in([r for r in self.records.values() if r.kind is Kind.EPISODE
                                   and r.metadata.get("outdated_by") == decision.record.id], decision.record.id)
            if decision.is_new:
                self._keep_what_it_ends(cand, change, decision.record, ended)
        self.history.extend(decision.history)
        return decision

    def _pet_lost(self, cand: Candidate) -> Change | None:
        """A loss of the pet whose name the statement opens with ("芝麻昨天早上没动了": write/pets.py), or None."""
        text = as_user(cand.content, cand.speaker, lang_of(cand))
        if cand.kind in (Kind.EPISODE, Kind.SUMMARY) or not mentions_a_death(text):
            return None
        kept = self._read(self.ctx.store.list(self.scope, RecordFilter(kinds=(Kind.RELATION, Kind.FACT)), PER_KIND))
        mine = [r for r in (*kept, *self.records.values()) if (r.speaker or None) == (cand.speaker or None)]
        name = pet_gone(text, pet_names(mine))
        if name is None:
            return None
        log.debug("pet %s lost: %r", name, cand.content)
        return Change("lose", ("pet",), "from", len(text))

    def _keep_what_it_ends(self, cand: Candidate, change: Change, new: MemoryRecord,
                           ended: Sequence[MemoryRecord]) -> None:
        """A change that names the old value it replaces ("从建行跳到一家露营公司", "moved out of Birchwood, renting
        on Pine Rd") keeps that name beside it, and so does the turn it came from: a block reads "；已不再：建行"
        (read/context.py), not a current bank job in the new statement's words."""
        closed = [*ended, *(r for r in self.records.values() if r.id != new.id and (
            r.status is Status.SUPERSEDED and r.superseded_by == new.id
            or new.id in (r.metadata.get("outdated_by"), r.metadata.get(ENDED_KEY))))]
        gone = old_names_said(cand, change, closed)
        if not gone:
            return
        self._note_over(cand.source_ids, gone)  # the turn it came from: in this write (build_changes) or stored before
        found = self.ctx.store.find_by_sources(self.scope, list(cand.source_ids))
        for ep in self._read(r for sid in cand.source_ids for r in found.get(sid, ())):
            if ep.kind is Kind.EPISODE:
                self.records[ep.id] = with_over(self.records.get(ep.id, ep), gone, updated_at=self.now)

    def _note_over(self, sources: Iterable[str], names: Iterable[str]) -> None:
        for sid in sources:
            had = self.over_by_source.setdefault(sid, [])
            had.extend(n for n in names if n not in had)

    def over_said_with(self, rec: MemoryRecord) -> list[str]:
        """The old values the messages ``rec`` came from said are over (:meth:`_keep_what_it_ends`, :meth:`stamp_over`)."""
        return [n for sid in rec.source_ids for n in self.over_by_source.get(sid, ())]

    def stamp_over(self, said_over: Sequence[Ending]) -> None:
        """Each new memory keeps beside it the old values its message said are over and it says too ("Mags
        moved out of Birchwood" → no longer: Birchwood): those of the changes resolved (:meth:`_keep_what_it_ends`)
        and of the turns that ended something (write/endings.py). A memory whose wording says so already is left."""
        for ending in said_over:
            if ending.says_over:
                self._note_over(ending.turn.source_ids, ending.terms)
        for rid in self.new_vectors:
            rec = self.records[rid]
            if rec.kind is Kind.EPISODE or says_no_longer(rec.content):  # (its words say so already)
                continue
            low = rec.content.lower()  # each name as the memory writes it ("birchwood" → Birchwood)
            gone = [rec.content[i:i + len(n)] for n in self.over_said_with(rec) if (i := low.find(n.lower())) >= 0]
            if gone:
                self.records[rid] = with_over(rec, gone)

    def _headed_for(self, cand: Candidate, change: Change) -> tuple[Candidate, Change]:
        """A move naming no place ("搬完家累瘫了") with the place the speaker said they were headed for before
        (write/destination.py), said in plain words after theirs; else as it was."""
        lang = lang_of(cand)
        said = as_user(cand.content, cand.speaker, lang)  # "Dana O: Settled in": the speaker is no place
        if destination(said, lang, 0) or not moved_home(said):
            return cand, change
        home = [r.content for r in self._slot_holders("user/city")]
        own = " ".join(t.content for t in self.batch_turns.values() if set(t.source_ids) & set(cand.source_ids))
        place = place_now(own, lang, home)  # "finally moved. Ballard now.": its turn says where, in a clause of its own
        if place is None:
            turns = [ep for ep in self._stored_turns() if earlier_turn(ep, cand, self.now)]
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
        if change.cls == "lose" and not closed and _A_THING_LOST.search(rec.content) \
                and not cue_of("pet", rec.content, lang_of(rec)):
            return rec  # 发票丢了一张: a thing lost or stolen, naming no pet and ending none, is read as nothing
        return rec.replace(content=reading(rec.content, change.cls, change.families[0], lang_of(rec), rec.speaker))

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
        turns = [ep for ep in (*self._stored_turns(), *self.batch_turns.values())
                 if ep.id not in self.records and not ep.metadata.get("outdated_by")]
        for ep in family_turns(cand, change, turns, self.now):
            self._outdate(ep, new_id)
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

    def take_turns(self, turns: Sequence[MemoryRecord], vectors: Sequence[np.ndarray]) -> None:
        """This write's turns and their content vectors: a change among them may outdate one said before it."""
        self.batch_turns = {t.id: t for t in turns}
        self.turn_vectors = {t.id: v for t, v in zip(turns, vectors)}
        self.turn_vectors.update((sid, v) for t, v in zip(turns, vectors) for sid in t.source_ids)

    def _mark_like_turns(self, cand: Candidate, change: Change, vec: np.ndarray, new_id: str) -> None:
        """The earlier turn of the speaker closest in meaning to a change of a single-valued family, when it stands
        out among their turns, told the state it ends (write/like_turns.py): outdated too. This write's own turns
        count: a history added in one batch says the old state and its change together. (Things owned are not
        one at a time: the turn closest to a sale may tell what was bought instead, "出咗部索尼 入咗富士".)"""
        families = [f for f in change.families if f in SINGLE]
        if not families:
            return
        lang = lang_of(cand)
        value = destination(as_user(cand.content, cand.speaker, lang), lang, change.at) \
            if change.direction == "to" else ()
        stored = self._stored_turns()
        turns = [ep for ep in (*stored, *self.batch_turns.values()) if earlier_turn(ep, cand, self.now)]
        vectors = {**self.ctx.store.vectors(self.scope, [t.id for t in stored]), **self.turn_vectors}
        said = [self.turn_vectors[s] for s in cand.source_ids if s in self.turn_vectors]
        if said:  # the turn as said, not the memory's wording of it ("User mOVED" is like any short turn)
            vec = np.mean(said, axis=0)
        said_text = " ".join(t.content for t in self.batch_turns.values() if set(t.source_ids) & set(cand.source_ids))
        unnamed = change.direction == "to" and not value
        for ep in like_turns(families, vec, turns, vectors, value, said_text or cand.content, unnamed):
            self._outdate(ep, new_id)

    def mark_rearranged(self) -> None:
        """The earlier turn each of this write's turns says was moved or swapped ("竞赛课挪了 现在是周四晚上"),
        found by meaning (write/rearranged.py), is ended by it, and so are the memories made from it: past in a
        block."""
        stored: list[MemoryRecord] | None = None
        vectors: dict[str, np.ndarray] = dict(self.turn_vectors)
        batch = sorted(self.batch_turns.values(), key=lambda t: t.created_at)
        for i, turn in enumerate(batch):
            if turn.id not in self.turn_vectors or (cue := change_cue(turn)) is None:
                continue
            verb, contrast = cue
            if stored is None:
                stored = [t for t in self._stored_turns() if t.id not in self.batch_turns]
                vectors.update(self.ctx.store.vectors(self.scope, [t.id for t in stored]))
            earlier = [self.records.get(t.id, t) for t in stored if t.created_at < turn.created_at] + [
                t for t in batch[:i] if t.id not in self.ended_in_batch]
            old = rearranged_turn(turn, verb, self.turn_vectors[turn.id], earlier, vectors, contrast=contrast)
            if old is None:
                continue
            if old.id in self.batch_turns:
                self.ended_in_batch.setdefault(old.id, turn.id)
            else:
                self.records[old.id] = old.replace(metadata={**old.metadata, ENDED_KEY: turn.id}, updated_at=self.now)
            self._end_told_in([old], turn.id)  # what was said with it: "用户每周三晚上上物理竞赛课"

    def _outdate(self, turn: MemoryRecord, new_id: str) -> None:
        """Mark ``turn`` outdated by the memory ``new_id``: a stored turn as a record to write, one of this write's
        as it is written (build_changes reads :attr:`outdated_in_batch`)."""
        if turn.id in self.batch_turns:
            self.outdated_in_batch.setdefault(turn.id, new_id)
            return
        turn = self.records.get(turn.id, turn)
        if not turn.metadata.get("outdated_by"):
            self.records[turn.id] = turn.replace(metadata={**turn.metadata, "outdated_by": new_id},
                                                 updated_at=self.now)

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

    def _stored_turns(self) -> list[MemoryRecord]:
        """The speaker's newest :data:`FAMILY_TURNS` stored turns, listed once a write (the store does not change
        under it): a move's destination, the family turns and the like turns of each change all read them."""
        if self._turns is None:
            self._turns = self._read(self.ctx.store.list(self.scope, RecordFilter(kinds=(Kind.EPISODE,)),
                                                         FAMILY_TURNS))
        return self._turns

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

    def _without_the_name(self, cand: Candidate, similar: list[tuple[MemoryRecord, float]]
                          ) -> list[tuple[MemoryRecord, float]]:
        """``similar`` with the cosine of a near-duplicate of the same named speaker taken again without the name:
        "洛阳老韩有糖尿病" and "洛阳老韩每天打胰岛素" are alike mostly by the display name both open with."""
        if not cand.speaker:
            return similar
        close = [r for r, cos in similar if cos >= self.ctx.merge_threshold and r.speaker == cand.speaker]
        if not close:
            return similar
        texts = [as_user(r.content, r.speaker, lang_of(r)) for r in (cand, *close)]
        vecs = self.ctx.embedder.embed_passages(texts)
        again = {r.id: float(np.dot(vecs[0], v)) for r, v in zip(close, vecs[1:])}
        return [(r, again.get(r.id, cos)) for r, cos in similar]

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
        out += self._left_with_the_city(cand)
        if cand.metadata.get("ends_mention"):
            found = self.ctx.store.vector_search(self.scope, vec, ENDS_K, self._flt)
            stored = self._read(self.ctx.store.get_many(self.scope, [i for i, _ in found]))
            batch = [r for r in self.records.values() if r.id not in {s.id for s in stored}]
            out += [a for r in (*stored, *batch) if (a := self._active(r)) is not None and ends_mention(cand, a)]
        return list({r.id: r for r in out}.values()), bool(topical)

    def _left_with_the_city(self, cand: Candidate) -> list[MemoryRecord]:
        """The workplaces told with the city a move leaves ("用户在南昌一家银行工作", then "用户搬到了青岛"): they are
        behind the user too. Only those naming the old city by its name, told in another message."""
        if cand.slot != "user/city" or not (new := set(names(cand.content, lang_of(cand)))):
            return []
        old = {n for r in self._slot_holders("user/city") for n in names(as_user(r.content, r.speaker, lang_of(r)),
                                                                          lang_of(r))} - new
        jobs = [r for r in self._slot_holders("user/employer") if not set(r.source_ids) & set(cand.source_ids)]
        # and a workplace naming a place of its own ("在厦门一家宠物医院工作"), told before the new city was ever named
        # (a job found there before the move, "滨江那家公司", is the new city's)
        first = min((r.created_at for n in new for r in self.ctx.store.list(self.scope, RecordFilter(text=n), NAMED_TURNS)),
                    default=self.now)
        return [r for r in jobs if any(says(r.content, n) for n in old if len(n) > 1) or (
            r.created_at < first and any(
                not any(p in m or m in p for m in new) for p in places_named(as_user(r.content, r.speaker, lang_of(r)),
                                                                              lang_of(r))))]

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
