"""Session summaries (SPEC §1 kind ``summary``): a digest every N rounds and when a session closes.

A summary covers a segment of a session's turns and links to them: its
``source_ids`` are the message ids of every turn in the segment. Which turns are
still unsummarised is read from the store whenever a segment may be complete (the
union of the sources of the session's existing summaries, whatever their status), so
a crash, a redone job or a deleted summary never makes a turn summarised twice. In
between, a per-session counter of unsummarised user rounds (state ``summary:<session>``,
committed with each job's change set) answers "not yet" without listing the session.

* Every ``every_rounds`` user rounds (the setting ``summary_every_rounds``, 0 = off)
  the add job that completes a segment also writes its summary, in the same atomic
  change set.
* ``Memory.end_session`` runs an add job with no messages (:func:`session_end_payload`),
  after the queue ahead of it, that forces extraction of what is pending and summarises
  the rest of the session.

With an LLM the summary is written by the model (:mod:`jiyi.extractors.prompts.summary`);
without one, or when the model fails, it is extractive: the most informative user
turns (those most memories were extracted from, then the longest) in their original
order, within 200 characters. Only sessions with a ``session_id`` are summarised.
"""

from __future__ import annotations

import logging
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timezone, tzinfo
from typing import TYPE_CHECKING, Any
from zoneinfo import ZoneInfo

import numpy as np

from jiyi.clock import format_iso
from jiyi.errors import ProviderBadOutput, ProviderError
from jiyi.extractors.prompts.repair import ReplyInvalid
from jiyi.extractors.prompts.summary import SessionTurn, parse_summary, summary_messages
from jiyi.extractors.protocol import Candidate
from jiyi.llms.protocol import LLM
from jiyi.records import EventType, HistoryEvent, Kind, MemoryRecord, Scope, WriteEvent, new_id
from jiyi.stores.protocol import ChangeSet, RecordFilter, Store, Upsert
from jiyi.text.language import detect_language
from jiyi.text.tokens import keywords_text
from jiyi.trace import StageCounts
from jiyi.write.embed import self_contained_vectors
from jiyi.write.resolve import resolvable_kinds

if TYPE_CHECKING:
    from jiyi.config import Settings
    from jiyi.write.ingest import WriteContext

log = logging.getLogger("jiyi.write.summaries")

MAX_SUMMARY_CHARS = 200
MAX_SESSION_TURNS = 2000
_PREFIX = {"zh": "本次会话中用户提到：", "en": "In this session the user said: "}
_SEP = {"zh": "；", "en": "; "}
_SENTENCE_END = re.compile(r"[。！？!?；;.]")
_SPACES = re.compile(r"\s+")


def session_end_payload(session_id: str) -> dict[str, Any]:
    """An ``add`` job with no messages: extraction of the pending window is forced, the session summarised."""
    return {"messages": [], "session_id": session_id, "agent_id": None, "metadata": {}, "force": True,
            "end_session": True}


@dataclass(slots=True, frozen=True)
class SummaryDue:
    """What a job adds for summaries: the summaries, and the state that commits with them."""

    writes: list[SummaryWrite]
    state: dict[str, Any]


@dataclass(slots=True, frozen=True)
class SummaryWrite:
    """A summary record with its vector, ready to join a job's change set."""

    record: MemoryRecord
    vector: np.ndarray
    reason: str

    def add_to(self, changes: ChangeSet, events: list[WriteEvent]) -> None:
        rec = self.record
        changes.upserts.append(Upsert(rec, self_contained_vectors(self.vector), keywords_text(rec.content)))
        changes.history.append(HistoryEvent(EventType.ADD, rec.id, rec.created_at, new=rec.content,
                                            reason=self.reason))
        events.append(WriteEvent(rec.id, EventType.ADD, rec.content, rec.kind))


