"""``jiyi mcp``: jiyi's memory as MCP tools, on the official ``mcp`` SDK (stdio or streamable HTTP).

Each tool is a thin call into :class:`~jiyi.memory.Memory`, run on a worker thread so the
server's event loop never blocks on SQLite or the embedding model. Two modes:

- pinned (``--user ID`` / ``JIYI_MCP_USER``): the server serves exactly that user and no tool
  has a ``user_id`` parameter, so no tool call can reach anyone else;
- shared (the default): every tool takes an optional ``user_id``; when the client leaves it
  out, ``--default-user`` / ``JIYI_MCP_DEFAULT_USER`` is used. Any caller reaches any user:
  for trusted single-operator setups only. Expected failures (bad input, unknown memory) come back as
MCP tool errors with jiyi's message; nothing else from an exception reaches the client.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Literal, TypeVar, cast

import anyio.to_thread
from pydantic import BaseModel, ConfigDict, model_validator
from pydantic_core import PydanticCustomError

from jiyi.errors import InvalidInput, JiyiError, MissingDependency
from jiyi.redact import redact
from jiyi.userid import check_user_id, user_id_problem

if TYPE_CHECKING:
    from mcp.server.mcpserver import MCPServer

    from jiyi.memory import Memory
    from jiyi.records import Hit, MemoryRecord

T = TypeVar("T")
M = TypeVar("M", bound=BaseModel)
Recent = list[str | dict[str, str]] | None  # get_context's conversation before the query
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


MAX_PAGE = 1000


class _Tools:
    """The six tools' bodies, each for an explicit user; the subclasses decide where the user comes from."""

    def __init__(self, memory: Memory) -> None:
        self.memory = memory

    async def call(self, fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> T:
        """Run a Memory method on a worker thread; JiyiErrors become tool errors."""
        try:
            return await anyio.to_thread.run_sync(functools.partial(fn, *args, **kwargs))
        except JiyiError as exc:
            raise _tool_error(redact(str(exc))) from None

    async def _add(self, user: str, content: str) -> dict[str, Any]:
        return _record(await self.call(self.memory.remember, content, user_id=user))

    async def _search(self, user: str, query: str, limit: int) -> dict[str, Any]:
        hits = await self.call(self.memory.search, query, user_id=user, limit=limit)
        return {"results": [_hit(h) for h in hits]}

    async def _list(self, user: str, limit: int, offset: int) -> dict[str, Any]:
        if isinstance(limit, bool) or not isinstance(limit, int) or not 1 <= limit <= MAX_PAGE:
            raise _tool_error(f"limit must be a whole number from 1 to {MAX_PAGE}, got {limit!r}")
        if isinstance(offset, bool) or not isinstance(offset, int) or offset < 0:
            raise _tool_error(f"offset must be a whole number of 0 or more, got {offset!r}")
        records = await self.call(self.memory.get_all, user_id=user, limit=limit, offset=offset)
        return {"results": [_record(r) for r in records]}

    async def _update(self, user: str, memory_id: str, content: str) -> dict[str, Any]:
        return _record(await self.call(self.memory.update, memory_id, content, user_id=user))

    async def _delete(self, user: str, memory_id: str) -> dict[str, Any]:
        await self.call(self.memory.delete, memory_id, user_id=user)
        return {"deleted": memory_id}

    async def _context(self, user: str, query: str, budget_tokens: int, recent: Recent) -> str:
        return await self.call(self.memory.build_context, query, user_id=user, budget_tokens=budget_tokens,
                               recent=recent)

    def names(self) -> tuple[str, ...]:
        return ("add_memory", "search_memory", "list_memories", "update_memory", "delete_memory", "get_context")


class MemoryTools(_Tools):
    """The six tools, each with an optional ``user_id``: any caller reaches any user of the store.

    For trusted single-operator setups (``--default-user`` fills in a missing ``user_id``). A
    prompt-injected tool call can name another user, so a server shared by several people must
    use :class:`PinnedTools` (``jiyi mcp --user ID``) instead, one server per user.
    """

    def __init__(self, memory: Memory, default_user: str | None = None) -> None:
        super().__init__(memory)
        self.default_user = check_user_id(default_user, "--default-user") if default_user else None

    def user(self, user_id: str | None) -> str:
        """The caller's user id, or the server's default; a tool error when neither is set."""
        chosen = self.default_user if user_id is None else user_id
        if chosen is None:
            raise _tool_error("user_id is required: pass it, or start the server with --default-user "
                              "(JIYI_MCP_DEFAULT_USER)")
        problem = user_id_problem(chosen)
        if problem is not None:
            raise _tool_error(f"user_id {problem}: {chosen!r}")
        return chosen

    async def add_memory(self, content: str, user_id: str | None = None) -> dict[str, Any]:
        """Remember one self-contained statement about the user (e.g. "User is allergic to peanuts").

        Returns the stored memory; a near-duplicate is merged and a new value for a single-valued
        attribute (city, phone) supersedes the old one.
        """
        return await self._add(self.user(user_id), content)

    async def search_memory(self, query: str, user_id: str | None = None, limit: int = 10) -> dict[str, Any]:
        """Find the memories most relevant to ``query``, best first, each with its score."""
        return await self._search(self.user(user_id), query, limit)

    async def list_memories(self, user_id: str | None = None, limit: int = 100, offset: int = 0) -> dict[str, Any]:
        """List the user's active memories, newest first (``limit`` 1-1000 and ``offset`` page through them)."""
        return await self._list(self.user(user_id), limit, offset)

    async def update_memory(self, memory_id: str, content: str, user_id: str | None = None) -> dict[str, Any]:
        """Replace the text of one memory (the old text stays in its history)."""
        return await self._update(self.user(user_id), memory_id, content)

    async def delete_memory(self, memory_id: str, user_id: str | None = None) -> dict[str, Any]:
        """Forget one memory (soft delete: it is never recalled again, but stays in the audit history)."""
        return await self._delete(self.user(user_id), memory_id)

    async def get_context(self, query: str, user_id: str | None = None, budget_tokens: int = 800,
                          recent: Recent = None) -> str:
        """The memories relevant to ``query`` as a ready-to-use prompt block (empty if none).

        ``recent``: the conversation's previous messages, oldest first (strings, or {"role", "content"}),
        so a follow-up ("what was that place called again?") finds what the turns before it named.
        """
        return await self._context(self.user(user_id), query, budget_tokens, recent)


class PinnedTools(_Tools):
    """The six tools for exactly one user (``jiyi mcp --user ID``): no tool takes a ``user_id`` at all,
    so no tool call, injected or not, can reach another user's memories."""

    def __init__(self, memory: Memory, user: str) -> None:
        super().__init__(memory)
        self.pinned = check_user_id(user, "--user")

    async def add_memory(self, content: str) -> dict[str, Any]:
        """Remember one self-contained statement about the user (e.g. "User is allergic to peanuts").

        Returns the stored memory; a near-duplicate is merged and a new value for a single-valued
        attribute (city, phone) supersedes the old one.
        """
        return await self._add(self.pinned, content)

    async def search_memory(self, query: str, limit: int = 10) -> dict[str, Any]:
        """Find the memories most relevant to ``query``, best first, each with its score."""
        return await self._search(self.pinned, query, limit)

    async def list_memories(self, limit: int = 100, offset: int = 0) -> dict[str, Any]:
        """List the user's active memories, newest first (``limit`` 1-1000 and ``offset`` page through them)."""
        return await self._list(self.pinned, limit, offset)

    async def update_memory(self, memory_id: str, content: str) -> dict[str, Any]:
        """Replace the text of one memory (the old text stays in its history)."""
        return await self._update(self.pinned, memory_id, content)

    async def delete_memory(self, memory_id: str) -> dict[str, Any]:
        """Forget one memory (soft delete: it is never recalled again, but stays in the audit history)."""
        return await self._delete(self.pinned, memory_id)

    async def get_context(self, query: str, budget_tokens: int = 800, recent: Recent = None) -> str:
        """The memories relevant to ``query`` as a ready-to-use prompt block (empty if none).

        ``recent``: the conversation's previous messages, oldest first (strings, or {"role", "content"}),
        so a follow-up ("what was that place called again?") finds what the turns before it named.
        """
        return await self._context(self.pinned, query, budget_tokens, recent)


def build_server(memory: Memory, *, default_user: str | None = None, user: str | None = None) -> MCPServer:
    """An MCPServer exposing the tools (caller owns ``memory`` and closes it).

    ``user`` pins the server to that one user (:class:`PinnedTools`); otherwise tools take an
    optional ``user_id`` with ``default_user`` as its default (:class:`MemoryTools`).
    """
    if user is not None and default_user is not None:
        raise InvalidInput("pass either --user (one pinned user) or --default-user, not both")
    server_cls = _load_sdk()
    from mcp.server.mcpserver.tools import Tool
    from mcp.types import ToolAnnotations

    tools: _Tools = PinnedTools(memory, user) if user is not None else MemoryTools(memory, default_user)
    read_only = {"search_memory", "list_memories", "get_context"}
    registered = []
    for name in tools.names():
        hints = ToolAnnotations(read_only_hint=name in read_only, destructive_hint=name == "delete_memory")
        tool = Tool.from_function(getattr(tools, name), name=name, annotations=hints)
        tool.fn_metadata.arg_model = strict_arguments(tool.fn_metadata.arg_model, name, pinned=user is not None)
        tool.parameters = tool.fn_metadata.arg_model.model_json_schema(by_alias=True)
        registered.append(tool)
    return server_cls(name="jiyi", instructions=INSTRUCTIONS, version=_version(), tools=registered)


def strict_arguments(model: type[M], tool: str, *, pinned: bool) -> type[M]:
    """``model`` refusing arguments it does not name (schema ``additionalProperties: false``), with a
    message the model can act on; on a pinned server a ``user_id`` is told why it has no place."""
    allowed = sorted(f.alias or n for n, f in model.model_fields.items())

    def known(data: Any) -> Any:
        extra = sorted(set(data) - set(allowed)) if isinstance(data, dict) else []
        if extra:
            why = (" (this server is pinned to one user: tools take no user_id)"
                   if pinned and "user_id" in extra else "")
            raise PydanticCustomError("unknown_argument", f"{tool} does not take {', '.join(extra)}{why}; its "
                                      f"arguments are {', '.join(allowed) or 'none'}")
        return data

    namespace = {"model_config": ConfigDict(**{**model.model_config, "extra": "forbid", "title": model.__name__}),
                 "__module__": model.__module__, "_known": model_validator(mode="before")(staticmethod(known))}
    return cast("type[M]", type(model.__name__, (model,), namespace))


def serve(memory: Memory, *, transport: Transport = "stdio", default_user: str | None = None,
          user: str | None = None, host: str = "127.0.0.1", port: int = 8766, path: str = "/mcp") -> None:
    """Run the server until the client disconnects (stdio) or the process is stopped (http)."""
    from jiyi.redact import install_log_redaction
    from jiyi.text.tokens import warm

    install_log_redaction()
    warm()  # jieba's dictionary and the stemmer now, not on the first tool call
    server = build_server(memory, default_user=default_user, user=user)
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
