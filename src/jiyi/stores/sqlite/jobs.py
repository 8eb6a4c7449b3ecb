"""The durable job queue in SQLite: accepted messages survive a crash (SPEC §2.10).

A job is ``pending`` → ``claimed`` (with a lease) → deleted by the ``apply`` that
commits its results, or back to ``pending`` by ``fail_job`` until it has been tried
:data:`MAX_ATTEMPTS` times, then ``failed`` (kept for inspection). A worker that dies
holding a claim simply lets the lease run out and the job is claimable again. Every
function here runs inside the caller's write transaction.

Fair between tenants: a claim takes each tenant's oldest jobs in turn (round robin), so
one tenant's backlog does not hold the others' jobs back; a claim for one scope (a sync
add waiting for its own user's earlier jobs) takes only that user's jobs, a claim for one
tenant (its ``flush``) only that tenant's. A user's jobs are always claimed oldest first.
"""

from __future__ import annotations

import json
import sqlite3
import uuid
from datetime import datetime, timedelta
from typing import Any

from jiyi.clock import parse_iso
from jiyi.records import Scope
from jiyi.stores.protocol import FailedJob, Job
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


_CLAIMABLE = "(status = 'pending' OR (status = 'claimed' AND lease_until <= :now))"
_CLAIM_FAIR = f"""
SELECT seq, id, tenant, user_id, kind, payload, attempts, created_at FROM (
    SELECT *, row_number() OVER (PARTITION BY tenant ORDER BY created_at, seq) AS turn
    FROM jobs WHERE {_CLAIMABLE} AND (:tenant IS NULL OR tenant = :tenant))
ORDER BY turn, created_at, seq LIMIT :limit
"""
_CLAIM_SCOPE = f"""
SELECT seq, id, tenant, user_id, kind, payload, attempts, created_at FROM jobs
WHERE tenant = :tenant AND user_id = :user_id AND {_CLAIMABLE}
ORDER BY created_at, seq LIMIT :limit
"""


def claim(
    conn: sqlite3.Connection, limit: int, worker: str, at: datetime, lease_seconds: float,
    scope: Scope | None = None, tenant: str | None = None,
) -> list[Job]:
    """Claim up to ``limit`` pending or lease-expired jobs (of ``scope`` only, or of ``tenant``
    only, when given), tenants in turn, each one's oldest first; a claim is an attempt."""
    now = iso(at)
    conn.execute(
        "UPDATE jobs SET status = 'failed', worker = NULL, lease_until = NULL, updated_at = ?, "
        "last_error = coalesce(last_error, 'lease expired') "
        "WHERE status = 'claimed' AND lease_until <= ? AND attempts >= ?",
        (now, now, MAX_ATTEMPTS),
    )
    params: dict[str, Any] = {"now": now, "limit": max(0, limit), "tenant": tenant}
    if scope is not None:
        params.update(tenant=scope.tenant, user_id=scope.user_id)
    rows = conn.execute(_CLAIM_SCOPE if scope is not None else _CLAIM_FAIR, params).fetchall()
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


def count_open(conn: sqlite3.Connection, scope: Scope | None, tenant: str | None = None) -> int:
    """Open jobs of ``scope``, else of ``tenant``, else of every tenant."""
    if scope is None and tenant is not None:
        row = conn.execute("SELECT count(*) FROM jobs WHERE tenant = ? AND status IN (?, ?)",
                           (tenant, *_OPEN)).fetchone()
    elif scope is None:
        row = conn.execute("SELECT count(*) FROM jobs WHERE status IN (?, ?)", _OPEN).fetchone()
    else:
        row = conn.execute(
            "SELECT count(*) FROM jobs WHERE tenant = ? AND user_id = ? AND status IN (?, ?)",
            (scope.tenant, scope.user_id, *_OPEN),
        ).fetchone()
    return int(row[0])


def _failed_where(tenant: str | None, ids: list[str] | None) -> tuple[str, list[Any]]:
    where, args = "status = 'failed'", []
    if tenant is not None:
        where += " AND tenant = ?"
        args.append(tenant)
    if ids is not None:
        where += f" AND id IN ({','.join('?' * len(ids))})" if ids else " AND 0"
        args.extend(ids)
    return where, args


def count_failed(conn: sqlite3.Connection, tenant: str | None = None) -> int:
    where, args = _failed_where(tenant, None)
    return int(conn.execute(f"SELECT count(*) FROM jobs WHERE {where}", args).fetchone()[0])


def list_failed(conn: sqlite3.Connection, tenant: str | None, limit: int) -> list[FailedJob]:
    where, args = _failed_where(tenant, None)
    rows = conn.execute(
        f"SELECT id, tenant, user_id, kind, attempts, last_error, updated_at, created_at FROM jobs "
        f"WHERE {where} ORDER BY created_at, seq LIMIT ?", [*args, max(0, limit)]).fetchall()
    return [FailedJob(job_id, Scope(t, u), kind, attempts, error, parse_iso(failed), parse_iso(created))
            for job_id, t, u, kind, attempts, error, failed, created in rows]


def retry_failed(conn: sqlite3.Connection, tenant: str | None, ids: list[str] | None, at: datetime) -> int:
    """Failed jobs back to ``pending`` with their attempts reset (the last error is kept)."""
    where, args = _failed_where(tenant, ids)
    return conn.execute(f"UPDATE jobs SET status = 'pending', attempts = 0, updated_at = ? WHERE {where}",
                        [iso(at), *args]).rowcount


def drop_failed(conn: sqlite3.Connection, tenant: str | None, ids: list[str] | None) -> int:
    """Failed jobs deleted, on purpose (their messages are not written)."""
    where, args = _failed_where(tenant, ids)
    return conn.execute(f"DELETE FROM jobs WHERE {where}", args).rowcount
