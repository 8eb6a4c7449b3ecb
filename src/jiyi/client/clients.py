"""``JiyiClient`` (sync, like ``Memory``) and ``AsyncJiyiClient`` (like ``AsyncMemory``).

Both only send the request descriptions of :mod:`jiyi.client.calls`; the signatures
repeat ``Memory``'s so that editors and type checkers see the same API.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping, Sequence
from datetime import datetime
from types import TracebackType
from typing import Any, TypeVar

import httpx

from jiyi.client import calls
from jiyi.client.calls import PAGE, Call, error_from, unreachable
from jiyi.records import (
    AddResult,
    GcReport,
    HistoryEvent,
    Hit,
    Kind,
    MemoryRecord,
    Status,
    Visibility,
)
from jiyi.stores.protocol import FailedJob

T = TypeVar("T")
DEFAULT_URL = "http://127.0.0.1:8765"
Messages = str | Mapping[str, Any] | Sequence[Mapping[str, Any]]


def _headers(api_key: str | None, extra: Mapping[str, str] | None) -> dict[str, str]:
    headers = {"User-Agent": "jiyi-client", **(extra or {})}
    if api_key:
        headers["Authorization"] = f"Bearer {api_key}"
    return headers


def _remember_fields(kind: Kind | str | None, importance: float | None, valid_until: datetime | str | None,
                     expires_at: datetime | str | None, slot: str | None, session_id: str | None,
                     visibility: Visibility | str | None, user_id: str) -> dict[str, Any]:
    return {"user_id": user_id, "kind": kind, "importance": importance, "valid_until": valid_until,
            "expires_at": expires_at, "slot": slot, "session_id": session_id, "visibility": visibility}


class JiyiClient:
    """``Memory``'s API over HTTP. ``JiyiClient(base_url, api_key=...)``; close it, or use ``with``."""

    def __init__(self, base_url: str = DEFAULT_URL, api_key: str | None = None, *, timeout: float = 60.0,
                 headers: Mapping[str, str] | None = None, transport: httpx.BaseTransport | None = None) -> None:
        self.base_url = base_url.rstrip("/")
        self._http = httpx.Client(base_url=self.base_url, headers=_headers(api_key, headers), timeout=timeout,
                                  transport=transport)

    def _send(self, call: Call[T]) -> T:
        try:
            resp = self._http.request(call.method, call.path, json=call.json, params=call.params,
                                      timeout=call.timeout or httpx.USE_CLIENT_DEFAULT)
        except httpx.TransportError as exc:
            raise unreachable(exc, self.base_url) from exc
        return call.finish(resp)

    def add(self, messages: Messages, *, user_id: str, session_id: str | None = None, agent_id: str | None = None,
            metadata: Mapping[str, Any] | None = None, sync: bool = False, group: bool = False) -> AddResult:
        """Accept messages durably; ``sync=True`` waits for extraction and returns its events;
        ``group=True``: ``session_id`` is a group chat stored per sender."""
        return self._send(calls.add(messages, user_id=user_id, session_id=session_id, agent_id=agent_id,
                                    metadata=metadata, sync=sync, group=group))

    def end_session(self, *, user_id: str, session_id: str) -> list[MemoryRecord]:
        """Close a session: pending extraction runs and its turns are summarised; returns the summaries."""
        return self._send(calls.end_session(user_id=user_id, session_id=session_id))

    def recent_messages(self, *, user_id: str, session_id: str | None = None) -> list[dict[str, Any]]:
        """The short-term buffer: the last rounds of ``session_id`` (all sessions when None), oldest first."""
        return self._send(calls.recent_messages(user_id=user_id, session_id=session_id))

    def clear_buffer(self, *, user_id: str, session_id: str | None = None) -> int:
        """Drop buffered turns of ``session_id`` (or all); returns how many."""
        return self._send(calls.clear_buffer(user_id=user_id, session_id=session_id))

    def flush(self, timeout: float = 300.0, *, user_id: str | None = None) -> bool:
        """Wait until the service has processed the tenant's queued writes (``user_id``'s only, when
        given; at most 300 s per call)."""
        return self._send(calls.flush(timeout, user_id))

    def remember(self, content: str, *, user_id: str, kind: Kind | str | None = None,
                 importance: float | None = None, valid_until: datetime | str | None = None,
                 expires_at: datetime | str | None = None, slot: str | None = None, session_id: str | None = None,
                 visibility: Visibility | str | None = None) -> MemoryRecord:
        """Store one statement now, as given."""
        return self._send(calls.remember(content, **_remember_fields(
            kind, importance, valid_until, expires_at, slot, session_id, visibility, user_id)))

    def search(self, query: str, *, user_id: str, limit: int = 10, kinds: Iterable[Kind | str] | None = None,
               at: datetime | str | None = None, include_sensitive: bool = False,
               filters: Mapping[str, Any] | None = None,
               recent: Sequence[str | Mapping[str, Any]] | None = None) -> list[Hit]:
        """The best memories for ``query``, each with its score parts (``recent``: as Memory.search)."""
        return self._send(calls.search(query, user_id=user_id, limit=limit, kinds=kinds, at=at,
                                       include_sensitive=include_sensitive, filters=filters, recent=recent))

    def build_context(self, query: str, *, user_id: str, budget_tokens: int = 800, limit: int = 20,
                      include_sensitive: bool = False, compress: bool | None = None,
                      recent: Sequence[str | Mapping[str, Any]] | None = None) -> str:
        """Memories for ``query`` rendered as a prompt block of at most ``budget_tokens`` tokens."""
        return self._send(calls.build_context(query, user_id=user_id, budget_tokens=budget_tokens, limit=limit,
                                              include_sensitive=include_sensitive, compress=compress,
                                              recent=recent))

    def get(self, memory_id: str, *, user_id: str) -> MemoryRecord | None:
        """One memory, or None if the user has no such memory."""
        return self._send(calls.get(memory_id, user_id=user_id))

    def get_all(self, *, user_id: str, kinds: Iterable[Kind | str] | None = None,
                status: Status | str | None = "active", limit: int | None = None, offset: int = 0,
                session_id: str | None = None, agent_id: str | None = None) -> list[MemoryRecord]:
        """A user's memories, newest first (``status=None`` for every status; ``limit=None`` for all)."""
        kinds = list(kinds) if kinds is not None and not isinstance(kinds, (str, Kind)) else kinds
        out: list[MemoryRecord] = []
        while limit is None or len(out) < limit:
            size = PAGE if limit is None else min(PAGE, limit - len(out))
            got = self._send(calls.page(user_id=user_id, kinds=kinds, status=status, limit=size,
                                        offset=offset + len(out), session_id=session_id, agent_id=agent_id))
            out.extend(got)
            if len(got) < size:
                break
        return out

    def update(self, memory_id: str, content: str, *, user_id: str) -> MemoryRecord:
        """Replace a memory's content."""
        return self._send(calls.update(memory_id, content, user_id=user_id))

    def delete(self, memory_id: str, *, user_id: str, purge: bool = False) -> None:
        """Delete one memory (restorable for 7 days; ``purge=True`` erases it now)."""
        self._send(calls.delete(memory_id, user_id=user_id, purge=purge))

    def purge(self, memory_id: str | None = None, *, user_id: str, vacuum: bool = False) -> int:
        """Erase ``memory_id``, or every deleted memory of the user, now; returns how many."""
        return self._send(calls.purge(memory_id, user_id=user_id, vacuum=vacuum))

    def restore(self, memory_id: str, *, user_id: str) -> MemoryRecord:
        """Bring back a deleted, expired or archived memory."""
        return self._send(calls.restore(memory_id, user_id=user_id))

    def delete_all(self, *, user_id: str) -> int:
        """Forget a user entirely; returns how many memories were removed."""
        return self._send(calls.delete_all(user_id=user_id))

    forget = delete_all

    def history(self, memory_id: str, *, user_id: str) -> list[HistoryEvent]:
        """The audit history of a memory, oldest first."""
        return self._send(calls.history(memory_id, user_id=user_id))

    def gc(self, *, dry_run: bool = True, now: datetime | None = None, user_id: str | None = None) -> GcReport:
        """Run (or, by default, only report) the maintenance rules."""
        return self._send(calls.gc(dry_run=dry_run, now=now, user_id=user_id))

    def export(self, *, user_id: str) -> Iterator[dict[str, Any]]:
        """Every memory of the user with its history, streamed (errors raise here, not mid-iteration)."""
        request = self._http.build_request("GET", calls.export_path(user_id))
        try:
            resp = self._http.send(request, stream=True)
        except httpx.TransportError as exc:
            raise unreachable(exc, self.base_url) from exc
        if not resp.is_success:
            resp.read()
            resp.close()
            raise error_from(resp)
        return _lines(resp)

    def import_(self, records: Iterable[dict[str, Any]]) -> int:
        """Load records produced by ``export``; returns how many."""
        return self._send(calls.import_(records))

    def users(self) -> list[str]:
        return self._send(calls.users())

    def failed_jobs(self, limit: int = 100) -> list[FailedJob]:
        """The tenant's writes that failed for good (their ``scope.tenant`` is left empty)."""
        return self._send(calls.failed_jobs(limit))

    def retry_failed(self, ids: Sequence[str] | None = None) -> int:
        return self._send(calls.jobs_action("retry", ids))

    def drop_failed(self, ids: Sequence[str] | None = None) -> int:
        return self._send(calls.jobs_action("drop", ids))

    def stats(self) -> dict[str, Any]:
        return self._send(calls.stats())

    def close(self) -> None:
        self._http.close()

    def __enter__(self) -> JiyiClient:
        return self

    def __exit__(self, t: type[BaseException] | None, e: BaseException | None, tb: TracebackType | None) -> None:
        self.close()


