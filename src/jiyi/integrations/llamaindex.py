"""LlamaIndex adapters (``pip install 'jiyi[llamaindex]'``).

- :class:`JiyiRetriever`, a ``llama_index.core.retrievers.BaseRetriever``: a user's memories for
  a query as ``NodeWithScore`` (best first; kind, dates and score parts in the node's metadata),
  for query engines, ``RetrieverTool`` or any pipeline that takes a retriever.
- :class:`JiyiMemoryBlock`, a long-term block for ``llama_index.core.memory.Memory``: messages the
  short-term memory flushes go through ``Memory.add`` (facts extracted and kept), and each turn
  the block contributes jiyi's ``<memories>`` context for the latest user message.

Both take a :class:`~jiyi.memory.Memory` you own (and close); the async paths run it on a
worker thread.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

from jiyi.errors import MissingDependency

try:
    from llama_index.core.base.llms.types import ChatMessage, MessageRole
    from llama_index.core.memory import BaseMemoryBlock
    from llama_index.core.retrievers import BaseRetriever
    from llama_index.core.schema import NodeWithScore, QueryBundle, TextNode
    from pydantic import ConfigDict, Field
except ImportError as exc:  # pragma: no cover - exercised only without the extra
    raise MissingDependency("jiyi.integrations.llamaindex", "llamaindex") from exc

if TYPE_CHECKING:
    from jiyi.memory import Memory
    from jiyi.records import Hit

_ROLES = {MessageRole.USER: "user", MessageRole.ASSISTANT: "assistant", MessageRole.SYSTEM: "system"}


class JiyiRetriever(BaseRetriever):
    """Recall from jiyi as a LlamaIndex retriever.

    >>> nodes = JiyiRetriever(mem, user_id="u1", k=5).retrieve("能吃花生酱吗")
    >>> nodes[0].node.get_content()
    '用户对花生过敏'
    """

    def __init__(self, memory: Memory, *, user_id: str, k: int = 5, kinds: list[str] | None = None,
                 include_sensitive: bool = False, **kwargs: Any) -> None:
        self.memory = memory
        self.user_id = user_id
        self.k = k
        self.kinds = kinds
        self.include_sensitive = include_sensitive
        super().__init__(**kwargs)

    def _retrieve(self, query_bundle: QueryBundle) -> list[NodeWithScore]:
        hits = self.memory.search(query_bundle.query_str, user_id=self.user_id, limit=self.k, kinds=self.kinds,
                                  include_sensitive=self.include_sensitive)
        return [hit_to_node(h) for h in hits]

    async def _aretrieve(self, query_bundle: QueryBundle) -> list[NodeWithScore]:
        return await asyncio.to_thread(self._retrieve, query_bundle)


def hit_to_node(hit: Hit) -> NodeWithScore:
    """A node whose metadata says what the memory is and why it ranked."""
    rec = hit.record
    meta: dict[str, Any] = {"kind": rec.kind.value, "created_at": rec.created_at.isoformat(),
                            "confidence": rec.confidence, "scores": {k: round(v, 6) for k, v in hit.scores.items()}}
    for key in ("valid_from", "valid_until"):
        value = getattr(rec, key)
        if value is not None:
            meta[key] = value.isoformat()
    if rec.session_id:
        meta["session_id"] = rec.session_id
    node = TextNode(id_=rec.id, text=rec.content, metadata=meta,
                    excluded_llm_metadata_keys=["scores", "confidence"], excluded_embed_metadata_keys=list(meta))
    return NodeWithScore(node=node, score=hit.score)


class JiyiMemoryBlock(BaseMemoryBlock[str]):
    """jiyi as a long-term block of LlamaIndex's ``Memory``.

    >>> memory = Memory.from_defaults(session_id="s1", token_limit=4000,
    ...                               memory_blocks=[JiyiMemoryBlock(memory=mem, user_id="u1")])
    """

    model_config = ConfigDict(arbitrary_types_allowed=True)

    name: str = "jiyi"
    description: str | None = "Long-term memories about the user (jiyi)."
    memory: Any = Field(description="The jiyi Memory (jiyi.memory.Memory).")
    user_id: str
    session_id: str | None = Field(default=None, description="jiyi session id of the turns this block stores.")
    budget_tokens: int = 600
    limit: int = 20

    async def _aget(self, messages: list[ChatMessage] | None = None, **block_kwargs: Any) -> str:
        query = next((str(m.content) for m in reversed(messages or []) if m.role == MessageRole.USER and m.content),
                     "")
        if not query.strip():
            return ""
        block: str = await asyncio.to_thread(self.memory.build_context, query, user_id=self.user_id,
                                             budget_tokens=self.budget_tokens, limit=self.limit)
        return block

    async def _aput(self, messages: list[ChatMessage]) -> None:
        rows = [{"role": _ROLES[m.role], "content": str(m.content)} for m in messages
                if m.role in _ROLES and m.content and str(m.content).strip()]
        if rows:
            session = self.session_id or next((str(m.additional_kwargs["session_id"]) for m in messages
                                               if m.additional_kwargs.get("session_id")), None)
            await asyncio.to_thread(self.memory.add, rows, user_id=self.user_id, session_id=session)
