"""Read queries of the SQLite store. Every one starts from ``tenant = ? AND user_id = ?``.

These are plain functions over a connection so that :mod:`jiyi.stores.sqlite.store`
stays a thin class that picks a connection and a transaction. The scope is always
the first condition of the WHERE clause, written here and nowhere else
(:func:`scoped_where`), so no query can forget it.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator, Sequence
from datetime import datetime
from typing import Any, cast

import numpy as np

from jiyi.clock import parse_iso
from jiyi.records import HistoryEvent, Kind, MemoryRecord, Scope, Status, Visibility
from jiyi.stores.filters import Condition, filter_conditions
from jiyi.stores.protocol import RecordFilter
from jiyi.stores.sqlite.codec import (
    SELECT_MEMORY,
    decode_vector,
    row_history,
    row_record,
    sql_value,
)
from jiyi.stores.sqlite.textindex import TextColumns
from jiyi.stores.sqlite.vectors import KIND_CODE, STATUS_CODE, MatrixColumns

CHUNK = 500  # ids per IN (...) list, well under SQLite's variable limit
# "CROSS JOIN" below is SQLite's way to pin the join order: start from the small
# index table (one entity, one source), not from every memory of the user.
# Newest first; among equal times (every turn of a session shares its date) the one
# stored last comes first, so results never depend on random ids.
_ORDER_NEWEST = "ORDER BY m.created_at DESC, m.rid DESC"


def scoped_where(
    scope: Scope, flt: RecordFilter | None = None, *, with_text: bool = True
) -> tuple[str, list[Any]]:
    """``m.tenant = ? AND m.user_id = ? AND <filter>`` with its parameters."""
    parts = ["m.tenant = ?", "m.user_id = ?"]
    params: list[Any] = [scope.tenant, scope.user_id]
    for cond in filter_conditions(flt, with_text=with_text) if flt is not None else []:
        sql, values = _render(cond)
        parts.append(sql)
        params.extend(values)
    return " AND ".join(parts), params


def _render(cond: Condition) -> tuple[str, list[Any]]:
    column = f"m.{cond.column}"
    if cond.op == "in":
        values = list(cast("tuple[object, ...]", sql_value(cond.value)))
        if not values:
            return "0", []
        return f"{column} IN ({', '.join('?' * len(values))})", values
    if cond.op == "contains":
        escaped = str(cond.value).replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
        return f"{column} LIKE ? ESCAPE '\\'", [f"%{escaped}%"]
    return f"{column} {cond.op} ?", [sql_value(cond.value)]


def chunked(items: Sequence[str]) -> Iterator[list[str]]:
    """Distinct ``items`` in order, in lists short enough for one ``IN (...)``."""
    unique = list(dict.fromkeys(items))
    for i in range(0, len(unique), CHUNK):
        yield unique[i : i + CHUNK]


def marks(items: Sequence[object]) -> str:
    """``?, ?, ?`` for one placeholder per item."""
    return ", ".join("?" * len(items))


def updated_at(conn: sqlite3.Connection, scope: Scope, ids: Sequence[str]) -> dict[str, datetime]:
    """``{id: updated_at}`` of the user's stored records among ``ids`` (checking ``Upsert.expect``)."""
    out: dict[str, datetime] = {}
    for chunk in chunked(ids):
        out.update((mid, parse_iso(at)) for mid, at in conn.execute(
            f"SELECT id, updated_at FROM memories WHERE tenant = ? AND user_id = ? AND id IN ({marks(chunk)})",
            [scope.tenant, scope.user_id, *chunk]))
    return out


def get_many(conn: sqlite3.Connection, scope: Scope, ids: Sequence[str]) -> list[MemoryRecord]:
    """Records with these ids, in the order asked (unknown or foreign ids are skipped)."""
    found: dict[str, MemoryRecord] = {}
    for chunk in chunked(ids):
        where, params = scoped_where(scope)
        rows = conn.execute(
            f"SELECT {SELECT_MEMORY} FROM memories m WHERE {where} AND m.id IN ({marks(chunk)})",
            [*params, *chunk],
        )
        found.update((rec.id, rec) for rec in map(row_record, rows))
    return [found[i] for i in dict.fromkeys(ids) if i in found]


