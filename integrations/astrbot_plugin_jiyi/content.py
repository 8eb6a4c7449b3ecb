"""Text that may be stored: images, base64 blobs and platform image codes removed first.

Mnemosyne's token explosions (its issue #105) came from base64 pictures in history and
summaries; nothing but readable text reaches jiyi from this plugin.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

_DATA_URI = re.compile(r"data:[\w.+-]+/[\w.+-]+;base64,[A-Za-z0-9+/=\s]+")
_BASE64_RUN = re.compile(r"(?<![A-Za-z0-9+/])[A-Za-z0-9+/]{200,}={0,2}")
_CQ_MEDIA = re.compile(r"\[CQ:(?:image|record|video|file|face|mface)[^\]]*\]")
_MARKDOWN_IMAGE = re.compile(r"!\[[^\]]*\]\([^)]*\)")
_MEMORY_BLOCK = re.compile(r"<memories>.*?</memories>", re.DOTALL)

MAX_CHARS = 4000


def clean_text(text: str | None) -> str:
    """``text`` without pictures, base64 and injected memory blocks; collapsed and capped."""
    if not text:
        return ""
    out = _MEMORY_BLOCK.sub(" ", text)
    for pattern in (_DATA_URI, _CQ_MEDIA, _MARKDOWN_IMAGE, _BASE64_RUN):
        out = pattern.sub(" ", out)
    out = re.sub(r"[ \t]+", " ", out)
    out = re.sub(r"\n\s*\n+", "\n", out).strip()
    return out[:MAX_CHARS]


def recent_turns(contexts: Sequence[Any] | None, limit: int) -> list[dict[str, str]]:
    """The last ``limit`` user/assistant messages of AstrBot's conversation history (``req.contexts``,
    OpenAI format, oldest first) as plain ``{"role", "content"}`` text for jiyi's ``recent``.

    Tool calls, tool results and system messages are left out; multimodal content keeps its
    text parts; pictures, base64 and earlier memory blocks are stripped (:func:`clean_text`).
    """
    if limit <= 0:
        return []
    out: list[dict[str, str]] = []
    for message in reversed(list(contexts or [])):
        if not isinstance(message, dict) or message.get("role") not in ("user", "assistant"):
            continue
        text = clean_text(_text_of(message.get("content")))
        if text:
            out.append({"role": str(message["role"]), "content": text})
            if len(out) >= limit:
                break
    return out[::-1]


def _text_of(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(str(p.get("text") or "") for p in content if isinstance(p, dict) and p.get("type") == "text")
    return ""


def command_rest(message: str, sub: str) -> str:
    """The text after ``mem <sub>`` in a command message (free text with spaces)."""
    match = re.search(rf"(?:^|[\s/])mem\s+{re.escape(sub)}(?:\s+|$)(.*)", message or "", re.DOTALL)
    return match.group(1).strip() if match else ""
