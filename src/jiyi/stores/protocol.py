"""The Store role: everything jiyi keeps, scoped by (tenant, user_id) in every call.

Only modules under ``jiyi.stores`` know SQL. A store gets whole change sets from the
pipeline and applies each in one transaction (records, vectors, keyword index,
history, and the job that produced them), so a crash never leaves half a write.
"""

from __future__ import annotations

import builtins
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any, Protocol, overload, runtime_checkable

import numpy as np

from jiyi.errors import ScopeViolation, WriteConflict
from jiyi.records import HistoryEvent, Kind, MemoryRecord, Scope, Status

#: Vector channels. ``content`` embeds the memory itself; ``context`` embeds an
#: episode together with the turn before it (neighbour context for recall).
CHANNELS = ("content", "context")
#: Each recall adds this much strength to a memory, up to the cap (decay takes it back with disuse).
HIT_STRENGTH_STEP = 0.1
MAX_STRENGTH = 3.0
#: How much later than the version it expects an upsert is stamped, at least (stored times keep µs).
VERSION_STEP = timedelta(microseconds=1)


def hit_groups(ids: Sequence[str]) -> list[tuple[int, list[str]]]:
    """``record_hits``' ids as (times hit, ids hit that often): one UPDATE per group, not per hit."""
    groups: dict[int, list[str]] = {}
    for mid, n in Counter(ids).items():
        groups.setdefault(n, []).append(mid)
    return sorted(groups.items())


@dataclass(slots=True, frozen=True)
class RecordFilter:
    """What a listing or a search route may return. Backends compile it."""

    kinds: tuple[Kind, ...] | None = None
    statuses: tuple[Status, ...] | None = (Status.ACTIVE,)
    session_id: str | None = None
    agent_id: str | None = None
    include_sensitive: bool = True
    created_after: datetime | None = None
    created_before: datetime | None = None
    text: str | None = None  # substring match, for listings only


@dataclass(slots=True, frozen=True)
class SessionScores:
    """BM25 of the user's sessions, each session one document (the keywords of its memories).

    ``scores`` holds the best matching sessions (score > 0, at most the ``k`` asked for);
    ``sessions`` is how many sessions were searched, matching or not, and ``mean`` /
    ``variance`` the moments of all their scores (0 for those not matching), so that a
    caller can z-score the listed ones. A store that leaves the moments None lists
    every matching session, and the caller computes them.
    """

    scores: dict[str, float] = field(default_factory=dict)
    sessions: int = 0
    mean: float | None = None
    variance: float | None = None


@dataclass(slots=True, frozen=True)
class ScoreStats:
    """What a search knows about *every* score it computed, not only the ones it lists.

    ``count`` rows were scored (each row passing the filter, for a vector search; each
    matching row, for a keyword search), with this ``mean`` and population ``var``;
    ``floor`` is the score at rank ``deep`` of the request (the lowest, with fewer rows),
    what a longer list would have ended on. Fusion z-scores a route against them, so
    a short list scores its items exactly as the deep list would (docs/performance.md).
    """

    count: int
    mean: float
    var: float
    floor: float


class Pairs(Sequence[tuple[str, float]]):
    """``(id, score)`` pairs kept as an id list and a score array, best first.

    Reads as a sequence of tuples (equal to a list of the same pairs); the read path takes
    :attr:`ids` and :attr:`scores` as they are (fusion works on arrays), so the tuples are
    only built for whoever iterates. Neither may be modified.
    """

    __slots__ = ("ids", "scores")

    def __init__(self, ids: list[str], scores: np.ndarray) -> None:
        if len(ids) != len(scores):
            raise ValueError(f"{len(ids)} ids but {len(scores)} scores")
        self.ids, self.scores = ids, scores

    def __len__(self) -> int:
        return len(self.ids)

    @overload
    def __getitem__(self, i: int) -> tuple[str, float]: ...
    @overload
    def __getitem__(self, i: slice) -> Pairs: ...
    def __getitem__(self, i: int | slice) -> tuple[str, float] | Pairs:
        if isinstance(i, slice):
            return Pairs(self.ids[i], self.scores[i])
        return self.ids[i], float(self.scores[i])

    def __iter__(self) -> Iterator[tuple[str, float]]:
        return zip(self.ids, self.scores.tolist())

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Sequence) and list(self) == list(other)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"Pairs({list(self)!r})"


@dataclass(slots=True, frozen=True)
class Ranking:
    """A route's best ``(id, score)`` pairs, and the statistics of all its scores when the store has them.

    With ``stats`` None the list is the ``deep`` one the caller asked for as a fallback.
    """

    hits: Sequence[tuple[str, float]]
    stats: ScoreStats | None = None


