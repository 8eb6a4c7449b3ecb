"""``Memory``: the facade. It wires the stages and holds no algorithm.

    add → validate → buffer → enqueue (durable) → worker: episodes → extract → resolve → commit
    search → recall (routes → fuse → gate → rank) → hits recorded off the hot path
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from datetime import datetime
from pathlib import Path
from types import TracebackType
from typing import Any
from zoneinfo import ZoneInfo

from jiyi import registry
from jiyi.clock import Clock, SystemClock, ensure_utc, parse_iso
from jiyi.config import Settings, load_settings
from jiyi.errors import InvalidInput, NotFound
from jiyi.extractors.protocol import Candidate, Extractor
from jiyi.llms.protocol import LLM
from jiyi.maintain.gc import run_gc
from jiyi.maintain.portable import export_user, import_records
from jiyi.read.buffered import buffer_hits
from jiyi.read.compress import compress_context
from jiyi.read.context import build_context_block
from jiyi.read.curate import assemble
from jiyi.read.hits import HitRecorder
from jiyi.read.rank import DEFAULT_WEIGHTS
from jiyi.read.recall import RecallRequest, RecallTrace, recall
from jiyi.read.tokencount import count_tokens
from jiyi.records import (
    AddResult,
    EventType,
    GcReport,
    HistoryEvent,
    Hit,
    Kind,
    MemoryRecord,
    Message,
    Scope,
    Status,
    Visibility,
    WriteEvent,
    new_id,
)
from jiyi.stores.conflicts import redo_on_conflict
from jiyi.stores.protocol import ChangeSet, Job, RecordFilter, Store, Upsert
from jiyi.text.language import detect_language
from jiyi.trace import enable_debug
from jiyi.write.buffer import clear_buffer, message_to_dict, push_to_buffer, read_buffer
from jiyi.write.embed import CachedEmbedder
from jiyi.write.episodes import index_keywords, stored_vectors, turns_by_message
from jiyi.write.ingest import ADD_JOB, WriteContext, build_changes, run_add_job
from jiyi.write.jobs import JobWorker
from jiyi.write.judge import from_settings as judge_from_settings
from jiyi.write.summaries import from_settings as summarizer_from_settings
from jiyi.write.summaries import session_end_payload
from jiyi.write.validate import validate_messages, validate_optional_id, validate_user_id

log = logging.getLogger("jiyi")


class Memory:
    """Long-term memory for one tenant. Every data call takes ``user_id`` (keyword-only).

    >>> with Memory(path="/tmp/jiyi.db") as mem:
    ...     mem.add("我对花生过敏", user_id="u1", sync=True)
    ...     mem.search("能吃花生酱吗", user_id="u1")
    """

    def __init__(self, path: str | Path | None = None, *, clock: Clock | None = None,
                 store: Store | None = None, embedder: Any = None, extractor: Extractor | None = None,
                 llm: LLM | None = None, **config: Any) -> None:
        if path is not None:
            config["path"] = path
        # a string names a registered backend (Memory(store="bot.db", embedder="hash", extractor="llm"))
        if isinstance(store, str):
            config["store"], store = store, None
        if isinstance(embedder, str):
            config["embedder"], embedder = embedder, None
        if isinstance(extractor, str):
            config["extractor"], extractor = extractor, None
        self.settings = load_settings(**config)
        if self.settings.debug:
            enable_debug()
        self.clock = clock or SystemClock()
        self._owns_store = store is None  # a store passed in belongs to the caller: close() leaves it open
        self.store: Store = store or registry.create("store", self.settings.store_backend(), self.settings)
        raw_embedder = embedder or registry.create("embedder", self.settings.embedder, self.settings)
        self.store.check_embedding(raw_embedder.model, raw_embedder.dim)
        self.embedder = CachedEmbedder(raw_embedder, self.store)
        self.extractor: Extractor = extractor or registry.create("extractor", self.settings.extractor, self.settings)
        shared = llm or _shared_llm(self.extractor)
        self._own_llm = shared is None and _llm_configured(self.settings)
        self.llm: LLM | None = shared or (registry.create("llm", "openai", self.settings) if self._own_llm else None)
        self.weights = {**DEFAULT_WEIGHTS, **self.settings.weights}
        self.scope_tenant = self.settings.tenant
        threshold = self.settings.merge_threshold or float(getattr(raw_embedder, "duplicate_threshold", 0.95))
        self._write = WriteContext(self.store, self.embedder, self.extractor, self.clock,
                                   merge_threshold=threshold, context_mode=self.settings.episode_context,
                                   every_rounds=self.settings.extract_every_rounds,
                                   long_chars=self.settings.long_message_chars,
                                   judge=judge_from_settings(self.settings, self.llm, raw_embedder),
                                   summarizer=summarizer_from_settings(self.settings, self.llm))
        self._worker = JobWorker(self.store, lambda job: run_add_job(self._write, job), self.clock)
        self._hits = HitRecorder(self.store, self.clock)
        self._closed = False
        if self.settings.background_worker:
            self._worker.start()

    # ---- scope -------------------------------------------------------------------------------
    def _scope(self, user_id: object) -> Scope:
        return Scope(self.scope_tenant, validate_user_id(user_id))

    # ---- write -------------------------------------------------------------------------------
    def add(self, messages: str | Mapping[str, Any] | Sequence[Mapping[str, Any]], *, user_id: str,
            session_id: str | None = None, agent_id: str | None = None,
            metadata: Mapping[str, Any] | None = None, sync: bool = False) -> AddResult:
        """Accept messages durably; extraction runs in the background (``sync=True`` waits)."""
        scope = self._scope(user_id)
        session_id = validate_optional_id(session_id, "session_id")
        agent_id = validate_optional_id(agent_id, "agent_id")
        if metadata is not None and not isinstance(metadata, Mapping):
            raise InvalidInput("metadata must be a dict")
        msgs = validate_messages(messages, now=self.clock.now(), max_chars=self.settings.max_message_chars,
                                 max_messages=self.settings.max_messages_per_add)
        payload = {"messages": [message_to_dict(m) for m in msgs], "session_id": session_id, "agent_id": agent_id,
                   "metadata": dict(metadata or {})}
        if sync:
            push_to_buffer(self.store, scope, session_id, msgs, self.settings.buffer_rounds)
            job_id, events = self._run_now(scope, payload)
            return AddResult(events=events, job_id=job_id, pending=False, messages=len(msgs))
        job_id = self.store.enqueue(scope, ADD_JOB, payload, self.clock.now())
        push_to_buffer(self.store, scope, session_id, msgs, self.settings.buffer_rounds)
        self._worker.wake()
        return AddResult(job_id=job_id, pending=True, messages=len(msgs))

    def _run_now(self, scope: Scope, payload: dict[str, Any]) -> tuple[str, list[WriteEvent]]:
        """Process a write in the caller's thread, after the queue ahead of it (``sync=True``).

        Not enqueued: it is durable once ``apply`` commits, before the call returns, and its
        events come straight back even when other workers are draining the queue.
        """
        self._worker.wait_idle()
        job = Job(new_id(), scope, ADD_JOB, payload, 1, self.clock.now())
        return job.id, self._worker.run_inline(job)

    def end_session(self, *, user_id: str, session_id: str) -> list[MemoryRecord]:
        """Close a session: extract what is still pending and summarise its unsummarised turns (waits).

        Returns the summary memories written (none if every turn was already summarised).
        """
        scope = self._scope(user_id)
        sid = validate_optional_id(session_id, "session_id")
        if sid is None:
            raise InvalidInput("session_id is required: only sessions with an id are summarised")
        _, events = self._run_now(scope, session_end_payload(sid))
        ids = [e.id for e in events if e.kind is Kind.SUMMARY]
        return self.store.get_many(scope, ids) if ids else []

    def flush(self, timeout: float = 300.0) -> bool:
        """Wait until every queued write is processed; False if ``timeout`` passed first."""
        return self._worker.wait_idle(timeout)

    def remember(self, content: str, *, user_id: str, kind: Kind | str | None = None,
                 importance: float | None = None, valid_until: datetime | str | None = None,
                 expires_at: datetime | str | None = None,
                 slot: str | None = None, session_id: str | None = None,
                 visibility: Visibility | str | None = None) -> MemoryRecord:
        """Store one statement now, as given, resolved against existing memories."""
        scope = self._scope(user_id)
        text = _check_content(content)
        now = self.clock.now()
        guess = self._classify(text, now)
        cand = Candidate(
            content=text,
            kind=Kind(kind) if kind else (guess.kind if guess else Kind.FACT),
            slot=slot or (guess.slot if guess else None),
            entities=guess.entities if guess else (),
            importance=_unit(importance, "importance") if importance is not None else 0.8,
            confidence=1.0,
            valid_from=guess.valid_from if guess else None,
            valid_until=_when(valid_until) if valid_until is not None else (guess.valid_until if guess else None),
            expires_at=_when(expires_at) if expires_at is not None else (guess.expires_at if guess else None),
            visibility=Visibility(visibility) if visibility else (guess.visibility if guess else Visibility.NORMAL),
            metadata={"remembered": True},
        )
        changes, events = build_changes(self._write, scope, [], [cand], session_id=session_id, agent_id=None, now=now)
        self.store.apply(changes)
        return self._get_or_raise(scope, events[0].id)

    def _classify(self, text: str, now: datetime) -> Candidate | None:
        found = self.extractor.extract([Message("user", text, now)]) if getattr(self.extractor, "cheap", False) else []
        return found[0] if found else None

    def update(self, memory_id: str, content: str, *, user_id: str) -> MemoryRecord:
        """Replace a memory's content (re-embedded, re-indexed; the old text stays in the history)."""
        scope = self._scope(user_id)
        text = _check_content(content)

        def edit(old: MemoryRecord) -> tuple[MemoryRecord, ChangeSet]:
            now = self.clock.now()
            new = old.replace(content=text, updated_at=now)
            prev_id = old.metadata.get("prev_id") if old.kind is Kind.EPISODE else None
            turns = turns_by_message(self.store.find_by_source(scope, prev_id)) if isinstance(prev_id, str) else {}
            vectors = stored_vectors([new], turns, self.embedder, self.settings.episode_context)[0]
            event = HistoryEvent(EventType.UPDATE, old.id, now, old.content, text, "user edit", "user")
            return new, ChangeSet(scope, [Upsert(new, vectors, index_keywords(new), expect=old.updated_at)], [event])

        return self._rewrite(scope, memory_id, edit)

    def delete(self, memory_id: str, *, user_id: str) -> None:
        """Soft-delete one memory (kept in the history; ``gc`` never resurrects it)."""
        self._set_status(memory_id, user_id, Status.DELETED, EventType.DELETE)

    def restore(self, memory_id: str, *, user_id: str) -> MemoryRecord:
        """Bring back a soft-deleted, expired or archived memory."""
        return self._set_status(memory_id, user_id, Status.ACTIVE, EventType.RESTORE)

    def _set_status(self, memory_id: str, user_id: str, status: Status, event: EventType) -> MemoryRecord:
        scope = self._scope(user_id)

        def change(old: MemoryRecord) -> tuple[MemoryRecord, ChangeSet]:
            now = self.clock.now()
            new = old.replace(status=status, updated_at=now)
            return new, ChangeSet(scope, [Upsert(new, expect=old.updated_at)],
                                  [HistoryEvent(event, old.id, now, old.content, None, "user request", "user")])

        return self._rewrite(scope, memory_id, change)

    def _rewrite(self, scope: Scope, memory_id: str,
                 change: Callable[[MemoryRecord], tuple[MemoryRecord, ChangeSet]]) -> MemoryRecord:
        """Apply ``change`` to the stored record; if another writer (the background worker,
        another process) changed it meanwhile, read it again and redo the change on top."""

        def attempt() -> MemoryRecord:
            new, changes = change(self._get_or_raise(scope, memory_id))
            self.store.apply(changes)
            return next(up.record for up in changes.upserts if up.record.id == new.id)  # as stamped (Upsert)

        return redo_on_conflict(attempt, f"edit of memory {memory_id}")

    def delete_all(self, *, user_id: str) -> int:
        """Forget a user entirely: memories, vectors, history, queue, buffers. Returns memories removed."""
        scope = self._scope(user_id)
        self._worker.wait_idle(30)
        return self.store.delete_user(scope)

    forget = delete_all

    # ---- read --------------------------------------------------------------------------------
    def search(self, query: str, *, user_id: str, limit: int = 10, kinds: Iterable[Kind | str] | None = None,
               at: datetime | str | None = None, include_sensitive: bool = False,
               filters: Mapping[str, Any] | None = None, trace: RecallTrace | None = None) -> list[Hit]:
        """The best memories for ``query``, each with its score parts."""
        scope = self._scope(user_id)
        req = self._request(query, limit, kinds, at, include_sensitive, filters)
        tr = trace if trace is not None else RecallTrace()
        hits = recall(self.store, self.embedder, scope, req, now=self.clock.now(), weights=self.weights,
                      half_lives=self.settings.half_lives, trace=tr, tz=ZoneInfo(self.settings.timezone))
        if self.store.pending_jobs(scope):
            hits = self._with_buffer(scope, req, hits, tr)
        self._hits.record(scope, [h.id for h in hits if not h.id.startswith("buffer:")])
        return hits

    def _with_buffer(self, scope: Scope, req: RecallRequest, hits: list[Hit], tr: RecallTrace) -> list[Hit]:
        """Merge in turns still waiting in the queue (recallable before the worker ran)."""
        if req.kinds is not None and Kind.EPISODE not in req.kinds or tr.query is None:
            return hits
        items = read_buffer(self.store, scope, req.session_id)
        known = set(self.store.find_by_sources(scope, [i["id"] for i in items])) if items else set()
        top = max((h.scores.get("total", 0.0) for h in hits), default=1.0)
        extra = buffer_hits(items, scope, tr.query.tokens, known_sources=known, weight=self.weights["buffer"],
                            top_total=top, now=self.clock.now())
        return sorted([*hits, *extra], key=lambda h: -h.score)[: req.limit]

    def _request(self, query: str, limit: int, kinds: Iterable[Kind | str] | None, at: datetime | str | None,
                 include_sensitive: bool, filters: Mapping[str, Any] | None) -> RecallRequest:
        if not isinstance(query, str) or not query.strip():
            raise InvalidInput("query must be a non-empty string")
        if len(query) > 4000:
            raise InvalidInput("query is longer than 4,000 characters")
        if not isinstance(limit, int) or isinstance(limit, bool) or not 1 <= limit <= 1000:
            raise InvalidInput("limit must be an integer between 1 and 1000")
        f = dict(filters or {})
        unknown = set(f) - {"session_id", "agent_id", "created_after", "created_before"}
        if unknown:
            raise InvalidInput(f"unknown filters {sorted(unknown)}; allowed: session_id, agent_id, "
                               "created_after, created_before")
        return RecallRequest(query=query.strip(), limit=limit, kinds=_kinds(kinds),
                             at=_when(at) if at is not None else None, include_sensitive=bool(include_sensitive),
                             session_id=f.get("session_id"), agent_id=f.get("agent_id"),
                             created_after=_when(f["created_after"]) if f.get("created_after") else None,
                             created_before=_when(f["created_before"]) if f.get("created_before") else None)

    def build_context(self, query: str, *, user_id: str, budget_tokens: int = 800, limit: int = 20,
                      include_sensitive: bool = False, compress: bool | None = None) -> str:
        """Memories for ``query`` rendered as a prompt block of at most ``budget_tokens`` tokens.

        The user's standing facts come first (their own share of the budget), then the
        ``limit`` best memories the query found, then lapsed ones under a past heading.
        ``compress`` (default: the
        ``context_compress`` setting) lets the LLM, if one is configured, fold memories
        that exceed the budget into fewer lines instead of dropping some.
        """
        if not isinstance(budget_tokens, int) or budget_tokens < 1:
            raise InvalidInput("budget_tokens must be a positive integer")
        hits = self.search(query, user_id=user_id, limit=min(1000, max(limit, 1) * 2),
                           include_sensitive=include_sensitive)
        block = assemble(self.store, self._scope(user_id), hits, query=query, limit=limit, at=self.clock.now(),
                         historical=False, include_sensitive=include_sensitive, weights=self.weights,
                         half_lives=self.settings.half_lives)
        lang, tz = detect_language(query), ZoneInfo(self.settings.timezone)
        if self.llm is not None and (self.settings.context_compress if compress is None else compress):
            return compress_context(block, llm=self.llm, budget_tokens=budget_tokens, count_tokens=count_tokens,
                                    lang=lang, tz=tz)
        return build_context_block(block, budget_tokens=budget_tokens, count_tokens=count_tokens, lang=lang, tz=tz)

    def get(self, memory_id: str, *, user_id: str) -> MemoryRecord | None:
        scope = self._scope(user_id)
        if not isinstance(memory_id, str) or not memory_id:
            raise InvalidInput("memory_id must be a non-empty string")
        return self.store.get(scope, memory_id)

    def get_all(self, *, user_id: str, kinds: Iterable[Kind | str] | None = None,
                status: Status | str | None = "active", limit: int | None = None, offset: int = 0,
                session_id: str | None = None, agent_id: str | None = None) -> list[MemoryRecord]:
        """Memories of a user, newest first (``status=None`` for every status)."""
        scope = self._scope(user_id)
        try:
            statuses = (Status(status),) if status else None
        except ValueError:
            raise InvalidInput(f"status must be one of {[s.value for s in Status]}") from None
        flt = RecordFilter(kinds=_kinds(kinds), statuses=statuses, session_id=validate_optional_id(session_id, "session_id"),
                           agent_id=validate_optional_id(agent_id, "agent_id"))
        return self.store.list(scope, flt, limit, offset)

    def recent_messages(self, *, user_id: str, session_id: str | None = None) -> list[dict[str, Any]]:
        """The short-term buffer: the last rounds of ``session_id`` (all sessions when None), oldest first."""
        return read_buffer(self.store, self._scope(user_id), validate_optional_id(session_id, "session_id"))

    def clear_buffer(self, *, user_id: str, session_id: str | None = None) -> int:
        """Drop buffered turns of ``session_id`` (or all); stored episodes and memories stay."""
        return clear_buffer(self.store, self._scope(user_id), validate_optional_id(session_id, "session_id"))

    def history(self, memory_id: str, *, user_id: str) -> list[HistoryEvent]:
        scope = self._scope(user_id)
        self._get_or_raise(scope, memory_id)
        return self.store.history(scope, memory_id)

    def users(self) -> list[str]:
        return self.store.users(self.scope_tenant)

    def _get_or_raise(self, scope: Scope, memory_id: str) -> MemoryRecord:
        rec = self.store.get(scope, memory_id) if isinstance(memory_id, str) and memory_id else None
        if rec is None:
            raise NotFound(f"no memory {memory_id!r} for user {scope.user_id!r}")
        return rec

    # ---- maintenance ---------------------------------------------------------------------------
    def gc(self, *, dry_run: bool = True, now: datetime | None = None, user_id: str | None = None) -> GcReport:
        """Apply (or, by default, only report) the maintenance rules to every user of the tenant."""
        at = ensure_utc(now) if now else self.clock.now()
        scopes = [self._scope(user_id)] if user_id else [Scope(self.scope_tenant, u) for u in self.users()]
        return run_gc(self.store, scopes, at, dry_run=dry_run)

    def export(self, *, user_id: str) -> Iterator[dict[str, Any]]:
        """Every memory of the user, all statuses, with its history (JSON-ready dicts)."""
        return export_user(self.store, self._scope(user_id))

    def import_(self, records: Iterable[dict[str, Any]]) -> int:
        """Load records produced by ``export`` (into this tenant); returns how many."""
        return import_records(self.store, self.embedder, self.scope_tenant, records, self.clock.now(),
                              context_mode=self.settings.episode_context)

    def stats(self) -> dict[str, Any]:
        users = self.users()
        pending = sum(self.store.pending_jobs(Scope(self.scope_tenant, u)) for u in users)
        return {"pending_jobs": pending, "worker_errors": self._worker.errors, "users": len(users)}

    # ---- lifecycle -----------------------------------------------------------------------------
    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        self._worker.stop()
        self._hits.close()
        if self._owns_store:
            self.store.close()
        if self._own_llm:
            getattr(self.llm, "close", lambda: None)()

    def __enter__(self) -> Memory:  # noqa: PYI034 (typing.Self needs Python 3.11; we support 3.10)
        return self

    def __exit__(self, t: type[BaseException] | None, e: BaseException | None, tb: TracebackType | None) -> None:
        self.close()


