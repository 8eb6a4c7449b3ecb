"""Who owns a memory in AstrBot: the speaker, narrowed by scope (user, session or persona).

Every scope is per speaker, so in a group chat a memory about B is never recalled as A's:

- ``user`` (default): one memory per person on a platform instance, shared by every group and
  private chat they talk in (``qq1:12345``);
- ``session``: per person per chat (``qq1:GroupMessage:678|12345``);
- ``persona``: per person per bot persona (``qq1:12345@猫娘``), for companion bots whose
  personas should not share what they know;
- besides the speaker's own, the bot's shared facts (``@global``, written by an admin) are
  recalled for everyone.

jiyi user ids are at most 128 characters; longer keys are shortened with a hash.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

SCOPES = ("user", "session", "persona")
DEFAULT_PERSONA = "default"
#: The owner of the bot's shared facts (``/mem global``). Every person's key has a ``:`` in it,
#: this one has none, so no account can ever be it.
GLOBAL_OWNER = "@global"


@dataclass(frozen=True, slots=True)
class Speaker:
    """The identity facts of one message, as AstrBot reports them."""

    platform_id: str
    sender_id: str
    umo: str
    name: str = ""
    persona: str | None = None


def owner_id(speaker: Speaker, scope: str) -> str:
    """The jiyi ``user_id`` for ``speaker`` under ``scope``."""
    if scope not in SCOPES:
        raise ValueError(f"scope must be one of {SCOPES}, got {scope!r}")
    if scope == "session":
        key = f"{speaker.umo}|{speaker.sender_id}"
    elif scope == "persona":
        key = f"{speaker.platform_id}:{speaker.sender_id}@{normalize_persona(speaker.persona)}"
    else:
        key = f"{speaker.platform_id}:{speaker.sender_id}"
    return _fit(key)


def normalize_persona(persona: str | None) -> str:
    """AstrBot writes "no persona" as None, "" or ``[%None]``."""
    if not persona or persona == "[%None]":
        return DEFAULT_PERSONA
    return persona


def speaker_name(name: str, sender_id: str) -> str:
    """A message ``name`` for jiyi (1-64 characters): the nickname, else the id."""
    text = " ".join((name or sender_id or "user").split())
    return text[:64]


def _fit(key: str, limit: int = 128) -> str:
    """``key`` when jiyi's one user-id rule accepts it, else a cleaned key with a hash of the original
    (so two different platform ids never become one user, and no door has to strip anything)."""
    from jiyi.userid import is_valid_user_id

    if is_valid_user_id(key):
        return key
    digest = hashlib.sha256(key.encode()).hexdigest()[:16]
    clean = "".join(c if c.isprintable() else "_" for c in key).strip()
    return f"{clean[: limit - 17]}~{digest}"
