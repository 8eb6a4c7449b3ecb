"""Users and maintenance: forget, export, import, gc, flush, stats; health and metrics."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Annotated, Any

from fastapi import APIRouter, Body, Depends, Path, Query, Request
from fastapi.responses import PlainTextResponse, StreamingResponse

from jiyi import __version__
from jiyi.server.auth import MemoryDep, operator, server_state
from jiyi.server.routes import ERRORS
from jiyi.server.schemas import (
    ID_RULE,
    DeletedOut,
    ErrorOut,
    FailedJobsOut,
    FlushOut,
    FlushRequest,
    GcReportOut,
    GcRequest,
    HealthOut,
    ImportOut,
    ImportRequest,
    JobsCountOut,
    JobsRequest,
    StatsOut,
    UsersOut,
)
from jiyi.stores.protocol import FailedJob
from jiyi.write.validate import check_time

router = APIRouter(prefix="/v1", tags=["users and maintenance"], responses=ERRORS)
ops = APIRouter(tags=["operations"])


@router.get("/users", response_model=UsersOut, summary="List users")
def users(mem: MemoryDep) -> dict[str, Any]:
    """Every user of the caller's tenant that has memories."""
    return {"users": mem.users()}


UserPath = Annotated[str, Path(description="The user (may hold a slash).", json_schema_extra=ID_RULE)]
#: A path whose user id is empty (or that matches no route) is 404 from the router.
NO_ROUTE: dict[int | str, dict[str, object]] = {
    404: {"model": ErrorOut, "description": "The path names no route (an empty user id)."}}


@router.delete("/users/{user_id:path}", response_model=DeletedOut, summary="Forget a user", responses=NO_ROUTE)
def forget_user(user_id: UserPath, mem: MemoryDep) -> dict[str, Any]:
    """Delete everything about a user: memories, vectors, history, queued jobs, buffers (GDPR erasure).
    Returns how many memories were removed."""
    return {"deleted": mem.delete_all(user_id=user_id)}


@router.get("/users/{user_id:path}/export", summary="Export a user (JSONL)", response_class=StreamingResponse,
            responses={**NO_ROUTE, 200: {"description": "One JSON object per line: every memory, all statuses, "
                                            "with its history.", "content": {"application/x-ndjson": {}}}})
def export_user(user_id: UserPath, mem: MemoryDep) -> StreamingResponse:
    """Stream a user's memories as JSON lines (the format ``POST /v1/import`` and ``jiyi import`` read)."""
    rows = mem.export(user_id=user_id)  # validates user_id now, before the 200 is sent

    def lines() -> Iterator[str]:
        for row in rows:
            yield json.dumps(row, ensure_ascii=False) + "\n"

    filename = "export.jsonl"
    return StreamingResponse(lines(), media_type="application/x-ndjson",
                             headers={"Content-Disposition": f'attachment; filename="{filename}"'})


@router.post("/import", response_model=ImportOut, summary="Import exported records")
def import_records(req: ImportRequest, mem: MemoryDep) -> dict[str, Any]:
    """Load rows produced by export into the caller's tenant (every row is validated first)."""
    return {"imported": mem.import_(req.records)}


@router.post("/gc", response_model=GcReportOut, summary="Run maintenance")
def gc(mem: MemoryDep, req: Annotated[GcRequest | None, Body()] = None) -> dict[str, Any]:
    """Expire, purge, forget and archive per the maintenance rules; a dry run (the default) only reports."""
    req = req or GcRequest.model_validate({})
    now = check_time(req.now, "now") if req.now else None
    return mem.gc(dry_run=req.dry_run, now=now, user_id=req.user_id).to_dict()


@router.post("/flush", response_model=FlushOut, summary="Wait for queued writes")
def flush(mem: MemoryDep, req: Annotated[FlushRequest | None, Body()] = None) -> dict[str, Any]:
    """Wait until every queued write is processed (``idle`` is false if ``timeout`` seconds passed first,
    or while a write of the tenant has failed for good: see ``GET /v1/jobs/failed``)."""
    req = req or FlushRequest.model_validate({})
    return {"idle": mem.flush(req.timeout, user_id=req.user_id)}


@router.get("/jobs/failed", response_model=FailedJobsOut, summary="Writes that failed for good")
def failed_jobs(mem: MemoryDep, limit: Annotated[int, Query(ge=1, le=1000)] = 100) -> dict[str, Any]:
    """Queued writes of the tenant that failed past their retries, oldest first, with their last error."""
    return {"jobs": [failed_job_out(j) for j in mem.failed_jobs(limit)]}


@router.post("/jobs/retry", response_model=JobsCountOut, summary="Queue failed writes again")
def retry_jobs(mem: MemoryDep, req: Annotated[JobsRequest | None, Body()] = None) -> dict[str, Any]:
    """Failed writes (all of the tenant's, or ``ids``) go back to the queue; returns how many."""
    return {"count": mem.retry_failed((req or JobsRequest.model_validate({})).ids)}


@router.post("/jobs/drop", response_model=JobsCountOut, summary="Drop failed writes")
def drop_jobs(mem: MemoryDep, req: Annotated[JobsRequest | None, Body()] = None) -> dict[str, Any]:
    """Delete failed writes on purpose (their messages are not stored); returns how many."""
    return {"count": mem.drop_failed((req or JobsRequest.model_validate({})).ids)}


def failed_job_out(job: FailedJob) -> dict[str, Any]:
    return {"id": job.id, "user_id": job.scope.user_id, "kind": job.kind, "attempts": job.attempts,
            "error": job.error, "failed_at": job.failed_at.isoformat(), "created_at": job.created_at.isoformat()}


@router.get("/stats", response_model=StatsOut, summary="Tenant statistics")
def stats(mem: MemoryDep) -> dict[str, Any]:
    """Users, queue depth, worker errors and writes that failed for good (``failed_jobs``)."""
    return {"tenant": mem.settings.tenant, "stats": mem.stats()}


@ops.get("/healthz", response_model=HealthOut, summary="Liveness")
def healthz() -> dict[str, Any]:
    """Answers without authentication while the process serves requests."""
    return {"status": "ok", "version": __version__}


@ops.get("/metrics", response_class=PlainTextResponse, summary="Prometheus metrics",
         dependencies=[Depends(operator)], responses={**ERRORS, 200: {"content": {"text/plain": {}}}})
def metrics(request: Request) -> PlainTextResponse:
    """Request counts and latency histograms per route, queue depth (text exposition format 0.0.4).
    These are every tenant's figures: only an operator key reads them (a key of an operator
    tenant, by default the configured tenant; Prometheus: ``authorization: {credentials: <key>}``)."""
    text = server_state(request).metrics.render()
    return PlainTextResponse(text, media_type="text/plain; version=0.0.4; charset=utf-8")
