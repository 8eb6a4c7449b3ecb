"""A user's own display name: the user, whether a message carries it or not.

Bots pass the sender's display name on some messages and not on others: the first message of a
chat, one platform's adapter but not another's, a history imported without names. Each turn's
speaker is its name, so "老铁，我每天两瓶百事" sent as 胡大壮 and "可乐我戒了" sent with no name
were two people's (the quitting ended nothing), and what the named turn told was 胡大壮's, not in
the user's profile.

A user whose messages have carried one name only, and some none (this write's and every earlier
one's), is one person named on some turns: the user. Their turns are stored and read as the user's
own; the name stays beside each turn that carried it (``metadata["name"]``), for a transcript.
Messages that always carry a name may be a group chat stored under one id, its first sender seen
before the others: their names are taken as given, as they are once a second name appears. A group
chat stored per sender (``add(..., group=True)``) is left out: the name there is the user's in that
group, and what they said there is theirs in private already (write/endings.py).
"""

from __future__ import annotations

from collections.abc import Sequence

from jiyi.records import Message, Scope
from jiyi.stores.protocol import Store

#: The state key holding the display names the user's messages have carried, oldest first.
NAMES_STATE = "speaker_names"
#: The most names remembered per user (enough to know there were several).
KEPT = 8


def user_names(store: Store, scope: Scope, messages: Sequence[Message]) -> tuple[str, ...]:
    """The display name of ``messages`` that is the user's own (see the module notes), if there is one: their
    turns are stored as the user's (the name kept beside them, for a transcript), and read as the user's."""
    mine = [m for m in messages if m.role == "user"]
    if not mine:
        return ()
    held = store.state_get(scope, NAMES_STATE)
    held = held if isinstance(held, dict) else {}
    seen = [n for n in held.get("names", ()) if isinstance(n, str)]
    names = list(dict.fromkeys([*seen, *(m.name for m in mine if m.name)]))
    unnamed = bool(held.get("unnamed")) or any(not m.name for m in mine)
    state = {"names": names[-KEPT:], "unnamed": unnamed}
    if state != held and names:
        store.state_set(scope, NAMES_STATE, state)
    return (names[0],) if len(names) == 1 and unnamed else ()
