"""``Memory``: the facade. It wires the stages and holds no algorithm.

    add → validate → buffer → enqueue (durable) → worker: episodes → extract → resolve → commit
    search → recall (routes → fuse → gate → rank) → hits recorded off the hot path
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from datetime import datetime, timedelta
from pathlib import Path
from types import TracebackType
from typing import Any
from zoneinfo import ZoneInfo

from jiyi import registry
from jiyi.clock import Clock, SystemClock
from jiyi.config import Settings, load_settings
from jiyi.errors import InvalidInput, NotFound
from jiyi.extractors.protocol import Candidate, Extractor
from jiyi.llms.protocol import LLM
from jiyi.maintain.erase import RESTORE_WINDOW, cache_hashes, erase_changes, window_keys
from jiyi.maintain.gc import run_gc
from jiyi.maintain.portable import export_user, import_records
from jiyi.privacy.forget import memory_families
from jiyi.privacy.mask import level_of
from jiyi.privacy.protect import open_record, open_row, protect_batch, protect_record, protect_row
from jiyi.privacy.seal import SEALED_KEY, keyring_from
from jiyi.read.buffered import buffer_hits
from jiyi.read.compress import compress_context
from jiyi.read.context import build_context_block
from jiyi.read.curate import assemble
from jiyi.read.gate import asked_categories
from jiyi.read.group_said import with_group
from jiyi.read.hits import HitRecorder
from jiyi.read.rank import DEFAULT_WEIGHTS
from jiyi.read.recall import RecallRequest, RecallTrace, recall
from jiyi.read.recent import check_recent
from jiyi.read.rerank import RerankStep, step_from_settings
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
from jiyi.rerankers.protocol import Reranker
from jiyi.stores.conflicts import redo_on_conflict
from jiyi.stores.protocol import ChangeSet, FailedJob, Job, RecordFilter, Store, Upsert
from jiyi.text.language import detect_language
from jiyi.trace import enable_debug
from jiyi.write.buffer import clear_buffer, last_said, message_to_dict, push_to_buffer, read_buffer
from jiyi.write.embed import CachedEmbedder
from jiyi.write.episodes import index_keywords, stored_vectors, turns_by_message
from jiyi.write.groups import check_group, join_group
from jiyi.write.ingest import ADD_JOB, WriteContext, build_changes, run_add_job
from jiyi.write.jobs import JobWorker
from jiyi.write.judge import from_settings as judge_from_settings
from jiyi.write.names import user_names
from jiyi.write.privacy import protect_candidates, split_forget_messages
from jiyi.write.summaries import from_settings as summarizer_from_settings
from jiyi.write.summaries import session_end_payload
from jiyi.write.validate import (
    check_choice,
    check_content,
    check_job_ids,
    check_kinds,
    check_limit,
    check_metadata,
    check_offset,
    check_text,
    check_time,
    check_unit,
    validate_messages,
    validate_optional_id,
    validate_user_id,
)

log = logging.getLogger("jiyi")


class Memory:
    """Long-term memory for one tenant. Every data call takes ``user_id`` (keyword-only).

    >>> with Memory(path="/tmp/jiyi.db") as mem:
    ...     mem.add("我对花生过敏", user_id="u1", sync=True)
    ...     mem.search("能吃花生酱吗", user_id="u1")
    """

    def __init__(self, path: str | Path | None = None, *, clock: Clock | None = None,
                 store: Store | None = None, embedder: Any = None, extractor: Extractor | None = None,
                 llm: LLM | None = None, reranker: Reranker | str | None = None, **config: Any) -> None:
        if path is not None:
            config["path"] = path
        # a string names a registered backend (Memory(store="bot.db", embedder="hash", extractor="llm"))
        if isinstance(store, str):
            config["store"], store = store, None
        if isinstance(embedder, str):
            config["embedder"], embedder = embedder, None
        if isinstance(extractor, str):
            config["extractor"], extractor = extractor, None
        if isinstance(reranker, str):
            config["reranker"], reranker = reranker, None
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
        self.reranker: RerankStep | None = step_from_settings(self.settings, reranker, self.clock)
        self.scope_tenant = self.settings.tenant
        key = self.settings.encryption_key
        self.keyring = keyring_from(key.get_secret_value() if key else None, self.settings.encryption_key_file)
        threshold = self.settings.merge_threshold or float(getattr(raw_embedder, "duplicate_threshold", 0.95))
        self._write = WriteContext(self.store, self.embedder, self.extractor, self.clock,
                                   merge_threshold=threshold, context_mode=self.settings.episode_context,
                                   every_rounds=self.settings.extract_every_rounds,
                                   long_chars=self.settings.long_message_chars,
                                   judge=judge_from_settings(self.settings, self.llm, raw_embedder),
                                   summarizer=summarizer_from_settings(self.settings, self.llm),
                                   keyring=self.keyring)
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
            metadata: Mapping[str, Any] | None = None, sync: bool = False, group: bool = False) -> AddResult:
        """Accept messages durably; extraction runs in the background (``sync=True`` waits).

        ``group=True``: ``session_id`` is a group chat whose members are stored per sender (each
        under their own ``user_id``); members who all said so see each other's standing facts from
        it in ``build_context`` (:mod:`jiyi.read.group`).
        """
        scope = self._scope(user_id)
        session_id = validate_optional_id(session_id, "session_id")
        check_group(group, session_id)
        agent_id = validate_optional_id(agent_id, "agent_id")
        metadata = check_metadata(metadata)
        msgs = validate_messages(messages, now=self.clock.now(), max_chars=self.settings.max_message_chars,
                                 max_messages=self.settings.max_messages_per_add)
        # the user's one display name is the user (a group's is their name there): write/names.py
        own = user_names(self.store, scope, msgs) if not group else ()
        # secrets never reach the queue; a short first message may be the value the session's last one named
        protected = protect_batch(msgs, self.keyring, before=last_said(self.store, scope, session_id, msgs))
        msgs = [m for m, _ in protected]
        forget = [r.describe() for r in split_forget_messages(msgs)[0]]
        if group and session_id is not None:  # (check_group made sure a group has one)
            join_group(self.store, scope, session_id)
        payload = {"messages": [{**message_to_dict(m), **({SEALED_KEY: sealed} if sealed else {})}
                                for m, sealed in protected],
                   "session_id": session_id, "agent_id": agent_id, "metadata": dict(metadata or {}),
                   **({"as_user": list(own)} if own else {})}
        if sync:
            push_to_buffer(self.store, scope, session_id, msgs, self.settings.buffer_rounds)
            job_id, events = self._run_now(scope, payload)
            return AddResult(events=events, job_id=job_id, pending=False, messages=len(msgs), forget=forget)
        job_id = self.store.enqueue(scope, ADD_JOB, payload, self.clock.now())
        push_to_buffer(self.store, scope, session_id, msgs, self.settings.buffer_rounds)
        self._worker.wake()
        return AddResult(job_id=job_id, pending=True, messages=len(msgs), forget=forget)

    def _run_now(self, scope: Scope, payload: dict[str, Any]) -> tuple[str, list[WriteEvent]]:
        """Process a write in the caller's thread, after the queue ahead of it (``sync=True``).

        Not enqueued: it is durable once ``apply`` commits, before the call returns, and its
        events come straight back even when other workers are draining the queue.
        """
        self._worker.wait_idle(scope=scope)  # this user's earlier writes first, not other users'
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

    def flush(self, timeout: float = 300.0, *, user_id: str | None = None) -> bool:
        """Wait until this tenant's queued writes are processed (``user_id``'s only, when given).

        Other tenants' jobs are neither run in the caller's thread nor waited for. Returns False
        if ``timeout`` passed first, or if some write (of the same scope) failed for good (after
        the store's retries): :meth:`failed_jobs` lists them, :meth:`retry_failed` and
        :meth:`drop_failed` deal with them (``jiyi jobs list|retry|drop``).
        """
        scope = self._scope(user_id) if user_id is not None else None
        tenant = None if scope is not None else self.scope_tenant
        idle = self._worker.wait_idle(timeout, scope=scope, tenant=tenant)
        failed = [j for j in self.store.list_failed_jobs(self.scope_tenant, 20)
                  if scope is None or j.scope == scope]
        if failed:
            log.warning("%d write(s) failed for good (ids %s); see Memory.failed_jobs() or `jiyi jobs list`",
                        len(failed), ", ".join(j.id for j in failed))
        return idle and not failed

    def failed_jobs(self, limit: int = 100) -> list[FailedJob]:
        """This tenant's writes that failed past their retries, oldest first, with their last error."""
        return self.store.list_failed_jobs(self.scope_tenant, check_limit(limit))

    def retry_failed(self, ids: Sequence[str] | None = None) -> int:
        """Queue failed writes again (all of this tenant's, or those of ``ids``); returns how many."""
        n = self.store.retry_failed_jobs(self.scope_tenant, check_job_ids(ids), self.clock.now())
        self._worker.wake()
        return n

    def drop_failed(self, ids: Sequence[str] | None = None) -> int:
        """Delete failed writes on purpose (their messages are not stored); returns how many."""
        return self.store.drop_failed_jobs(self.scope_tenant, check_job_ids(ids))

    def remember(self, content: str, *, user_id: str, kind: Kind | str | None = None,
                 importance: float | None = None, valid_until: datetime | str | None = None,
                 expires_at: datetime | str | None = None,
                 slot: str | None = None, session_id: str | None = None,
                 visibility: Visibility | str | None = None) -> MemoryRecord:
        """Store one statement now, as given, resolved against existing memories."""
        scope = self._scope(user_id)
        text = check_content(content)
        session_id = validate_optional_id(session_id, "session_id")
        if slot is not None:
            slot = check_text(slot, "slot", 200)
        now = self.clock.now()
        guess = self._classify(text, now)
        cand = Candidate(
            content=text,
            kind=check_choice(Kind, kind, "kind") if kind else (guess.kind if guess else Kind.FACT),
            slot=slot or (guess.slot if guess else None),
            entities=guess.entities if guess else (),
            importance=check_unit(importance, "importance") if importance is not None else 0.8,
            confidence=1.0,
            valid_from=guess.valid_from if guess else None,
            valid_until=check_time(valid_until, "time") if valid_until is not None else (guess.valid_until if guess else None),
            expires_at=check_time(expires_at, "time") if expires_at is not None else (guess.expires_at if guess else None),
            visibility=check_choice(Visibility, visibility, "visibility") if visibility else (guess.visibility if guess else Visibility.NORMAL),
            metadata={"remembered": True},
        )
        cand = protect_candidates([cand], self.keyring, {})[0]
        changes, events = build_changes(self._write, scope, [], [cand], session_id=session_id, agent_id=None, now=now)
        self.store.apply(changes)
        return open_record(self._get_or_raise(scope, events[0].id), self.keyring)

    def _classify(self, text: str, now: datetime) -> Candidate | None:
        found = self.extractor.extract([Message("user", text, now)]) if getattr(self.extractor, "cheap", False) else []
        return found[0] if found else None

    def update(self, memory_id: str, content: str, *, user_id: str) -> MemoryRecord:
        """Replace a memory's content (re-embedded, re-indexed; the old text stays in the history)."""
        scope = self._scope(user_id)
        text = check_content(content)

        def edit(old: MemoryRecord) -> tuple[MemoryRecord, ChangeSet]:
            now = self.clock.now()
            new = protect_record(old.replace(content=text, updated_at=now, metadata=_unsealed(old.metadata)),
                                 self.keyring)
            prev_id = old.metadata.get("prev_id") if old.kind is Kind.EPISODE else None
            turns = turns_by_message(self.store.find_by_source(scope, prev_id)) if isinstance(prev_id, str) else {}
            vectors = stored_vectors([new], turns, self.embedder, self.settings.episode_context)[0]
            event = HistoryEvent(EventType.UPDATE, old.id, now, old.content, new.content, "user edit", "user")
            return new, ChangeSet(scope, [Upsert(new, vectors, index_keywords(new), expect=old.updated_at)], [event])

        return open_record(self._rewrite(scope, memory_id, edit), self.keyring)

    def delete(self, memory_id: str, *, user_id: str, purge: bool = False) -> None:
        """Delete one memory: never recalled again, restorable for 7 days (``RESTORE_WINDOW``), then
        erased by the user's next delete, ``gc`` or :meth:`purge`. ``purge=True`` erases it now."""
        if purge:
            self.purge(memory_id, user_id=user_id)
            return
        self._set_status(memory_id, user_id, Status.DELETED, EventType.DELETE)
        self._purge(self._scope(user_id), None, RESTORE_WINDOW)  # earlier deletes whose window has passed

    def purge(self, memory_id: str | None = None, *, user_id: str, vacuum: bool = False) -> int:
        """Erase memories for good: ``memory_id`` (any status), else every deleted memory of the user.
        Text, vectors, keyword-index tokens, embedding-cache rows and the texts of their history
        go; the history events stay. The store then compacts (SQLite: WAL truncated; ``vacuum=True``
        also rewrites the file with VACUUM, PostgreSQL VACUUM FULL). Returns how many were erased."""
        scope = self._scope(user_id)
        if memory_id is not None:
            memory_id = validate_optional_id(memory_id, "memory_id")
        erased = self._purge(scope, memory_id, None)
        if vacuum:
            self._compact(full=True)
        return erased

    def _purge(self, scope: Scope, memory_id: str | None, older_than: timedelta | None) -> int:
        if memory_id is not None:
            self._get_or_raise(scope, memory_id)

        def attempt() -> int:
            now = self.clock.now()
            if memory_id is not None:
                doomed = [r for r in (self.store.get(scope, memory_id),) if r is not None]
            else:
                doomed = [r for r in self.store.list(scope, RecordFilter(statuses=(Status.DELETED,)))
                          if older_than is None or now - r.updated_at >= older_than]
            if doomed:
                windows = {key: self.store.state_get(scope, key) for key in window_keys(doomed)}
                self.store.apply(erase_changes(scope, doomed, now, reason="purge",
                                               neighbours=self._session_turns(scope, doomed),
                                               buffer=read_buffer(self.store, scope), windows=windows))
            return len(doomed)

        return redo_on_conflict(attempt, f"purge of {scope.tenant}/{scope.user_id}")

    def _session_turns(self, scope: Scope, records: Sequence[MemoryRecord]) -> list[MemoryRecord]:
        """The turns of the sessions ``records``' turns belong to (their neighbours' context vectors)."""
        sessions = {r.session_id for r in records if r.kind is Kind.EPISODE and r.session_id}
        return [t for sid in sorted(sessions)
                for t in self.store.list(scope, RecordFilter(kinds=(Kind.EPISODE,), statuses=None, session_id=sid))]

    def _compact(self, *, full: bool) -> None:
        compact = getattr(self.store, "compact", None)
        if callable(compact):
            compact(full=full)

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
        self._worker.wait_idle(30, scope=scope)  # this user's queued writes, not other users'
        every = self.store.list(scope, RecordFilter(statuses=None))
        removed = self.store.delete_user(scope)
        if every:  # the embedding cache is shared by all users: drop this user's texts from it
            self.store.apply(ChangeSet(scope, uncache=cache_hashes(every, every)))
        return removed

    forget = delete_all

    # ---- read --------------------------------------------------------------------------------
    def search(self, query: str, *, user_id: str, limit: int = 10, kinds: Iterable[Kind | str] | None = None,
               at: datetime | str | None = None, include_sensitive: bool = False,
               filters: Mapping[str, Any] | None = None, trace: RecallTrace | None = None,
               recent: Sequence[str | Mapping[str, Any]] | None = None) -> list[Hit]:
        """The best memories for ``query``, each with its score parts.

        ``recent``: the current conversation's previous messages, oldest first (strings, or
        ``{"role": "user"|"assistant", "content": ...}``; at most 50). They resolve what the query
        refers to ("那家店叫什么来着？"); the query itself weighs most.
        """
        return self._search(query, user_id=user_id, limit=limit, kinds=kinds, at=at, include_sensitive=include_sensitive,
                            filters=filters, trace=trace, recent=recent)

    def _search(self, query: str, *, user_id: str, limit: int, kinds: Iterable[Kind | str] | None = None,
                at: datetime | str | None = None, include_sensitive: bool = False,
                filters: Mapping[str, Any] | None = None, trace: RecallTrace | None = None,
                recent: Sequence[str | Mapping[str, Any]] | None = None, for_prompt: bool = False) -> list[Hit]:
        """:meth:`search`; ``for_prompt``: the hits are for a bot's prompt (:meth:`build_context`), where a turn
        that ended a memory found by its words ranks above it (read/boosts.successor_lifts)."""
        scope = self._scope(user_id)
        req = self._request(query, limit, kinds, at, include_sensitive, filters, recent, for_prompt=for_prompt)
        tr = trace if trace is not None else RecallTrace()
        hits = recall(self.store, self.embedder, scope, req, now=self.clock.now(), weights=self.weights,
                      half_lives=self.settings.half_lives, trace=tr, tz=ZoneInfo(self.settings.timezone),
                      rerank=self.reranker)
        if self.store.pending_jobs(scope):
            hits = self._with_buffer(scope, req, hits, tr)
        self._hits.record(scope, [h.id for h in hits if not h.id.startswith("buffer:")])
        if self.keyring is not None:  # the gate let sensitive memories through: the caller asked for them
            hits = [Hit(open_record(h.record, self.keyring), h.score, h.scores) for h in hits]
        return hits

    def _with_buffer(self, scope: Scope, req: RecallRequest, hits: list[Hit], tr: RecallTrace) -> list[Hit]:
        """Merge in turns still waiting in the queue (recallable before the worker ran)."""
        if req.kinds is not None and Kind.EPISODE not in req.kinds or tr.query is None:
            return hits
        asked = True if req.include_sensitive else asked_categories(tr.query.text)  # only the categories asked for
        items = [i for i in read_buffer(self.store, scope, req.session_id)
                 if level_of(i["content"]) is Visibility.NORMAL or (level_of(i["content"]) is Visibility.SENSITIVE and (
                     asked is True or bool(set(memory_families(i["content"])) & asked)))]
        known = set(self.store.find_by_sources(scope, [i["id"] for i in items])) if items else set()
        top = max((h.scores.get("total", 0.0) for h in hits), default=1.0)
        extra = buffer_hits(items, scope, tr.query.tokens, known_sources=known, weight=self.weights["buffer"],
                            top_total=top, now=self.clock.now())
        return sorted([*hits, *extra], key=lambda h: -h.score)[: req.limit]

    def _request(self, query: str, limit: int, kinds: Iterable[Kind | str] | None, at: datetime | str | None,
                 include_sensitive: bool, filters: Mapping[str, Any] | None,
                 recent: object = None, *, for_prompt: bool = False) -> RecallRequest:
        query = check_text(query, "query", 4000)
        turns = check_recent(recent)
        limit = check_limit(limit)
        if filters is not None and not isinstance(filters, Mapping):
            raise InvalidInput("filters must be a dict")
        f = dict(filters or {})
        unknown = set(f) - {"session_id", "agent_id", "created_after", "created_before"}
        if unknown:
            raise InvalidInput(f"unknown filters {sorted(unknown)}; allowed: session_id, agent_id, "
                               "created_after, created_before")
        return RecallRequest(query=query.strip(), limit=limit, kinds=check_kinds(kinds),
                             at=check_time(at, "at") if at is not None else None,
                             include_sensitive=bool(include_sensitive),
                             session_id=validate_optional_id(f.get("session_id"), "filters.session_id"),
                             agent_id=validate_optional_id(f.get("agent_id"), "filters.agent_id"),
                             created_after=check_time(f["created_after"], "filters.created_after")
                             if f.get("created_after") else None,
                             created_before=check_time(f["created_before"], "filters.created_before")
                             if f.get("created_before") else None,
                             recent=turns, for_prompt=for_prompt,
                             masked_lines=for_prompt and self.settings.secret_context)

    def build_context(self, query: str, *, user_id: str, budget_tokens: int = 800, limit: int = 20,
                      include_sensitive: bool = False, compress: bool | None = None,
                      recent: Sequence[str | Mapping[str, Any]] | None = None) -> str:
        """Memories for ``query`` rendered as a prompt block of at most ``budget_tokens`` tokens.

        ``recent``: the conversation's previous messages, as for :meth:`search`.

        The user's standing facts come first (their own share of the budget), then the
        ``limit`` best memories the query found, then lapsed ones under a past heading.
        ``compress`` (default: the
        ``context_compress`` setting) lets the LLM, if one is configured, fold memories
        that exceed the budget into fewer lines instead of dropping some.
        """
        if not isinstance(budget_tokens, int) or budget_tokens < 1:
            raise InvalidInput("budget_tokens must be a positive integer")
        limit = check_limit(limit)
        hits = self._search(query, user_id=user_id, limit=min(1000, limit * 2),
                            include_sensitive=include_sensitive, recent=recent, for_prompt=True)
        query_vec = self.embedder.embed_query(query)  # (cached: the search embedded it)
        block = assemble(self.store, self._scope(user_id), hits, query=query, limit=limit, at=self.clock.now(),
                         historical=False, include_sensitive=include_sensitive, weights=self.weights,
                         half_lives=self.settings.half_lives, query_vec=query_vec, model=self.embedder.model)
        if self.settings.group_context:
            with_group(block, self.store, self._scope(user_id), query, query_vec, at=self.clock.now(),
                       tz=ZoneInfo(self.settings.timezone), model=self.embedder.model)
        if self.keyring is not None:  # the profile and the group come from the store: opened like search's hits
            block.profile = [Hit(open_record(h.record, self.keyring), h.score, h.scores) for h in block.profile]
            block.group = [Hit(open_record(h.record, self.keyring), h.score, h.scores) for h in block.group]
        lang, tz, at = detect_language(query), ZoneInfo(self.settings.timezone), self.clock.now()
        if self.llm is not None and (self.settings.context_compress if compress is None else compress):
            return compress_context(block, llm=self.llm, budget_tokens=budget_tokens, count_tokens=count_tokens,
                                    lang=lang, tz=tz, at=at)
        return build_context_block(block, budget_tokens=budget_tokens, count_tokens=count_tokens, lang=lang, tz=tz,
                                   at=at)

    def get(self, memory_id: str, *, user_id: str) -> MemoryRecord | None:
        scope = self._scope(user_id)
        if not isinstance(memory_id, str) or not memory_id:
            raise InvalidInput("memory_id must be a non-empty string")
        rec = self.store.get(scope, memory_id)
        return open_record(rec, self.keyring) if rec is not None else None

    def get_all(self, *, user_id: str, kinds: Iterable[Kind | str] | None = None,
                status: Status | str | None = "active", limit: int | None = None, offset: int = 0,
                session_id: str | None = None, agent_id: str | None = None) -> list[MemoryRecord]:
        """Memories of a user, newest first (``status=None`` for every status)."""
        scope = self._scope(user_id)
        try:
            statuses = (Status(status),) if status else None
        except ValueError:
            raise InvalidInput(f"status must be one of {[s.value for s in Status]}") from None
        limit = check_limit(limit) if limit is not None else None
        offset = check_offset(offset)
        flt = RecordFilter(kinds=check_kinds(kinds), statuses=statuses, session_id=validate_optional_id(session_id, "session_id"),
                           agent_id=validate_optional_id(agent_id, "agent_id"))
        return [open_record(r, self.keyring) for r in self.store.list(scope, flt, limit, offset)]

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
        at = check_time(now, "now") if now is not None else self.clock.now()
        scopes = [self._scope(user_id)] if user_id else [Scope(self.scope_tenant, u) for u in self.users()]
        return run_gc(self.store, scopes, at, dry_run=dry_run)

    def export(self, *, user_id: str) -> Iterator[dict[str, Any]]:
        """Every memory of the user, all statuses, with its history (JSON-ready dicts)."""
        self._hits.flush()  # the recalls counted so far are part of the backup
        rows = export_user(self.store, self._scope(user_id))
        return (open_row(row, self.keyring) for row in rows)

    def import_(self, records: Iterable[dict[str, Any]]) -> int:
        """Load records produced by ``export`` (into this tenant); returns how many."""
        rows = (protect_row(r, self.keyring) if isinstance(r, dict) else r for r in records)
        return import_records(self.store, self.embedder, self.scope_tenant, rows, self.clock.now(),
                              context_mode=self.settings.episode_context)

    def stats(self) -> dict[str, Any]:
        users = self.users()
        pending = self.store.pending_jobs(tenant=self.scope_tenant)
        out: dict[str, Any] = {"pending_jobs": pending, "worker_errors": self._worker.errors, "users": len(users),
                               "failed_jobs": self.store.failed_jobs(self.scope_tenant)}
        if self.reranker is not None:
            out["reranker"] = {"name": self.reranker.name, **self.reranker.stats}
        return out

    # ---- lifecycle -----------------------------------------------------------------------------
    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        self._worker.stop()
        self._hits.close()
        if self.reranker is not None:
            self.reranker.close()
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


def _unsealed(metadata: Mapping[str, Any]) -> dict[str, Any]:
    """Metadata without the sealed values of a text that is being replaced."""
    return {k: v for k, v in metadata.items() if k != SEALED_KEY}
