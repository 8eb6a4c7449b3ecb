"""Memories: add, end a session, the short-term buffer, search, list, get, update, delete, restore, history,
remember."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Body, Path, Query

from jiyi.errors import NotFound
from jiyi.records import MemoryRecord
from jiyi.server.auth import MemoryDep
from jiyi.server.routes import ERRORS, NOT_FOUND, pick_user
from jiyi.server.schemas import (
    ID_RULE,
    RECORD_ID_RULE,
    AddRequest,
    AddResultOut,
    BufferOut,
    ClearedOut,
    EndSessionRequest,
    HistoryOut,
    KindName,
    MemoryListOut,
    MemoryOut,
    PurgedOut,
    PurgeRequest,
    RememberRequest,
    SearchOut,
    SearchRequest,
    StatusFilter,
    SummariesOut,
    UpdateRequest,
    UserRequest,
    plain_recent,
)
from jiyi.write.validate import MAX_OFFSET

router = APIRouter(prefix="/v1", tags=["memories"], responses=ERRORS)
UserQuery = Annotated[str | None, Query(description="The user (or put user_id in the JSON body).",
                                        json_schema_extra=ID_RULE)]
UserParam = Annotated[str, Query(description="The user.", json_schema_extra=ID_RULE)]
SessionQuery = Annotated[str | None, Query(description="One session (default all).", json_schema_extra=ID_RULE)]
MemoryId = Annotated[str, Path(description="The memory's id.",
                               json_schema_extra={**RECORD_ID_RULE, "pattern": "^[A-Za-z0-9_.:@#-]{1,128}$"})]


@router.post("/memories", response_model=AddResultOut, summary="Add messages")
def add(req: AddRequest, mem: MemoryDep) -> dict[str, Any]:
    """Accept conversation messages for a user. They are durable when this returns; extraction runs in
    the background unless ``sync`` is true, in which case the answer lists what it did."""
    messages: Any = req.messages
    if not isinstance(messages, str):
        items = messages if isinstance(messages, list) else [messages]
        messages = [m.model_dump(exclude_none=True) for m in items]
    result = mem.add(messages, user_id=req.user_id, session_id=req.session_id, agent_id=req.agent_id,
                     metadata=req.metadata, sync=req.sync, group=req.group)
    return result.to_dict()


@router.post("/sessions/end", response_model=SummariesOut, summary="End a session")
def end_session(req: EndSessionRequest, mem: MemoryDep) -> dict[str, Any]:
    """Close a session: extract what is still pending and summarise its unsummarised turns (waits).
    Returns the summary memories written."""
    records = mem.end_session(user_id=req.user_id, session_id=req.session_id)
    return {"memories": [r.to_dict() for r in records]}


@router.get("/buffer", response_model=BufferOut, summary="Recent messages")
def recent_messages(mem: MemoryDep, user_id: UserParam,
                    session_id: SessionQuery = None,
                    ) -> dict[str, Any]:
    """The short-term buffer: the last rounds of the session (or of every session), oldest first."""
    return {"messages": mem.recent_messages(user_id=user_id, session_id=session_id)}


@router.delete("/buffer", response_model=ClearedOut, summary="Clear recent messages")
def clear_buffer(mem: MemoryDep, user_id: UserParam,
                 session_id: SessionQuery = None,
                 ) -> dict[str, Any]:
    """Drop buffered turns of the session (or all); stored episodes and memories stay."""
    return {"cleared": mem.clear_buffer(user_id=user_id, session_id=session_id)}


@router.post("/memories/search", response_model=SearchOut, summary="Search memories")
def search(req: SearchRequest, mem: MemoryDep) -> dict[str, Any]:
    """The best memories for ``query``, each with the score of every ranking component."""
    hits = mem.search(req.query, user_id=req.user_id, limit=req.limit, kinds=req.kinds, at=req.at,
                      include_sensitive=req.include_sensitive, filters=req.filters, recent=plain_recent(req.recent))
    return {"hits": [h.to_dict() for h in hits]}


@router.get("/memories", response_model=MemoryListOut, summary="List memories")
def list_memories(mem: MemoryDep, user_id: UserParam,
                  kind: Annotated[list[KindName] | None, Query(description="Only these kinds (repeatable).")] = None,
                  status: Annotated[StatusFilter, Query(description="A status, or 'all'.")] = "active",
                  limit: Annotated[int | None, Query(ge=1, le=1000)] = 100,
                  offset: Annotated[int, Query(ge=0, le=MAX_OFFSET)] = 0,
                  session_id: Annotated[str | None, Query(description="Only this session.", json_schema_extra=ID_RULE)] = None,
                  agent_id: Annotated[str | None, Query(description="Only this agent.", json_schema_extra=ID_RULE)] = None) -> dict[str, Any]:
    """A user's memories, newest first (100 per page unless ``limit`` says otherwise, at most 1000)."""
    records = mem.get_all(user_id=user_id, kinds=kind or None, status=None if status == "all" else status,
                          limit=limit, offset=offset, session_id=session_id, agent_id=agent_id)
    return {"memories": [r.to_dict() for r in records], "limit": limit, "offset": offset}


