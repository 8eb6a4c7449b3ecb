"""A local cross-encoder (``pip install 'jiyi[st]'``): BAAI/bge-reranker-v2-m3 or any CrossEncoder.

``JIYI_RERANKER=sentence-transformers`` (alias ``st``, ``cross-encoder``) with
``JIYI_RERANKER_MODEL`` a Hugging Face name or a local directory. The model loads on
construction (downloads on first use unless it is a local path or already cached);
torch is imported only then. On a CPU a base-size cross-encoder takes roughly
20–60 ms per candidate: keep ``JIYI_RERANKER_CANDIDATES`` small or use a GPU.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from jiyi.errors import ConfigError, MissingDependency

if TYPE_CHECKING:
    from jiyi.config import Settings

DEFAULT_MODEL = "BAAI/bge-reranker-v2-m3"


class CrossEncoderReranker:
    """A ``sentence_transformers.CrossEncoder`` as a jiyi Reranker (its raw logits as scores)."""

    name = "sentence-transformers"

    def __init__(self, model: str = DEFAULT_MODEL, *, device: str | None = None, batch_size: int = 16,
                 max_length: int = 512) -> None:
        try:
            from sentence_transformers import CrossEncoder  # type: ignore[import-not-found,import-untyped,unused-ignore]
        except ImportError as exc:
            raise MissingDependency("the sentence-transformers reranker", "st") from exc
        self.model = model
        self.batch_size = max(1, batch_size)
        self._lock = threading.Lock()
        try:
            self._ce: Any = CrossEncoder(model, device=device, max_length=max_length)
        except (OSError, ValueError) as exc:
            raise ConfigError(f"cannot load cross-encoder {model!r} ({exc}); check JIYI_RERANKER_MODEL "
                              "(a Hugging Face name or a local directory)") from exc

    def rerank(self, query: str, texts: Sequence[str]) -> list[float]:
        if not texts:
            return []
        with self._lock:  # torch modules are not documented as safe for concurrent forward passes
            out = self._ce.predict([(query, t) for t in texts], batch_size=self.batch_size,
                                   show_progress_bar=False)
        return [float(x) for x in out]


def from_settings(settings: Settings) -> CrossEncoderReranker:
    """``JIYI_RERANKER=sentence-transformers``; ``JIYI_RERANKER_MODEL`` names the model."""
    return CrossEncoderReranker(settings.reranker_model or DEFAULT_MODEL)