def all_records(conn: sqlite3.Connection, scope: Scope) -> list[MemoryRecord]:
    """Every record of the user, any status, in no particular order (the record cache's warm)."""
    where, params = scoped_where(scope)
    return [row_record(r) for r in conn.execute(f"SELECT {SELECT_MEMORY} FROM memories m WHERE {where}", params)]


def count_all(conn: sqlite3.Connection, scope: Scope) -> int:
    where, params = scoped_where(scope)
    return int(conn.execute(f"SELECT count(*) FROM memories m WHERE {where}", params).fetchone()[0])


def list_records(
    conn: sqlite3.Connection, scope: Scope, flt: RecordFilter, limit: int | None, offset: int
) -> list[MemoryRecord]:
    """Newest first (ties by id), so pages are stable."""
    where, params = scoped_where(scope, flt)
    rows = conn.execute(
        f"SELECT {SELECT_MEMORY} FROM memories m WHERE {where} {_ORDER_NEWEST} LIMIT ? OFFSET ?",
        [*params, -1 if limit is None else max(0, limit), max(0, offset)],
    )
    return [row_record(r) for r in rows]


def count(conn: sqlite3.Connection, scope: Scope, flt: RecordFilter) -> int:
    where, params = scoped_where(scope, flt)
    return int(conn.execute(f"SELECT count(*) FROM memories m WHERE {where}", params).fetchone()[0])


def find_by_slot(conn: sqlite3.Connection, scope: Scope, slot: str) -> list[MemoryRecord]:
    where, params = scoped_where(scope)
    rows = conn.execute(
        f"SELECT {SELECT_MEMORY} FROM memories m "
        f"WHERE {where} AND m.slot = ? AND m.status = 'active' {_ORDER_NEWEST}",
        [*params, slot],
    )
    return [row_record(r) for r in rows]


def find_by_sources(conn: sqlite3.Connection, scope: Scope,
                    source_ids: Sequence[str]) -> dict[str, list[MemoryRecord]]:
    """Memories (any status) made from each message in ``source_ids``, newest first."""
    where, params = scoped_where(scope)
    out: dict[str, list[MemoryRecord]] = {}
    for chunk in chunked(source_ids):
        rows = conn.execute(
            f"SELECT {SELECT_MEMORY}, s.source_id FROM memory_sources s CROSS JOIN memories m "
            "ON m.tenant = s.tenant AND m.user_id = s.user_id AND m.id = s.memory_id "
            f"WHERE s.tenant = ? AND s.user_id = ? AND s.source_id IN ({marks(chunk)}) AND {where} "
            f"{_ORDER_NEWEST}",
            [scope.tenant, scope.user_id, *chunk, *params],
        )
        for r in rows:  # row_record reads the memory columns and ignores the trailing source id
            out.setdefault(r[-1], []).append(row_record(r))
    return out


def history(
    conn: sqlite3.Connection, scope: Scope, memory_ids: Sequence[str]
) -> dict[str, list[HistoryEvent]]:
    """Each memory's events in time order (insertion order breaks ties)."""
    out: dict[str, list[HistoryEvent]] = {}
    for chunk in chunked(memory_ids):
        rows = conn.execute(
            "SELECT memory_id, event, at, old, new, reason, actor FROM history "
            f"WHERE tenant = ? AND user_id = ? AND memory_id IN ({marks(chunk)}) ORDER BY at, seq",
            [scope.tenant, scope.user_id, *chunk],
        )
        for row in rows:
            out.setdefault(row[0], []).append(row_history(row))
    return out


def vectors(
    conn: sqlite3.Connection, scope: Scope, ids: Sequence[str], channel: str
) -> dict[str, np.ndarray]:
    out: dict[str, np.ndarray] = {}
    for chunk in chunked(ids):
        rows = conn.execute(
            "SELECT memory_id, dtype, blob FROM vectors "
            "WHERE tenant = ? AND user_id = ? AND channel = ? "
            f"AND memory_id IN ({marks(chunk)})",
            [scope.tenant, scope.user_id, channel, *chunk],
        )
        out.update((mid, decode_vector(blob, dtype)) for mid, dtype, blob in rows)
    return out