@router.get("/memories/{memory_id}", response_model=MemoryOut, summary="Get one memory",
            responses=NOT_FOUND)
def get(memory_id: MemoryId, mem: MemoryDep, user_id: UserParam) -> dict[str, Any]:
    """One memory with every field."""
    uid = pick_user(user_id, None)
    return _require(mem.get(memory_id, user_id=uid), memory_id, uid)


@router.patch("/memories/{memory_id}", response_model=MemoryOut, summary="Update a memory",
              responses=NOT_FOUND)
def update(memory_id: MemoryId, req: UpdateRequest, mem: MemoryDep, user_id: UserQuery = None) -> dict[str, Any]:
    """Replace a memory's content (re-embedded; the old text stays in its history)."""
    return mem.update(memory_id, req.content, user_id=pick_user(user_id, req.user_id)).to_dict()


@router.delete("/memories/{memory_id}", response_model=MemoryOut, summary="Delete a memory",
               responses=NOT_FOUND)
def delete(memory_id: MemoryId, mem: MemoryDep, user_id: UserQuery = None,
           req: Annotated[UserRequest | None, Body()] = None,
           purge: Annotated[bool, Query(description="Erase it now (text, vectors, index, history texts) "
                                                    "instead of keeping it restorable for 7 days.")] = False,
           ) -> dict[str, Any]:
    """Delete one memory: it is no longer recalled, restorable for 7 days, then erased (``purge=true``:
    erased now). Returns it as it was deleted."""
    uid = pick_user(user_id, req.user_id if req else None)
    if purge:
        rec = _require(mem.get(memory_id, user_id=uid), memory_id, uid)
        mem.delete(memory_id, user_id=uid, purge=True)
        return {**rec, "status": "deleted"}
    mem.delete(memory_id, user_id=uid)
    return _require(mem.get(memory_id, user_id=uid), memory_id, uid)


@router.post("/memories/purge", response_model=PurgedOut, summary="Erase memories now", responses=NOT_FOUND)
def purge(req: PurgeRequest, mem: MemoryDep) -> dict[str, Any]:
    """Erase ``memory_id`` (any status), or every deleted memory of the user, now: text, vectors,
    keyword-index tokens, embedding-cache rows and history texts (docs/erasure.md)."""
    return {"purged": mem.purge(req.memory_id, user_id=req.user_id, vacuum=req.vacuum)}


@router.post("/memories/{memory_id}/restore", response_model=MemoryOut, summary="Restore a memory",
             responses=NOT_FOUND)
def restore(memory_id: MemoryId, mem: MemoryDep, user_id: UserQuery = None,
            req: Annotated[UserRequest | None, Body()] = None) -> dict[str, Any]:
    """Bring back a deleted, expired or archived memory."""
    return mem.restore(memory_id, user_id=pick_user(user_id, req.user_id if req else None)).to_dict()


@router.get("/memories/{memory_id}/history", response_model=HistoryOut, summary="History of a memory",
            responses=NOT_FOUND)
def history(memory_id: MemoryId, mem: MemoryDep, user_id: UserParam) -> dict[str, Any]:
    """Every change to the memory (add, update, merge, supersede, expire, delete …), oldest first."""
    events = mem.history(memory_id, user_id=pick_user(user_id, None))
    return {"events": [e.to_dict() for e in events]}


@router.post("/remember", response_model=MemoryOut, summary="Remember one statement")
def remember(req: RememberRequest, mem: MemoryDep) -> dict[str, Any]:
    """Store one statement now, as given, resolved against the user's existing memories."""
    rec = mem.remember(req.content, user_id=req.user_id, kind=req.kind, importance=req.importance,
                       valid_until=req.valid_until, expires_at=req.expires_at, slot=req.slot, session_id=req.session_id,
                       visibility=req.visibility)
    return rec.to_dict()


def _require(record: MemoryRecord | None, memory_id: str, user_id: str) -> dict[str, Any]:
    if record is None:
        raise NotFound(f"no memory {memory_id!r} for user {user_id!r}")
    return record.to_dict()
