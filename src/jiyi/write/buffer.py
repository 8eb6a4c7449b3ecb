"""Short-term buffer: the last N rounds per (user, session), recallable before extraction runs.

Kept in the store's per-scope state so that every process sees it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from jiyi.clock import format_iso
from jiyi.records import Message, Scope
from jiyi.stores.protocol import Store


def buffer_key(session_id: str | None) -> str:
    return f"buffer:{session_id or '-'}"


def message_to_dict(m: Message) -> dict[str, Any]:
    return {"role": m.role, "content": m.content, "timestamp": format_iso(m.timestamp), "id": m.id, "name": m.name}


def push_to_buffer(store: Store, scope: Scope, session_id: str | None, messages: Sequence[Message], rounds: int) -> None:
    """Append ``messages``; keep the last ``rounds`` rounds (a round = a user turn and its replies)."""
    key = buffer_key(session_id)
    items: list[dict[str, Any]] = list(store.state_get(scope, key) or [])
    items.extend(message_to_dict(m) for m in messages)
    store.state_set(scope, key, items[-max(1, rounds) * 2 :])


def read_buffer(store: Store, scope: Scope, session_id: str | None = None) -> list[dict[str, Any]]:
    return list(store.state_get(scope, buffer_key(session_id)) or [])