def _llm_configured(settings: Settings) -> bool:
    return bool(settings.llm_base_url and settings.llm_model)


def _shared_llm(extractor: Extractor) -> LLM | None:
    """The LLM extractor's client, so that judge, summaries and compression share its usage totals."""
    llm = getattr(extractor, "llm", None)
    return llm if isinstance(llm, LLM) else None


def _check_content(content: object) -> str:
    if not isinstance(content, str) or not content.strip():
        raise InvalidInput("content must be a non-empty string")
    text = content.strip()
    if len(text) > 2000:
        raise InvalidInput("content is longer than 2,000 characters; store one statement per memory")
    return text


def _unit(value: object, what: str) -> float:
    if not isinstance(value, (int, float)) or isinstance(value, bool) or not 0.0 <= float(value) <= 1.0:
        raise InvalidInput(f"{what} must be a number between 0 and 1")
    return float(value)


def _when(value: datetime | str) -> datetime:
    if isinstance(value, datetime):
        return ensure_utc(value)
    try:
        return parse_iso(str(value))
    except ValueError:
        raise InvalidInput(f"{value!r} is not an ISO 8601 datetime") from None


def _kinds(kinds: Iterable[Kind | str] | None) -> tuple[Kind, ...] | None:
    if kinds is None:
        return None
    if isinstance(kinds, (str, Kind)):
        kinds = [kinds]
    try:
        return tuple(Kind(k) for k in kinds)
    except ValueError:
        raise InvalidInput(f"kinds must be among {[k.value for k in Kind]}") from None
