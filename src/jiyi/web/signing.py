"""Signed, expiring tokens for the panel: session cookies and end-user links.

A token is ``base64url(json payload) "." base64url(HMAC-SHA256)``. The MAC key is
derived from one server secret *and a purpose* (``session``, ``user-link``), so a
link can never be replayed as a cookie or the other way round. Every payload carries
``exp`` (Unix seconds); an expired or tampered token reads as ``None``, never as an
error, because the caller's answer is the same either way: sign in again.

The secret lives in ``$JIYI_HOME/ui.secret`` (32 random bytes, owner-only), created
on first use by whichever process gets there first: the server and the ``jiyi
ui-link`` command on one host share it. Replicas on several hosts need the same file
(as they need the same ``keys.db``). Deleting the file signs everyone out and voids
every link.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import os
import re
import secrets
import threading
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from jiyi.errors import InvalidInput
from jiyi.userid import check_user_id

SECRET_FILE = "ui.secret"
_TTL = re.compile(r"^\s*(\d+)\s*([smhdw]?)\s*$")
_UNITS = {"": 1, "s": 1, "m": 60, "h": 3600, "d": 86400, "w": 7 * 86400}
MAX_LINK_TTL = timedelta(days=90)


class SecretFile:
    """The panel's signing secret, read (or created) lazily and then kept in memory.

    Lazy so that building the app (for the OpenAPI document, say) never touches the
    disk; the first request that needs a signature creates the file.
    """

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path).expanduser()
        self._value: bytes | None = None
        self._lock = threading.Lock()

    @classmethod
    def in_home(cls, home: str | Path) -> SecretFile:
        return cls(Path(home).expanduser() / SECRET_FILE)

    def __call__(self) -> bytes:
        with self._lock:
            if self._value is None:
                self._value = _read_or_create(self.path)
            return self._value


def _read_or_create(path: Path) -> bytes:
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        fd = os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600)
    except FileExistsError:
        data = path.read_bytes()
        if len(data) < 32:
            raise InvalidInput(f"{path} is shorter than 32 bytes; delete it and a new one is made") from None
        return data
    value = secrets.token_bytes(32)
    with os.fdopen(fd, "wb") as fh:
        fh.write(value)
    return value


def sign(secret: bytes, purpose: str, payload: dict[str, Any]) -> str:
    """A token carrying ``payload`` (which must include ``exp``), bound to ``purpose``."""
    body = _b64(json.dumps(payload, separators=(",", ":"), ensure_ascii=False).encode("utf-8"))
    return f"{body}.{_b64(_mac(secret, purpose, body))}"


def unsign(secret: bytes, purpose: str, token: str, *, now: datetime) -> dict[str, Any] | None:
    """The payload of a valid, unexpired token for ``purpose``; None otherwise."""
    if not isinstance(token, str) or token.count(".") != 1 or len(token) > 4096:
        return None
    body, mac = token.split(".")
    try:
        given = _unb64(mac)
        if not hmac.compare_digest(given, _mac(secret, purpose, body)):
            return None
        payload = json.loads(_unb64(body))
    except (ValueError, UnicodeDecodeError):
        return None
    if not isinstance(payload, dict) or not isinstance(payload.get("exp"), (int, float)):
        return None
    if payload["exp"] <= now.timestamp():
        return None
    return payload


def parse_ttl(text: str | int) -> timedelta:
    """``90``, ``30m``, ``12h``, ``7d``, ``2w`` → a timedelta (1 second to 90 days)."""
    if isinstance(text, int) and not isinstance(text, bool):
        seconds = text
    else:
        m = _TTL.match(str(text))
        if not m:
            raise InvalidInput(f"ttl {text!r}: use a number with s, m, h, d or w, e.g. 24h or 7d")
        seconds = int(m.group(1)) * _UNITS[m.group(2)]
    if not 1 <= seconds <= MAX_LINK_TTL.total_seconds():  # compared before timedelta() overflows on a huge one
        raise InvalidInput("ttl must be between 1 second and 90 days")
    return timedelta(seconds=seconds)


def make_user_link_token(secret: bytes, *, tenant: str, user_id: str, expires_at: datetime) -> str:
    """The token of an end-user link: opens the panel as ``user_id`` of ``tenant`` until ``expires_at``."""
    check_user_id(user_id)
    payload = {"t": tenant, "u": user_id, "exp": int(expires_at.timestamp()), "n": secrets.token_hex(4)}
    return sign(secret, "user-link", payload)


def read_user_link_token(secret: bytes, token: str, *, now: datetime) -> tuple[str, str, int] | None:
    """(tenant, user_id, exp) of a valid link token, else None."""
    payload = unsign(secret, "user-link", token, now=now)
    if payload is None or not isinstance(payload.get("t"), str) or not isinstance(payload.get("u"), str):
        return None
    return payload["t"], payload["u"], int(payload["exp"])


def _mac(secret: bytes, purpose: str, body: str) -> bytes:
    key = hmac.new(secret, f"jiyi-ui:{purpose}".encode(), hashlib.sha256).digest()
    return hmac.new(key, body.encode("ascii"), hashlib.sha256).digest()


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def _unb64(text: str) -> bytes:
    if not re.fullmatch(r"[A-Za-z0-9_\-]*", text):
        raise ValueError("not base64url")
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
