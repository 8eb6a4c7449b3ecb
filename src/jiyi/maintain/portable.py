"""Export and import: portable JSONL-ready dicts per user, history included (backup, GDPR).

Vectors are not exported (they belong to one model); import re-embeds content.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from datetime import datetime
from typing import Any

from jiyi.clock import parse_iso
from jiyi.errors import InvalidInput
from jiyi.records import EventType, HistoryEvent, MemoryRecord, Scope
from jiyi.stores.protocol import ChangeSet, Store, Upsert
from jiyi.write.embed import CachedEmbedder
from jiyi.write.episodes import index_keywords, stored_vectors, turns_by_message
from jiyi.write.validate import validate_user_id

FORMAT = "jiyi.memory.v1"
BATCH = 256


def export_user(store: Store, scope: Scope) -> Iterator[dict[str, Any]]:
    for row in store.export_rows(scope):
        yield {"format": FORMAT, **row}


def import_records(store: Store, embedder: CachedEmbedder, tenant: str, rows: Iterable[dict[str, Any]],
                   now: datetime, *, context_mode: str = "joint") -> int:
    """Validate every row, then write them per user in batches; returns how many were written.

    Memories are embedded and indexed as the write path does it (a turn's ``context``
    vector from the imported turn before it, under ``context_mode``).
    """
    parsed = [_parse(row, tenant, i) for i, row in enumerate(rows)]
    by_scope: dict[Scope, list[tuple[MemoryRecord, list[HistoryEvent]]]] = {}
    for rec, hist in parsed:
        by_scope.setdefault(rec.scope, []).append((rec, hist))
    for scope, items in by_scope.items():
        turns = turns_by_message(r for r, _ in items)
        for start in range(0, len(items), BATCH):
            chunk = items[start : start + BATCH]
            vectors = stored_vectors([r for r, _ in chunk], turns, embedder, context_mode)
            changes = ChangeSet(scope)
            for (rec, hist), vecs in zip(chunk, vectors):
                rec = rec.replace(embedding_model=embedder.model)
                changes.upserts.append(Upsert(rec, vecs, index_keywords(rec)))
                changes.history.extend(hist or [HistoryEvent(EventType.ADD, rec.id, now, new=rec.content,
                                                             reason="import")])
            store.apply(changes)
    return len(parsed)


def _parse(row: Any, tenant: str, i: int) -> tuple[MemoryRecord, list[HistoryEvent]]:
    if not isinstance(row, dict):
        raise InvalidInput(f"import row {i} is not an object")
    data = {k: v for k, v in row.items() if k not in ("format", "history")}
    data["tenant"] = tenant
    for key in ("id", "user_id", "content", "kind", "created_at", "updated_at"):
        if not data.get(key):
            raise InvalidInput(f"import row {i} lacks {key!r}")
    validate_user_id(data["user_id"])
    try:
        rec = MemoryRecord.from_dict(data)
        hist = [HistoryEvent(EventType(h["event"]), h["memory_id"], parse_iso(h["at"]), h.get("old"), h.get("new"),
                             h.get("reason"), h.get("actor", "system")) for h in row.get("history") or []]
    except (KeyError, ValueError, TypeError) as exc:
        raise InvalidInput(f"import row {i} is malformed: {exc}") from None
    if any(h.memory_id != rec.id for h in hist):
        raise InvalidInput(f"import row {i} has history of another memory")
    return rec, hist
