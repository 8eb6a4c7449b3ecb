"""The write side of the PostgreSQL store: one change set, applied inside the caller's transaction.

Records are upserted in one batch (``executemany`` runs in pipeline mode), then their
entity and source rows are rewritten, then the vectors of upserts that carry some.
``user_stats.memories`` follows every insert and purge, so reads never count a user's
rows (BM25 needs N, the vector route needs the user's size).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import numpy as np
import psycopg
from psycopg import sql

from jiyi.records import HistoryEvent, Scope
from jiyi.stores.columns import HIT_COLUMNS, MEMORY_COLUMNS
from jiyi.stores.postgres import queries, queue, vectors
from jiyi.stores.protocol import ChangeSet, Upsert, conflict

_UPSERT_SQL = sql.SQL(
    "INSERT INTO memories ({cols}, keywords) VALUES ({marks}, %s) "
    "ON CONFLICT (tenant, user_id, id) DO UPDATE SET {sets}, "
    "keywords = coalesce(EXCLUDED.keywords, memories.keywords)"
).format(
    cols=sql.SQL(", ").join(map(sql.Identifier, MEMORY_COLUMNS)),
    marks=sql.SQL(", ").join(sql.Placeholder() * len(MEMORY_COLUMNS)),
    sets=sql.SQL(", ").join(
        [sql.SQL("{0} = EXCLUDED.{0}").format(sql.Identifier(c)) for c in MEMORY_COLUMNS[3:] if c not in HIT_COLUMNS]
        + [sql.SQL("{0} = GREATEST(memories.{0}, EXCLUDED.{0})").format(sql.Identifier(c)) for c in HIT_COLUMNS]
    ),
)


def apply_changes(conn: psycopg.Connection[Any], changes: ChangeSet, vector_type: str) -> None:
    """Upserts, purges, history and the job's completion; the caller holds the transaction."""
    scope = changes.scope
    if expected := changes.expected():  # FOR UPDATE: a concurrent writer of these rows waits for us
        rows = conn.execute(
            "SELECT id, updated_at FROM memories WHERE tenant = %s AND user_id = %s AND id = ANY(%s) FOR UPDATE",
            (scope.tenant, scope.user_id, list(expected)),
        ).fetchall()
        if (err := conflict(scope, expected, {mid: at for mid, at in rows})) is not None:
            raise err
    added = write_upserts(conn, changes.upserts, vector_type)
    if changes.purge_ids:
        purged = list(dict.fromkeys(changes.purge_ids))
        added -= conn.execute(
            "DELETE FROM memories WHERE tenant = %s AND user_id = %s AND id = ANY(%s)",
            (scope.tenant, scope.user_id, purged),
        ).rowcount
        conn.execute(  # the events stay, their texts go
            "UPDATE memory_history SET old = NULL, new = NULL WHERE tenant = %s AND user_id = %s "
            "AND memory_id = ANY(%s) AND (old IS NOT NULL OR new IS NOT NULL)",
            (scope.tenant, scope.user_id, purged),
        )
    if changes.clear_history:
        conn.execute(
            "UPDATE memory_history SET old = NULL, new = NULL WHERE tenant = %s AND user_id = %s "
            "AND memory_id = ANY(%s) AND (old IS NOT NULL OR new IS NOT NULL)",
            (scope.tenant, scope.user_id, list(dict.fromkeys(changes.clear_history))),
        )
    if changes.uncache:
        conn.execute("DELETE FROM embedding_cache WHERE hash = ANY(%s)", (list(dict.fromkeys(changes.uncache)),))
    if added:
        conn.execute(
            "INSERT INTO user_stats AS u (tenant, user_id, memories) VALUES (%s, %s, %s) "
            "ON CONFLICT (tenant, user_id) DO UPDATE SET memories = u.memories + EXCLUDED.memories",
            (scope.tenant, scope.user_id, added),
        )
    write_history(conn, scope, changes.history)
    for key, value in changes.state.items():
        write_state(conn, scope, key, value)
    if changes.done_job_id is not None:
        queue.finish(conn, changes.done_job_id, scope)


