"""The Reranker role: optional second-stage scoring of (query, memory) pairs."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, runtime_checkable


@runtime_checkable
class Reranker(Protocol):
    name: str

    def rerank(self, query: str, texts: Sequence[str]) -> list[float]:
        """One relevance score per text, higher is better (any scale)."""
