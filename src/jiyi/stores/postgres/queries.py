"""Read queries and row mapping of the PostgreSQL store. Every query starts from the scope.

:func:`scoped_where` renders ``m.tenant = %s AND m.user_id = %s AND <filter>`` from the
shared :func:`~jiyi.stores.filters.filter_conditions`, so both backends agree on what a
filter means, and no query here can forget the owner. Column names come from a fixed
list (:data:`MEMORY_COLUMNS`) and every value is a bound parameter: user text never
becomes SQL.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

import psycopg
from psycopg import sql
from psycopg.types.json import Jsonb

from jiyi.clock import ensure_utc
from jiyi.records import EventType, HistoryEvent, Kind, MemoryRecord, Scope, Status, Visibility
from jiyi.stores.columns import MEMORY_COLUMNS, TIME_COLUMNS, TUPLE_COLUMNS
from jiyi.stores.filters import Condition, filter_conditions
from jiyi.stores.protocol import RecordFilter, SessionScores

SELECT_MEMORY = sql.SQL(", ").join(sql.Identifier("m", c) for c in MEMORY_COLUMNS)
_TIME_COLUMNS = TIME_COLUMNS
_ARRAYS = TUPLE_COLUMNS
_NEWEST = sql.SQL("ORDER BY m.created_at DESC, m.seq DESC")  # equal times: last stored first
#: BM25 parameters (the usual defaults; memories are short, so length matters little)
BM25_K1, BM25_B = 1.2, 0.75
MAX_QUERY_TOKENS = 64


def fold(text: str) -> str:
    """Keyword text as indexed and searched: case-folded, diacritics off Latin/Greek/Cyrillic letters.

    The SQLite store's FTS5 ``unicode61 remove_diacritics 2`` tokenizer matches ``cafe``
    with ``café`` and ``Peanuts`` with ``peanuts``. PostgreSQL's ``simple`` config only
    lowercases, and only as far as the database's locale knows how (ASCII under ``C``),
    so we fold both the stored keywords and the query tokens here, the same way, with
    no extension needed. CJK text passes through unchanged.
    """
    return "".join(_fold_char(ch) for ch in text).casefold()


@lru_cache(maxsize=4096)
def _fold_char(ch: str) -> str:
    if ch < "\u00c0" or ch >= "\u0530":  # ASCII, or beyond Cyrillic: nothing to strip
        return ch
    return "".join(c for c in unicodedata.normalize("NFD", ch) if not unicodedata.combining(c))


def record_params(rec: MemoryRecord) -> list[Any]:
    """The ``memories`` values of a record, in :data:`MEMORY_COLUMNS` order."""
    out: list[Any] = []
    for col in MEMORY_COLUMNS:
        value = getattr(rec, col)
        if col in _ARRAYS:
            out.append(list(value))
        elif col == "metadata":
            out.append(Jsonb(value))
        elif isinstance(value, (Kind, Status, Visibility)):
            out.append(value.value)
        else:
            out.append(value)
    return out


def row_record(row: Sequence[Any]) -> MemoryRecord:
    """A row selected with :data:`SELECT_MEMORY` as a record (aware UTC datetimes, tuples, enums)."""
    data = dict(zip(MEMORY_COLUMNS, row))
    for col in _TIME_COLUMNS:
        if data[col] is not None:
            data[col] = ensure_utc(data[col])
    for col in _ARRAYS:
        data[col] = tuple(data[col] or ())
    data["metadata"] = dict(data["metadata"] or {})
    data["kind"] = Kind(data["kind"])
    data["status"] = Status(data["status"])
    data["visibility"] = Visibility(data["visibility"])
    return MemoryRecord(**data)


def scoped_where(
    scope: Scope, flt: RecordFilter | None = None, *, with_text: bool = True
) -> tuple[sql.Composed, list[Any]]:
    """``m.tenant = %s AND m.user_id = %s AND <filter>`` with its parameters."""
    parts: list[sql.Composable] = [sql.SQL("m.tenant = %s"), sql.SQL("m.user_id = %s")]
    params: list[Any] = [scope.tenant, scope.user_id]
    for cond in filter_conditions(flt, with_text=with_text) if flt is not None else []:
        part, values = _render(cond)
        parts.append(part)
        params.extend(values)
    return sql.SQL(" AND ").join(parts), params


def _render(cond: Condition) -> tuple[sql.Composable, list[Any]]:
    column = sql.Identifier("m", cond.column)
    if cond.op == "in":
        values = list(cond.value)  # type: ignore[call-overload]
        if not values:
            return sql.SQL("false"), []
        return sql.SQL("{} = ANY(%s)").format(column), [values]
    if cond.op == "contains":
        return sql.SQL("strpos(lower({}), lower(%s)) > 0").format(column), [str(cond.value)]
    return sql.SQL("{} {} %s").format(column, sql.SQL(cond.op)), [cond.value]


def get_many(conn: psycopg.Connection[Any], scope: Scope, ids: Sequence[str]) -> list[MemoryRecord]:
    """Records with these ids, in the order asked (unknown or foreign ids are skipped)."""
    wanted = list(dict.fromkeys(ids))
    if not wanted:
        return []
    where, params = scoped_where(scope)
    rows = conn.execute(
        sql.SQL("SELECT {} FROM memories m WHERE {} AND m.id = ANY(%s)").format(
            SELECT_MEMORY, where
        ),
        [*params, wanted],
    ).fetchall()
    found = {rec.id: rec for rec in map(row_record, rows)}
    return [found[i] for i in wanted if i in found]


def list_records(
    conn: psycopg.Connection[Any], scope: Scope, flt: RecordFilter, limit: int | None, offset: int
) -> list[MemoryRecord]:
    """Newest first (ties by id), so pages are stable."""
    where, params = scoped_where(scope, flt)
    rows = conn.execute(
        sql.SQL("SELECT {} FROM memories m WHERE {} {} LIMIT %s OFFSET %s").format(
            SELECT_MEMORY, where, _NEWEST
        ),
        [*params, None if limit is None else max(0, limit), max(0, offset)],
    ).fetchall()
    return [row_record(r) for r in rows]


def count(conn: psycopg.Connection[Any], scope: Scope, flt: RecordFilter) -> int:
    where, params = scoped_where(scope, flt)
    row = conn.execute(
        sql.SQL("SELECT count(*) FROM memories m WHERE {}").format(where), params
    ).fetchone()
    return int(row[0]) if row else 0


def find_by_slot(conn: psycopg.Connection[Any], scope: Scope, slot: str) -> list[MemoryRecord]:
    where, params = scoped_where(scope)
    rows = conn.execute(
        sql.SQL(
            "SELECT {} FROM memories m WHERE {} AND m.slot = %s AND m.status = 'active' {}"
        ).format(SELECT_MEMORY, where, _NEWEST),
        [*params, slot],
    ).fetchall()
    return [row_record(r) for r in rows]


def find_by_sources(
    conn: psycopg.Connection[Any], scope: Scope, source_ids: Sequence[str]
) -> dict[str, list[MemoryRecord]]:
    """Memories (any status) made from each message in ``source_ids``, newest first."""
    where, params = scoped_where(scope)
    rows = conn.execute(
        sql.SQL(
            "SELECT {}, s.source_id FROM memory_sources s JOIN memories m "
            "ON m.tenant = s.tenant AND m.user_id = s.user_id AND m.id = s.memory_id "
            "WHERE s.tenant = %s AND s.user_id = %s AND s.source_id = ANY(%s) AND {} {}"
        ).format(SELECT_MEMORY, where, _NEWEST),
        [scope.tenant, scope.user_id, list(dict.fromkeys(source_ids)), *params],
    ).fetchall()
    out: dict[str, list[MemoryRecord]] = {}
    for r in rows:  # row_record reads the memory columns and ignores the trailing source id
        out.setdefault(r[-1], []).append(row_record(r))
    return out


def history(
    conn: psycopg.Connection[Any], scope: Scope, memory_ids: Sequence[str]
) -> dict[str, list[HistoryEvent]]:
    """Each memory's events in time order (insertion order breaks ties)."""
    out: dict[str, list[HistoryEvent]] = {}
    if not memory_ids:
        return out
    rows = conn.execute(
        "SELECT memory_id, event, at, old, new, reason, actor FROM memory_history "
        "WHERE tenant = %s AND user_id = %s AND memory_id = ANY(%s) ORDER BY at, seq",
        [scope.tenant, scope.user_id, list(dict.fromkeys(memory_ids))],
    ).fetchall()
    for memory_id, event, at, old, new, reason, actor in rows:
        out.setdefault(memory_id, []).append(
            HistoryEvent(EventType(event), memory_id, ensure_utc(at), old, new, reason, actor)
        )
    return out


