"""Each ``Memory`` method as an HTTP request description, and each answer back as a record.

Written once and sent by both clients (``httpx.Client`` and ``httpx.AsyncClient``), so
the sync and async clients cannot drift apart.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from enum import Enum
from typing import Any, Generic, TypeVar
from urllib.parse import quote

import httpx

from jiyi.client.errors import AuthError, RateLimited, ServiceError, ServiceUnavailable
from jiyi.clock import format_iso, parse_iso
from jiyi.errors import (
    ConfigError,
    EmbeddingMismatch,
    InvalidInput,
    JiyiError,
    NotFound,
    ProviderBadOutput,
    ProviderError,
    ProviderUnavailable,
    ScopeViolation,
    StoreError,
    WriteConflict,
)
from jiyi.records import (
    AddResult,
    EventType,
    GcReport,
    HistoryEvent,
    Hit,
    Kind,
    MemoryRecord,
    Scope,
    Status,
    WriteEvent,
)
from jiyi.stores.protocol import FailedJob

T = TypeVar("T")
PAGE = 1000  # the server's largest page; get_all(limit=None) walks pages of this size

#: The server's stable error codes → the class Memory raises for the same problem.
ERRORS: dict[str, type[JiyiError]] = {
    **dict.fromkeys(("invalid_input", "validation_error", "malformed_json", "malformed_body", "payload_too_large",
                     "unsupported_media_type", "bad_request"), InvalidInput),
    "not_found": NotFound,
    "scope_violation": ScopeViolation,
    "embedding_mismatch": EmbeddingMismatch,
    "write_conflict": WriteConflict,
    "store_unavailable": StoreError,
    "provider_unavailable": ProviderUnavailable,
    "provider_bad_output": ProviderBadOutput,
    "provider_error": ProviderError,
    "config_error": ConfigError,
    "unauthorized": AuthError,
    "forbidden": AuthError,
    "rate_limited": RateLimited,
}


@dataclass(slots=True)
class Call(Generic[T]):
    """One HTTP request and how to turn its JSON answer into what ``Memory`` would return."""

    method: str
    path: str
    decode: Callable[[Any], T]
    json: Any = None
    params: Mapping[str, Any] | None = None
    none_on_404: bool = False
    timeout: float | None = None

    def finish(self, resp: httpx.Response) -> T:
        """Decode a successful answer; raise the matching error otherwise."""
        if resp.is_success:
            return self.decode(resp.json())
        exc = error_from(resp)
        if self.none_on_404 and isinstance(exc, NotFound):
            return None  # type: ignore[return-value]  # T is "X | None" for these calls
        raise exc


def error_from(resp: httpx.Response) -> JiyiError:
    """The exception for an error answer, with ``.status`` and ``.code`` set."""
    try:
        err = resp.json()["error"]
        code, message = str(err["code"]), str(err["message"])
    except (ValueError, KeyError, TypeError):
        code, message = "service_error", f"HTTP {resp.status_code}: {resp.text[:200]}"
    cls = ERRORS.get(code, ServiceError)
    if cls is RateLimited:
        return RateLimited(message, status=resp.status_code, retry_after=float(resp.headers.get("retry-after", 1)))
    if issubclass(cls, ServiceError):
        return cls(message, status=resp.status_code, code=code)
    exc = cls(message)
    exc.status, exc.code = resp.status_code, code  # type: ignore[attr-defined]
    return exc


def unreachable(exc: httpx.TransportError, base_url: str) -> ServiceUnavailable:
    return ServiceUnavailable(f"cannot reach the jiyi service at {base_url} ({type(exc).__name__}: {exc}); "
                              "is `jiyi serve` running?", code="unreachable")


def plain(value: Any) -> Any:
    """JSON-ready: datetimes as ISO 8601, enums as values, tuples as lists (recursively)."""
    if isinstance(value, datetime):
        return format_iso(value)
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, Mapping):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    return value


def _fields(**fields: Any) -> dict[str, Any]:
    return {k: plain(v) for k, v in fields.items() if v is not None}


def _recent(recent: Sequence[str | Mapping[str, Any]] | None) -> list[Any] | None:
    """``recent`` for the body: strings and message dicts as given (the server checks them)."""
    if recent is None:
        return None
    if isinstance(recent, (str, Mapping)) or not isinstance(recent, Sequence):
        raise InvalidInput("recent must be a list of the conversation's previous messages (strings or "
                           "{'role', 'content'} dicts), oldest first")
    return [m if isinstance(m, str) else dict(m) if isinstance(m, Mapping) else m for m in recent]


def _kinds(kinds: Iterable[Kind | str] | None) -> list[str] | None:
    if kinds is None:
        return None
    return [plain(kinds)] if isinstance(kinds, (str, Kind)) else [plain(k) for k in kinds]


def _memory_path(memory_id: str, suffix: str = "") -> str:
    if not isinstance(memory_id, str) or not memory_id:
        raise InvalidInput("memory_id must be a non-empty string")
    return "/v1/memories/" + quote(memory_id, safe="") + suffix


def _user_path(user_id: str) -> str:
    if not isinstance(user_id, str) or not user_id:
        raise InvalidInput(f"user_id must be a non-empty string, got {user_id!r}")
    return "/v1/users/" + quote(user_id, safe="")


# ---- decoders -----------------------------------------------------------------------------------


def hit(d: dict[str, Any]) -> Hit:
    d = dict(d)
    score, scores = float(d.pop("score")), {k: float(v) for k, v in d.pop("scores").items()}
    return Hit(MemoryRecord.from_dict(d), score, scores)


def history_event(d: dict[str, Any]) -> HistoryEvent:
    return HistoryEvent(EventType(d["event"]), d["memory_id"], parse_iso(d["at"]), d.get("old"), d.get("new"),
                        d.get("reason"), d.get("actor", "system"))


def add_result(d: dict[str, Any]) -> AddResult:
    events = [WriteEvent(e["id"], EventType(e["event"]), e["memory"], Kind(e["kind"]), e.get("previous"))
              for e in d["events"]]
    return AddResult(events=events, job_id=d.get("job_id"), pending=bool(d["pending"]), messages=int(d["messages"]),
                     forget=[str(f) for f in d.get("forget") or []])


def gc_report(d: dict[str, Any]) -> GcReport:
    return GcReport(bool(d["dry_run"]), {k: int(v) for k, v in d["counts"].items()},
                    {k: list(v) for k, v in d["ids"].items()})


# ---- one description per Memory method ----------------------------------------------------------


def add(messages: Any, *, user_id: str, session_id: str | None, agent_id: str | None,
        metadata: Mapping[str, Any] | None, sync: bool, group: bool = False) -> Call[AddResult]:
    body = _fields(messages=messages, user_id=user_id, session_id=session_id, agent_id=agent_id,
                   metadata=metadata, sync=sync, group=group)
    return Call("POST", "/v1/memories", add_result, body)


def end_session(*, user_id: str, session_id: str) -> Call[list[MemoryRecord]]:
    return Call("POST", "/v1/sessions/end", lambda d: [MemoryRecord.from_dict(r) for r in d["memories"]],
                {"user_id": user_id, "session_id": session_id}, timeout=330)


def recent_messages(*, user_id: str, session_id: str | None) -> Call[list[dict[str, Any]]]:
    return Call("GET", "/v1/buffer", lambda d: [dict(m) for m in d["messages"]],
                params=_fields(user_id=user_id, session_id=session_id))


def clear_buffer(*, user_id: str, session_id: str | None) -> Call[int]:
    return Call("DELETE", "/v1/buffer", lambda d: int(d["cleared"]), params=_fields(user_id=user_id,
                                                                                     session_id=session_id))


def flush(timeout: float, user_id: str | None = None) -> Call[bool]:
    wait = min(max(float(timeout), 0.001), 300.0)
    return Call("POST", "/v1/flush", lambda d: bool(d["idle"]), {"timeout": wait, **_fields(user_id=user_id)},
                timeout=wait + 30)


def remember(content: str, **fields: Any) -> Call[MemoryRecord]:
    return Call("POST", "/v1/remember", MemoryRecord.from_dict, _fields(content=content, **fields))


def search(query: str, *, user_id: str, limit: int, kinds: Iterable[Kind | str] | None, at: datetime | str | None,
           include_sensitive: bool, filters: Mapping[str, Any] | None,
           recent: Sequence[str | Mapping[str, Any]] | None = None) -> Call[list[Hit]]:
    body = _fields(query=query, user_id=user_id, limit=limit, kinds=_kinds(kinds), at=at,
                   include_sensitive=include_sensitive, filters=filters, recent=_recent(recent))
    return Call("POST", "/v1/memories/search", lambda d: [hit(h) for h in d["hits"]], body)


def build_context(query: str, *, user_id: str, budget_tokens: int, limit: int, include_sensitive: bool,
                  compress: bool | None, recent: Sequence[str | Mapping[str, Any]] | None = None) -> Call[str]:
    body = _fields(query=query, user_id=user_id, budget_tokens=budget_tokens, limit=limit,
                   include_sensitive=include_sensitive, compress=compress, recent=_recent(recent))
    return Call("POST", "/v1/context", lambda d: str(d["context"]), body)


def get(memory_id: str, *, user_id: str) -> Call[MemoryRecord | None]:
    return Call("GET", _memory_path(memory_id), MemoryRecord.from_dict, params={"user_id": user_id},
                none_on_404=True)


def page(*, user_id: str, kinds: Iterable[Kind | str] | None, status: Status | str | None, limit: int,
         offset: int, session_id: str | None, agent_id: str | None) -> Call[list[MemoryRecord]]:
    """One page of ``get_all`` (``status=None`` means every status, as in Memory)."""
    params = _fields(user_id=user_id, kind=_kinds(kinds), status=status or "all", limit=limit, offset=offset,
                     session_id=session_id, agent_id=agent_id)
    return Call("GET", "/v1/memories", lambda d: [MemoryRecord.from_dict(r) for r in d["memories"]], params=params)


def update(memory_id: str, content: str, *, user_id: str) -> Call[MemoryRecord]:
    return Call("PATCH", _memory_path(memory_id), MemoryRecord.from_dict, {"content": content, "user_id": user_id})


def delete(memory_id: str, *, user_id: str, purge: bool = False) -> Call[None]:
    params: dict[str, Any] = {"user_id": user_id, **({"purge": "true"} if purge else {})}
    return Call("DELETE", _memory_path(memory_id), lambda d: None, params=params)


def purge(memory_id: str | None, *, user_id: str, vacuum: bool) -> Call[int]:
    return Call("POST", "/v1/memories/purge", lambda d: int(d["purged"]),
                _fields(user_id=user_id, memory_id=memory_id, vacuum=vacuum))


def restore(memory_id: str, *, user_id: str) -> Call[MemoryRecord]:
    return Call("POST", _memory_path(memory_id, "/restore"), MemoryRecord.from_dict, {"user_id": user_id})


def delete_all(*, user_id: str) -> Call[int]:
    return Call("DELETE", _user_path(user_id), lambda d: int(d["deleted"]))


def history(memory_id: str, *, user_id: str) -> Call[list[HistoryEvent]]:
    return Call("GET", _memory_path(memory_id, "/history"), lambda d: [history_event(e) for e in d["events"]],
                params={"user_id": user_id})


def gc(*, dry_run: bool, now: datetime | None, user_id: str | None) -> Call[GcReport]:
    return Call("POST", "/v1/gc", gc_report, _fields(dry_run=dry_run, now=now, user_id=user_id))


def export_path(user_id: str) -> str:
    return _user_path(user_id) + "/export"


def import_(records: Iterable[dict[str, Any]]) -> Call[int]:
    return Call("POST", "/v1/import", lambda d: int(d["imported"]), {"records": plain(list(records))})


def users() -> Call[list[str]]:
    return Call("GET", "/v1/users", lambda d: [str(u) for u in d["users"]])


def failed_jobs(limit: int) -> Call[list[FailedJob]]:
    def parse(d: Any) -> list[FailedJob]:
        return [FailedJob(j["id"], Scope("", j["user_id"]), j["kind"], j["attempts"], j["error"],
                          parse_iso(j["failed_at"]), parse_iso(j["created_at"])) for j in d["jobs"]]
    return Call("GET", "/v1/jobs/failed", parse, params={"limit": limit})


def jobs_action(action: str, ids: Iterable[str] | None) -> Call[int]:
    return Call("POST", f"/v1/jobs/{action}", lambda d: int(d["count"]),
                {"ids": None if ids is None else list(ids)})


def stats() -> Call[dict[str, Any]]:
    return Call("GET", "/v1/stats", lambda d: dict(d["stats"]))
