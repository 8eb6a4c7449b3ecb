"""A rerank endpoint: ``POST {base_url}/rerank`` in the Jina / Cohere v2 shape.

SiliconFlow, Jina, Xinference, vLLM and text-embeddings-inference serve bge-reranker
models behind it::

    → {"model": "BAAI/bge-reranker-v2-m3", "query": "…", "documents": ["…", …], "top_n": 30}
    ← {"results": [{"index": 3, "relevance_score": 0.91}, …]}

No retries: a rerank must come back within the search's time budget (the read path
times it out and keeps the fused order), so a 429 or a 5xx is a failure at once.
A server that answers fewer results than documents leaves the others unscored (NaN).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from jiyi.errors import ConfigError, ProviderBadOutput
from jiyi.llms.endpoint import Endpoint, RetryPolicy

if TYPE_CHECKING:
    import httpx

    from jiyi.config import Settings

#: The HTTP timeout is the search's (JIYI_RERANKER_TIMEOUT, enforced by the read path) plus this:
#: a request the search gave up on still ends, and frees its thread, soon after.
BACKSTOP = 1.0


class ApiReranker:
    """A :class:`~jiyi.rerankers.protocol.Reranker` behind a ``/rerank`` endpoint (API key optional)."""

    name = "api"

    def __init__(self, base_url: str, model: str, api_key: str | None = None, *, timeout: float = 2.0,
                 transport: httpx.BaseTransport | None = None) -> None:
        if not model:
            raise ConfigError("the api reranker needs a model name: set JIYI_RERANKER_MODEL "
                              "(e.g. BAAI/bge-reranker-v2-m3)")
        self.model = model
        self._endpoint = Endpoint(base_url, api_key, timeout=timeout, retry=RetryPolicy(max_retries=0),
                                  setting="JIYI_RERANKER", transport=transport)

    @property
    def url(self) -> str:
        return self._endpoint.url("rerank")

    def close(self) -> None:
        self._endpoint.close()

    def rerank(self, query: str, texts: Sequence[str]) -> list[float]:
        if not texts:
            return []
        payload = {"model": self.model, "query": query, "documents": list(texts), "top_n": len(texts)}
        data = self._endpoint.post_json("rerank", payload)
        return read_results(data, len(texts), self.url)


def read_results(data: dict[str, Any], count: int, where: str) -> list[float]:
    """Scores in document order from ``{"results": [{"index", "relevance_score"}]}``; NaN where absent."""
    results = data.get("results")
    if not isinstance(results, list):
        raise ProviderBadOutput(f"{where} answered without a 'results' list; is JIYI_RERANKER_BASE_URL a "
                                "rerank API (Jina / Cohere v2 shape)?")
    out = [math.nan] * count
    for item in results:
        try:
            index, score = item["index"], float(item["relevance_score"])
        except (TypeError, KeyError, ValueError) as exc:
            raise ProviderBadOutput(f"{where} answered a malformed result {str(item)[:80]!r} "
                                    f"({type(exc).__name__})") from None
        if not isinstance(index, int) or isinstance(index, bool) or not 0 <= index < count:
            raise ProviderBadOutput(f"{where} answered index {index!r} for {count} documents")
        if not math.isfinite(score):
            raise ProviderBadOutput(f"{where} answered a non-finite score for document {index}")
        out[index] = score
    if all(math.isnan(s) for s in out):
        raise ProviderBadOutput(f"{where} scored none of the {count} documents")
    return out


def from_settings(settings: Settings) -> ApiReranker:
    """``JIYI_RERANKER=api`` with ``JIYI_RERANKER_BASE_URL`` and ``JIYI_RERANKER_MODEL``."""
    if not settings.reranker_base_url:
        raise ConfigError("the api reranker needs JIYI_RERANKER_BASE_URL, e.g. https://api.siliconflow.cn/v1 "
                          "(the URL that /rerank is appended to)")
    from jiyi.llms.presets import resolve_base_url

    return ApiReranker(resolve_base_url(settings.reranker_base_url), settings.reranker_model or "",
                       settings.reranker_api_key, timeout=settings.reranker_timeout + BACKSTOP)