_MATCH = sql.SQL("plainto_tsquery('simple', %s)")  # one token, a bound parameter: never query syntax


def _query_terms(tokens: Sequence[str]) -> list[str]:
    """Query tokens as the keyword searches match them: folded, distinct, with a letter or digit, capped."""
    return list(dict.fromkeys(fold(t.strip()) for t in tokens if any(ch.isalnum() for ch in t)))[:MAX_QUERY_TOKENS]


def keyword_search(
    conn: psycopg.Connection[Any], scope: Scope, tokens: Sequence[str], k: int, flt: RecordFilter
) -> list[tuple[str, float]]:
    """BM25 over the user's pre-tokenized keywords (tsvector, ``simple`` config); higher is better.

    Candidates are the rows whose ``tsv`` matches any token (one ``plainto_tsquery``
    per token, OR-ed: every token is a bound parameter, never query syntax), found
    through the ``(tenant, user_id, tsv)`` GIN index. Each is scored with BM25: IDF
    from the token's document frequency among the candidates and N = the user's
    memory count (kept in ``user_stats`` by every write, so no count at read time),
    length normalisation by the row's lexeme count (``kw_len``). Term
    frequency is taken as 1: a memory is one short statement, and reading positions
    out of every candidate's tsvector costs ten times more. ``ts_rank_cd`` has no IDF
    at all, so a token in every memory (用户, the user's name) would outrank a rare one.
    """
    wanted = _query_terms(tokens)
    if not wanted or k <= 0:
        return []
    flags = [sql.Identifier(f"h{n}") for n in range(len(wanted))]
    where, params = scoped_where(scope, flt, with_text=False)
    query = sql.SQL(
        """
        WITH cand AS MATERIALIZED (
            SELECT m.id, m.seq, m.kw_len, {has} FROM memories m
            WHERE {where} AND m.tsv @@ ({any})
        ),
        stats AS (
            SELECT count(*)::float8 AS c, greatest(avg(kw_len), 1)::float8 AS avgdl, {df} FROM cand
        ),
        total AS (
            SELECT greatest(s.c, coalesce(
                (SELECT u.memories FROM user_stats u WHERE u.tenant = %s AND u.user_id = %s), 0
            ))::float8 AS n FROM stats s
        ),
        idf AS (SELECT s.avgdl, {idf} FROM stats s CROSS JOIN total t)
        SELECT c.id, ({score}) * {k1p1} / (1 + {k1} * (1 - {b} + {b} * c.kw_len / i.avgdl)) AS score
        FROM cand c CROSS JOIN idf i
        ORDER BY score DESC, c.seq DESC LIMIT %s
        """
    ).format(
        has=sql.SQL(", ").join(sql.SQL("m.tsv @@ {} AS {}").format(_MATCH, h) for h in flags),
        where=where,
        any=sql.SQL(" || ").join(_MATCH for _ in wanted),
        df=sql.SQL(", ").join(
            sql.SQL("count(*) FILTER (WHERE {0})::float8 AS {0}").format(h) for h in flags
        ),
        idf=sql.SQL(", ").join(
            sql.SQL("ln(1 + (t.n - s.{0} + 0.5) / (s.{0} + 0.5)) AS {0}").format(h) for h in flags
        ),
        score=sql.SQL(" + ").join(
            sql.SQL("CASE WHEN c.{0} THEN i.{0} ELSE 0 END").format(h) for h in flags
        ),
        k1=sql.Literal(BM25_K1),
        k1p1=sql.Literal(BM25_K1 + 1),
        b=sql.Literal(BM25_B),
    )
    args = [*wanted, *params, *wanted, scope.tenant, scope.user_id, k]
    return [(mid, float(score)) for mid, score in conn.execute(query, args).fetchall()]


