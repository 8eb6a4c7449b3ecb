"""Identity aliases: one person across platforms and accounts.

A person is ``platform_id:sender_id`` (``qq1:12345``). ``/mem link`` said from account A
gives a one-time code (6 digits, valid ``CODE_TTL`` seconds); ``/mem link <code>`` said from
account B makes B an alias of A: from then on B's messages, recalls and commands use A's
memories, and B's earlier memories move to A. An admin can link two accounts directly
(``/mem link <B> <A>``). ``/mem unlink`` said from B undoes it (memories stay with A).

The table is a small JSON file in the plugin's data dir (alias → canonical person), written
atomically; codes live in memory only (a restart voids them, which is the safe failure).
"""

from __future__ import annotations

import json
import secrets
import time
from dataclasses import dataclass
from pathlib import Path

CODE_TTL = 600.0


@dataclass(frozen=True, slots=True)
class Pending:
    person: str
    expires: float


class AliasBook:
    """``person → canonical person``, persisted; plus the pending one-time codes."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._now = time.time
        try:
            data = json.loads(path.read_text("utf-8"))
            self._aliases: dict[str, str] = {str(k): str(v) for k, v in dict(data).items()}
        except (OSError, ValueError, TypeError):
            self._aliases = {}
        self._codes: dict[str, Pending] = {}

    def canonical(self, person: str) -> str:
        """The person ``person`` is an alias of (itself when it is none)."""
        return self._aliases.get(person, person)

    def aliases_of(self, canonical: str) -> list[str]:
        return sorted(k for k, v in self._aliases.items() if v == canonical)

    def issue(self, person: str) -> str:
        """A fresh one-time code that links another account to ``person``'s canonical identity."""
        self._expire()
        code = f"{secrets.randbelow(10**6):06d}"
        while code in self._codes:
            code = f"{secrets.randbelow(10**6):06d}"
        self._codes[code] = Pending(self.canonical(person), self._now() + CODE_TTL)
        return code

    def redeem(self, code: str, person: str) -> str | None:
        """Link ``person`` to the code's identity; that canonical identity, or None for a bad code."""
        self._expire()
        pending = self._codes.get(code.strip())
        if pending is None:
            return None
        del self._codes[code.strip()]
        if self.canonical(person) != pending.person:
            self.link(person, pending.person)
        return pending.person

    def link(self, person: str, target: str) -> str:
        """Make ``person`` (and everyone already aliased to it) an alias of ``target``'s canonical identity."""
        canonical = self.canonical(target)
        if canonical == person:
            raise ValueError("一个账号不能链接到它自己")
        for alias, to in list(self._aliases.items()):
            if to == person:
                self._aliases[alias] = canonical
        self._aliases[person] = canonical
        self._save()
        return canonical

    def unlink(self, person: str) -> str | None:
        """Remove ``person``'s alias; the identity it pointed to, or None when it had none."""
        was = self._aliases.pop(person, None)
        if was is not None:
            self._save()
        return was

    def _expire(self) -> None:
        now = self._now()
        for code in [c for c, p in self._codes.items() if p.expires < now]:
            del self._codes[code]

    def _save(self) -> None:
        tmp = self.path.with_suffix(".tmp")
        tmp.write_text(json.dumps(self._aliases, ensure_ascii=False, indent=1), "utf-8")
        tmp.replace(self.path)