class SessionSummarizer:
    """Writes session summaries; ``llm`` None means extractive only. ``stats``: llm, extractive, fallbacks.

    ``tz`` is the zone turn times are shown to the model in, so that relative dates in
    the turns ("明天") become the right absolute dates.
    """

    def __init__(self, llm: LLM | None = None, *, every_rounds: int = 20,
                 max_chars: int = MAX_SUMMARY_CHARS, tz: tzinfo = timezone.utc) -> None:
        self.llm = llm
        self.every_rounds = every_rounds
        self.max_chars = max_chars
        self.tz = tz
        self._counts = StageCounts()

    @property
    def stats(self) -> dict[str, int]:
        return self._counts.snapshot()

    def due(self, ctx: WriteContext, scope: Scope, session_id: str, *, agent_id: str | None,
            new_episodes: Sequence[MemoryRecord], candidates: Sequence[Candidate], now: datetime,
            closing: bool = False) -> SummaryDue:
        """Summaries for the segments this job completes (every segment left, when ``closing``).

        The session is listed only when its counter says a segment may be complete (or
        the counter is missing): a job that adds a round to an unfinished segment costs
        one state read, not a listing of the whole session.
        """
        if not closing and self.every_rounds <= 0:
            return SummaryDue([], {})
        key = f"summary:{session_id}"
        added = _user_rounds(new_episodes)
        known = ctx.store.state_get(scope, key)
        if not closing and isinstance(known, int) and known + added < self.every_rounds:
            return SummaryDue([], {key: known + added})
        turns = unsummarised_turns(ctx.store, scope, session_id, new_episodes)
        segments = split_rounds(turns, self.every_rounds, closing=closing)
        left = {key: _user_rounds(turns) - sum(_user_rounds(seg) for seg in segments)}
        if not segments:
            return SummaryDue([], left)
        cited = citation_counts(ctx.store, scope, session_id, candidates)
        drafts = [self._draft(seg, cited, scope, session_id, agent_id, now, ctx.embedder.model)
                  for seg in segments]
        vectors = ctx.embedder.embed_passages([rec.content for rec, _ in drafts])
        return SummaryDue([SummaryWrite(rec, vectors[i], reason) for i, (rec, reason) in enumerate(drafts)], left)

    def _draft(self, turns: Sequence[MemoryRecord], cited: Counter[str], scope: Scope, session_id: str,
               agent_id: str | None, now: datetime, model: str) -> tuple[MemoryRecord, str]:
        content, how, model_name = self._write(turns, cited)
        rounds = sum(1 for t in turns if _role(t) == "user")
        meta: dict[str, Any] = {"summary": how, "rounds": rounds, "turns": len(turns),
                                "until": format_iso(_when(turns[-1]))}
        if model_name:
            meta["model"] = model_name
        rec = MemoryRecord(
            id=new_id(), tenant=scope.tenant, user_id=scope.user_id, content=content, kind=Kind.SUMMARY,
            created_at=min(_when(turns[-1]), now),  # said when its last turn was: an imported session keeps its date
            updated_at=now, importance=0.4, confidence=0.9 if how == "llm" else 0.6,
            valid_from=_when(turns[0]), source_ids=_sources(turns), session_id=session_id, agent_id=agent_id,
            embedding_model=model, metadata=meta,
        )
        return rec, f"session summary of {rounds} round(s) ({how})"

    def _write(self, turns: Sequence[MemoryRecord], cited: Counter[str]) -> tuple[str, str, str | None]:
        """(content, "llm" | "extractive", model)."""
        if self.llm is not None:
            try:
                text, model = self._ask(turns)
            except ProviderError as exc:
                self._count("fallbacks")
                log.warning("LLM session summary failed (%s: %s); writing an extractive summary",
                            type(exc).__name__, exc)
            else:
                self._count("llm")
                return text, "llm", model
        self._count("extractive")
        return extractive_summary(turns, cited, max_chars=self.max_chars), "extractive", None

    def _ask(self, turns: Sequence[MemoryRecord]) -> tuple[str, str]:
        assert self.llm is not None
        prompt = summary_messages([SessionTurn(f"t{i}", _role(t), _when(t).astimezone(self.tz), t.content)
                                   for i, t in enumerate(turns, start=1)])
        completion = self.llm.complete(prompt, json_mode=True, max_tokens=400)
        try:
            text = parse_summary(completion.text)
        except ReplyInvalid as exc:
            log.debug("invalid summary reply: %r", completion.text[:1000])
            raise ProviderBadOutput(f"the LLM summary was invalid: {exc}") from exc
        return clip(_SPACES.sub(" ", text).strip(), self.max_chars), completion.model

    def _count(self, key: str) -> None:
        self._counts.add(key)


def unsummarised_turns(store: Store, scope: Scope, session_id: str,
                       new_episodes: Sequence[MemoryRecord]) -> list[MemoryRecord]:
    """The session's episodes no summary covers yet, oldest first (this job's new ones included)."""
    stored = store.list(scope, RecordFilter(kinds=(Kind.EPISODE,), session_id=session_id), MAX_SESSION_TURNS)
    summaries = store.list(scope, RecordFilter(kinds=(Kind.SUMMARY,), session_id=session_id, statuses=None))
    covered = {sid for s in summaries for sid in s.source_ids}
    known = {e.id for e in stored}
    episodes = [*reversed(stored), *(e for e in new_episodes if e.id not in known)]  # insertion order
    episodes.sort(key=_when)  # stable: turns of one timestamp keep their order
    return [e for e in episodes if e.source_ids and not covered.intersection(e.source_ids)]


