"""Re-embed every memory of a store with another embedding model (``jiyi reembed``).

Vectors of two models never mix in one store (``Store.check_embedding``), so switching
models means: forget every vector, adopt the new model, embed every memory again, the
way the write path embeds it (a turn as "Name: text", with its ``context`` vector made
from the turn stored before it; other memories from their content). Text, history and
keywords are not touched.

Resumable: run again after an interruption and only the memories still without a
vector are embedded (the store already holds the new model). Records are re-read
just before each batch is written, so a memory changed meanwhile keeps its change;
still, stop the workers first on a busy store.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import partial

from jiyi.records import MemoryRecord, Scope
from jiyi.stores.conflicts import redo_on_conflict
from jiyi.stores.protocol import ChangeSet, RecordFilter, Store, Upsert
from jiyi.write.embed import CachedEmbedder
from jiyi.write.episodes import CONTEXT_MODES, stored_vectors, turns_by_message

BATCH = 256
EVERYTHING = RecordFilter(statuses=None)  # deleted and superseded memories too: restore needs their vectors


@dataclass(slots=True)
class ReembedReport:
    model: str
    dim: int
    previous: tuple[str, int] | None  # the model the store held (None: it had none yet)
    users: int = 0
    embedded: int = 0  # memories given vectors of ``model``
    kept: int = 0  # memories that already had them (an interrupted run resumed)

    def to_dict(self) -> dict[str, object]:
        return {"model": self.model, "dim": self.dim,
                "previous": list(self.previous) if self.previous else None,
                "users": self.users, "embedded": self.embedded, "kept": self.kept}


def reembed(store: Store, embedder: CachedEmbedder, *, context_mode: str = "joint", batch: int = BATCH,
            progress: Callable[[Scope, int, int], None] | None = None) -> ReembedReport:
    """Give every memory of every tenant vectors of ``embedder``'s model; see the module docstring.

    ``progress(scope, done, total)`` is called after each batch written.
    """
    if context_mode not in CONTEXT_MODES:
        raise ValueError(f"context_mode must be one of {CONTEXT_MODES}, not {context_mode!r}")
    target = (embedder.model, embedder.dim)
    previous = store.embedding_info()
    if previous is not None and previous != target:
        store.reset_embedding(*target)
    else:
        store.check_embedding(*target)
    report = ReembedReport(embedder.model, embedder.dim, previous)
    for tenant in store.tenants():
        for user in store.users(tenant):
            scope = Scope(tenant, user)
            records = store.list(scope, EVERYTHING)
            if not records:
                continue
            report.users += 1
            have = store.vectors(scope, [r.id for r in records], "content")
            todo = [r.id for r in records if r.id not in have]
            report.kept += len(records) - len(todo)
            turns = turns_by_message(records)
            for start in range(0, len(todo), max(1, batch)):
                ids = todo[start : start + batch]
                fresh = redo_on_conflict(  # a batch that changed meanwhile is read and embedded again
                    partial(_embed_batch, store, scope, ids, turns, embedder, context_mode),
                    f"reembed of {scope.tenant}/{scope.user_id}")
                report.embedded += len(fresh)
                if progress is not None:
                    progress(scope, min(start + batch, len(todo)), len(todo))
    return report


def _embed_batch(store: Store, scope: Scope, ids: list[str], turns: dict[str, MemoryRecord], embedder: CachedEmbedder,
                 context_mode: str) -> list[MemoryRecord]:
    """Embed these records as stored now and write the vectors, expecting the records unchanged."""
    fresh = store.get_many(scope, ids)
    vectors = stored_vectors(fresh, turns, embedder, context_mode)
    store.apply(ChangeSet(scope, [Upsert(rec.replace(embedding_model=embedder.model), vecs, expect=rec.updated_at)
                                  for rec, vecs in zip(fresh, vectors)]))
    return fresh