def session_keyword_search(
    conn: psycopg.Connection[Any], scope: Scope, tokens: Sequence[str], flt: RecordFilter, k: int = 200
) -> SessionScores:
    """BM25 of the user's sessions as documents (the keywords of their rows passing ``flt``).

    As in :func:`keyword_search`, a row matches a token or not (tf 1 per row), so a
    session's tf is how many of its rows match; its length is the sum of their
    ``kw_len``; N and df count sessions; IDF ``ln(1 + (N − df + ½)/(df + ½))``. One
    pass over the user's rows (grouped by session), not through the GIN index.
    """
    wanted = _query_terms(tokens)
    if not wanted:
        return SessionScores()
    flags = [sql.Identifier(f"h{n}") for n in range(len(wanted))]
    where, params = scoped_where(scope, flt, with_text=False)
    query = sql.SQL(
        """
        WITH r AS MATERIALIZED (
            SELECT m.session_id AS sid, m.kw_len, {has} FROM memories m
            WHERE {where} AND m.session_id IS NOT NULL AND m.keywords IS NOT NULL
        ),
        sess AS (SELECT sid, sum(kw_len)::float8 AS len, {tf} FROM r GROUP BY sid),
        stats AS (SELECT count(*)::float8 AS n, greatest(avg(len), 1e-9)::float8 AS avgl, {df} FROM sess),
        idf AS (SELECT st.n, st.avgl, {idf} FROM stats st),
        scored AS (SELECT s.sid, ({score}) AS score, i.n FROM sess s CROSS JOIN idf i)
        SELECT sid, score, n, avg(score) OVER (), var_pop(score) OVER () FROM scored
        ORDER BY score DESC, sid LIMIT %s
        """
    ).format(
        has=sql.SQL(", ").join(sql.SQL("m.tsv @@ {} AS {}").format(_MATCH, h) for h in flags),
        where=where,
        tf=sql.SQL(", ").join(sql.SQL("count(*) FILTER (WHERE {0})::float8 AS {0}").format(h) for h in flags),
        df=sql.SQL(", ").join(sql.SQL("count(*) FILTER (WHERE {0} > 0)::float8 AS {0}").format(h) for h in flags),
        idf=sql.SQL(", ").join(
            sql.SQL("ln(1 + (st.n - st.{0} + 0.5) / (st.{0} + 0.5)) AS {0}").format(h) for h in flags
        ),
        score=sql.SQL(" + ").join(
            sql.SQL("CASE WHEN s.{0} > 0 THEN i.{0} * s.{0} * {k1p1} / (s.{0} + {k1} * (1 - {b} + {b} * s.len / i.avgl))"
                    " ELSE 0 END").format(h, k1p1=sql.Literal(BM25_K1 + 1), k1=sql.Literal(BM25_K1),
                                          b=sql.Literal(BM25_B))
            for h in flags
        ),
    )
    rows = conn.execute(query, [*wanted, *params, max(k, 1)]).fetchall()
    if not rows:
        return SessionScores()
    _, _, n, mean, variance = rows[0]
    listed = {sid: float(score) for sid, score, *_ in rows if score > 0} if k > 0 else {}
    return SessionScores(listed, int(n), float(mean), float(variance))