def split_rounds(turns: Sequence[MemoryRecord], every: int, *, closing: bool) -> list[list[MemoryRecord]]:
    """Segments of ``every`` user rounds (each with the assistant turns that follow it).

    An incomplete last segment is returned only when ``closing``; ``every`` ≤ 0 means
    one segment for everything, and only when closing.
    """
    segments: list[list[MemoryRecord]] = []
    current: list[MemoryRecord] = []
    users = 0
    for turn in turns:
        if _role(turn) == "user":
            if every > 0 and users == every:
                segments.append(current)
                current, users = [], 0
            users += 1
        current.append(turn)
    if users and (closing or (every > 0 and users == every)):
        segments.append(current)
    return segments


def citation_counts(store: Store, scope: Scope, session_id: str, candidates: Sequence[Candidate]) -> Counter[str]:
    """How many memories (stored in the session, or extracted by this job) came from each message id."""
    counts: Counter[str] = Counter()
    flt = RecordFilter(kinds=resolvable_kinds(), session_id=session_id, statuses=None)
    for rec in store.list(scope, flt, MAX_SESSION_TURNS):
        counts.update(set(rec.source_ids))
    for cand in candidates:
        counts.update(set(cand.source_ids))
    return counts


def extractive_summary(turns: Sequence[MemoryRecord], cited: Counter[str], *,
                       max_chars: int = MAX_SUMMARY_CHARS) -> str:
    """The most informative user turns, in order, within ``max_chars``.

    A turn's worth: two points per memory extracted from it, plus up to two for its
    length (a long turn usually says more). Ties keep the earlier turn.
    """
    users = [t for t in turns if _role(t) == "user"]
    lang = detect_language(" ".join(t.content for t in users))
    prefix, sep = _PREFIX[lang], _SEP[lang]
    texts = [_SPACES.sub(" ", t.content).strip().rstrip("。.!！；;，,") for t in users]
    worth = [2.0 * sum(cited[s] for s in t.source_ids) + min(len(text), 120) / 60 for t, text in zip(users, texts)]
    room = max_chars - len(prefix)
    chosen: list[int] = []
    for i in sorted(range(len(users)), key=lambda i: (-worth[i], i)):
        cost = len(texts[i]) + (len(sep) if chosen else 0)
        if cost <= room:
            chosen.append(i)
            room -= cost
        elif not chosen:  # the best turn alone is too long: keep its start
            texts[i] = clip(texts[i], room)
            chosen.append(i)
            room = 0
    return prefix + sep.join(texts[i] for i in sorted(chosen))


def clip(text: str, limit: int) -> str:
    """``text`` within ``limit`` characters: cut after the last sentence end that fits, else with "…"."""
    if len(text) <= limit:
        return text
    head = text[:limit]
    ends = [m.end() for m in _SENTENCE_END.finditer(head)]
    if ends and ends[-1] >= limit // 2:
        return head[: ends[-1]]
    return head[: limit - 1] + "…"


def _user_rounds(turns: Sequence[MemoryRecord]) -> int:
    """User turns that a summary can cite (those with a message id)."""
    return sum(1 for t in turns if t.source_ids and _role(t) == "user")


def _role(episode: MemoryRecord) -> str:
    return str(episode.metadata.get("role", "user"))


def _when(episode: MemoryRecord) -> datetime:
    return episode.valid_from or episode.created_at


def _sources(turns: Sequence[MemoryRecord]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(s for t in turns for s in t.source_ids))


def from_settings(settings: Settings, llm: LLM | None) -> SessionSummarizer:
    """The summarizer Memory uses: the LLM when one is configured, times in ``settings.timezone``.

    Without an LLM, summaries are written only when a session ends (unless
    ``summary_every_rounds`` is set explicitly): an extractive digest
    every N rounds adds little that the turns themselves don't hold, and one summary citing
    40 turns would crowd the turns out of recall.
    """
    explicit = "summary_every_rounds" in settings.model_fields_set
    every = settings.summary_every_rounds if llm is not None or explicit else 0
    return SessionSummarizer(llm, every_rounds=every, tz=ZoneInfo(settings.timezone))
