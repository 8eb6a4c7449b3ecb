"""Any sentence-transformers model, by Hugging Face name or local path (``pip install 'jiyi[st]'``).

For people who already run torch and want a bigger or domain model than the default
e5. The model loads on construction (downloads on first use unless it is a local
path or already cached). Models that want an instruction or a prefix on queries or
passages get it from :func:`default_prefixes`, matched on the model name; pass
``query_prefix``/``passage_prefix`` to override.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from jiyi.errors import ConfigError, MissingDependency

if TYPE_CHECKING:
    from jiyi.config import Settings

DEFAULT_MODEL = "BAAI/bge-small-zh-v1.5"

_E5 = re.compile(r"(^|[/_-])e5([/_-]|$)")
_BGE_QUERY_ZH = "为这个句子生成表示以用于检索相关文章："
_BGE_QUERY_EN = "Represent this sentence for searching relevant passages: "


def default_prefixes(model: str) -> tuple[str, str]:
    """The (query, passage) prefixes the model card asks for; empty when we know of none.

    e5 models were trained with ``query: ``/``passage: ``; bge v1 and v1.5 want an
    instruction on queries only (Chinese for ``-zh`` models); bge-m3 wants none.
    """
    name = model.lower()
    if _E5.search(name):
        return ("query: ", "passage: ")
    if "bge-m3" in name or "bge-" not in name:
        return ("", "")
    return (_BGE_QUERY_ZH if "-zh" in name else _BGE_QUERY_EN, "")


class SentenceTransformerEmbedder:
    """A ``sentence_transformers.SentenceTransformer`` as a jiyi Embedder (L2-normalised float32)."""

    def __init__(
        self,
        model: str = DEFAULT_MODEL,
        *,
        device: str | None = None,
        batch_size: int = 32,
        query_prefix: str | None = None,
        passage_prefix: str | None = None,
    ) -> None:
        try:
            from sentence_transformers import SentenceTransformer  # type: ignore[import-not-found,import-untyped,unused-ignore]
        except ImportError as exc:
            raise MissingDependency("the sentence-transformers embedder", "st") from exc
        self.model = model
        self.batch_size = max(1, batch_size)
        query, passage = default_prefixes(model)
        self._query_prefix = query if query_prefix is None else query_prefix
        self._passage_prefix = passage if passage_prefix is None else passage_prefix
        self._lock = threading.Lock()
        try:
            self._st: Any = SentenceTransformer(model, device=device)
        except OSError as exc:
            raise ConfigError(
                f"cannot load sentence-transformers model {model!r} ({exc}); "
                "check JIYI_EMBEDDER_MODEL (a Hugging Face name or a local directory)"
            ) from exc
        dim = self._st.get_sentence_embedding_dimension()
        if not dim:
            raise ConfigError(f"model {model!r} does not report an embedding dimension")
        self.dim = int(dim)

    def embed_passages(self, texts: Sequence[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        return self._encode([self._passage_prefix + t for t in texts])

    def embed_query(self, text: str) -> np.ndarray:
        vector: np.ndarray = self._encode([self._query_prefix + text])[0]
        return vector

    def _encode(self, texts: list[str]) -> np.ndarray:
        with self._lock:  # torch modules are not documented as safe for concurrent forward passes
            out = self._st.encode(
                texts,
                batch_size=self.batch_size,
                normalize_embeddings=True,
                convert_to_numpy=True,
                show_progress_bar=False,
            )
        return np.asarray(out, dtype=np.float32).reshape(len(texts), self.dim)


def from_settings(settings: Settings) -> SentenceTransformerEmbedder:
    """``JIYI_EMBEDDER=sentence-transformers`` (alias ``st``); ``JIYI_EMBEDDER_MODEL`` names the model."""
    return SentenceTransformerEmbedder(settings.embedder_model or DEFAULT_MODEL)
