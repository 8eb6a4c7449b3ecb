"""Erasure that erases: the change set that removes memories for good.

A purged memory loses its row (text, metadata), its vectors, its keyword-index entries, the
embedding-cache rows of every text it was embedded as, and the text of its history events; the
events themselves stay (the audit trail says that something was added, changed and purged,
not what). The stores then compact: SQLite merges the keyword index, zeroes freed space
(``secure_delete``) and truncates the WAL; PostgreSQL deletes the rows (``VACUUM`` reclaims them,
see docs/erasure.md).

Soft-deleted memories stay restorable for :data:`RESTORE_WINDOW`; after that the next delete of
the same user, ``gc`` or :meth:`~jiyi.memory.Memory.purge` erases them.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime, timedelta
from typing import Any

from jiyi.records import EventType, HistoryEvent, Kind, MemoryRecord, Scope
from jiyi.stores.protocol import ChangeSet
from jiyi.write.buffer import BUFFER_KEY
from jiyi.write.embed import content_hash
from jiyi.write.episodes import index_text

#: How long a deleted memory can still be restored before it is purged.
RESTORE_WINDOW = timedelta(days=7)


def embedded_texts(rec: MemoryRecord, neighbours: Iterable[MemoryRecord] = ()) -> set[str]:
    """Every text ``rec`` may have been embedded as: its content, its index text and, for a turn,
    the context texts it shares with the turn before and the turn after it."""
    own = index_text(rec)
    texts = {rec.content, own}
    if rec.kind is Kind.EPISODE:
        by_id = {n.id: n for n in neighbours}
        prev_id = rec.metadata.get("prev_id")
        prev = by_id.get(prev_id) if isinstance(prev_id, str) else None
        if prev is not None:
            texts.add(f"{index_text(prev)}\n{own}")
        for n in by_id.values():
            if n.kind is Kind.EPISODE and n.metadata.get("prev_id") == rec.id:
                texts.add(f"{own}\n{index_text(n)}")
    return texts


def cache_hashes(records: Sequence[MemoryRecord], neighbours: Iterable[MemoryRecord] = ()) -> list[str]:
    """The embedding-cache keys of ``records``' texts."""
    pool = list(neighbours)
    return sorted({content_hash(t) for rec in records for t in embedded_texts(rec, pool)})


def buffer_without(items: Sequence[Mapping[str, Any]], records: Sequence[MemoryRecord]) -> list[dict[str, Any]]:
    """The short-term buffer without the messages ``records`` came from or repeat verbatim."""
    sources = {sid for rec in records for sid in rec.source_ids}
    texts = {rec.content for rec in records}
    return [dict(i) for i in items if i.get("id") not in sources and i.get("content") not in texts]


def window_keys(records: Sequence[MemoryRecord]) -> list[str]:
    """The state keys of the extraction windows (per session) ``records``' messages may wait in."""
    return sorted({f"extract:{rec.session_id or '-'}" for rec in records})


def window_without(window: Mapping[str, Any], records: Sequence[MemoryRecord]) -> dict[str, Any]:
    """An extraction window (``{"pending": [...], "last": message}``) without ``records``' messages."""
    pending = buffer_without(list(window.get("pending") or []), records)
    last = window.get("last")
    if isinstance(last, Mapping) and buffer_without([last], records) == []:
        last = None
    return {**window, "pending": pending, "last": last}


def erase_changes(scope: Scope, records: Sequence[MemoryRecord], now: datetime, *, reason: str,
                  neighbours: Iterable[MemoryRecord] = (),
                  buffer: Sequence[Mapping[str, Any]] | None = None,
                  windows: Mapping[str, Any] | None = None) -> ChangeSet:
    """The change set that erases ``records`` (one PURGE event each, without any text); with the
    user's ``buffer`` and extraction ``windows`` (state key → value), the messages they came
    from leave those too."""
    changes = ChangeSet(scope)
    if buffer:
        kept = buffer_without(buffer, records)
        if len(kept) != len(buffer):
            changes.state[BUFFER_KEY] = kept
    for key, window in (windows or {}).items():
        if isinstance(window, Mapping):
            scrubbed = window_without(window, records)
            if scrubbed != dict(window):
                changes.state[key] = scrubbed
    for rec in records:
        changes.purge_ids.append(rec.id)
        changes.history.append(HistoryEvent(EventType.PURGE, rec.id, now, reason=reason, actor="user"))
    changes.uncache = cache_hashes(records, neighbours)
    return changes
