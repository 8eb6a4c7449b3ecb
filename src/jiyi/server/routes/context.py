"""Prompt context: the memories for a query rendered within a token budget."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from jiyi.server.auth import MemoryDep
from jiyi.server.routes import ERRORS
from jiyi.server.schemas import ContextOut, ContextRequest, plain_recent

router = APIRouter(prefix="/v1", tags=["context"], responses=ERRORS)


@router.post("/context", response_model=ContextOut, summary="Build prompt context")
def context(req: ContextRequest, mem: MemoryDep) -> dict[str, Any]:
    """The user's memories relevant to ``query`` as a block for the prompt, at most ``budget_tokens``
    tokens, grouped by kind, lowest-ranked lines dropped first."""
    text = mem.build_context(req.query, user_id=req.user_id, budget_tokens=req.budget_tokens, limit=req.limit,
                             include_sensitive=req.include_sensitive, compress=req.compress,
                             recent=plain_recent(req.recent))
    return {"context": text}
