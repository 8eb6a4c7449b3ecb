"""The durable job queue in PostgreSQL, drained by any number of workers (SPEC §2.10).

Same life cycle as the SQLite queue: ``pending`` → ``claimed`` (with a lease) →
deleted by the ``apply`` that commits the job's results, or back to ``pending`` by
:func:`fail` until it has been tried :data:`MAX_ATTEMPTS` times, then ``failed``
(kept for inspection). A worker that dies holding a claim lets the lease run out and
the job is claimable again.

Claims use ``FOR UPDATE SKIP LOCKED``: concurrent workers never wait for each other
and never get the same job, and no statement here ever waits on a row another
claimer holds (the lease-expiry sweep skips locked rows too). Every function runs
inside the caller's transaction.
"""

from __future__ import annotations

import uuid
from datetime import datetime, timedelta
from typing import Any

import psycopg
from psycopg.types.json import Jsonb

from jiyi.clock import ensure_utc
from jiyi.records import Scope
from jiyi.stores.protocol import Job

MAX_ATTEMPTS = 5

_EXPIRE_SQL = """
UPDATE jobs j SET status = 'failed', worker = NULL, lease_until = NULL, updated_at = %(now)s,
       last_error = coalesce(j.last_error, 'lease expired')
FROM (SELECT tenant, user_id, id FROM jobs
      WHERE status = 'claimed' AND lease_until <= %(now)s AND attempts >= %(max)s
      FOR UPDATE SKIP LOCKED) x
WHERE (j.tenant, j.user_id, j.id) = (x.tenant, x.user_id, x.id)
"""

_CLAIM_SQL = """
UPDATE jobs j SET status = 'claimed', worker = %(worker)s, lease_until = %(lease)s,
       attempts = j.attempts + 1, updated_at = %(now)s
FROM (SELECT tenant, user_id, id FROM jobs
      WHERE status IN ('pending', 'claimed')
        AND (status = 'pending' OR lease_until <= %(now)s)
        AND (status = 'pending' OR attempts < %(max)s)
      ORDER BY created_at, seq
      LIMIT %(limit)s
      FOR UPDATE SKIP LOCKED) x
WHERE (j.tenant, j.user_id, j.id) = (x.tenant, x.user_id, x.id)
RETURNING j.id, j.tenant, j.user_id, j.kind, j.payload, j.attempts, j.created_at, j.seq
"""


def enqueue(
    conn: psycopg.Connection[Any], scope: Scope, kind: str, payload: dict[str, Any], at: datetime
) -> str:
    job_id = uuid.uuid4().hex
    conn.execute(
        "INSERT INTO jobs (tenant, user_id, id, kind, payload, status, attempts, created_at, updated_at) "
        "VALUES (%s, %s, %s, %s, %s, 'pending', 0, %s, %s)",
        (scope.tenant, scope.user_id, job_id, kind, Jsonb(payload), at, at),
    )
    return job_id


def claim(
    conn: psycopg.Connection[Any], limit: int, worker: str, at: datetime, lease_seconds: float
) -> list[Job]:
    """Claim up to ``limit`` pending or lease-expired jobs, oldest first; each claim is one attempt."""
    now = ensure_utc(at)
    conn.execute(_EXPIRE_SQL, {"now": now, "max": MAX_ATTEMPTS})
    if limit <= 0:
        return []
    params = {
        "worker": worker,
        "lease": now + timedelta(seconds=lease_seconds),
        "now": now,
        "max": MAX_ATTEMPTS,
        "limit": limit,
    }
    rows = conn.execute(_CLAIM_SQL, params).fetchall()
    rows.sort(key=lambda r: (r[6], r[7]))  # RETURNING has no order
    return [
        Job(job_id, Scope(tenant, user_id), kind, payload, attempts, ensure_utc(created))
        for job_id, tenant, user_id, kind, payload, attempts, created, _seq in rows
    ]


def fail(conn: psycopg.Connection[Any], job_id: str, error: str, at: datetime) -> None:
    """Record ``error``; retry later unless the job has used up its attempts."""
    conn.execute(
        "UPDATE jobs SET status = CASE WHEN attempts >= %s THEN 'failed' ELSE 'pending' END, "
        "worker = NULL, lease_until = NULL, last_error = %s, updated_at = %s "
        "WHERE id = %s AND status IN ('pending', 'claimed')",
        (MAX_ATTEMPTS, error[:10_000], at, job_id),
    )


def finish(conn: psycopg.Connection[Any], job_id: str, scope: Scope) -> None:
    """A job whose results were committed is gone (its payload may hold personal text)."""
    conn.execute(
        "DELETE FROM jobs WHERE tenant = %s AND user_id = %s AND id = %s",
        (scope.tenant, scope.user_id, job_id),
    )


def count_open(conn: psycopg.Connection[Any], scope: Scope | None) -> int:
    if scope is None:
        row = conn.execute(
            "SELECT count(*) FROM jobs WHERE status IN ('pending', 'claimed')"
        ).fetchone()
    else:
        row = conn.execute(
            "SELECT count(*) FROM jobs WHERE tenant = %s AND user_id = %s "
            "AND status IN ('pending', 'claimed')",
            (scope.tenant, scope.user_id),
        ).fetchone()
    return int(row[0]) if row else 0


def count_failed(conn: psycopg.Connection[Any]) -> int:
    row = conn.execute("SELECT count(*) FROM jobs WHERE status = 'failed'").fetchone()
    return int(row[0]) if row else 0
