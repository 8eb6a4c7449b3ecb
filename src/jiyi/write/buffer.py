"""Short-term buffer: the last N rounds per (user, session), recallable before extraction runs.

Kept in the store's per-user state (so every process sees it), one list per user with
each turn tagged by session: trimmed to N rounds per session and a hard cap overall.
Turns come masked (jiyi.privacy.protect, at ``add``); a request to forget
("忘记我的住址") is an instruction, not a turn, and is not buffered.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from jiyi.clock import format_iso
from jiyi.privacy.forget import detect_forget
from jiyi.privacy.protect import opens_short, protect_text
from jiyi.records import Message, Scope
from jiyi.stores.protocol import Store

BUFFER_KEY = "buffer"
MAX_ITEMS = 400


def message_to_dict(m: Message) -> dict[str, Any]:
    return {"role": m.role, "content": m.content, "timestamp": format_iso(m.timestamp), "id": m.id, "name": m.name,
            **({"utc_offset": m.utc_offset} if m.utc_offset is not None else {})}


def push_to_buffer(store: Store, scope: Scope, session_id: str | None, messages: Sequence[Message], rounds: int) -> None:
    """Append ``messages``; keep the last ``rounds`` rounds (≈ 2 turns each) of every session."""
    items: list[dict[str, Any]] = list(store.state_get(scope, BUFFER_KEY) or [])
    items.extend({**message_to_dict(m), "content": protect_text(m.content, None).text, "session_id": session_id}
                 for m in messages if m.role != "user" or detect_forget(m.content) is None)  # secrets stay masked
    per_session: Counter[str | None] = Counter()
    kept: list[dict[str, Any]] = []
    for item in reversed(items):
        per_session[item.get("session_id")] += 1
        if per_session[item.get("session_id")] <= max(1, rounds) * 2 and len(kept) < MAX_ITEMS:
            kept.append(item)
    store.state_set(scope, BUFFER_KEY, kept[::-1])


def read_buffer(store: Store, scope: Scope, session_id: str | None = None) -> list[dict[str, Any]]:
    """Buffered turns, oldest first; only ``session_id``'s when given."""
    items = list(store.state_get(scope, BUFFER_KEY) or [])
    return [i for i in items if session_id is None or i.get("session_id") == session_id]


def last_said(store: Store, scope: Scope, session_id: str | None, messages: Sequence[Message]) -> str | None:
    """The user's last buffered message in ``session_id`` (as stored: its secrets masked), when ``messages`` open
    with a user message short enough to be the value it named ("wifi密码", then "是 mengmeng1314"); else None."""
    if not opens_short(messages):
        return None
    said = [i for i in read_buffer(store, scope, session_id) if i.get("role") == "user"]
    return str(said[-1].get("content") or "") if said else None


def clear_buffer(store: Store, scope: Scope, session_id: str | None = None) -> int:
    """Remove buffered turns of ``session_id`` (all when None); returns how many were removed."""
    items = list(store.state_get(scope, BUFFER_KEY) or [])
    kept = [i for i in items if session_id is not None and i.get("session_id") != session_id]
    store.state_set(scope, BUFFER_KEY, kept)
    return len(items) - len(kept)