def recent(
    conn: sqlite3.Connection, scope: Scope, k: int, flt: RecordFilter
) -> list[tuple[str, float]]:
    where, params = scoped_where(scope, flt, with_text=False)
    rows = conn.execute(
        f"SELECT m.id, m.created_at FROM memories m WHERE {where} {_ORDER_NEWEST} LIMIT ?",
        [*params, max(0, k)],
    )
    return [(mid, parse_iso(created).timestamp()) for mid, created in rows]


def export_page(
    conn: sqlite3.Connection, scope: Scope, after_rid: int, size: int
) -> list[tuple[int, MemoryRecord]]:
    """One page of every record of the user (all statuses) in storage order, after ``after_rid``."""
    where, params = scoped_where(scope)
    rows = conn.execute(
        f"SELECT m.rid, {SELECT_MEMORY} FROM memories m WHERE {where} AND m.rid > ? "
        "ORDER BY m.rid LIMIT ?",
        [*params, after_rid, size],
    )
    return [(r[0], row_record(r[1:])) for r in rows]


def owners(conn: sqlite3.Connection, tenant: str | None) -> list[str]:
    """Users of ``tenant`` (or, with None, all tenants) that hold memories or state."""
    if tenant is None:
        sql = "SELECT tenant FROM memories UNION SELECT tenant FROM state ORDER BY 1"
        return [r[0] for r in conn.execute(sql)]
    sql = (
        "SELECT user_id FROM memories WHERE tenant = ? "
        "UNION SELECT user_id FROM state WHERE tenant = ? ORDER BY 1"
    )
    return [r[0] for r in conn.execute(sql, (tenant, tenant))]


def session_members(conn: sqlite3.Connection, scope: Scope, session_ids: Sequence[str]) -> dict[str, list[str]]:
    """Other users of ``scope.tenant`` with memories in each of ``session_ids``."""
    if not session_ids:
        return {}
    marks = ", ".join("?" * len(session_ids))
    sql = (f"SELECT DISTINCT session_id, user_id FROM memories WHERE tenant = ? AND session_id IN ({marks}) "
           "AND user_id <> ? ORDER BY 1, 2")
    out: dict[str, list[str]] = {}
    for session, user in conn.execute(sql, (scope.tenant, *session_ids, scope.user_id)):
        out.setdefault(session, []).append(user)
    return out


def generation(conn: sqlite3.Connection, scope: Scope) -> int:
    """The user's write generation (0 before the first write); see ``writes.bump_generation``."""
    row = conn.execute(
        "SELECT gen FROM user_generations WHERE tenant = ? AND user_id = ?",
        (scope.tenant, scope.user_id),
    ).fetchone()
    return 0 if row is None else int(row[0])


def matrix_columns(conn: sqlite3.Connection, scope: Scope, channel: str) -> tuple[MatrixColumns, set[int]]:
    """The user's vectors of ``channel`` with the filter fields of their records, column-wise.

    Decoding is vectorised (one ``frombuffer`` over all BLOBs of a dtype, one
    datetime64 parse of the fixed-width ISO times), so loading 100k rows costs
    about what SQLite takes to read them. Also returns the set of dimensions seen.
    """
    rows = conn.execute(
        "SELECT m.id, m.rid, m.kind, m.status, m.visibility, m.session_id, m.agent_id, m.created_at, "
        "v.dim, v.dtype, v.blob FROM vectors v JOIN memories m "
        "ON m.tenant = v.tenant AND m.user_id = v.user_id AND m.id = v.memory_id "
        "WHERE v.tenant = ? AND v.user_id = ? AND v.channel = ? ORDER BY m.rid",
        (scope.tenant, scope.user_id, channel),
    ).fetchall()
    dims = {int(r[8]) for r in rows}
    n = len(rows)
    dim = next(iter(dims)) if len(dims) == 1 else 0
    vectors = np.zeros((n, dim), dtype=np.float32)
    if n and dim:
        for dtype in {r[9] for r in rows}:
            picked = [i for i, r in enumerate(rows) if r[9] == dtype]
            blob = b"".join(rows[i][10] for i in picked)
            vectors[picked] = decode_vector(blob, dtype).reshape(len(picked), dim)
    kinds = {k.value: KIND_CODE[k] for k in Kind}
    statuses = {s.value: STATUS_CODE[s] for s in Status}
    normal = Visibility.NORMAL.value  # "sensitive" in the search columns: sensitive or secret
    cols = MatrixColumns(
        ids=[r[0] for r in rows],
        rids=np.array([r[1] for r in rows], dtype=np.int64),
        kinds=np.array([kinds[r[2]] for r in rows], dtype=np.int8),
        statuses=np.array([statuses[r[3]] for r in rows], dtype=np.int8),
        sensitive=np.array([r[4] != normal for r in rows], dtype=bool),
        sessions=[r[5] for r in rows],
        agents=[r[6] for r in rows],
        created=epoch_seconds([r[7] for r in rows]),
        vectors=vectors,
    )
    return cols, dims