def _lines(resp: httpx.Response) -> Iterator[dict[str, Any]]:
    try:
        for line in resp.iter_lines():
            if line.strip():
                yield json.loads(line)
    finally:
        resp.close()


class AsyncJiyiClient:
    """``AsyncMemory``'s API over HTTP (``await client.search(...)``); ``async with`` closes it."""

    def __init__(self, base_url: str = DEFAULT_URL, api_key: str | None = None, *, timeout: float = 60.0,
                 headers: Mapping[str, str] | None = None,
                 transport: httpx.AsyncBaseTransport | None = None) -> None:
        self.base_url = base_url.rstrip("/")
        self._http = httpx.AsyncClient(base_url=self.base_url, headers=_headers(api_key, headers),
                                       timeout=timeout, transport=transport)

    async def _send(self, call: Call[T]) -> T:
        try:
            resp = await self._http.request(call.method, call.path, json=call.json, params=call.params,
                                            timeout=call.timeout or httpx.USE_CLIENT_DEFAULT)
        except httpx.TransportError as exc:
            raise unreachable(exc, self.base_url) from exc
        return call.finish(resp)

    async def add(self, messages: Messages, *, user_id: str, session_id: str | None = None,
                  agent_id: str | None = None, metadata: Mapping[str, Any] | None = None,
                  sync: bool = False, group: bool = False) -> AddResult:
        return await self._send(calls.add(messages, user_id=user_id, session_id=session_id, agent_id=agent_id,
                                          metadata=metadata, sync=sync, group=group))

    async def end_session(self, *, user_id: str, session_id: str) -> list[MemoryRecord]:
        return await self._send(calls.end_session(user_id=user_id, session_id=session_id))

    async def recent_messages(self, *, user_id: str, session_id: str | None = None) -> list[dict[str, Any]]:
        return await self._send(calls.recent_messages(user_id=user_id, session_id=session_id))

    async def clear_buffer(self, *, user_id: str, session_id: str | None = None) -> int:
        return await self._send(calls.clear_buffer(user_id=user_id, session_id=session_id))

    async def flush(self, timeout: float = 300.0, *, user_id: str | None = None) -> bool:
        return await self._send(calls.flush(timeout, user_id))

    async def remember(self, content: str, *, user_id: str, kind: Kind | str | None = None,
                       importance: float | None = None, valid_until: datetime | str | None = None,
                       expires_at: datetime | str | None = None, slot: str | None = None,
                       session_id: str | None = None,
                       visibility: Visibility | str | None = None) -> MemoryRecord:
        return await self._send(calls.remember(content, **_remember_fields(
            kind, importance, valid_until, expires_at, slot, session_id, visibility, user_id)))

    async def search(self, query: str, *, user_id: str, limit: int = 10,
                     kinds: Iterable[Kind | str] | None = None, at: datetime | str | None = None,
                     include_sensitive: bool = False, filters: Mapping[str, Any] | None = None,
                     recent: Sequence[str | Mapping[str, Any]] | None = None) -> list[Hit]:
        return await self._send(calls.search(query, user_id=user_id, limit=limit, kinds=kinds, at=at,
                                             include_sensitive=include_sensitive, filters=filters,
                                             recent=recent))

    async def build_context(self, query: str, *, user_id: str, budget_tokens: int = 800, limit: int = 20,
                            include_sensitive: bool = False, compress: bool | None = None,
                            recent: Sequence[str | Mapping[str, Any]] | None = None) -> str:
        return await self._send(calls.build_context(query, user_id=user_id, budget_tokens=budget_tokens,
                                                    limit=limit, include_sensitive=include_sensitive,
                                                    compress=compress, recent=recent))

    async def get(self, memory_id: str, *, user_id: str) -> MemoryRecord | None:
        return await self._send(calls.get(memory_id, user_id=user_id))

    async def get_all(self, *, user_id: str, kinds: Iterable[Kind | str] | None = None,
                      status: Status | str | None = "active", limit: int | None = None, offset: int = 0,
                      session_id: str | None = None, agent_id: str | None = None) -> list[MemoryRecord]:
        kinds = list(kinds) if kinds is not None and not isinstance(kinds, (str, Kind)) else kinds
        out: list[MemoryRecord] = []
        while limit is None or len(out) < limit:
            size = PAGE if limit is None else min(PAGE, limit - len(out))
            got = await self._send(calls.page(user_id=user_id, kinds=kinds, status=status, limit=size,
                                              offset=offset + len(out), session_id=session_id, agent_id=agent_id))
            out.extend(got)
            if len(got) < size:
                break
        return out

    async def update(self, memory_id: str, content: str, *, user_id: str) -> MemoryRecord:
        return await self._send(calls.update(memory_id, content, user_id=user_id))

    async def delete(self, memory_id: str, *, user_id: str, purge: bool = False) -> None:
        await self._send(calls.delete(memory_id, user_id=user_id, purge=purge))

    async def purge(self, memory_id: str | None = None, *, user_id: str, vacuum: bool = False) -> int:
        return await self._send(calls.purge(memory_id, user_id=user_id, vacuum=vacuum))

    async def restore(self, memory_id: str, *, user_id: str) -> MemoryRecord:
        return await self._send(calls.restore(memory_id, user_id=user_id))

    async def delete_all(self, *, user_id: str) -> int:
        return await self._send(calls.delete_all(user_id=user_id))

    forget = delete_all

    async def history(self, memory_id: str, *, user_id: str) -> list[HistoryEvent]:
        return await self._send(calls.history(memory_id, user_id=user_id))

    async def gc(self, *, dry_run: bool = True, now: datetime | None = None,
                 user_id: str | None = None) -> GcReport:
        return await self._send(calls.gc(dry_run=dry_run, now=now, user_id=user_id))

    async def export(self, *, user_id: str) -> list[dict[str, Any]]:
        """All of a user's records (a list, as ``AsyncMemory.export`` returns)."""
        try:
            resp = await self._http.get(calls.export_path(user_id))
        except httpx.TransportError as exc:
            raise unreachable(exc, self.base_url) from exc
        if not resp.is_success:
            raise error_from(resp)
        return [json.loads(line) for line in resp.text.splitlines() if line.strip()]

    async def import_(self, records: Iterable[dict[str, Any]]) -> int:
        return await self._send(calls.import_(records))

    async def users(self) -> list[str]:
        return await self._send(calls.users())

    async def failed_jobs(self, limit: int = 100) -> list[FailedJob]:
        return await self._send(calls.failed_jobs(limit))

    async def retry_failed(self, ids: Sequence[str] | None = None) -> int:
        return await self._send(calls.jobs_action("retry", ids))

    async def drop_failed(self, ids: Sequence[str] | None = None) -> int:
        return await self._send(calls.jobs_action("drop", ids))

    async def stats(self) -> dict[str, Any]:
        return await self._send(calls.stats())

    async def close(self) -> None:
        await self._http.aclose()

    async def __aenter__(self) -> AsyncJiyiClient:
        return self

    async def __aexit__(self, t: type[BaseException] | None, e: BaseException | None,
                        tb: TracebackType | None) -> None:
        await self.close()


__all__ = ["AsyncJiyiClient", "JiyiClient"]
