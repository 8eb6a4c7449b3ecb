"""Numbered, transactional schema migrations (the sqlite-utils ``Migrations`` pattern).

Each migration runs inside the same ``BEGIN IMMEDIATE`` transaction that records it
in ``_jiyi_migrations``, so two processes opening a fresh file at once cannot both
apply it, and a crash halfway leaves the previous schema intact. Add a migration by
appending a decorated function; never edit one that has shipped.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from dataclasses import dataclass

from jiyi.clock import utc_now
from jiyi.stores.sqlite.codec import iso


@dataclass(slots=True, frozen=True)
class Migration:
    version: int
    name: str
    fn: Callable[[sqlite3.Connection], None]


MIGRATIONS: list[Migration] = []


def migration(
    version: int,
) -> Callable[[Callable[[sqlite3.Connection], None]], Callable[[sqlite3.Connection], None]]:
    """Register ``fn`` as migration number ``version`` (numbers must strictly increase)."""

    def wrap(fn: Callable[[sqlite3.Connection], None]) -> Callable[[sqlite3.Connection], None]:
        if MIGRATIONS and MIGRATIONS[-1].version >= version:
            raise RuntimeError(f"migration {version} registered out of order")
        MIGRATIONS.append(Migration(version, fn.__name__, fn))
        return fn

    return wrap


def migrate(conn: sqlite3.Connection) -> list[str]:
    """Apply pending migrations in one write transaction; return the names applied."""
    if _current_version(conn) == MIGRATIONS[-1].version:
        return []  # the common case: opening an up-to-date file takes no write lock
    conn.execute("BEGIN IMMEDIATE")
    try:
        conn.execute(
            "CREATE TABLE IF NOT EXISTS _jiyi_migrations "
            "(version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)"
        )
        done = {row[0] for row in conn.execute("SELECT version FROM _jiyi_migrations")}
        applied: list[str] = []
        for mig in MIGRATIONS:
            if mig.version in done:
                continue
            mig.fn(conn)
            conn.execute(
                "INSERT INTO _jiyi_migrations (version, name, applied_at) VALUES (?, ?, ?)",
                (mig.version, mig.name, iso(utc_now())),
            )
            applied.append(mig.name)
        conn.execute("COMMIT")
        return applied
    except BaseException:
        conn.execute("ROLLBACK")
        raise


def _current_version(conn: sqlite3.Connection) -> int:
    exists = conn.execute(
        "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = '_jiyi_migrations'"
    ).fetchone()
    if exists is None:
        return 0
    return int(conn.execute("SELECT coalesce(max(version), 0) FROM _jiyi_migrations").fetchone()[0])


def _script(conn: sqlite3.Connection, sql: str) -> None:
    """Run several statements without ``executescript`` (which would COMMIT our transaction)."""
    for statement in sql.split(";"):
        if statement.strip():
            conn.execute(statement)


@migration(1)
def m001_initial(conn: sqlite3.Connection) -> None:
    _script(
        conn,
        """
    CREATE TABLE memories (
        rid INTEGER PRIMARY KEY AUTOINCREMENT,  -- never reused: it keys the FTS rows
        tenant TEXT NOT NULL, user_id TEXT NOT NULL, id TEXT NOT NULL,
        content TEXT NOT NULL, kind TEXT NOT NULL,
        created_at TEXT NOT NULL, updated_at TEXT NOT NULL,
        slot TEXT, entities TEXT NOT NULL DEFAULT '[]',
        importance REAL NOT NULL, confidence REAL NOT NULL,
        valid_from TEXT, valid_until TEXT, expires_at TEXT,
        status TEXT NOT NULL, visibility TEXT NOT NULL,
        hit_count INTEGER NOT NULL DEFAULT 0, last_hit_at TEXT, strength REAL NOT NULL,
        source_ids TEXT NOT NULL DEFAULT '[]', session_id TEXT, agent_id TEXT, speaker TEXT,
        links TEXT NOT NULL DEFAULT '[]', superseded_by TEXT, embedding_model TEXT,
        metadata TEXT NOT NULL DEFAULT '{}',
        UNIQUE (tenant, user_id, id)
    );
    CREATE INDEX memories_scope_created ON memories (tenant, user_id, created_at);
    CREATE INDEX memories_scope_status ON memories (tenant, user_id, status, created_at);
    CREATE INDEX memories_scope_slot ON memories (tenant, user_id, slot) WHERE slot IS NOT NULL;

    CREATE TABLE vectors (
        tenant TEXT NOT NULL, user_id TEXT NOT NULL, memory_id TEXT NOT NULL,
        channel TEXT NOT NULL, dim INTEGER NOT NULL, dtype TEXT NOT NULL, blob BLOB NOT NULL,
        PRIMARY KEY (tenant, user_id, channel, memory_id),
        FOREIGN KEY (tenant, user_id, memory_id) REFERENCES memories (tenant, user_id, id)
            ON DELETE CASCADE
    );
    CREATE INDEX vectors_memory ON vectors (tenant, user_id, memory_id);

    CREATE TABLE memory_entities (
        tenant TEXT NOT NULL, user_id TEXT NOT NULL, entity TEXT NOT NULL, memory_id TEXT NOT NULL,
        PRIMARY KEY (tenant, user_id, entity, memory_id),
        FOREIGN KEY (tenant, user_id, memory_id) REFERENCES memories (tenant, user_id, id)
            ON DELETE CASCADE
    );
    CREATE INDEX memory_entities_memory ON memory_entities (tenant, user_id, memory_id);

    CREATE TABLE memory_sources (
        tenant TEXT NOT NULL, user_id TEXT NOT NULL,
        source_id TEXT NOT NULL, memory_id TEXT NOT NULL,
        PRIMARY KEY (tenant, user_id, source_id, memory_id),
        FOREIGN KEY (tenant, user_id, memory_id) REFERENCES memories (tenant, user_id, id)
            ON DELETE CASCADE
    );
    CREATE INDEX memory_sources_memory ON memory_sources (tenant, user_id, memory_id);

    CREATE VIRTUAL TABLE memories_fts USING fts5 (
        scope_key, keywords, tokenize = 'unicode61 remove_diacritics 2'
    );

    CREATE TABLE history (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        tenant TEXT NOT NULL, user_id TEXT NOT NULL, memory_id TEXT NOT NULL,
        event TEXT NOT NULL, at TEXT NOT NULL,
        old TEXT, new TEXT, reason TEXT, actor TEXT NOT NULL
    );
    CREATE INDEX history_memory ON history (tenant, user_id, memory_id, at, seq);

    CREATE TABLE jobs (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        id TEXT NOT NULL UNIQUE,
        tenant TEXT NOT NULL, user_id TEXT NOT NULL, kind TEXT NOT NULL, payload TEXT NOT NULL,
        status TEXT NOT NULL, attempts INTEGER NOT NULL DEFAULT 0,
        created_at TEXT NOT NULL, updated_at TEXT NOT NULL,
        worker TEXT, lease_until TEXT, last_error TEXT
    );
    CREATE INDEX jobs_status ON jobs (status, created_at, seq);
    CREATE INDEX jobs_scope ON jobs (tenant, user_id, status);

    CREATE TABLE embedding_cache (
        model TEXT NOT NULL, hash TEXT NOT NULL, dim INTEGER NOT NULL, dtype TEXT NOT NULL,
        blob BLOB NOT NULL, PRIMARY KEY (model, hash)
    ) WITHOUT ROWID;

    CREATE TABLE state (
        tenant TEXT NOT NULL, user_id TEXT NOT NULL, key TEXT NOT NULL, value TEXT NOT NULL,
        PRIMARY KEY (tenant, user_id, key)
    ) WITHOUT ROWID;

    CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;

    CREATE TABLE user_generations (
        tenant TEXT NOT NULL, user_id TEXT NOT NULL, gen INTEGER NOT NULL,
        PRIMARY KEY (tenant, user_id)
    ) WITHOUT ROWID
    """,
    )


@migration(2)
def m002_embedding_cache_by_rowid(conn: sqlite3.Connection) -> None:
    """Keep cached vectors in rowid order, found through a small (model, hash) index.

    As a WITHOUT ROWID table keyed by a random hash, each 1.5 KB vector sat in a random
    leaf plus an overflow page: a batched add of 100 turns rewrote ~435 pages for its
    200 cache rows, more than half of everything it wrote. Appended by rowid, the
    vectors fill fresh pages and only the index entries (~50 bytes) land at random.
    """
    _script(
        conn,
        """
    CREATE TABLE embedding_cache_rows (
        model TEXT NOT NULL, hash TEXT NOT NULL, dim INTEGER NOT NULL, dtype TEXT NOT NULL,
        blob BLOB NOT NULL
    );
    INSERT INTO embedding_cache_rows (model, hash, dim, dtype, blob)
        SELECT model, hash, dim, dtype, blob FROM embedding_cache;
    DROP TABLE embedding_cache;
    ALTER TABLE embedding_cache_rows RENAME TO embedding_cache;
    CREATE UNIQUE INDEX embedding_cache_key ON embedding_cache (model, hash)
    """,
    )


@migration(3)
def m003_drop_context_copies(conn: sqlite3.Connection) -> None:
    """Drop ``context`` vectors that repeat the memory's ``content`` vector, byte for byte.

    Self-contained memories (facts, preferences, summaries: everything but episodes) used
    to store their one vector on both channels. Fusion already reads a memory without a
    ``context`` vector as its ``vector`` z-score (``read.fuse.FALLBACK``), so the copy only
    made the context route score the memory a second time (40 % of that route's rows in
    the bench). Every user's generation moves on, so no process keeps a matrix with them.
    """
    _script(
        conn,
        """
    DELETE FROM vectors WHERE channel = 'context' AND EXISTS (
        SELECT 1 FROM vectors c
        WHERE c.tenant = vectors.tenant AND c.user_id = vectors.user_id AND c.memory_id = vectors.memory_id
          AND c.channel = 'content' AND c.dtype = vectors.dtype AND c.blob = vectors.blob);
    UPDATE user_generations SET gen = gen + 1
    """,
    )


@migration(4)
def m004_session_members(conn: sqlite3.Connection) -> None:
    """Index memories by session, so a group chat's other speakers are found without a scan
    (``Store.session_members``)."""
    _script(conn, "CREATE INDEX IF NOT EXISTS memories_session ON memories (tenant, session_id, user_id) WHERE session_id IS NOT NULL")