def recent(
    conn: psycopg.Connection[Any], scope: Scope, k: int, flt: RecordFilter
) -> list[tuple[str, float]]:
    where, params = scoped_where(scope, flt, with_text=False)
    rows = conn.execute(
        sql.SQL("SELECT m.id, m.created_at FROM memories m WHERE {} {} LIMIT %s").format(
            where, _NEWEST
        ),
        [*params, max(0, k)],
    ).fetchall()
    return [(mid, ensure_utc(created).timestamp()) for mid, created in rows]


def entity_search(
    conn: psycopg.Connection[Any], scope: Scope, entities: Sequence[str], k: int, flt: RecordFilter
) -> list[tuple[str, float]]:
    """Memories sharing the most entities first (case-insensitive); ties go to the newest."""
    wanted = list(dict.fromkeys(e.strip().casefold() for e in entities if e.strip()))
    if not wanted or k <= 0:
        return []
    where, params = scoped_where(scope, flt, with_text=False)
    rows = conn.execute(
        sql.SQL(
            "SELECT m.id, count(*) AS shared FROM memory_entities e JOIN memories m "
            "ON m.tenant = e.tenant AND m.user_id = e.user_id AND m.id = e.memory_id "
            "WHERE e.tenant = %s AND e.user_id = %s AND e.entity = ANY(%s) AND {} "
            "GROUP BY m.id, m.created_at, m.seq ORDER BY shared DESC, m.created_at DESC, m.seq DESC LIMIT %s"
        ).format(where),
        [scope.tenant, scope.user_id, wanted, *params, k],
    ).fetchall()
    return [(mid, float(shared)) for mid, shared in rows]