@dataclass(slots=True, frozen=True)
class Upsert:
    """Write one record. ``vectors``/``keywords`` of None keep what is stored.

    ``expect``: the ``updated_at`` of the stored record this one was derived from. The
    store then writes nothing of the change set, and raises
    :class:`~jiyi.errors.WriteConflict`, unless the stored record still has it (no other
    writer changed it since it was read: a user's edit and the worker's merge into the
    same memory cannot overwrite each other). ``updated_at`` is the version: writers stamp
    it from their clock, and hit counts (``record_hits``) do not move it. With ``expect``,
    the record is stamped at least :data:`VERSION_STEP` after it: a frozen or coarse clock
    (or one behind another process's) would otherwise write the version it read, and a
    writer that read the record before this write could not be told from one that read it after.
    """

    record: MemoryRecord
    vectors: dict[str, np.ndarray] | None = None
    keywords: str | None = None
    expect: datetime | None = None

    def __post_init__(self) -> None:
        if self.expect is not None and self.record.updated_at < self.expect + VERSION_STEP:
            object.__setattr__(self, "record", self.record.replace(updated_at=self.expect + VERSION_STEP))


@dataclass(slots=True)
class ChangeSet:
    """Everything one pipeline step writes, applied atomically by ``Store.apply``.

    ``state`` holds key/value state (as ``state_set`` writes it) that must commit with
    the rest: the pipeline's progress (extraction window, summary counters) then
    never disagrees with the records it describes, and costs no commit of its own.
    """

    scope: Scope
    upserts: list[Upsert] = field(default_factory=list)
    history: list[HistoryEvent] = field(default_factory=list)
    purge_ids: list[str] = field(default_factory=list)
    """Memories to erase: their rows, vectors and keyword-index entries go, and the text of their
    earlier history events is cleared (the events stay)."""
    done_job_id: str | None = None
    state: dict[str, Any] = field(default_factory=dict)
    uncache: list[str] = field(default_factory=list)
    """Content hashes to drop from the embedding cache (every model): the texts of erased memories."""
    clear_history: list[str] = field(default_factory=list)
    """Memories whose history texts (old/new) are cleared, the events kept: values stored in clear
    before a key was set (``jiyi reencrypt``)."""

    def check_scope(self) -> None:
        """Raise ScopeViolation if a record belongs to another owner (every store calls this first)."""
        for up in self.upserts:
            if up.record.scope != self.scope:
                raise ScopeViolation(
                    f"record {up.record.id} belongs to {up.record.tenant}/{up.record.user_id}, "
                    f"not to the change set's {self.scope.tenant}/{self.scope.user_id}; nothing was written"
                )

    def expected(self) -> dict[str, datetime]:
        """``{id: updated_at}`` that the stored records must still have (:attr:`Upsert.expect`)."""
        return {up.record.id: up.expect for up in self.upserts if up.expect is not None}

    def __bool__(self) -> bool:
        return bool(self.upserts or self.history or self.purge_ids or self.done_job_id or self.state or self.uncache
                    or self.clear_history)


def conflict(scope: Scope, expected: dict[str, datetime], stored: dict[str, datetime]) -> WriteConflict | None:
    """The error for ``expected`` versions that ``stored`` (id → updated_at now) does not match, or None."""
    stale = sorted(mid for mid, at in expected.items() if stored.get(mid) != at)
    if not stale:
        return None
    return WriteConflict(
        f"memory {stale[0]} of {scope.tenant}/{scope.user_id} was changed (or removed) by another writer "
        f"after it was read{f' (and {len(stale) - 1} more)' if len(stale) > 1 else ''}; nothing was written: "
        "read it again and redo the change"
    )


@dataclass(slots=True, frozen=True)
class Job:
    """A durable unit of background work (an accepted ``add``)."""

    id: str
    scope: Scope
    kind: str
    payload: dict[str, Any]
    attempts: int
    created_at: datetime


@dataclass(slots=True, frozen=True)
class FailedJob:
    """A job that failed past its retry limit: kept until it is retried or dropped on purpose."""

    id: str
    scope: Scope
    kind: str
    attempts: int
    error: str | None
    failed_at: datetime
    created_at: datetime


