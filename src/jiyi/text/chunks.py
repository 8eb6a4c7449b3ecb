"""Cutting a long turn into parts an embedding model reads whole (sentence boundaries first)."""

from __future__ import annotations

import re

#: A part of at most this many characters fits e5's 512-token window in any script
#: (CJK runs about one token a character).
PART_CHARS = 500
_SENTENCE_END = re.compile(r"(?<=[。！？!?；;…\n])|(?<=[.](?=\s))")
_SPACE = re.compile(r"\s")


def split_text(text: str, max_chars: int = PART_CHARS) -> list[str]:
    """``text`` in order, as parts of at most ``max_chars`` characters, cut after sentence
    ends where one falls in reach, else at a space, else anywhere. Short text: one part."""
    text = text.strip()
    if len(text) <= max_chars:
        return [text] if text else []
    parts: list[str] = []
    current = ""
    for sentence in _sentences(text, max_chars):
        if current and len(current) + len(sentence) > max_chars:
            parts.append(current.strip())
            current = ""
        current += sentence
    if current.strip():
        parts.append(current.strip())
    return [p for p in parts if p]


def _sentences(text: str, max_chars: int) -> list[str]:
    out: list[str] = []
    for sentence in _SENTENCE_END.split(text):
        while len(sentence) > max_chars:  # one sentence longer than a part: cut at a space
            cut = max((m.start() for m in _SPACE.finditer(sentence, 0, max_chars)), default=0)
            cut = cut if cut > max_chars // 2 else max_chars
            out.append(sentence[:cut])
            sentence = sentence[cut:]
        if sentence:
            out.append(sentence)
    return out
