"""The ``recent`` argument of search / build_context: the conversation before the query, checked.

``recent`` is the current conversation's previous messages, oldest first: plain strings
(said by the user) or ``{"role": "user"|"assistant"|"system", "content": "..."}`` (the keys
of an ``add`` message are accepted, and only role and content are read). The query itself
is the last message and is not repeated here.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from jiyi.errors import InvalidInput
from jiyi.write.validate import ROLES, check_text

#: At most this many messages (pass the last few turns, not the whole history).
MAX_RECENT = 50
#: Each message at most this many characters (as a query).
MAX_RECENT_CHARS = 4000
_KEYS = {"role", "content", "id", "timestamp", "name", "created_at", "message_id"}


@dataclass(slots=True, frozen=True)
class RecentTurn:
    role: str
    content: str


def check_recent(recent: object) -> tuple[RecentTurn, ...]:
    """``recent`` as turns, oldest first, or :class:`InvalidInput` naming the bad item."""
    if recent is None:
        return ()
    if isinstance(recent, (str, bytes, Mapping)) or not isinstance(recent, Sequence):
        raise InvalidInput("recent must be a list of the conversation's previous messages (strings or "
                           "{'role', 'content'} dicts), oldest first")
    if len(recent) > MAX_RECENT:
        raise InvalidInput(f"recent holds {len(recent)} messages; the limit is {MAX_RECENT} (pass the last few)")
    return tuple(_turn(item, i) for i, item in enumerate(recent))


def _turn(item: Any, i: int) -> RecentTurn:
    where = f"recent[{i}]"
    if isinstance(item, str):
        return RecentTurn("user", check_text(item, where, MAX_RECENT_CHARS))
    if not isinstance(item, Mapping):
        raise InvalidInput(f"{where} must be a string or a dict with 'role' and 'content', got {type(item).__name__}")
    unknown = set(item) - _KEYS
    if unknown:
        raise InvalidInput(f"{where} has unknown keys {sorted(unknown)}; allowed: {sorted(_KEYS)}")
    role = item.get("role", "user")
    if role not in ROLES:
        raise InvalidInput(f"{where}.role must be one of {ROLES}, got {role!r}")
    return RecentTurn(role, check_text(item.get("content"), f"{where}.content", MAX_RECENT_CHARS))

