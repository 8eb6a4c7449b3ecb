"""The one rule for user ids, called by every door: the Python API, REST, the web panel, MCP, the
proxy, the LangChain adapters and the AstrBot plugin.

A user id is a string of 1-128 characters with no leading or trailing whitespace and no control,
format or separator characters (tabs, newlines, NUL, zero-width spaces, bidi marks, U+2028).
Such ids are refused, never normalised: ``"wa1 "`` silently becoming ``"wa1"`` at one door and
staying ``"wa1 "`` at another would make one person two users, or two people one.
"""

from __future__ import annotations

import unicodedata

from jiyi.errors import InvalidInput

MAX_LENGTH = 128
#: Unicode categories never allowed in a user id: control, format, surrogate, private use,
#: unassigned, line and paragraph separators.
_REFUSED_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})


def user_id_problem(value: object) -> str | None:
    """Why ``value`` is not a valid user id (one short phrase), or None when it is valid."""
    if not isinstance(value, str):
        return f"must be a string, got {type(value).__name__}"
    if not value:
        return "must not be empty"
    if len(value) > MAX_LENGTH:
        return f"must be at most {MAX_LENGTH} characters, got {len(value)}"
    if value != value.strip():
        return "must not start or end with whitespace"
    for c in value:
        if unicodedata.category(c) in _REFUSED_CATEGORIES:
            return f"must not contain control or invisible characters (found U+{ord(c):04X})"
        if c.isspace() and c != " ":
            return f"must not contain tabs, newlines or other special spaces (found U+{ord(c):04X})"
    return None


def check_user_id(value: object, what: str = "user_id") -> str:
    """``value`` when it is a valid user id, else :class:`~jiyi.errors.InvalidInput` saying why."""
    problem = user_id_problem(value)
    if problem is not None:
        raise InvalidInput(f"{what} {problem}: {value!r}"[:300])
    return value  # type: ignore[return-value]  # user_id_problem proved it is a str


def is_valid_user_id(value: object) -> bool:
    return user_id_problem(value) is None
