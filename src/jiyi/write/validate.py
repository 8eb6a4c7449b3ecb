"""Validation of every input: one rule per kind of value, shared by every door (Python API,
REST, CLI, MCP, import). Every bad input raises InvalidInput before anything is written.

The documented ranges: limit 1-1000, offset 0-10^9, importance and confidence 0-1,
times between 1900 and 2999 (UTC), content at most 2,000 characters per stored memory,
metadata JSON (no NaN) at most 32 levels deep and 64 KB, ids 1-128 characters of
letters, digits and ``._:-/@#``. Text must be valid Unicode (no lone surrogates).
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime, timezone
from enum import Enum
from typing import Any, TypeVar

from jiyi.clock import ensure_utc, parse_iso, written_offset
from jiyi.errors import InvalidInput
from jiyi.records import Kind, Message, new_id
from jiyi.userid import check_user_id

ROLES = ("user", "assistant", "system")
_ID_RE = re.compile(r"[\w.:\-/@#]{1,128}", re.UNICODE)
MIN_TIME = datetime(1900, 1, 1, tzinfo=timezone.utc)
MAX_TIME = datetime(2999, 12, 31, 23, 59, 59, tzinfo=timezone.utc)
MAX_LIMIT = 1000
MAX_OFFSET = 10**9
MAX_CONTENT_CHARS = 2000
#: The longest turn any door accepts (the default ``max_message_chars``).
MAX_MESSAGE_CHARS = 20_000
MAX_METADATA_BYTES = 65_536
MAX_METADATA_DEPTH = 32
E = TypeVar("E", bound=Enum)


def check_text(value: object, what: str, max_chars: int, *, strip: bool = True) -> str:
    """A non-empty string of valid Unicode, NUL removed, at most ``max_chars`` characters."""
    if not isinstance(value, str):
        raise InvalidInput(f"{what} must be a string, got {type(value).__name__}")
    check_unicode(value, what)
    text = value.replace("\x00", "")
    text = text.strip() if strip else text
    if not text.strip():
        raise InvalidInput(f"{what} is empty")
    if len(text) > max_chars:
        raise InvalidInput(f"{what} is {len(text):,} characters; the limit is {max_chars:,}")
    return text


def check_unicode(value: str, what: str) -> str:
    """``value`` itself, unless it holds a lone surrogate (no UTF-8 for it)."""
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise InvalidInput(f"{what} is not valid Unicode (it holds a lone surrogate)") from None
    return value


def check_content(value: object, what: str = "content") -> str:
    """The content of one stored memory (``remember``, ``update``, import)."""
    return check_text(value, what, MAX_CONTENT_CHARS)


def check_record_id(value: object, what: str = "id") -> str:
    """A memory or message id: 1-128 letters, digits and ``._:-/@#`` (no spaces, newlines or NUL)."""
    if isinstance(value, int) and not isinstance(value, bool):
        value = str(value)
    if not isinstance(value, str) or not _ID_RE.fullmatch(value):
        raise InvalidInput(f"{what} must be 1-128 characters of letters, digits and ._:-/@#, got {value!r:.80}")
    return value