def export_page(
    conn: psycopg.Connection[Any], scope: Scope, after_seq: int, size: int
) -> list[tuple[int, MemoryRecord]]:
    """One page of every record of the user (all statuses) in storage order, after ``after_seq``."""
    where, params = scoped_where(scope)
    rows = conn.execute(
        sql.SQL(
            "SELECT m.seq, {} FROM memories m WHERE {} AND m.seq > %s ORDER BY m.seq LIMIT %s"
        ).format(SELECT_MEMORY, where),
        [*params, after_seq, size],
    ).fetchall()
    return [(int(r[0]), row_record(r[1:])) for r in rows]


def session_members(conn: psycopg.Connection[Any], scope: Scope, session_ids: Sequence[str]) -> dict[str, list[str]]:
    """Other users of ``scope.tenant`` with memories in each of ``session_ids``."""
    if not session_ids:
        return {}
    rows = conn.execute(
        "SELECT DISTINCT session_id, user_id FROM memories WHERE tenant = %s AND session_id = ANY(%s) "
        "AND user_id <> %s ORDER BY 1, 2",
        (scope.tenant, list(session_ids), scope.user_id),
    )
    out: dict[str, list[str]] = {}
    for session, user in rows:
        out.setdefault(session, []).append(user)
    return out


def owners(conn: psycopg.Connection[Any], tenant: str | None) -> list[str]:
    """Users of ``tenant`` (or, with None, all tenants) that hold memories or state."""
    if tenant is None:
        return [
            r[0]
            for r in conn.execute(
                "SELECT tenant FROM memories UNION SELECT tenant FROM state ORDER BY 1"
            )
        ]
    rows = conn.execute(
        "SELECT user_id FROM memories WHERE tenant = %s UNION SELECT user_id FROM state WHERE tenant = %s ORDER BY 1",
        (tenant, tenant),
    )
    return [r[0] for r in rows]
