"""Word lists written as text: ``words("的 了 吗")``.

Stopword and lexicon lists run to hundreds of entries; a block of space-separated
words is easier to read and review than a list literal of quoted strings.
"""

from __future__ import annotations


def words(text: str) -> frozenset[str]:
    """The whitespace-separated words of ``text`` as a frozenset."""
    return frozenset(text.split())


def word_list(text: str) -> list[str]:
    """The whitespace-separated words of ``text``, in order (for regex alternations)."""
    return text.split()
