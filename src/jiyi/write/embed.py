"""Embedding stage: batched, cached by content hash in the store, one call per batch."""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from collections.abc import Sequence

import numpy as np

from jiyi.embedders.protocol import Embedder
from jiyi.stores.protocol import Store


def self_contained_vectors(vec: np.ndarray) -> dict[str, np.ndarray]:
    """Vectors of a memory that needs no neighbour context: its own, on the ``content`` channel.

    Episodes also get a ``context`` vector (the turn with the one before it). Every other
    memory is self-contained: on the context route it counts with its ``vector`` z-score
    (``read.fuse.FALLBACK``), which is what a copy of its vector on that channel gave,
    without the route scoring it a second time.
    """
    return {"content": vec}


def content_hash(text: str) -> str:
    return hashlib.blake2b(text.encode("utf-8"), digest_size=16).hexdigest()


class CachedEmbedder:
    """Wraps an Embedder: passages cached in the store, queries in a small LRU in memory."""

    def __init__(self, embedder: Embedder, store: Store, query_cache_size: int = 2048) -> None:
        self.inner = embedder
        self.model = embedder.model
        self.dim = embedder.dim
        self._store = store
        self._queries: OrderedDict[str, np.ndarray] = OrderedDict()
        self._query_cache_size = query_cache_size
        self._lock = threading.Lock()

    def embed_passages(self, texts: Sequence[str]) -> np.ndarray:
        """Vectors for ``texts`` (same order); only unseen texts reach the model."""
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        hashes = [content_hash(t) for t in texts]
        cached = self._store.cache_get(self.model, list(set(hashes)))
        missing = sorted({h: t for h, t in zip(hashes, texts) if h not in cached}.items())
        if missing:
            fresh = self.inner.embed_passages([t for _, t in missing])
            new = {h: fresh[i] for i, (h, _) in enumerate(missing)}
            self._store.cache_put(self.model, new)
            cached.update(new)
        return np.stack([cached[h] for h in hashes]).astype(np.float32, copy=False)

    def embed_query(self, text: str) -> np.ndarray:
        with self._lock:
            vec = self._queries.get(text)
            if vec is not None:
                self._queries.move_to_end(text)
                return vec
        vec = self.inner.embed_query(text)
        with self._lock:
            self._queries[text] = vec
            while len(self._queries) > self._query_cache_size:
                self._queries.popitem(last=False)
        return vec
