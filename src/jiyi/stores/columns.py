"""The memory table's columns, shared by every SQL backend (one list, no per-backend copies).

The order is the SELECT order both backends decode rows in; ``tests/stores`` checks it
names every field of :class:`~jiyi.records.MemoryRecord`.
"""

from __future__ import annotations

MEMORY_COLUMNS: tuple[str, ...] = (
    "tenant", "user_id", "id", "content", "kind", "created_at", "updated_at", "slot", "entities",
    "importance", "confidence", "valid_from", "valid_until", "expires_at", "status", "visibility",
    "hit_count", "last_hit_at", "strength", "source_ids", "session_id", "agent_id", "speaker", "links",
    "superseded_by", "embedding_model", "metadata",
)
#: Columns holding datetimes (ISO strings in SQLite, timestamptz in PostgreSQL).
TIME_COLUMNS = frozenset({"created_at", "updated_at", "valid_from", "valid_until", "expires_at", "last_hit_at"})
#: Columns holding tuples of strings (JSON in SQLite, text[] in PostgreSQL).
TUPLE_COLUMNS = frozenset({"entities", "source_ids", "links"})
#: Columns only ``record_hits`` moves, and only upwards (counts, the last hit, strength up to
#: its cap): an upsert of an existing row keeps the larger of the stored and the written
#: value, so a writer that read a record before a search hit it does not write the hit away.
HIT_COLUMNS = ("hit_count", "last_hit_at", "strength")