def check_int(value: object, what: str, lo: int, hi: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not lo <= value <= hi:
        raise InvalidInput(f"{what} must be an integer between {lo} and {hi:,}, got {value!r:.40}")
    return value


def check_limit(value: object, what: str = "limit") -> int:
    return check_int(value, what, 1, MAX_LIMIT)


def check_offset(value: object, what: str = "offset") -> int:
    return check_int(value, what, 0, MAX_OFFSET)


def check_job_ids(ids: Sequence[str] | None) -> list[str] | None:
    """A list of job ids (None: every one), each a short text."""
    if ids is None:
        return None
    if isinstance(ids, str) or not isinstance(ids, Sequence):
        raise InvalidInput("ids must be a list of job ids")
    return [check_text(i, "job id", 64) for i in ids]


def check_unit(value: object, what: str) -> float:
    """A number between 0 and 1 (importance, confidence)."""
    if (not isinstance(value, (int, float)) or isinstance(value, bool) or math.isnan(value)
            or not 0.0 <= float(value) <= 1.0):
        raise InvalidInput(f"{what} must be a number between 0 and 1, got {value!r:.40}")
    return float(value)


def check_choice(cls: type[E], value: object, what: str) -> E:
    """A member of the enum ``cls``, by value."""
    try:
        return cls(value)
    except (ValueError, TypeError):
        raise InvalidInput(f"{what} must be one of {[m.value for m in cls]}, got {value!r:.40}") from None


def check_kinds(kinds: Iterable[Kind | str] | None) -> tuple[Kind, ...] | None:
    if kinds is None:
        return None
    if isinstance(kinds, (str, Kind)):
        kinds = [kinds]
    if not isinstance(kinds, Iterable):
        raise InvalidInput(f"kinds must be a list of {[k.value for k in Kind]}")
    return tuple(check_choice(Kind, k, "kinds") for k in kinds)


def check_time(value: object, what: str) -> datetime:
    """A datetime or an ISO 8601 string, within :data:`MIN_TIME` - :data:`MAX_TIME` (UTC)."""
    try:
        if isinstance(value, datetime):
            dt = ensure_utc(value)
        elif isinstance(value, str):
            dt = parse_iso(check_unicode(value, what))
        else:
            raise InvalidInput(f"{what} must be an ISO 8601 string or a datetime, got {type(value).__name__}")
    except (ValueError, OverflowError) as exc:
        if isinstance(exc, InvalidInput):
            raise
        raise InvalidInput(f"{what} {value!r:.60} is not an ISO 8601 time (e.g. 2025-03-02T09:15:00+08:00)") from None
    if not MIN_TIME <= dt <= MAX_TIME:
        raise InvalidInput(f"{what} {value!s:.60} is out of range: times must fall between 1900 and 2999")
    return dt


def check_metadata(value: object, what: str = "metadata") -> dict[str, Any]:
    """A JSON object (string keys, no NaN or infinity, no NUL in any string), at most 32 levels deep and 64 KB."""
    if value is None:
        return {}
    if not isinstance(value, Mapping):
        raise InvalidInput(f"{what} must be a dict (a JSON object), got {type(value).__name__}")
    _depth(value, what, 0)
    try:
        encoded = json.dumps(value, allow_nan=False, ensure_ascii=False)
    except (TypeError, ValueError) as exc:
        raise InvalidInput(f"{what} must be plain JSON (strings, numbers, lists, dicts; no NaN): {exc}") from None
    check_unicode(encoded, what)
    if len(encoded.encode("utf-8")) > MAX_METADATA_BYTES:
        raise InvalidInput(f"{what} is larger than {MAX_METADATA_BYTES:,} bytes as JSON")
    return dict(value)


def _depth(value: object, what: str, depth: int) -> None:
    if depth > MAX_METADATA_DEPTH:
        raise InvalidInput(f"{what} is nested more than {MAX_METADATA_DEPTH} levels deep")
    if isinstance(value, str) and "\x00" in value:  # PostgreSQL's jsonb refuses it; SQLite would keep it
        raise InvalidInput(f"{what} must not contain NUL characters (\\x00), found in {value!r:.40}")
    if isinstance(value, Mapping):
        for k, v in value.items():
            if not isinstance(k, str):
                raise InvalidInput(f"{what} keys must be strings, got {k!r:.40}")
            _depth(k, what, depth + 1)
            _depth(v, what, depth + 1)
    elif isinstance(value, (list, tuple)):
        for v in value:
            _depth(v, what, depth + 1)
_MESSAGE_KEYS = {"role", "content", "id", "timestamp", "name", "created_at", "message_id", "utc_offset"}
#: a speaker's UTC offset in minutes: from UTC-12:00 to UTC+14:00
MIN_OFFSET, MAX_OFFSET = -720, 840


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
    content = check_text(m.get("content"), f"{where}.content", max_chars)
    mid = m.get("id", m.get("message_id"))
    if mid is not None:
        mid = check_record_id(mid, f"{where}.id")
    name = m.get("name")
    if name is not None and (not isinstance(name, str) or not name.strip() or len(name) > 64
                             or any(ord(c) < 32 for c in name)):
        raise InvalidInput(f"{where}.name must be a non-empty string of at most 64 printable characters")
    if name is not None:
        check_unicode(name, f"{where}.name")
    raw_time = m.get("timestamp", m.get("created_at"))
    ts = _timestamp(raw_time, where, now)
    offset = m.get("utc_offset")  # the speaker's, when the caller knows it (a timestamp at UTC tells nothing of it)
    if offset is not None:
        offset = check_int(offset, f"{where}.utc_offset", MIN_OFFSET, MAX_OFFSET)
    elif raw_time is not None:
        offset = written_offset(raw_time)
    return Message(role=role, content=content, timestamp=ts, id=mid or f"m-{new_id()[:16]}", name=name,
                   utc_offset=offset)


def _timestamp(value: Any, where: str, now: datetime) -> datetime:
    if value is None:
        return now
    return check_time(value, f"{where}.timestamp")
