"""Sealing masked values with a key the operator holds (AES-256-GCM, ``cryptography``).

A key is 32 random bytes, given base64-encoded: ``JIYI_ENCRYPTION_KEY`` (several keys
comma-separated) or the ``encryption_key_file`` setting (one key a line). The first key
seals; every key opens, so during a rotation the new key goes first, the old one stays
after it until ``jiyi reencrypt`` has re-sealed everything with the new one. Each
ciphertext names its key by id (the first 8 hex digits of the key's SHA-256), so a
wrong or missing key is told apart from damaged data.

A sealed blob is a small JSON-ready dict ``{"kid", "nonce", "ct"}`` kept in a record's
``metadata["sealed"]``: never in the keyword index or the embedded text.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from jiyi.errors import ConfigError, JiyiError

SEALED_KEY = "sealed"


class SealError(JiyiError):
    """A sealed value cannot be opened: its key is not configured, or the data was altered."""


def generate_key() -> str:
    """A new random key, base64-encoded (what ``JIYI_ENCRYPTION_KEY`` takes)."""
    return base64.b64encode(os.urandom(32)).decode("ascii")


def key_id(key: bytes) -> str:
    return hashlib.sha256(key).hexdigest()[:8]


def _decode_key(text: str, where: str) -> bytes:
    try:
        raw = base64.b64decode(text.strip(), validate=True)
    except (binascii.Error, ValueError):
        raw = b""
    if len(raw) != 32:
        raise ConfigError(f"{where}: an encryption key must be 32 bytes, base64-encoded "
                          "(make one with `jiyi new-encryption-key`)")
    return raw


@dataclass(frozen=True)
class Keyring:
    """The operator's keys: ``keys[0]`` seals, all of them open."""

    keys: tuple[bytes, ...]

    def __post_init__(self) -> None:
        if not self.keys:
            raise ConfigError("a keyring needs at least one key")

    @classmethod
    def from_text(cls, text: str, where: str = "encryption key") -> Keyring:
        """Keys separated by commas or new lines; blank lines and ``#`` comments are ignored."""
        parts = [p.strip() for line in text.splitlines() for p in line.split(",")]
        return cls(tuple(_decode_key(p, where) for p in parts if p and not p.startswith("#")))

    @property
    def primary_id(self) -> str:
        return key_id(self.keys[0])

    def seal(self, pairs: Sequence[Sequence[str]]) -> dict[str, str]:
        """Encrypt the ``[placeholder, value]`` pairs of one record with the primary key."""
        from cryptography.hazmat.primitives.ciphers.aead import AESGCM

        kid = self.primary_id
        nonce = os.urandom(12)
        data = json.dumps([list(p) for p in pairs], ensure_ascii=False).encode("utf-8")
        ct = AESGCM(self.keys[0]).encrypt(nonce, data, kid.encode("ascii"))
        return {"kid": kid, "nonce": base64.b64encode(nonce).decode(), "ct": base64.b64encode(ct).decode()}

    def open(self, blob: Any) -> list[list[str]]:
        """The pairs sealed in ``blob``; :class:`SealError` if no key of ours sealed it or it was altered."""
        from cryptography.exceptions import InvalidTag
        from cryptography.hazmat.primitives.ciphers.aead import AESGCM

        if not isinstance(blob, dict) or not {"kid", "nonce", "ct"} <= set(blob):
            raise SealError("not a sealed value")
        key = next((k for k in self.keys if key_id(k) == blob["kid"]), None)
        if key is None:
            raise SealError(f"sealed with key {blob['kid']}, which is not configured: add it to "
                            "JIYI_ENCRYPTION_KEY / encryption_key_file (after the current key)")
        try:
            data = AESGCM(key).decrypt(base64.b64decode(blob["nonce"]), base64.b64decode(blob["ct"]),
                                       str(blob["kid"]).encode("ascii"))
        except (InvalidTag, binascii.Error, ValueError):
            raise SealError(f"a sealed value under key {blob['kid']} failed its integrity check") from None
        pairs = json.loads(data.decode("utf-8"))
        return [[str(a), str(b)] for a, b in pairs]

    def needs_reseal(self, blob: Any) -> bool:
        """True when ``blob`` was sealed with a key other than the primary one."""
        return isinstance(blob, dict) and blob.get("kid") != self.primary_id


def keyring_from(key: str | None, key_file: Path | str | None) -> Keyring | None:
    """The keyring the settings name (key first, then the file's keys), or None when none is set."""
    text = key or ""
    if key_file:
        path = Path(key_file).expanduser()
        try:
            text = "\n".join((text, path.read_text(encoding="utf-8")))
        except OSError as exc:
            raise ConfigError(f"cannot read encryption_key_file {path}: {exc.strerror}") from None
    return Keyring.from_text(text) if text.strip() else None
