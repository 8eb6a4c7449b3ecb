"""LlamaIndex adapters (``pip install 'jiyi[llamaindex]'``).

- :class:`JiyiRetriever`, a ``llama_index.core.retrievers.BaseRetriever``: a user's memories for
  a query as ``NodeWithScore`` (best first; kind, dates and score parts in the node's metadata),
  for query engines, ``RetrieverTool`` or any pipeline that takes a retriever.
- :class:`JiyiMemoryBlock`, a long-term block for ``llama_index.core.memory.Memory``: each turn
  the block gives jiyi the conversation's messages it has not stored yet (``Memory.add``: facts
  extracted and kept for the next session) and contributes jiyi's ``<memories>`` context for the
  latest user message.

Both take a :class:`~jiyi.memory.Memory` you own (and close); the async paths run it on a
worker thread.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

from jiyi.errors import MissingDependency
from jiyi.read.recent import MAX_RECENT_CHARS

try:
    from llama_index.core.base.llms.types import ChatMessage, MessageRole
    from llama_index.core.memory import BaseMemoryBlock
    from llama_index.core.retrievers import BaseRetriever
    from llama_index.core.schema import NodeWithScore, QueryBundle, TextNode
    from pydantic import ConfigDict, Field, PrivateAttr
except ImportError as exc:  # pragma: no cover - exercised only without the extra
    raise MissingDependency("jiyi.integrations.llamaindex", "llamaindex") from exc

if TYPE_CHECKING:
    from jiyi.memory import Memory
    from jiyi.records import Hit

_ROLES = {MessageRole.USER: "user", MessageRole.ASSISTANT: "assistant", MessageRole.SYSTEM: "system"}
_TURN_ROLES = {MessageRole.USER: "user", MessageRole.ASSISTANT: "assistant"}  # a system prompt is no turn


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
    recent_turns: int = Field(default=8, description="How many messages before the latest user message "
                                                     "recall reads as `recent` (what a follow-up refers to).")
    _stored: set[tuple[str, str, int]] = PrivateAttr(default_factory=set)

    async def _aget(self, messages: list[ChatMessage] | None = None, **block_kwargs: Any) -> str:
        history = list(messages or [])
        session = self.session_id or _session_of(block_kwargs.get("session_id"))
        await self._store_new(history, session)
        last = next((i for i in range(len(history) - 1, -1, -1)
                     if history[i].role == MessageRole.USER and history[i].content), None)
        if last is None or not str(history[last].content).strip():
            return ""
        block: str = await asyncio.to_thread(self.memory.build_context, str(history[last].content),
                                             user_id=self.user_id, budget_tokens=self.budget_tokens,
                                             limit=self.limit, recent=recent_of(history[:last], self.recent_turns))
        return block

    async def _aput(self, messages: list[ChatMessage]) -> None:
        """Turns the short-term memory flushes: stored unless this block stored them already."""
        session = self.session_id or next((str(m.additional_kwargs["session_id"]) for m in messages
                                           if m.additional_kwargs.get("session_id")), None)
        await self._store_new(messages, session, roles=_ROLES)

    async def _store_new(self, messages: list[ChatMessage], session: str | None,
                         roles: dict[MessageRole, str] = _TURN_ROLES) -> None:
        """Give jiyi the user and assistant turns of ``messages`` it has not had from this block yet.

        LlamaIndex hands a block the session's short-term messages on every turn but flushes them
        to it only past ``token_limit × chat_history_token_ratio``; storing them as they appear
        lets the next session recall what this one said. A turn is known by its role, text and
        how many times that text came before it in the messages seen.
        """
        counts: dict[tuple[str, str], int] = {}
        rows = []
        for m in messages:
            text = str(m.content) if m.content else ""
            if m.role not in roles or not text.strip():
                continue
            fp = (roles[m.role], text)
            counts[fp] = counts.get(fp, 0) + 1
            key = (*fp, counts[fp])
            if key in self._stored:
                continue
            self._stored.add(key)
            rows.append({"role": fp[0], "content": text})
        if rows:
            await asyncio.to_thread(self.memory.add, rows, user_id=self.user_id, session_id=session)


def recent_of(messages: list[ChatMessage], limit: int) -> list[dict[str, str]] | None:
    """The user and assistant messages' text, oldest first, the last ``limit`` (recall's ``recent``)."""
    turns = [{"role": _TURN_ROLES[m.role], "content": str(m.content)[:MAX_RECENT_CHARS]} for m in messages
             if m.role in _TURN_ROLES and m.content and str(m.content).strip()]
    return turns[-limit:] if limit > 0 and turns else None


def _session_of(value: object) -> str | None:
    return value if isinstance(value, str) and value.strip() else None
