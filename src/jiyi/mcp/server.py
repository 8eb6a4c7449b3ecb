"""``jiyi mcp``: jiyi's memory as MCP tools, on the official ``mcp`` SDK (stdio or streamable HTTP).

Each tool is a thin call into :class:`~jiyi.memory.Memory`, run on a worker thread so the
server's event loop never blocks on SQLite or the embedding model. Every tool takes an
optional ``user_id``; when the client leaves it out, the server's ``default_user``
(``--default-user`` / ``JIYI_MCP_DEFAULT_USER``) is used, so a single-user desktop client
needs no user plumbing at all. Expected failures (bad input, unknown memory) come back as
MCP tool errors with jiyi's message; nothing else from an exception reaches the client.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Literal, TypeVar

import anyio.to_thread

from jiyi.errors import JiyiError, MissingDependency

if TYPE_CHECKING:
    from mcp.server.mcpserver import MCPServer

    from jiyi.memory import Memory
    from jiyi.records import Hit, MemoryRecord

T = TypeVar("T")
Transport = Literal["stdio", "http"]

INSTRUCTIONS = (
    "Long-term memory about the user (jiyi 记忆). Call search_memory or get_context before answering "
    "questions that may depend on what the user told you earlier; call add_memory when the user states "
    "a lasting fact, preference or plan (one self-contained statement per call, e.g. 'User is allergic "
    "to peanuts'); update_memory or delete_memory when the user corrects or retracts something."
)


def _load_sdk() -> type[MCPServer]:
    try:
        from mcp.server.mcpserver import MCPServer
    except ImportError as exc:  # mcp missing, or the 1.x SDK (FastMCP) which we do not target
        raise MissingDependency("jiyi mcp (the official MCP SDK, version 2)", "mcp") from exc
    return MCPServer


class MemoryTools:
    """The six tools, bound to one Memory and one default user."""

    def __init__(self, memory: Memory, default_user: str | None = None) -> None:
        self.memory = memory
        self.default_user = default_user or None

    def user(self, user_id: str | None) -> str:
        """The caller's user id, or the server's default; a tool error when neither is set."""
        chosen = (user_id or "").strip() or self.default_user
        if not chosen:
            raise _tool_error("user_id is required: pass it, or start the server with --default-user "
                              "(JIYI_MCP_DEFAULT_USER)")
        return chosen

    async def call(self, fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> T:
        """Run a Memory method on a worker thread; JiyiErrors become tool errors."""
        try:
            return await anyio.to_thread.run_sync(functools.partial(fn, *args, **kwargs))
        except JiyiError as exc:
            raise _tool_error(str(exc)) from None

    async def add_memory(self, content: str, user_id: str | None = None) -> dict[str, Any]:
        """Remember one self-contained statement about the user (e.g. "User is allergic to peanuts").

        Returns the stored memory; a near-duplicate is merged and a new value for a single-valued
        attribute (city, phone) supersedes the old one.
        """
        rec = await self.call(self.memory.remember, content, user_id=self.user(user_id))
        return _record(rec)

    async def search_memory(self, query: str, user_id: str | None = None, limit: int = 10) -> dict[str, Any]:
        """Find the memories most relevant to ``query``, best first, each with its score."""
        hits = await self.call(self.memory.search, query, user_id=self.user(user_id), limit=limit)
        return {"results": [_hit(h) for h in hits]}

    async def list_memories(self, user_id: str | None = None, limit: int = 100, offset: int = 0) -> dict[str, Any]:
        """List the user's active memories, newest first (``limit``/``offset`` page through them)."""
        records = await self.call(self.memory.get_all, user_id=self.user(user_id), limit=limit, offset=offset)
        return {"results": [_record(r) for r in records]}

    async def update_memory(self, memory_id: str, content: str, user_id: str | None = None) -> dict[str, Any]:
        """Replace the text of one memory (the old text stays in its history)."""
        rec = await self.call(self.memory.update, memory_id, content, user_id=self.user(user_id))
        return _record(rec)

    async def delete_memory(self, memory_id: str, user_id: str | None = None) -> dict[str, Any]:
        """Forget one memory (soft delete: it is never recalled again, but stays in the audit history)."""
        await self.call(self.memory.delete, memory_id, user_id=self.user(user_id))
        return {"deleted": memory_id}

    async def get_context(self, query: str, user_id: str | None = None, budget_tokens: int = 800) -> str:
        """The memories relevant to ``query`` as a ready-to-use prompt block (empty if none)."""
        return await self.call(self.memory.build_context, query, user_id=self.user(user_id),
                               budget_tokens=budget_tokens)

    def names(self) -> tuple[str, ...]:
        return ("add_memory", "search_memory", "list_memories", "update_memory", "delete_memory", "get_context")


def build_server(memory: Memory, *, default_user: str | None = None) -> MCPServer:
    """An MCPServer exposing :class:`MemoryTools` (caller owns ``memory`` and closes it)."""
    server_cls = _load_sdk()
    from mcp.types import ToolAnnotations

    server = server_cls(name="jiyi", instructions=INSTRUCTIONS, version=_version())
    tools = MemoryTools(memory, default_user)
    read_only = {"search_memory", "list_memories", "get_context"}
    for name in tools.names():
        fn = getattr(tools, name)
        hints = ToolAnnotations(read_only_hint=name in read_only, destructive_hint=name == "delete_memory")
        server.add_tool(fn, name=name, annotations=hints)
    return server


def serve(memory: Memory, *, transport: Transport = "stdio", default_user: str | None = None,
          host: str = "127.0.0.1", port: int = 8765, path: str = "/mcp") -> None:
    """Run the server until the client disconnects (stdio) or the process is stopped (http)."""
    from jiyi.text.tokens import warm

    warm()  # jieba's dictionary and the stemmer now, not on the first tool call
    server = build_server(memory, default_user=default_user)
    if transport == "stdio":
        server.run("stdio")
    else:
        server.run("streamable-http", host=host, port=port, streamable_http_path=path)


def _tool_error(message: str) -> Exception:
    from mcp.server.mcpserver.exceptions import ToolError

    return ToolError(message)


def _record(rec: MemoryRecord) -> dict[str, Any]:
    d = rec.to_dict()
    keep = ("id", "content", "kind", "slot", "status", "importance", "confidence", "created_at", "updated_at",
            "valid_from", "valid_until", "expires_at", "session_id", "speaker")
    return {k: d[k] for k in keep if d.get(k) is not None}


def _hit(hit: Hit) -> dict[str, Any]:
    out = _record(hit.record)
    out["score"] = round(hit.score, 4)
    return out


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("jiyi")
    except PackageNotFoundError:
        return "0"
