"""Validation of ``add`` input: every bad input raises InvalidInput before anything is written."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from jiyi.clock import ensure_utc, parse_iso
from jiyi.errors import InvalidInput
from jiyi.records import Message, new_id
from jiyi.userid import check_user_id

ROLES = ("user", "assistant", "system")
_ID_RE = re.compile(r"^[\w.:\-/@#]{1,128}$", re.UNICODE)
_MESSAGE_KEYS = {"role", "content", "id", "timestamp", "name", "created_at", "message_id"}


def validate_user_id(user_id: object, what: str = "user_id") -> str:
    """A user id by the one rule every door uses (:func:`jiyi.userid.check_user_id`)."""
    return check_user_id(user_id, what)


def validate_optional_id(value: object, what: str) -> str | None:
    if value is None:
        return None
    return validate_user_id(value, what)


def validate_messages(
    messages: str | Mapping[str, Any] | Sequence[Mapping[str, Any]],
    *,
    now: datetime,
    max_chars: int,
    max_messages: int,
) -> list[Message]:
    """Normalise ``str | dict | list[dict]`` into Messages, or raise InvalidInput.

    A message without an id gets one, so every memory can point back to its source.
    """
    if isinstance(messages, str):
        raw: list[Any] = [{"role": "user", "content": messages}]
    elif isinstance(messages, Mapping):
        raw = [messages]
    elif isinstance(messages, Sequence):
        raw = list(messages)
    else:
        raise InvalidInput(f"messages must be a str, a dict or a list of dicts, got {type(messages).__name__}")
    if not raw:
        raise InvalidInput("messages is empty: pass at least one message")
    if len(raw) > max_messages:
        raise InvalidInput(f"too many messages in one add ({len(raw)} > {max_messages}); split the batch")
    return [_one(m, i, now=now, max_chars=max_chars) for i, m in enumerate(raw)]


def _one(m: Any, i: int, *, now: datetime, max_chars: int) -> Message:
    where = f"messages[{i}]"
    if not isinstance(m, Mapping):
        raise InvalidInput(f"{where} must be a dict with 'role' and 'content', got {type(m).__name__}")
    unknown = set(m) - _MESSAGE_KEYS
    if unknown:
        raise InvalidInput(f"{where} has unknown keys {sorted(unknown)}; allowed: {sorted(_MESSAGE_KEYS)}")
    role = m.get("role", "user")
    if role not in ROLES:
        raise InvalidInput(f"{where}.role must be one of {ROLES}, got {role!r}")
    content = m.get("content")
    if not isinstance(content, str):
        raise InvalidInput(f"{where}.content must be a string, got {type(content).__name__}")
    content = content.replace("\x00", "").strip()
    if not content:
        raise InvalidInput(f"{where}.content is empty")
    if len(content) > max_chars:
        raise InvalidInput(f"{where}.content is {len(content)} characters; the limit is {max_chars}")
    mid = m.get("id", m.get("message_id"))
    if mid is not None:
        if isinstance(mid, int) and not isinstance(mid, bool):
            mid = str(mid)
        if not isinstance(mid, str) or not _ID_RE.match(mid):
            raise InvalidInput(f"{where}.id must be 1-128 characters of letters, digits and ._:-/@#, got {mid!r}")
    name = m.get("name")
    if name is not None and (not isinstance(name, str) or not name.strip() or len(name) > 64):
        raise InvalidInput(f"{where}.name must be a non-empty string of at most 64 characters")
    ts = _timestamp(m.get("timestamp", m.get("created_at")), where, now)
    return Message(role=role, content=content, timestamp=ts, id=mid or f"m-{new_id()[:16]}", name=name)


def _timestamp(value: Any, where: str, now: datetime) -> datetime:
    if value is None:
        return now
    if isinstance(value, datetime):
        return ensure_utc(value)
    if isinstance(value, str):
        try:
            return parse_iso(value)
        except ValueError:
            raise InvalidInput(f"{where}.timestamp {value!r} is not ISO 8601 (e.g. 2025-03-02T09:15:00+08:00)") from None
    raise InvalidInput(f"{where}.timestamp must be an ISO 8601 string or a datetime")
