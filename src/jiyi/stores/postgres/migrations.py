"""Numbered, transactional schema migrations for PostgreSQL, applied when a store opens.

Every migration runs in its own transaction together with the row that records it in
``jiyi_migrations``, so a failure leaves the previous schema intact. Starters are
serialised by a session-level advisory lock (:data:`LOCK_KEY`), so two processes that
open a fresh database at once cannot both apply a migration: the second waits, then
finds nothing left to do. Tables land in the first schema of the ``search_path``.

Add a migration by appending to :data:`MIGRATIONS`; never edit one that has shipped.
The embedding column is not created here: its dimension is only known when an
embedder first writes (see :mod:`jiyi.stores.postgres.vectors`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import psycopg

#: ``pg_advisory_lock`` key for schema changes (migrations and the embedding column).
LOCK_KEY = 0x6A69_7969_0001  # "jiyi" + 1


@dataclass(slots=True, frozen=True)
class Migration:
    version: int
    name: str
    sql: str


MIGRATIONS: list[Migration] = [
    Migration(
        1,
        "initial",
        """
    CREATE EXTENSION IF NOT EXISTS vector;
    CREATE EXTENSION IF NOT EXISTS btree_gin;

    CREATE TABLE memories (
        tenant text COLLATE "C" NOT NULL,
        user_id text COLLATE "C" NOT NULL,
        id text COLLATE "C" NOT NULL,
        seq bigint GENERATED ALWAYS AS IDENTITY,  -- storage order: breaks ties of equal times
        content text NOT NULL,
        kind text COLLATE "C" NOT NULL,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        slot text COLLATE "C",
        entities text[] NOT NULL DEFAULT '{}',
        importance double precision NOT NULL,
        confidence double precision NOT NULL,
        valid_from timestamptz,
        valid_until timestamptz,
        expires_at timestamptz,
        status text COLLATE "C" NOT NULL,
        visibility text COLLATE "C" NOT NULL,
        hit_count integer NOT NULL DEFAULT 0,
        last_hit_at timestamptz,
        strength double precision NOT NULL,
        source_ids text[] NOT NULL DEFAULT '{}',
        session_id text COLLATE "C",
        agent_id text COLLATE "C",
        speaker text,
        links text[] NOT NULL DEFAULT '{}',
        superseded_by text,
        embedding_model text,
        metadata jsonb NOT NULL DEFAULT '{}',
        keywords text,
        tsv tsvector GENERATED ALWAYS AS (to_tsvector('simple', coalesce(keywords, ''))) STORED,
        kw_len integer GENERATED ALWAYS AS (length(to_tsvector('simple', coalesce(keywords, '')))) STORED,
        PRIMARY KEY (tenant, user_id, id)
    );
    CREATE INDEX memories_scope_created ON memories (tenant, user_id, created_at, seq);
    CREATE INDEX memories_scope_status ON memories (tenant, user_id, status, created_at, seq);
    CREATE INDEX memories_scope_seq ON memories (tenant, user_id, seq);
    CREATE INDEX memories_scope_slot ON memories (tenant, user_id, slot) WHERE slot IS NOT NULL;
    CREATE INDEX memories_scope_tsv ON memories USING gin (tenant, user_id, tsv);

    CREATE TABLE memory_vectors (
        tenant text COLLATE "C" NOT NULL,
        user_id text COLLATE "C" NOT NULL,
        channel text COLLATE "C" NOT NULL,
        memory_id text COLLATE "C" NOT NULL,
        PRIMARY KEY (tenant, user_id, channel, memory_id),
        FOREIGN KEY (tenant, user_id, memory_id) REFERENCES memories (tenant, user_id, id)
            ON DELETE CASCADE
    );
    CREATE INDEX memory_vectors_memory ON memory_vectors (tenant, user_id, memory_id);

    CREATE TABLE memory_entities (
        tenant text COLLATE "C" NOT NULL,
        user_id text COLLATE "C" NOT NULL,
        entity text COLLATE "C" NOT NULL,
        memory_id text COLLATE "C" NOT NULL,
        PRIMARY KEY (tenant, user_id, entity, memory_id),
        FOREIGN KEY (tenant, user_id, memory_id) REFERENCES memories (tenant, user_id, id)
            ON DELETE CASCADE
    );
    CREATE INDEX memory_entities_memory ON memory_entities (tenant, user_id, memory_id);

    CREATE TABLE memory_sources (
        tenant text COLLATE "C" NOT NULL,
        user_id text COLLATE "C" NOT NULL,
        source_id text COLLATE "C" NOT NULL,
        memory_id text COLLATE "C" NOT NULL,
        PRIMARY KEY (tenant, user_id, source_id, memory_id),
        FOREIGN KEY (tenant, user_id, memory_id) REFERENCES memories (tenant, user_id, id)
            ON DELETE CASCADE
    );
    CREATE INDEX memory_sources_memory ON memory_sources (tenant, user_id, memory_id);

    CREATE TABLE memory_history (
        tenant text COLLATE "C" NOT NULL,
        user_id text COLLATE "C" NOT NULL,
        memory_id text COLLATE "C" NOT NULL,
        seq bigint GENERATED ALWAYS AS IDENTITY,
        event text NOT NULL,
        at timestamptz NOT NULL,
        old text,
        new text,
        reason text,
        actor text NOT NULL,
        PRIMARY KEY (tenant, user_id, memory_id, seq)
    );

    CREATE TABLE jobs (
        tenant text COLLATE "C" NOT NULL,
        user_id text COLLATE "C" NOT NULL,
        id text COLLATE "C" NOT NULL,
        seq bigint GENERATED ALWAYS AS IDENTITY,
        kind text NOT NULL,
        payload jsonb NOT NULL,
        status text COLLATE "C" NOT NULL,
        attempts integer NOT NULL DEFAULT 0,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        worker text,
        lease_until timestamptz,
        last_error text,
        PRIMARY KEY (tenant, user_id, id)
    );
    CREATE INDEX jobs_open ON jobs (created_at, seq) WHERE status IN ('pending', 'claimed');
    CREATE INDEX jobs_id ON jobs (id);
    CREATE INDEX jobs_scope_status ON jobs (tenant, user_id, status);

    CREATE TABLE state (
        tenant text COLLATE "C" NOT NULL,
        user_id text COLLATE "C" NOT NULL,
        key text COLLATE "C" NOT NULL,
        value jsonb NOT NULL,
        PRIMARY KEY (tenant, user_id, key)
    );

    CREATE TABLE embedding_cache (
        model text COLLATE "C" NOT NULL,
        hash text COLLATE "C" NOT NULL,
        dim integer NOT NULL,
        vec bytea NOT NULL,
        PRIMARY KEY (model, hash)
    );

    CREATE TABLE user_stats (
        tenant text COLLATE "C" NOT NULL,
        user_id text COLLATE "C" NOT NULL,
        memories bigint NOT NULL DEFAULT 0,
        PRIMARY KEY (tenant, user_id)
    );

    CREATE TABLE jiyi_meta (key text COLLATE "C" PRIMARY KEY, value jsonb NOT NULL);
    """,
    ),
    # Self-contained memories stored their one vector on both channels; fusion reads a
    # missing ``context`` vector as the ``vector`` z-score (read.fuse.FALLBACK), so the copy
    # only made the context route score them twice. (No column yet: nothing was written.)
    Migration(
        2,
        "drop_context_copies",
        """
    DO $$
    BEGIN
        IF EXISTS (SELECT 1 FROM information_schema.columns WHERE table_schema = current_schema()
                   AND table_name = 'memory_vectors' AND column_name = 'embedding') THEN
            DELETE FROM memory_vectors v USING memory_vectors c
            WHERE v.channel = 'context' AND c.channel = 'content' AND c.tenant = v.tenant
              AND c.user_id = v.user_id AND c.memory_id = v.memory_id AND c.embedding = v.embedding;
        END IF;
    END $$;
    """,
    ),
    # A group chat's other speakers (Store.session_members) found without a scan.
    Migration(
        3,
        "session_members",
        """
    CREATE INDEX IF NOT EXISTS memories_session ON memories (tenant, session_id, user_id) WHERE session_id IS NOT NULL;
    """,
    ),
]


def migrate(conn: psycopg.Connection[Any]) -> list[str]:
    """Apply pending migrations, each in its own transaction; return the names applied.

    ``conn`` must be in autocommit mode (transactions are opened here).
    """
    applied: list[str] = []
    conn.execute("SELECT pg_advisory_lock(%s)", (LOCK_KEY,))
    try:
        conn.execute(
            "CREATE TABLE IF NOT EXISTS jiyi_migrations "
            "(version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL)"
        )
        done = {row[0] for row in conn.execute("SELECT version FROM jiyi_migrations")}
        for mig in MIGRATIONS:
            if mig.version in done:
                continue
            with conn.transaction():
                conn.execute(mig.sql.encode())
                conn.execute(
                    "INSERT INTO jiyi_migrations (version, name, applied_at) VALUES (%s, %s, now())",
                    (mig.version, mig.name),
                )
            applied.append(mig.name)
    finally:
        conn.execute("SELECT pg_advisory_unlock(%s)", (LOCK_KEY,))
    return applied


def applied_versions(conn: psycopg.Connection[Any]) -> list[int]:
    """Versions recorded in ``jiyi_migrations`` (for ``jiyi doctor`` and tests)."""
    return [row[0] for row in conn.execute("SELECT version FROM jiyi_migrations ORDER BY version")]
