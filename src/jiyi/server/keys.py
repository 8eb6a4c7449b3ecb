"""API keys: the HTTP service's only credential, each mapped to one tenant.

Keys live in their own small SQLite file, ``$JIYI_HOME/keys.db`` by default, apart
from the memory store: it works the same whether memories are in SQLite or
PostgreSQL, and a key never travels with a data export. Several server processes on
one host can share the file (SQLite locks it); replicas on several hosts need the
file on shared storage, or their own keys.

A key looks like ``jiyi_<id>_<secret>``. The 12-hex-digit ``id`` is public (it names
the key in ``jiyi keys list`` and in logs); the secret is 256 random bits and is
stored only as ``HMAC-SHA256(salt, secret)`` with a per-key random salt. A slow
password hash would buy nothing here: the secret is random, not chosen by a person,
so it cannot be guessed from its hash. The clear key is shown once, at creation.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import re
import secrets
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from jiyi.clock import Clock, SystemClock, format_iso, parse_iso
from jiyi.errors import InvalidInput, NotFound

KEY_PREFIX = "jiyi"
_TENANT_RE = re.compile(r"^[\w.\-]{1,128}$", re.UNICODE)
_ID_RE = re.compile(r"^[0-9a-f]{12}$")
_SCHEMA = """
CREATE TABLE IF NOT EXISTS api_keys (
    id          TEXT PRIMARY KEY,
    tenant      TEXT NOT NULL,
    name        TEXT,
    salt        TEXT NOT NULL,
    digest      TEXT NOT NULL,
    created_at  TEXT NOT NULL,
    revoked_at  TEXT
);
CREATE INDEX IF NOT EXISTS api_keys_tenant ON api_keys (tenant);
"""


@dataclass(slots=True, frozen=True)
class ApiKey:
    """What is known about a key, without its secret."""

    id: str
    tenant: str
    name: str | None
    created_at: datetime
    revoked_at: datetime | None = None

    @property
    def active(self) -> bool:
        return self.revoked_at is None


class KeyStore:
    """Creates, verifies, lists and revokes API keys in one SQLite file.

    Every call opens its own short-lived connection, so one ``KeyStore`` is safe to
    share between threads and a key revoked from the CLI stops working at once.
    """

    def __init__(self, path: str | Path, clock: Clock | None = None) -> None:
        self.path = Path(path).expanduser()
        self._clock = clock or SystemClock()
        self._ready = False

    @classmethod
    def in_home(cls, home: str | Path, clock: Clock | None = None) -> KeyStore:
        """The default place: ``<home>/keys.db``."""
        return cls(Path(home).expanduser() / "keys.db", clock)

    @contextmanager
    def _connect(self) -> Iterator[sqlite3.Connection]:
        if not self._ready:
            self._init()
        conn = sqlite3.connect(self.path, timeout=10)
        try:
            with conn:
                yield conn
        finally:
            conn.close()

    def _init(self) -> None:
        """Create the file (owner-only permissions) and the table on first use."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        if not self.path.exists():
            fd = os.open(self.path, os.O_CREAT | os.O_WRONLY, 0o600)
            os.close(fd)
        conn = sqlite3.connect(self.path, timeout=10)
        try:
            conn.executescript(_SCHEMA)
        finally:
            conn.close()
        self._ready = True

    def create(self, tenant: str, *, name: str | None = None) -> tuple[ApiKey, str]:
        """A new key for ``tenant``; returns its record and the clear key (shown only now)."""
        if not isinstance(tenant, str) or not _TENANT_RE.match(tenant):
            raise InvalidInput("tenant must be 1-128 letters, digits, '_', '.' or '-'")
        if name is not None and len(name) > 200:
            raise InvalidInput("key name must be at most 200 characters")
        key_id, secret, salt = secrets.token_hex(6), secrets.token_urlsafe(32), secrets.token_hex(16)
        now = self._clock.now()
        with self._connect() as conn:
            conn.execute("INSERT INTO api_keys (id, tenant, name, salt, digest, created_at) VALUES (?, ?, ?, ?, ?, ?)",
                         (key_id, tenant, name, salt, _digest(salt, secret), format_iso(now)))
        return ApiKey(key_id, tenant, name, now), f"{KEY_PREFIX}_{key_id}_{secret}"

    def verify(self, presented: str) -> ApiKey | None:
        """The active key ``presented`` is, or None (malformed, unknown, wrong secret, revoked)."""
        key_id, secret = _split(presented)
        if key_id is None or secret is None:
            return None
        with self._connect() as conn:
            row = conn.execute("SELECT id, tenant, name, created_at, revoked_at, salt, digest FROM api_keys "
                               "WHERE id = ?", (key_id,)).fetchone()
        if row is None:
            _digest("0" * 32, secret)  # same work as a real check: unknown ids take no less time
            return None
        if not hmac.compare_digest(_digest(row[5], secret), row[6]) or row[4] is not None:
            return None
        return _key(row)

    def list(self, *, include_revoked: bool = False) -> list[ApiKey]:
        """Every key, oldest first (revoked ones only when asked)."""
        sql = "SELECT id, tenant, name, created_at, revoked_at FROM api_keys"
        if not include_revoked:
            sql += " WHERE revoked_at IS NULL"
        with self._connect() as conn:
            return [_key(r) for r in conn.execute(sql + " ORDER BY created_at, id")]

    def active_count(self) -> int:
        """How many keys can authenticate now (the server refuses to start on 0 unless told)."""
        if not self.path.exists():
            return 0
        with self._connect() as conn:
            return int(conn.execute("SELECT count(*) FROM api_keys WHERE revoked_at IS NULL").fetchone()[0])

    def revoke(self, key: str) -> ApiKey:
        """Revoke by id (or by the whole key); NotFound if no such active key."""
        key_id = key if _ID_RE.match(key) else _split(key)[0]
        with self._connect() as conn:
            cur = conn.execute("UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL",
                               (format_iso(self._clock.now()), key_id))
            if cur.rowcount == 0:
                raise NotFound(f"no active API key {key_id or key!r}; see `jiyi keys list`")
            row = conn.execute("SELECT id, tenant, name, created_at, revoked_at FROM api_keys WHERE id = ?",
                               (key_id,)).fetchone()
        return _key(row)


def _split(presented: str) -> tuple[str | None, str | None]:
    parts = presented.strip().split("_", 2) if isinstance(presented, str) else []
    if len(parts) != 3 or parts[0] != KEY_PREFIX or not _ID_RE.match(parts[1]) or not parts[2]:
        return None, None
    return parts[1], parts[2]


def _digest(salt: str, secret: str) -> str:
    return hmac.new(bytes.fromhex(salt), secret.encode("utf-8"), hashlib.sha256).hexdigest()


def _key(row: tuple[str, ...] | sqlite3.Row) -> ApiKey:
    return ApiKey(id=row[0], tenant=row[1], name=row[2], created_at=parse_iso(row[3]),
                  revoked_at=parse_iso(row[4]) if row[4] else None)