def write_state(conn: psycopg.Connection[Any], scope: Scope, key: str, value: Any) -> None:
    conn.execute(
        "INSERT INTO state (tenant, user_id, key, value) VALUES (%s, %s, %s, %s::jsonb) "
        "ON CONFLICT (tenant, user_id, key) DO UPDATE SET value = EXCLUDED.value",
        (scope.tenant, scope.user_id, key, json.dumps(value, ensure_ascii=False)),
    )


def write_history(
    conn: psycopg.Connection[Any], scope: Scope, events: Sequence[HistoryEvent]
) -> None:
    if not events:
        return
    with conn.cursor() as cur:
        cur.executemany(
            "INSERT INTO memory_history "
            "(tenant, user_id, memory_id, event, at, old, new, reason, actor) "
            "VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s)",
            [
                (scope.tenant, scope.user_id, ev.memory_id, ev.event.value, ev.at)
                + (ev.old, ev.new, ev.reason, ev.actor)
                for ev in events
            ],
        )


def write_upserts(
    conn: psycopg.Connection[Any], upserts: Sequence[Upsert], vector_type: str
) -> int:
    """Records, their entity/source rows, the vectors of upserts that carry some; returns rows added."""
    if not upserts:
        return 0
    scope = upserts[0].record.scope
    ids = list(dict.fromkeys(up.record.id for up in upserts))
    with conn.cursor() as cur:
        row = cur.execute(
            "SELECT count(*) FROM memories WHERE tenant = %s AND user_id = %s AND id = ANY(%s)",
            (scope.tenant, scope.user_id, ids),
        ).fetchone()
        added = len(ids) - (int(row[0]) if row else 0)
        cur.executemany(
            _UPSERT_SQL,
            [
                [
                    *queries.record_params(up.record),
                    None if up.keywords is None else queries.fold(up.keywords),
                ]
                for up in upserts
            ],
        )
        for table in ("memory_entities", "memory_sources"):
            cur.execute(
                sql.SQL(
                    "DELETE FROM {} WHERE tenant = %s AND user_id = %s AND memory_id = ANY(%s)"
                ).format(sql.Identifier(table)),
                (scope.tenant, scope.user_id, ids),
            )
        entities = {
            (e.strip().casefold(), up.record.id)
            for up in upserts
            for e in up.record.entities
            if e.strip()
        }
        sources = {(s, up.record.id) for up in upserts for s in up.record.source_ids}
        cur.executemany(
            "INSERT INTO memory_entities (tenant, user_id, entity, memory_id) VALUES (%s, %s, %s, %s)",
            [(scope.tenant, scope.user_id, e, mid) for e, mid in sorted(entities)],
        )
        cur.executemany(
            "INSERT INTO memory_sources (tenant, user_id, source_id, memory_id) VALUES (%s, %s, %s, %s)",
            [(scope.tenant, scope.user_id, s, mid) for s, mid in sorted(sources)],
        )
    write_vectors(conn, scope, [up for up in upserts if up.vectors is not None], vector_type)
    return added


def write_vectors(
    conn: psycopg.Connection[Any], scope: Scope, upserts: Sequence[Upsert], vector_type: str
) -> None:
    """A dict of vectors replaces the record's vectors: a channel missing from it loses its row."""
    if not upserts:
        return
    conn.execute(
        "DELETE FROM memory_vectors WHERE tenant = %s AND user_id = %s AND memory_id = ANY(%s)",
        (scope.tenant, scope.user_id, [up.record.id for up in upserts]),
    )
    rows = [(up.record.id, ch, vec) for up in upserts for ch, vec in (up.vectors or {}).items()]
    if not rows:
        return
    column = vectors.read_column(conn)
    if column is None:
        column = vectors.ensure_column(conn, int(np.asarray(rows[0][2]).size), vector_type)
    cast = sql.SQL(column.type)
    with conn.cursor() as cur:
        cur.executemany(
            sql.SQL(
                "INSERT INTO memory_vectors (tenant, user_id, channel, memory_id, embedding) "
                "VALUES (%s, %s, %s, %s, %b::{})"
            ).format(cast),
            [
                (scope.tenant, scope.user_id, ch, mid, vectors.as_vector(vec, column))
                for mid, ch, vec in rows
            ],
        )
