"""Export and import: portable JSONL-ready dicts per user, history included (backup, GDPR).

Vectors are not exported (they belong to one model); import re-embeds content.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator
from datetime import datetime
from typing import Any

from jiyi.clock import parse_iso
from jiyi.errors import InvalidInput
from jiyi.records import EventType, HistoryEvent, Kind, MemoryRecord, Scope, Status, Visibility
from jiyi.stores.protocol import HIT_STRENGTH_STEP, MAX_STRENGTH, ChangeSet, Store, Upsert
from jiyi.write.embed import CachedEmbedder
from jiyi.write.episodes import index_keywords, stored_vectors, turns_by_message
from jiyi.write.validate import (
    MAX_MESSAGE_CHARS,
    check_choice,
    check_content,
    check_metadata,
    check_record_id,
    check_text,
    check_time,
    check_unit,
    validate_optional_id,
    validate_user_id,
)

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
    by_scope: dict[Scope, list[tuple[MemoryRecord, list[HistoryEvent] | None]]] = {}
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
                # a row exported with its history (even none: a turn has none) keeps it as it was
                changes.history.extend(hist if hist is not None else [
                    HistoryEvent(EventType.ADD, rec.id, now, new=rec.content, reason="import")])
            store.apply(changes)
    return len(parsed)


def _parse(row: Any, tenant: str, i: int) -> tuple[MemoryRecord, list[HistoryEvent] | None]:
    if not isinstance(row, dict):
        raise InvalidInput(f"import row {i} is not an object")
    data = {k: v for k, v in row.items() if k not in ("format", "history")}
    data["tenant"] = tenant
    for key in ("id", "user_id", "content", "kind", "created_at", "updated_at"):
        if not data.get(key):
            raise InvalidInput(f"import row {i} lacks {key!r}")
    _check_row(data, f"import row {i}")
    try:
        rec = MemoryRecord.from_dict(data)
        events = row.get("history")
        if events is not None and not isinstance(events, list):
            raise TypeError("history must be a list")
        hist = None if events is None else [_history(h) for h in events]
    except (KeyError, ValueError, TypeError, OverflowError) as exc:
        raise InvalidInput(f"import row {i} is malformed: {exc}") from None
    if hist is not None and any(h.memory_id != rec.id for h in hist):
        raise InvalidInput(f"import row {i} has history of another memory")
    return rec, hist


def _check_strength(value: object, what: str) -> float:
    if (not isinstance(value, (int, float)) or isinstance(value, bool) or math.isnan(value)
            or not 0.0 <= float(value) <= MAX_STRENGTH):
        raise InvalidInput(f"{what} must be a number between 0 and {MAX_STRENGTH:g} "
                           f"(1 when new, +{HIT_STRENGTH_STEP:g} a recall), got {value!r:.40}")
    return float(value)


def _history(h: Any) -> HistoryEvent:
    for key in ("old", "new", "reason", "actor"):
        if h.get(key) is not None and not isinstance(h[key], str):
            raise TypeError(f"history {key} must be a string or null")
    return HistoryEvent(EventType(h["event"]), h["memory_id"], parse_iso(h["at"]), h.get("old"), h.get("new"),
                        h.get("reason"), h.get("actor", "system"))


_TIMES = ("created_at", "updated_at", "valid_from", "valid_until", "expires_at", "last_hit_at")


def _check_row(data: dict[str, Any], where: str) -> None:
    """The rules every other door applies: the content limit, ids, ranges, times, metadata."""
    validate_user_id(data["user_id"], f"{where}.user_id")
    check_record_id(data["id"], f"{where}.id")
    kind = check_choice(Kind, data["kind"], f"{where}.kind")
    # a turn is kept as it was said (up to the message limit), any other memory is one statement
    data["content"] = (check_text(data["content"], f"{where}.content", MAX_MESSAGE_CHARS) if kind is Kind.EPISODE
                       else check_content(data["content"], f"{where}.content"))
    if data.get("status") is not None:
        check_choice(Status, data["status"], f"{where}.status")
    if data.get("visibility") is not None:
        check_choice(Visibility, data["visibility"], f"{where}.visibility")
    for key in ("importance", "confidence"):
        if data.get(key) is not None:
            check_unit(data[key], f"{where}.{key}")
    if data.get("strength") is not None:  # recalls raise it past 1, up to the stores' cap
        data["strength"] = _check_strength(data["strength"], f"{where}.strength")
    for key in _TIMES:
        if data.get(key) is not None:
            data[key] = check_time(data[key], f"{where}.{key}")
    for key in ("session_id", "agent_id"):
        validate_optional_id(data.get(key), f"{where}.{key}")
    for key in ("slot", "speaker"):
        if data.get(key) is not None:
            check_text(data[key], f"{where}.{key}", 200)
    for key in ("source_ids", "links", "entities"):
        items = data.get(key)
        if items is None:
            continue
        if not isinstance(items, list) or len(items) > 1000:
            raise InvalidInput(f"{where}.{key} must be a list of at most 1,000 strings")
        for item in items:
            if key == "entities":
                check_text(item, f"{where}.{key}[]", 200)
            else:
                check_record_id(item, f"{where}.{key}[]")
    data["metadata"] = check_metadata(data.get("metadata"), f"{where}.metadata")
    hits = data.get("hit_count")
    if hits is not None and (not isinstance(hits, int) or isinstance(hits, bool) or hits < 0):
        raise InvalidInput(f"{where}.hit_count must be a non-negative integer")
