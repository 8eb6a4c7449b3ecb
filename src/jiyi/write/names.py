"""A user's own display name, carried to the messages that came without it.

Bots pass the sender's display name on some messages and not on others: the first message of a
chat, one platform's adapter but not another's, a history imported without names. Each turn's
speaker is its name, so "老铁，我每天两瓶百事" sent as 胡大壮 and "可乐我戒了" sent with no name
were two people's, and the quitting ended nothing.

A user whose messages have only ever carried one name (this write's and every earlier one's) is
that one person: their messages without a name are theirs under it. Once a second name appears
in the user's messages (a group chat stored under one id, senders told apart by name), names are
taken as given, and a message without one stays the user's own. A group chat stored per sender
(``add(..., group=True)``) is left out: the name there is the user's in that group, and what they
said there is theirs in private already (write/endings.py).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from jiyi.records import Message, Scope
from jiyi.stores.protocol import Store

#: The state key holding the display names the user's messages have carried, oldest first.
NAMES_STATE = "speaker_names"
#: The most names remembered per user (enough to know there were several).
KEPT = 8


def with_own_name(store: Store, scope: Scope, messages: Sequence[Message]) -> list[Message]:
    """``messages`` with the user's one display name on their own messages that came without it."""
    said = [m.name for m in messages if m.role == "user" and m.name]
    held = store.state_get(scope, NAMES_STATE)
    seen = [n for n in held if isinstance(n, str)] if isinstance(held, list) else []
    names = list(dict.fromkeys([*seen, *said]))
    if names != seen:
        store.state_set(scope, NAMES_STATE, names[-KEPT:])
    if len(names) != 1:
        return list(messages)
    return [dataclasses.replace(m, name=names[0]) if m.role == "user" and not m.name else m for m in messages]
