"""The Embedder role: text → L2-normalised float32 vectors."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, runtime_checkable

import numpy as np


@runtime_checkable
class Embedder(Protocol):
    """``model`` names the model exactly (stored with vectors); ``dim`` is its width.

    Queries and passages are embedded differently where the model wants it (e5's
    ``query: `` / ``passage: `` prefixes), so there are two methods.
    """

    model: str
    dim: int

    def embed_passages(self, texts: Sequence[str]) -> np.ndarray: ...
    def embed_query(self, text: str) -> np.ndarray: ...
