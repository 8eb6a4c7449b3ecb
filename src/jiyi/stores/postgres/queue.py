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

Fair between tenants: a claim takes each tenant's oldest jobs in turn (round robin), so
one tenant's backlog does not hold the others' jobs back; a claim for one scope (a sync
add waiting for its own user's earlier jobs) takes only that user's jobs, a claim for one
tenant (its ``flush``) only that tenant's.
"""

from __future__ import annotations

import uuid
from datetime import datetime, timedelta
from typing import Any

import psycopg
from psycopg.types.json import Jsonb

from jiyi.clock import ensure_utc
from jiyi.records import Scope
from jiyi.stores.protocol import FailedJob, Job

MAX_ATTEMPTS = 5

_EXPIRE_SQL = """
UPDATE jobs j SET status = 'failed', worker = NULL, lease_until = NULL, updated_at = %(now)s,
       last_error = coalesce(j.last_error, 'lease expired')
FROM (SELECT tenant, user_id, id FROM jobs
      WHERE status = 'claimed' AND lease_until <= %(now)s AND attempts >= %(max)s
      FOR UPDATE SKIP LOCKED) x
WHERE (j.tenant, j.user_id, j.id) = (x.tenant, x.user_id, x.id)
"""

_CLAIMABLE = """status IN ('pending', 'claimed')
        AND (status = 'pending' OR lease_until <= %(now)s)
        AND (status = 'pending' OR attempts < %(max)s)"""
# FOR UPDATE cannot sit beside a window function: the turns are ranked first, then the
# chosen rows locked (a row another claimer took meanwhile is skipped).
_CLAIM_SQL = f"""
UPDATE jobs j SET status = 'claimed', worker = %(worker)s, lease_until = %(lease)s,
       attempts = j.attempts + 1, updated_at = %(now)s
FROM (SELECT tenant, user_id, id FROM jobs
      WHERE (tenant, user_id, id) IN (
          SELECT tenant, user_id, id FROM (
              SELECT tenant, user_id, id, created_at, seq,
                     row_number() OVER (PARTITION BY tenant ORDER BY created_at, seq) AS turn
              FROM jobs WHERE {_CLAIMABLE}
                AND (%(tenant)s::text IS NULL OR (tenant = %(tenant)s AND user_id = %(user_id)s))
                AND (%(only_tenant)s::text IS NULL OR tenant = %(only_tenant)s)) r
          ORDER BY turn, created_at, seq
          LIMIT %(limit)s)
        AND {_CLAIMABLE}
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
    conn: psycopg.Connection[Any], limit: int, worker: str, at: datetime, lease_seconds: float,
    scope: Scope | None = None, tenant: str | None = None,
) -> list[Job]:
    """Claim up to ``limit`` pending or lease-expired jobs (of ``scope`` only, or of ``tenant``
    only, when given), tenants in turn, each one's oldest first; each claim is one attempt."""
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
        "tenant": scope.tenant if scope is not None else None,
        "user_id": scope.user_id if scope is not None else None,
        "only_tenant": tenant,
    }
    rows = conn.execute(_CLAIM_SQL, params).fetchall()
    turn: dict[str, int] = {}  # RETURNING has no order: tenants in turn again, each oldest first
    ranked = []
    for r in sorted(rows, key=lambda r: (r[6], r[7])):
        turn[r[1]] = turn.get(r[1], 0) + 1
        ranked.append((turn[r[1]], r))
    rows = [r for _, r in sorted(ranked, key=lambda x: (x[0], x[1][6], x[1][7]))]
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


def count_open(conn: psycopg.Connection[Any], scope: Scope | None, tenant: str | None = None) -> int:
    """Open jobs of ``scope``, else of ``tenant``, else of every tenant."""
    if scope is None and tenant is not None:
        row = conn.execute("SELECT count(*) FROM jobs WHERE tenant = %s AND status IN ('pending', 'claimed')",
                           (tenant,)).fetchone()
    elif scope is None:
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


_FAILED = "status = 'failed' AND (%(tenant)s::text IS NULL OR tenant = %(tenant)s) " \
          "AND (%(ids)s::text[] IS NULL OR id = ANY(%(ids)s))"


def count_failed(conn: psycopg.Connection[Any], tenant: str | None = None) -> int:
    row = conn.execute(f"SELECT count(*) FROM jobs WHERE {_FAILED}", {"tenant": tenant, "ids": None}).fetchone()
    return int(row[0]) if row else 0


def list_failed(conn: psycopg.Connection[Any], tenant: str | None, limit: int) -> list[FailedJob]:
    rows = conn.execute(
        f"SELECT id, tenant, user_id, kind, attempts, last_error, updated_at, created_at FROM jobs "
        f"WHERE {_FAILED} ORDER BY created_at, seq LIMIT %(limit)s",
        {"tenant": tenant, "ids": None, "limit": max(0, limit)}).fetchall()
    return [FailedJob(job_id, Scope(t, u), kind, attempts, error, ensure_utc(failed), ensure_utc(created))
            for job_id, t, u, kind, attempts, error, failed, created in rows]


def retry_failed(conn: psycopg.Connection[Any], tenant: str | None, ids: list[str] | None, at: datetime) -> int:
    """Failed jobs back to ``pending`` with their attempts reset (the last error is kept)."""
    cur = conn.execute(f"UPDATE jobs SET status = 'pending', attempts = 0, updated_at = %(now)s WHERE {_FAILED}",
                       {"tenant": tenant, "ids": ids, "now": ensure_utc(at)})
    return cur.rowcount


def drop_failed(conn: psycopg.Connection[Any], tenant: str | None, ids: list[str] | None) -> int:
    """Failed jobs deleted, on purpose (their messages are not written)."""
    return conn.execute(f"DELETE FROM jobs WHERE {_FAILED}", {"tenant": tenant, "ids": ids}).rowcount
