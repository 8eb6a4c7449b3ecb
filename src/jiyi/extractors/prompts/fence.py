"""Fencing untrusted text so that it cannot pass for instructions or close its own fence.

The fence markers carry a tag derived from a hash of the fenced body. Text inside
the fence would have to contain the hash of itself to forge the closing marker,
which cannot be done, yet the same input always gives the same prompt (reproducible
prompts, cacheable replies). Conversation lines are JSON-encoded one per line by the
callers, so a message cannot start a line of its own either.
"""

from __future__ import annotations

import hashlib


def fence_tag(body: str) -> str:
    """12 hex digits of the body's SHA-256."""
    return hashlib.sha256(body.encode("utf-8")).hexdigest()[:12]


def fence(name: str, body: str) -> tuple[str, str]:
    """``(tag, block)``: ``body`` between ``<<<name tag>>>`` and ``<<<END name tag>>>``."""
    tag = fence_tag(body)
    return tag, f"<<<{name} {tag}>>>\n{body}\n<<<END {name} {tag}>>>"
