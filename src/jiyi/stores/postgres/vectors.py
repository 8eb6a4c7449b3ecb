"""pgvector storage and search: the ``embedding`` column, its HNSW indexes, exact and ANN top-k.

The column's dimension is only known when the first vector arrives (or the embedder
announces itself through ``check_embedding``), so it is added then, under the same
advisory lock as migrations, and recorded in ``jiyi_meta`` under ``vector_column``
(``{"dim": 384, "type": "vector"}``). ``type`` is ``vector`` (float32) or
``halfvec`` (float16: half the disk and RAM, up to 4,000 dimensions indexed).
There is one partial HNSW index (``vector_cosine_ops``/``halfvec_cosine_ops``) per
channel, so a search on one channel never wades through the other's graph.

Search is per user. An HNSW graph spans every user of a shard, so for a small user
an index scan would visit mostly other people's vectors; below :data:`EXACT_LIMIT`
rows we scan the user's rows exactly (through the primary key, which leads with
``tenant, user_id``): exact results, and faster at that size. Above it we use the
index with pgvector 0.8 iterative scans (``hnsw.iterative_scan = relaxed_order``),
so filters that reject many rows still fill ``k``, and re-sort the candidates by
distance. Scores are cosine similarity (``1 - cosine distance``): the SQLite store's
dot product for the unit vectors embedders produce.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import psycopg
from psycopg import sql

from jiyi.errors import EmbeddingMismatch, InvalidInput
from jiyi.stores.protocol import CHANNELS
from jiyi.stores.postgres.migrations import LOCK_KEY

VECTOR_TYPES = {"vector": ("vector_cosine_ops", 2000), "halfvec": ("halfvec_cosine_ops", 4000)}
EXACT_LIMIT = 5000
META_KEY = "vector_column"


@dataclass(slots=True, frozen=True)
class Column:
    """The physical ``embedding`` column: its dimension and pgvector type."""

    dim: int
    type: str


def read_column(conn: psycopg.Connection[Any]) -> Column | None:
    row = conn.execute("SELECT value FROM jiyi_meta WHERE key = %s", (META_KEY,)).fetchone()
    if row is None:
        return None
    return Column(int(row[0]["dim"]), str(row[0]["type"]))


def ensure_column(conn: psycopg.Connection[Any], dim: int, vtype: str) -> Column:
    """The column, created with ``dim`` if there is none yet; call inside a transaction."""
    if vtype not in VECTOR_TYPES:
        raise InvalidInput(f"vector type must be one of {', '.join(VECTOR_TYPES)}, not {vtype!r}")
    if dim <= 0:
        raise InvalidInput(f"vector dimension must be positive, not {dim}")
    conn.execute("SELECT pg_advisory_xact_lock(%s)", (LOCK_KEY,))
    existing = read_column(conn)
    if existing is not None:
        return existing
    conn.execute(
        sql.SQL("ALTER TABLE memory_vectors ADD COLUMN embedding {}({}) NOT NULL").format(
            sql.SQL(vtype), sql.Literal(dim)
        )
    )
    ops, max_indexed = VECTOR_TYPES[vtype]
    if dim <= max_indexed:
        for channel in CHANNELS:
            conn.execute(
                sql.SQL(
                    "CREATE INDEX {} ON memory_vectors USING hnsw (embedding {}) WHERE channel = {}"
                ).format(sql.Identifier(f"memory_vectors_hnsw_{channel}"), sql.SQL(ops), sql.Literal(channel))
            )
    column = Column(dim, vtype)
    conn.execute(
        "INSERT INTO jiyi_meta (key, value) VALUES (%s, %s)",
        (META_KEY, json.dumps({"dim": dim, "type": vtype})),
    )
    return column


def drop_column(conn: psycopg.Connection[Any]) -> None:
    """Delete every vector and the column itself (its indexes go with it)."""
    conn.execute("SELECT pg_advisory_xact_lock(%s)", (LOCK_KEY,))
    conn.execute("DELETE FROM memory_vectors")
    conn.execute("ALTER TABLE memory_vectors DROP COLUMN IF EXISTS embedding")
    conn.execute("DELETE FROM jiyi_meta WHERE key = %s", (META_KEY,))


def extension_version(conn: psycopg.Connection[Any]) -> tuple[int, ...]:
    """The installed pgvector version, e.g. ``(0, 8, 1)``."""
    row = conn.execute("SELECT extversion FROM pg_extension WHERE extname = 'vector'").fetchone()
    if row is None:
        return (0,)
    return tuple(int(p) for p in str(row[0]).split(".") if p.isdigit())


def as_vector(vec: np.ndarray, column: Column) -> np.ndarray:
    """A 1-d float32 copy of ``vec``, checked against the column's dimension."""
    arr = np.asarray(vec, dtype=np.float32).reshape(-1)
    if arr.shape[0] != column.dim:
        raise EmbeddingMismatch(
            f"a vector of dimension {arr.shape[0]} cannot go into a store of dimension {column.dim}; "
            "open the store with the embedder it was built with, or run `jiyi reembed`"
        )
    return arr