@runtime_checkable
class Store(Protocol):
    """Storage contract; ``tests/stores/test_contract.py`` runs against every implementation."""

    name: str
    supports_ann: bool

    # embedding model bookkeeping
    def check_embedding(self, model: str, dim: int) -> None:
        """Record the model on first use; raise EmbeddingMismatch if another one is stored."""

    def embedding_info(self) -> tuple[str, int] | None: ...
    def reset_embedding(self, model: str, dim: int) -> None:
        """Forget all vectors and adopt a new model (used by reembed)."""

    # writes
    def apply(self, changes: ChangeSet) -> None: ...
    def record_hits(self, scope: Scope, ids: Sequence[str], at: datetime) -> None:
        """Count a recall of each id (one listed n times counts n times), in one transaction."""
    def delete_user(self, scope: Scope) -> int: ...

    # reads
    def get(self, scope: Scope, memory_id: str) -> MemoryRecord | None: ...
    def get_many(self, scope: Scope, ids: Sequence[str]) -> builtins.list[MemoryRecord]: ...
    def list(
        self, scope: Scope, flt: RecordFilter, limit: int | None = None, offset: int = 0
    ) -> builtins.list[MemoryRecord]: ...
    def count(self, scope: Scope, flt: RecordFilter) -> int: ...
    def find_by_slot(self, scope: Scope, slot: str) -> builtins.list[MemoryRecord]:
        """Active memories holding ``slot``."""
    def find_by_source(self, scope: Scope, source_id: str) -> builtins.list[MemoryRecord]: ...
    def find_by_sources(
        self, scope: Scope, source_ids: Sequence[str]
    ) -> dict[str, builtins.list[MemoryRecord]]:
        """``find_by_source`` of each id in one query (the write path checks a whole batch);
        ids with no memory are absent from the result."""
    def history(self, scope: Scope, memory_id: str) -> builtins.list[HistoryEvent]: ...
    def vectors(self, scope: Scope, ids: Sequence[str], channel: str = "content") -> dict[str, np.ndarray]: ...
    def users(self, tenant: str) -> builtins.list[str]: ...
    def tenants(self) -> builtins.list[str]: ...
    def session_members(self, scope: Scope, session_ids: Sequence[str]) -> dict[str, builtins.list[str]]:
        """The other users of ``scope.tenant`` with memories in each of ``session_ids`` (a group chat
        stored per sender), sorted; sessions no one else has memories in are absent."""

    # search routes: (id, score) best first
    def vector_search(
        self, scope: Scope, query: np.ndarray, k: int, flt: RecordFilter, channel: str = "content"
    ) -> builtins.list[tuple[str, float]]: ...
    def keyword_search(
        self, scope: Scope, tokens: Sequence[str], k: int, flt: RecordFilter
    ) -> builtins.list[tuple[str, float]]: ...
    def vector_ranking(
        self, scope: Scope, query: np.ndarray, k: int, flt: RecordFilter, channel: str = "content", *, deep: int
    ) -> Ranking:
        """The top ``k`` of ``vector_search`` with :class:`ScoreStats`; a store that cannot give
        them cheaply (an ANN index) returns the top ``deep`` and no statistics."""
    def keyword_ranking(
        self, scope: Scope, tokens: Sequence[str], k: int, flt: RecordFilter, *, deep: int
    ) -> Ranking:
        """``keyword_search`` as :meth:`vector_ranking` is ``vector_search``."""
    def session_keyword_search(self, scope: Scope, tokens: Sequence[str], flt: RecordFilter,
                               k: int = 200) -> SessionScores:
        """BM25 over sessions as documents: the memories passing ``flt`` grouped by session_id."""
    def recent(self, scope: Scope, k: int, flt: RecordFilter) -> builtins.list[tuple[str, float]]:
        """Most recently created (score = created_at as epoch seconds)."""
    def entity_search(
        self, scope: Scope, entities: Sequence[str], k: int, flt: RecordFilter
    ) -> builtins.list[tuple[str, float]]:
        """Memories sharing entities (score = number shared)."""

    # durable jobs
    def enqueue(self, scope: Scope, kind: str, payload: dict[str, Any], at: datetime) -> str: ...
    def claim_jobs(self, limit: int, worker: str, at: datetime, lease_seconds: float = 60.0,
                   scope: Scope | None = None, *, tenant: str | None = None) -> builtins.list[Job]:
        """Up to ``limit`` claimable jobs (``scope``'s only, or ``tenant``'s only, when given):
        tenants in turn, each one's oldest first."""
    def fail_job(self, job_id: str, error: str, at: datetime) -> None: ...
    def pending_jobs(self, scope: Scope | None = None, *, tenant: str | None = None) -> int:
        """Open (pending or claimed) jobs of ``scope``, else of ``tenant``, else of every tenant."""
    def failed_jobs(self, tenant: str | None = None) -> int: ...
    def list_failed_jobs(self, tenant: str | None = None, limit: int = 100) -> builtins.list[FailedJob]: ...
    def retry_failed_jobs(self, tenant: str | None, ids: Sequence[str] | None, at: datetime) -> int:
        """Failed jobs (all of ``tenant``'s, or those of ``ids``) claimable again; how many."""
    def drop_failed_jobs(self, tenant: str | None, ids: Sequence[str] | None) -> int:
        """Failed jobs deleted on purpose; how many."""

    # embedding cache (content hash → vector)
    def cache_get(self, model: str, hashes: Sequence[str]) -> dict[str, np.ndarray]: ...
    def cache_put(self, model: str, items: dict[str, np.ndarray]) -> None: ...

    # key/value state (buffers, counters)
    def state_get(self, scope: Scope, key: str) -> Any: ...
    def state_set(self, scope: Scope, key: str, value: Any) -> None: ...

    def export_rows(self, scope: Scope) -> Iterator[dict[str, Any]]:
        """Every record of the user (all statuses) with its history, as dicts."""
    def close(self) -> None: ...
