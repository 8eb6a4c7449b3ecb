"""Embeddings from any OpenAI-compatible ``/v1/embeddings`` endpoint.

OpenAI, DashScope (``text-embedding-v3``), SiliconFlow (``BAAI/bge-m3``), Ollama,
vLLM and text-embeddings-inference all speak it. Requests go out in batches of
``batch_size`` texts through the same :class:`~jiyi.llms.endpoint.Endpoint` as the
chat client, so retries, backoff and the concurrency limit are shared code.
Vectors are L2-normalised here: not every server does it.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from jiyi.errors import ConfigError, ProviderBadOutput
from jiyi.llms.endpoint import Endpoint, RetryPolicy, UsageMeter, read_usage
from jiyi.llms.presets import resolve_base_url
from jiyi.llms.protocol import Usage

if TYPE_CHECKING:
    import httpx

    from jiyi.config import Settings

#: Widths of common models, so ``dim`` is known without a network call.
KNOWN_DIMS: dict[str, int] = {
    "text-embedding-3-small": 1536,
    "text-embedding-3-large": 3072,
    "text-embedding-ada-002": 1536,
    "text-embedding-v3": 1024,
    "BAAI/bge-m3": 1024,
    "bge-m3": 1024,
    "nomic-embed-text": 768,
}


class OpenAICompatEmbedder:
    """An embedding model behind an OpenAI-compatible endpoint (implements the Embedder role).

    ``dim`` comes from ``dimensions`` (OpenAI v3 models can shorten their vectors),
    then :data:`KNOWN_DIMS`, else from one probe request on first access.
    ``query_prefix``/``passage_prefix`` are for models that want them (e5, bge).
    """

    def __init__(
        self,
        base_url: str,
        model: str,
        api_key: str | None = None,
        *,
        dimensions: int | None = None,
        batch_size: int = 64,
        query_prefix: str = "",
        passage_prefix: str = "",
        timeout: float = 30.0,
        max_retries: int = 3,
        concurrency: int = 4,
        backoff: float = 0.5,
        transport: httpx.BaseTransport | None = None,
    ) -> None:
        if not model:
            raise ConfigError("an embedding model name is needed: set JIYI_EMBEDDER_MODEL")
        self.model = model
        self.batch_size = max(1, batch_size)
        self._dimensions = dimensions
        self._dim = dimensions or KNOWN_DIMS.get(model)
        self._prefixes = (query_prefix, passage_prefix)
        self._dim_lock = threading.Lock()
        self._endpoint = Endpoint(
            base_url,
            api_key,
            timeout=timeout,
            retry=RetryPolicy(max_retries=max(0, max_retries), base_delay=backoff),
            concurrency=concurrency,
            setting="JIYI_EMBEDDER",
            transport=transport,
        )
        self._meter = UsageMeter()

    @property
    def dim(self) -> int:
        with self._dim_lock:
            if self._dim is None:
                self._dim = int(self._request(["dimension probe"]).shape[1])
            return self._dim

    @property
    def usage(self) -> Usage:
        """Tokens used so far (embeddings count only prompt tokens)."""
        return self._meter.total

    @property
    def calls(self) -> int:
        return self._meter.calls

    def close(self) -> None:
        self._endpoint.close()

    def embed_passages(self, texts: Sequence[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        prefix = self._prefixes[1]
        parts = [
            self._request([prefix + t for t in texts[i : i + self.batch_size]])
            for i in range(0, len(texts), self.batch_size)
        ]
        out = np.concatenate(parts, axis=0)
        self._check_width(out)
        return out

    def embed_query(self, text: str) -> np.ndarray:
        out = self._request([self._prefixes[0] + text])
        self._check_width(out)
        vector: np.ndarray = out[0]
        return vector

    def _request(self, batch: list[str]) -> np.ndarray:
        payload: dict[str, Any] = {"model": self.model, "input": batch, "encoding_format": "float"}
        if self._dimensions is not None:
            payload["dimensions"] = self._dimensions
        data = self._endpoint.post_json("embeddings", payload)
        self._meter.add(read_usage(data))
        return _vectors(data, len(batch), self._endpoint.url("embeddings"))

    def _check_width(self, vectors: np.ndarray) -> None:
        if self._dim is None:
            with self._dim_lock:
                self._dim = int(vectors.shape[1])
        if vectors.shape[1] != self._dim:
            raise ProviderBadOutput(
                f"{self.model} returned {vectors.shape[1]}-dim vectors, expected {self._dim}; "
                "set JIYI_EMBEDDER_MODEL to the model the store was built with"
            )


def _vectors(data: dict[str, Any], expected: int, where: str) -> np.ndarray:
    """The ``data`` array in input order (by ``index``), validated and L2-normalised."""
    items = data.get("data")
    if not isinstance(items, list) or len(items) != expected:
        got = len(items) if isinstance(items, list) else "no"
        raise ProviderBadOutput(f"{where} returned {got} embeddings for {expected} inputs")
    try:
        ordered = sorted(items, key=lambda item: int(item.get("index", 0)))
        matrix = np.asarray([item["embedding"] for item in ordered], dtype=np.float32)
    except (AttributeError, KeyError, TypeError, ValueError) as exc:
        raise ProviderBadOutput(
            f"{where} returned malformed embeddings ({exc!r}); "
            "a base64 encoding_format is not supported"
        ) from exc
    if matrix.ndim != 2 or matrix.shape[1] == 0 or not np.all(np.isfinite(matrix)):
        raise ProviderBadOutput(
            f"{where} returned embeddings of shape {matrix.shape} or non-finite values"
        )
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    return matrix / np.where(norms > 0, norms, 1.0)


def from_settings(settings: Settings) -> OpenAICompatEmbedder:
    """``JIYI_EMBEDDER=openai`` with ``JIYI_EMBEDDER_BASE_URL`` and ``JIYI_EMBEDDER_MODEL``.

    Without ``JIYI_EMBEDDER_BASE_URL`` the LLM's endpoint and key are used, since one
    provider often serves both. Timeout and retries follow the ``JIYI_LLM_*`` settings.
    """
    own_url = settings.embedder_base_url
    base_url = own_url or settings.llm_base_url
    if not base_url or not settings.embedder_model:
        raise ConfigError(
            "the openai embedder needs JIYI_EMBEDDER_BASE_URL (or JIYI_LLM_BASE_URL) and "
            "JIYI_EMBEDDER_MODEL, e.g. https://api.siliconflow.cn/v1 with BAAI/bge-m3"
        )
    api_key = settings.embedder_api_key or (None if own_url else settings.llm_api_key)
    return OpenAICompatEmbedder(
        resolve_base_url(base_url),
        settings.embedder_model,
        api_key,
        timeout=settings.llm_timeout,
        max_retries=settings.llm_max_retries,
        concurrency=settings.llm_concurrency,
    )
