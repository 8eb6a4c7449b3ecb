"""Which of a user's sessions are group chats: the caller says so (``add(..., group=True)``).

A session id alone does not make a group: many apps give every user the same one ("default",
"s1"). So a session counts as a group chat for a user only when their messages were added
with ``group=True``, and another member's facts reach the user's block (jiyi.read.group) only
when both declared it. The list lives in the user's own state and goes when they are erased.
"""

from __future__ import annotations

from jiyi.errors import InvalidInput
from jiyi.records import Scope
from jiyi.stores.protocol import Store

#: The state key holding the user's group sessions, oldest first.
GROUP_STATE = "group_sessions"
#: The most group sessions remembered per user (the oldest drop off).
KEPT = 50


def check_group(group: object, session_id: str | None) -> None:
    """``add``'s ``group`` argument: a bool, and a group needs its session id."""
    if not isinstance(group, bool):
        raise InvalidInput("group must be true or false")
    if group and session_id is None:
        raise InvalidInput("group=True needs the group chat's session_id")


def group_sessions(store: Store, scope: Scope) -> list[str]:
    """The user's group sessions, most recent first."""
    held = store.state_get(scope, GROUP_STATE)
    return [s for s in reversed(held) if isinstance(s, str)] if isinstance(held, list) else []


def join_group(store: Store, scope: Scope, session_id: str) -> None:
    """Note ``session_id`` as one of the user's group chats (its most recent one); no write when it
    already is (every add of a group chat calls this)."""
    held = list(reversed(group_sessions(store, scope)))
    if held[-1:] == [session_id]:
        return
    store.state_set(scope, GROUP_STATE, [*(s for s in held if s != session_id), session_id][-KEPT:])
