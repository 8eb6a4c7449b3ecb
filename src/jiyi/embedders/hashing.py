"""A tiny deterministic offline embedder for testing plumbing, not meaning.

Character 1- to 3-grams of the lower-cased text are hashed (blake2b, so the result
does not depend on ``PYTHONHASHSEED``) into ``dim`` signed buckets, then the vector is
L2-normalised. Texts sharing many characters come out close, which is enough for
tests of storage, batching, caching and ranking plumbing; it knows nothing of
synonyms. Model name ``hash-256`` (or ``hash-<dim>``), so a store built with it
refuses vectors from a real model.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from jiyi.errors import ConfigError

if TYPE_CHECKING:
    from jiyi.config import Settings

_NAME = re.compile(r"^hash-(\d+)$")
_SPACES = re.compile(r"\s+")


class HashingEmbedder:
    """Character n-gram hashing into ``dim`` dimensions (default 256), L2-normalised float32."""

    def __init__(self, dim: int = 256, ngrams: tuple[int, ...] = (1, 2, 3)) -> None:
        if dim < 8:
            raise ConfigError(f"hash embedder needs at least 8 dimensions, not {dim}")
        self.dim = dim
        self.model = f"hash-{dim}"
        self._ngrams = ngrams

    def embed_passages(self, texts: Sequence[str]) -> np.ndarray:
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for row, text in enumerate(texts):
            out[row] = self._vector(text)
        return out

    def embed_query(self, text: str) -> np.ndarray:
        return self._vector(text)

    def _vector(self, text: str) -> np.ndarray:
        """Zero vector for text without characters; unit length otherwise."""
        vec = np.zeros(self.dim, dtype=np.float32)
        s = _SPACES.sub(" ", text.lower()).strip()
        for n in self._ngrams:
            for i in range(len(s) - n + 1):
                digest = hashlib.blake2b(s[i : i + n].encode("utf-8"), digest_size=8).digest()
                value = int.from_bytes(digest, "little")
                vec[value % self.dim] += 1.0 if (value >> 63) & 1 else -1.0
        norm = float(np.linalg.norm(vec))
        return vec / norm if norm > 0 else vec


def from_settings(settings: Settings) -> HashingEmbedder:
    """``JIYI_EMBEDDER=hash``; ``JIYI_EMBEDDER_MODEL=hash-<dim>`` picks another width."""
    name = settings.embedder_model
    if not name:
        return HashingEmbedder()
    match = _NAME.match(name)
    if match is None:
        raise ConfigError(
            f"the hash embedder's model is named hash-<dim> (e.g. hash-256), not {name!r}"
        )
    return HashingEmbedder(int(match.group(1)))
