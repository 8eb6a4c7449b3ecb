"""The durable job queue in SQLite: accepted messages survive a crash (SPEC §2.10).

A job is ``pending`` → ``claimed`` (with a lease) → deleted by the ``apply`` that
commits its results, or back to ``pending`` by ``fail_job`` until it has been tried
:data:`MAX_ATTEMPTS` times, then ``failed`` (kept for inspection). A worker that dies
holding a claim simply lets the lease run out and the job is claimable again. Every
function here runs inside the caller's write transaction.
"""

from __future__ import annotations

import json
import sqlite3
import uuid
from datetime import datetime, timedelta
from typing import Any

from jiyi.clock import parse_iso
from jiyi.records import Scope
from jiyi.stores.protocol import Job
from jiyi.stores.sqlite.codec import iso

MAX_ATTEMPTS = 5
_OPEN = ("pending", "claimed")


def enqueue(
    conn: sqlite3.Connection, scope: Scope, kind: str, payload: dict[str, Any], at: datetime
) -> str:
    job_id = uuid.uuid4().hex
    conn.execute(
        "INSERT INTO jobs (id, tenant, user_id, kind, payload, status, attempts, "
        "created_at, updated_at) "
        "VALUES (?, ?, ?, ?, ?, 'pending', 0, ?, ?)",
        (
            job_id,
            scope.tenant,
            scope.user_id,
            kind,
            json.dumps(payload, ensure_ascii=False),
            iso(at),
            iso(at),
        ),
    )
    return job_id


def claim(
    conn: sqlite3.Connection, limit: int, worker: str, at: datetime, lease_seconds: float
) -> list[Job]:
    """Claim up to ``limit`` pending or lease-expired jobs, oldest first; a claim is an attempt."""
    now = iso(at)
    conn.execute(
        "UPDATE jobs SET status = 'failed', worker = NULL, lease_until = NULL, updated_at = ?, "
        "last_error = coalesce(last_error, 'lease expired') "
        "WHERE status = 'claimed' AND lease_until <= ? AND attempts >= ?",
        (now, now, MAX_ATTEMPTS),
    )
    rows = conn.execute(
        "SELECT seq, id, tenant, user_id, kind, payload, attempts, created_at FROM jobs "
        "WHERE status = 'pending' OR (status = 'claimed' AND lease_until <= ?) "
        "ORDER BY created_at, seq LIMIT ?",
        (now, max(0, limit)),
    ).fetchall()
    lease = iso(at + timedelta(seconds=lease_seconds))
    conn.executemany(
        "UPDATE jobs SET status = 'claimed', worker = ?, lease_until = ?, attempts = attempts + 1, "
        "updated_at = ? WHERE seq = ?",
        [(worker, lease, now, row[0]) for row in rows],
    )
    return [
        Job(
            job_id,
            Scope(tenant, user_id),
            kind,
            json.loads(payload),
            attempts + 1,
            parse_iso(created),
        )
        for _seq, job_id, tenant, user_id, kind, payload, attempts, created in rows
    ]


def fail(conn: sqlite3.Connection, job_id: str, error: str, at: datetime) -> None:
    """Record ``error``; retry later unless the job has used up its attempts."""
    conn.execute(
        "UPDATE jobs SET status = CASE WHEN attempts >= ? THEN 'failed' ELSE 'pending' END, "
        "worker = NULL, lease_until = NULL, last_error = ?, updated_at = ? "
        "WHERE id = ? AND status IN ('pending', 'claimed')",
        (MAX_ATTEMPTS, error[:10_000], iso(at), job_id),
    )


def finish(conn: sqlite3.Connection, job_id: str, scope: Scope) -> None:
    """A job whose results were committed is gone (its payload may hold personal text).

    Scoped like everything else: a change set can only finish its own user's job.
    """
    conn.execute(
        "DELETE FROM jobs WHERE id = ? AND tenant = ? AND user_id = ?",
        (job_id, scope.tenant, scope.user_id),
    )


def count_open(conn: sqlite3.Connection, scope: Scope | None) -> int:
    if scope is None:
        row = conn.execute("SELECT count(*) FROM jobs WHERE status IN (?, ?)", _OPEN).fetchone()
    else:
        row = conn.execute(
            "SELECT count(*) FROM jobs WHERE tenant = ? AND user_id = ? AND status IN (?, ?)",
            (scope.tenant, scope.user_id, *_OPEN),
        ).fetchone()
    return int(row[0])


def count_failed(conn: sqlite3.Connection) -> int:
    return int(conn.execute("SELECT count(*) FROM jobs WHERE status = 'failed'").fetchone()[0])