def to_numpy(value: Any) -> np.ndarray:
    """A loaded pgvector value (``Vector``, ``HalfVector`` or ndarray) as float32."""
    if hasattr(value, "to_numpy"):
        value = value.to_numpy()
    return np.asarray(value, dtype=np.float32)


def search(
    conn: psycopg.Connection[Any],
    column: Column,
    query: np.ndarray,
    k: int,
    channel: str,
    where: sql.Composable,
    params: Sequence[Any],
    *,
    exact_limit: int | None = EXACT_LIMIT,
) -> list[tuple[str, float]]:
    """Top ``k`` (id, cosine) among the rows that ``where`` (over ``m`` = memories) keeps.

    ``exact_limit`` None means always exact (no iterative index scans on this server).
    """
    q = as_vector(query, column)
    scope_params = [params[0], params[1], channel]
    size_row = conn.execute(
        "SELECT count(*) FROM memory_vectors WHERE tenant = %s AND user_id = %s AND channel = %s",
        scope_params,
    ).fetchone()
    if not size_row or size_row[0] == 0 or k <= 0:
        return []
    cast = sql.SQL(column.type)
    body = sql.SQL(
        "SELECT v.memory_id, m.seq, (v.embedding <=> %s::{cast}) AS dist FROM memory_vectors v "
        "JOIN memories m ON m.tenant = v.tenant AND m.user_id = v.user_id AND m.id = v.memory_id "
        "WHERE v.tenant = %s AND v.user_id = %s AND v.channel = %s AND {where} "
    ).format(cast=cast, where=where)
    args = [q, *scope_params, *params]
    if exact_limit is None or size_row[0] <= exact_limit:
        # OFFSET 0 keeps the subquery whole, so the ORDER BY cannot reach the HNSW index:
        # an exact scan of this user's rows through the primary key
        query_sql = sql.SQL("SELECT memory_id, dist FROM ({} OFFSET 0) c ORDER BY dist, seq LIMIT %s")
        rows = conn.execute(query_sql.format(body), [*args, k]).fetchall()
    else:
        with conn.transaction():
            conn.execute(sql.SQL("SET LOCAL hnsw.ef_search = {}").format(sql.Literal(min(1000, max(40, 2 * k)))))
            conn.execute("SET LOCAL hnsw.iterative_scan = relaxed_order")
            ann = body + sql.SQL("ORDER BY v.embedding <=> %s::{cast} LIMIT %s").format(cast=cast)
            query_sql = sql.SQL("SELECT memory_id, dist FROM ({}) c ORDER BY dist, seq").format(ann)
            rows = conn.execute(query_sql, [*args, q, k]).fetchall()
    return [(mid, 1.0 - float(dist)) for mid, dist in rows]
