"""AstrBot's own providers as jiyi's embedder and LLM, looked up lazily.

AstrBot loads plugins before providers (core_lifecycle), so nothing here is resolved in
``__init__``: the plugin builds these on first use. jiyi calls them synchronously from its
worker threads; each call is run on AstrBot's event loop with ``run_coroutine_threadsafe``
and waited for with a timeout. They must never be called from the loop's own thread.
"""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine, Sequence
from typing import Any, TypeVar

import numpy as np

T = TypeVar("T")


class ProviderMissing(RuntimeError):
    """The configured AstrBot provider does not exist (yet)."""


def provider_id(provider: Any) -> str:
    """AstrBot's id of a provider instance."""
    config = getattr(provider, "provider_config", None) or {}
    if config.get("id"):
        return str(config["id"])
    return str(provider.meta().id)


def find_embedding_provider(context: Any, wanted: str) -> Any:
    """The embedding provider named ``wanted``, or the first one configured."""
    if wanted:
        found = context.get_provider_by_id(wanted)
        if found is None:
            raise ProviderMissing(f"AstrBot has no embedding provider {wanted!r}")
        return found
    providers = list(context.get_all_embedding_providers() or [])
    if not providers:
        raise ProviderMissing("AstrBot has no embedding provider; set embedding=jiyi or add one")
    return providers[0]


def find_chat_provider_id(context: Any, wanted: str) -> str:
    if wanted:
        if context.get_provider_by_id(wanted) is None:
            raise ProviderMissing(f"AstrBot has no chat provider {wanted!r}")
        return wanted
    providers = list(context.get_all_providers() or [])
    if not providers:
        raise ProviderMissing("AstrBot has no chat provider; set extractor=rules or add one")
    return provider_id(providers[0])


class _OnLoop:
    def __init__(self, loop: asyncio.AbstractEventLoop, timeout: float) -> None:
        self.loop = loop
        self.timeout = timeout

    def run(self, coro: Coroutine[Any, Any, T]) -> T:
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(self.timeout)


class AstrBotEmbedder(_OnLoop):
    """jiyi ``Embedder`` over an AstrBot ``EmbeddingProvider`` (vectors L2-normalised)."""

    def __init__(self, provider: Any, loop: asyncio.AbstractEventLoop, *, timeout: float = 60.0) -> None:
        super().__init__(loop, timeout)
        self.provider = provider
        self.dim = int(provider.get_dim())
        model = (getattr(provider, "provider_config", None) or {}).get("embedding_model") or ""
        self.model = f"astrbot:{provider_id(provider)}:{model}".rstrip(":")

    def embed_passages(self, texts: Sequence[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        vectors = self.run(self.provider.get_embeddings(list(texts)))
        return _normalise(np.asarray(vectors, dtype=np.float32))

    def embed_query(self, text: str) -> np.ndarray:
        vector: np.ndarray = _normalise(np.asarray([self.run(self.provider.get_embedding(text))], dtype=np.float32))[0]
        return vector


def find_rerank_provider(context: Any, wanted: str) -> Any:
    """The rerank provider named ``wanted``, or the first one configured."""
    if wanted:
        found = context.get_provider_by_id(wanted)
        if found is None or not callable(getattr(found, "rerank", None)):
            raise ProviderMissing(f"AstrBot has no rerank provider {wanted!r}")
        return found
    manager = getattr(context, "provider_manager", None)
    providers = list(getattr(manager, "rerank_provider_insts", None) or [])
    if not providers:
        raise ProviderMissing("AstrBot has no rerank provider; add one (e.g. vLLM Rerank) or set reranker=off")
    return providers[0]


class AstrBotLLM(_OnLoop):
    """jiyi ``LLM`` over an AstrBot chat provider.

    ``Context.llm_generate`` asks for a plain (non-streamed) answer. Some providers only
    answer streamed requests (LivingMemory's issue #265): when the plain call fails, the
    same request is sent streamed (``text_chat_stream``) and the pieces are joined; after
    one such success the provider is asked streamed from then on (``streaming="auto"``).
    ``streaming="always"`` streams from the start, ``"never"`` never does.
    """

    def __init__(self, context: Any, chat_provider_id: str, loop: asyncio.AbstractEventLoop, *,
                 timeout: float = 120.0, streaming: str = "auto") -> None:
        super().__init__(loop, timeout)
        self.context = context
        self.chat_provider_id = chat_provider_id
        self.model = f"astrbot:{chat_provider_id}"
        self.streaming = streaming
        self.streamed = streaming == "always"

    def complete(self, messages: Sequence[dict[str, str]], *, json_mode: bool = False, temperature: float = 0.0,
                 max_tokens: int | None = None) -> Any:
        from jiyi.llms.protocol import Completion, Usage

        system = "\n\n".join(m["content"] for m in messages if m.get("role") == "system") or None
        rest = [{"role": m["role"], "content": m["content"]} for m in messages if m.get("role") != "system"]
        prompt = rest.pop()["content"] if rest and rest[-1]["role"] == "user" else None
        request = {"prompt": prompt, "system_prompt": system, "contexts": rest or None}
        if not self.streamed:
            try:
                resp = self.run(self.context.llm_generate(chat_provider_id=self.chat_provider_id, **request))
                return Completion(text=getattr(resp, "completion_text", "") or "", usage=Usage(), model=self.model)
            except Exception:
                if self.streaming == "never":
                    raise
        text = self.run(self._stream(request))
        self.streamed = True
        return Completion(text=text, usage=Usage(), model=self.model)

    async def _stream(self, request: dict[str, Any]) -> str:
        """The streamed answer's full text (the final response, else the joined pieces)."""
        provider = self.context.get_provider_by_id(self.chat_provider_id)
        if provider is None:
            raise ProviderMissing(f"AstrBot has no chat provider {self.chat_provider_id!r}")
        pieces: list[str] = []
        final: str | None = None
        async for resp in provider.text_chat_stream(**request):
            text = getattr(resp, "completion_text", "") or ""
            if getattr(resp, "is_chunk", False):
                pieces.append(text)
            else:
                final = text
        return final if final else "".join(pieces)


def _normalise(matrix: np.ndarray) -> np.ndarray:
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    out: np.ndarray = (matrix / norms).astype(np.float32)
    return out
