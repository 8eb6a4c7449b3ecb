"""pgvector storage and search: the ``embedding`` column, its HNSW indexes, exact and ANN top-k.

The column's dimension is only known when the first vector arrives (or the embedder
announces itself through ``check_embedding``), so it is added then, under the same
advisory lock as migrations, and recorded in ``jiyi_meta`` under ``vector_column``
(``{"dim": 384, "type": "vector"}``). ``type`` is ``vector`` (float32) or
``halfvec`` (float16: half the disk and RAM, up to 4,000 dimensions indexed).
There is one partial HNSW index (``vector_cosine_ops``/``halfvec_cosine_ops``) per
channel, so a search on one channel never wades through the other's graph.

Search is per user. An HNSW graph spans every user of a shard, so for a small user
an index scan would visit mostly other people's vectors; up to :data:`EXACT_LIMIT`
memories (``user_stats``) we scan the user's rows exactly (through the primary key, which leads with
``tenant, user_id``): exact results, and faster at that size. Above it we use the
index with pgvector 0.8 iterative scans (``hnsw.iterative_scan = relaxed_order``),
so filters that reject many rows still fill ``k``, and re-sort the candidates by
distance. Scores are cosine similarity (``1 - cosine distance``): the SQLite store's
dot product for the unit vectors embedders produce.
"""

from __future__ import annotations

import json
import struct
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import psycopg
from psycopg import sql
from psycopg.adapt import Dumper, Loader
from psycopg.pq import Format
from psycopg.types import TypeInfo

from jiyi.errors import EmbeddingMismatch, InvalidInput
from jiyi.stores.postgres.migrations import LOCK_KEY
from jiyi.stores.postgres.options import EXACT_LIMIT
from jiyi.stores.protocol import CHANNELS

VECTOR_TYPES = {"vector": ("vector_cosine_ops", 2000), "halfvec": ("halfvec_cosine_ops", 4000)}
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
                ).format(
                    sql.Identifier(f"memory_vectors_hnsw_{channel}"),
                    sql.SQL(ops),
                    sql.Literal(channel),
                )
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


def register_adapters(conn: psycopg.Connection[Any]) -> None:
    """Send numpy arrays as pgvector ``vector`` (binary) and read ``vector`` back as float32 arrays.

    Our own twenty lines instead of the ``pgvector`` package: one type, one format,
    and no extra dependency. ``halfvec`` columns are written through a ``::halfvec``
    cast and read back through ``::vector``, so this one type is all we adapt.
    """
    info = TypeInfo.fetch(conn, "vector")
    if info is None:
        raise psycopg.ProgrammingError("the vector extension is not installed in this database")
    dumper = type("VectorDumper", (_VectorDumper,), {"oid": info.oid})
    conn.adapters.register_dumper(np.ndarray, dumper)
    conn.adapters.register_loader(info.oid, _VectorBinaryLoader)
    conn.adapters.register_loader(info.oid, _VectorTextLoader)


class _VectorDumper(Dumper):
    """pgvector's binary input: uint16 dimension, uint16 unused, big-endian float32s."""

    format = Format.BINARY

    def dump(self, obj: Any) -> bytes:
        arr = np.asarray(obj, dtype=">f4").reshape(-1)
        return struct.pack(">HH", arr.shape[0], 0) + arr.tobytes()


class _VectorBinaryLoader(Loader):
    format = Format.BINARY

    def load(self, data: Any) -> np.ndarray:
        buf = bytes(data)
        (dim,) = struct.unpack_from(">H", buf)
        return np.frombuffer(buf, dtype=">f4", count=dim, offset=4).astype(np.float32)


class _VectorTextLoader(Loader):
    format = Format.TEXT

    def load(self, data: Any) -> np.ndarray:
        text = bytes(data).decode().strip("[]")
        return np.array(text.split(",") if text else [], dtype=np.float32)


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

    ``params`` are ``where``'s parameters, starting with tenant and user id.
    ``exact_limit`` None means always exact (no iterative index scans on this server).
    """
    q = as_vector(query, column)
    size_row = conn.execute(  # the user's memory count bounds their vector count
        "SELECT memories FROM user_stats WHERE tenant = %s AND user_id = %s", list(params[:2])
    ).fetchone()
    size = int(size_row[0]) if size_row else 0
    if size <= 0 or k <= 0:
        return []
    exact = exact_limit is None or size <= exact_limit
    query_sql, args = search_query(column, q, k, channel, where, params, exact=exact)
    if exact:
        rows = conn.execute(query_sql, args).fetchall()
    else:
        with conn.transaction():
            ef = sql.Literal(min(1000, max(100, 4 * k)))
            conn.execute(sql.SQL("SET LOCAL hnsw.ef_search = {}").format(ef))
            conn.execute("SET LOCAL hnsw.iterative_scan = relaxed_order")
            rows = conn.execute(query_sql, args).fetchall()
    return [(mid, 1.0 - float(dist)) for mid, dist in rows]


def search_query(
    column: Column,
    q: np.ndarray,
    k: int,
    channel: str,
    where: sql.Composable,
    params: Sequence[Any],
    *,
    exact: bool,
) -> tuple[sql.Composed, list[Any]]:
    """The top-k statement and its arguments: an exact scan, or an HNSW index scan re-sorted."""
    cast = sql.SQL(column.type)
    body = sql.SQL(
        "SELECT v.memory_id, m.seq, (v.embedding <=> %s::{cast}) AS dist FROM memory_vectors v "
        "JOIN memories m ON m.tenant = v.tenant AND m.user_id = v.user_id AND m.id = v.memory_id "
        "WHERE v.tenant = %s AND v.user_id = %s AND v.channel = %s AND {where} "
    ).format(cast=cast, where=where)
    args = [q, params[0], params[1], channel, *params]
    if exact:
        # OFFSET 0 keeps the subquery whole, so the ORDER BY cannot reach the HNSW index:
        # an exact scan of this user's rows through the primary key
        stmt = sql.SQL("SELECT memory_id, dist FROM ({} OFFSET 0) c ORDER BY dist, seq LIMIT %s")
        return stmt.format(body), [*args, k]
    # relaxed_order may return neighbours slightly out of order: sort them again
    ann = body + sql.SQL("ORDER BY v.embedding <=> %s::{cast} LIMIT %s").format(cast=cast)
    return sql.SQL("SELECT memory_id, dist FROM ({}) c ORDER BY dist, seq").format(ann), [
        *args,
        q,
        k,
    ]
