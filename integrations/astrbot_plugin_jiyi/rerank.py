"""``reranker = astrbot``: jiyi's reranker role served by one of AstrBot's rerank providers.

The plugin registers the name ``astrbot`` in jiyi's registry (role ``reranker``) and builds
its Memory with ``reranker="astrbot"``, so the provider is called through jiyi's rerank step
like any other backend: the ``reranker_candidates`` best fused candidates go out in one call,
the answer is waited for at most ``reranker_timeout`` seconds, and a timeout or any failure
keeps the fused order (counted in ``/mem stats``' reranker line and the recall trace). The
provider is ``rerank_provider_id`` or the first rerank provider AstrBot has; it is looked up
when the Memory is built, which the plugin does lazily (providers load after plugins).
"""

from __future__ import annotations

import asyncio
import math
from collections.abc import Callable, Sequence
from typing import Any

from .providers import _OnLoop, find_rerank_provider, provider_id

NAME = "astrbot"


class AstrBotReranker(_OnLoop):
    """A jiyi ``Reranker`` over an AstrBot ``RerankProvider`` (``rerank(query, documents, top_n)``)."""

    name = NAME

    def __init__(self, provider: Any, loop: asyncio.AbstractEventLoop, *, timeout: float) -> None:
        super().__init__(loop, timeout)
        self.provider = provider
        self.provider_id = provider_id(provider)

    def rerank(self, query: str, texts: Sequence[str]) -> list[float]:
        from jiyi.errors import ProviderBadOutput, ProviderError

        if not texts:
            return []
        try:
            results = self.run(self.provider.rerank(query, list(texts), len(texts)))
        except Exception as exc:
            raise ProviderError(f"AstrBot rerank provider {self.provider_id!r} failed: "
                                f"{type(exc).__name__}: {exc}") from exc
        scores = [math.nan] * len(texts)
        for result in results or []:
            index, score = getattr(result, "index", None), getattr(result, "relevance_score", None)
            if isinstance(index, int) and 0 <= index < len(texts) and isinstance(score, (int, float)) \
                    and math.isfinite(score):
                scores[index] = float(score)
        if all(math.isnan(s) for s in scores):
            raise ProviderBadOutput(f"AstrBot rerank provider {self.provider_id!r} scored none of {len(texts)} texts")
        return scores


def register(context: Any, loop: asyncio.AbstractEventLoop, wanted: str) -> None:
    """Register ``reranker = astrbot`` in jiyi's registry for this plugin's context and loop."""
    from jiyi import registry

    def factory(settings: Any) -> AstrBotReranker:
        # the HTTP side may run a little past the search's own limit, which frees the thread soon after
        return AstrBotReranker(find_rerank_provider(context, wanted), loop, timeout=settings.reranker_timeout + 1.0)

    made: Callable[[Any], AstrBotReranker] = factory
    registry.register("reranker", NAME, made)
