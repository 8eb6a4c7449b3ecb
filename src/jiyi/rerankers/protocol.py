"""The Reranker role: optional second-stage scoring of (query, memory) pairs.

A backend scores every text it can; a text it did not score (a server that answered
fewer results than it was sent) is ``math.nan``. It raises a
:class:`~jiyi.errors.ProviderError` when it cannot score at all: the read path then
keeps its fused order (:mod:`jiyi.read.rerank`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, runtime_checkable


@runtime_checkable
class Reranker(Protocol):
    name: str

    def rerank(self, query: str, texts: Sequence[str]) -> list[float]:
        """One relevance score per text, higher is better (any scale); NaN for a text left unscored."""