def text_columns(conn: sqlite3.Connection, scope: Scope) -> TextColumns:
    """Every row of the user with its filter fields, FTS keywords and entities (for the text index)."""
    rows = conn.execute(
        "SELECT m.id, m.rid, m.kind, m.status, m.visibility, m.session_id, m.agent_id, m.created_at, f.keywords "
        "FROM memories m LEFT JOIN memories_fts f ON f.rowid = m.rid "
        "WHERE m.tenant = ? AND m.user_id = ? ORDER BY m.rid",
        (scope.tenant, scope.user_id),
    ).fetchall()
    held: dict[str, list[str]] = {}
    for mid, entity in conn.execute(
        "SELECT memory_id, entity FROM memory_entities WHERE tenant = ? AND user_id = ?",
        (scope.tenant, scope.user_id),
    ):
        held.setdefault(mid, []).append(entity)
    kinds = {k.value: KIND_CODE[k] for k in Kind}
    statuses = {s.value: STATUS_CODE[s] for s in Status}
    normal = Visibility.NORMAL.value  # "sensitive" in the search columns: sensitive or secret
    return TextColumns(
        ids=[r[0] for r in rows],
        rids=[r[1] for r in rows],
        kinds=[kinds[r[2]] for r in rows],
        statuses=[statuses[r[3]] for r in rows],
        sensitive=[r[4] != normal for r in rows],
        sessions=[r[5] for r in rows],
        agents=[r[6] for r in rows],
        created=epoch_seconds([r[7] for r in rows]).tolist(),
        keywords=[r[8] for r in rows],
        entities=[tuple(held.get(r[0], ())) for r in rows],
    )


def epoch_seconds(stamps: Sequence[str]) -> np.ndarray:
    """Epoch seconds of stored ISO times (fixed-width UTC, see codec.iso), parsed all at once."""
    if not stamps:
        return np.zeros(0, dtype=np.float64)
    try:
        if all(len(s) == 32 and s.endswith("+00:00") for s in stamps):
            parsed = np.array([s[:26] for s in stamps], dtype="datetime64[us]")
            return parsed.astype(np.int64) / 1e6
    except ValueError:
        pass
    return np.array([parse_iso(s).timestamp() for s in stamps], dtype=np.float64)


def cache_get(conn: sqlite3.Connection, model: str, hashes: Sequence[str]) -> dict[str, np.ndarray]:
    out: dict[str, np.ndarray] = {}
    for chunk in chunked(hashes):
        rows = conn.execute(
            "SELECT hash, dtype, blob FROM embedding_cache "
            f"WHERE model = ? AND hash IN ({marks(chunk)})",
            [model, *chunk],
        )
        out.update((h, decode_vector(blob, dtype)) for h, dtype, blob in rows)
    return out


def state_get(conn: sqlite3.Connection, scope: Scope, key: str) -> str | None:
    row = conn.execute(
        "SELECT value FROM state WHERE tenant = ? AND user_id = ? AND key = ?",
        (scope.tenant, scope.user_id, key),
    ).fetchone()
    return None if row is None else str(row[0])
