"""LangChain adapters (``pip install 'jiyi[langchain]'``).

- :class:`JiyiRetriever`, a ``BaseRetriever``: a user's memories for a query, as Documents,
  best first, each with its kind, score and dates in ``metadata``.
- :class:`JiyiChatMessageHistory`, a ``BaseChatMessageHistory`` (a chain reads ``messages`` and
  calls ``add_messages``; for agents, LangGraph's store is
  :class:`jiyi.integrations.langgraph.JiyiStore`): every turn goes through ``Memory.add`` (so facts are
  extracted and kept long-term) and ``messages`` is the session's conversation as it was had,
  small talk included: its episodes and recent buffered turns, oldest first, the last
  ``max_messages`` of them.

Both take a :class:`~jiyi.memory.Memory` you own (and close).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from jiyi.clock import parse_iso
from jiyi.errors import MissingDependency
from jiyi.read.recent import MAX_RECENT_CHARS
from jiyi.userid import check_user_id

try:
    from langchain_core.callbacks import CallbackManagerForRetrieverRun
    from langchain_core.chat_history import BaseChatMessageHistory
    from langchain_core.documents import Document
    from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage
    from langchain_core.retrievers import BaseRetriever
    from pydantic import ConfigDict, field_validator
except ImportError as exc:  # pragma: no cover - exercised only without the extra
    raise MissingDependency("jiyi.integrations.langchain", "langchain") from exc

if TYPE_CHECKING:
    from jiyi.memory import Memory
    from jiyi.records import Hit, MemoryRecord

_ROLES = {"human": "user", "ai": "assistant", "system": "system"}
_PAGE = 200


class JiyiRetriever(BaseRetriever):
    """Recall from jiyi as a LangChain retriever.

    >>> retriever = JiyiRetriever(memory=mem, user_id="u1", k=5)
    >>> retriever.invoke("能吃花生酱吗")[0].page_content
    '用户对花生过敏'
    """

    model_config = ConfigDict(arbitrary_types_allowed=True)

    memory: Any
    """The :class:`~jiyi.memory.Memory` to search."""
    user_id: str
    k: int = 5
    kinds: list[str] | None = None
    """Only these kinds (``fact``, ``preference``, ``event``, ``episode``…); None for all."""
    include_sensitive: bool = False
    history: Any = None
    """A ``BaseChatMessageHistory`` of the current conversation (a :class:`JiyiChatMessageHistory`,
    or any other): its last ``recent_turns`` messages go to recall as ``recent``, so a follow-up
    finds what the turns before it named."""
    recent_turns: int = 8

    @field_validator("user_id")
    @classmethod
    def _one_rule(cls, value: str) -> str:
        return check_user_id(value)

    def _get_relevant_documents(self, query: str, *, run_manager: CallbackManagerForRetrieverRun) -> list[Document]:
        hits = self.memory.search(query, user_id=self.user_id, limit=self.k, kinds=self.kinds,
                                  include_sensitive=self.include_sensitive, recent=self._recent(query))
        return [hit_to_document(h) for h in hits]

    def _recent(self, query: str) -> list[dict[str, str]] | None:
        """The history's last messages (user and assistant text), the query itself left out."""
        if self.history is None or self.recent_turns <= 0:
            return None
        turns = [{"role": d["role"], "content": d["content"][:MAX_RECENT_CHARS]}
                 for d in (message_to_dict(m) for m in self.history.messages) if d and d["role"] != "system"]
        if turns and turns[-1]["role"] == "user" and turns[-1]["content"].strip() == query.strip():
            turns.pop()  # the history already holds the question being asked
        return turns[-self.recent_turns:] or None


def hit_to_document(hit: Hit) -> Document:
    """A Document whose ``metadata`` explains where the memory came from and why it ranked."""
    rec = hit.record
    meta: dict[str, Any] = {
        "id": rec.id, "kind": rec.kind.value, "score": round(hit.score, 6),
        "scores": {k: round(v, 6) for k, v in hit.scores.items()},
        "created_at": rec.created_at.isoformat(), "confidence": rec.confidence, "importance": rec.importance,
    }
    for key in ("valid_from", "valid_until"):
        value = getattr(rec, key)
        if value is not None:
            meta[key] = value.isoformat()
    if rec.session_id:
        meta["session_id"] = rec.session_id
    if rec.source_ids:
        meta["source_ids"] = list(rec.source_ids)
    return Document(page_content=rec.content, metadata=meta, id=rec.id)


class JiyiChatMessageHistory(BaseChatMessageHistory):
    """A session's chat history kept by jiyi.

    ``add_messages`` stores the turns with ``Memory.add`` (``wait=True``, the default, returns once
    they are processed, so ``messages`` shows them at once). ``messages`` replays the session as
    it was said: its episodes (jiyi keeps every turn verbatim except small talk) and the small
    talk (你好, 谢谢, ok…) of its recent rounds (the short-term buffer, ``buffer_rounds``) that no
    episode holds. ``clear`` forgets this session's episodes (soft delete, kept in the audit
    history) and its buffered turns; memories extracted from them stay, since they are the user's,
    not the session's.
    """

    def __init__(self, memory: Memory, *, user_id: str, session_id: str, agent_id: str | None = None,
                 max_messages: int = 50, wait: bool = True) -> None:
        self.memory = memory
        self.user_id = check_user_id(user_id)
        self.session_id = session_id
        self.agent_id = agent_id
        self.max_messages = max_messages
        self.wait = wait

    @property
    def messages(self) -> list[BaseMessage]:  # type: ignore[override]
        """The last ``max_messages`` turns of this session, oldest first: its episodes, and the turns
        jiyi keeps no episode of (small talk: 谢谢, ok, 不客气！) from the short-term buffer, so the
        model is replayed the conversation it had."""
        episodes = self._episodes(self.max_messages)
        known = {sid for r in episodes for sid in r.source_ids}
        turns: list[tuple[datetime, int, BaseMessage]] = [
            (r.valid_from or r.created_at, 0, record_to_message(r)) for r in episodes]
        for i, item in enumerate(self.memory.recent_messages(user_id=self.user_id, session_id=self.session_id)):
            if item.get("id") in known or item.get("role") not in ("user", "assistant") or not item.get("content"):
                continue
            turns.append((parse_iso(item["timestamp"]), i + 1, buffered_to_message(item)))
        turns.sort(key=lambda t: (t[0], t[1]))
        return [m for _, _, m in turns[-self.max_messages:]] if self.max_messages else []

    def add_messages(self, messages: Sequence[BaseMessage]) -> None:
        """Store ``messages`` as one ``add`` (their order is kept through their timestamps)."""
        batch = [m for m in (message_to_dict(msg) for msg in messages) if m is not None]
        if not batch:
            return
        start = self.memory.clock.now()
        for i, item in enumerate(batch):
            item["timestamp"] = start + timedelta(microseconds=i)
        self.memory.add(batch, user_id=self.user_id, session_id=self.session_id, agent_id=self.agent_id,
                        metadata={"source": "langchain"}, sync=self.wait)

    def clear(self) -> None:
        for rec in self._episodes(None):
            self.memory.delete(rec.id, user_id=self.user_id)
        self.memory.clear_buffer(user_id=self.user_id, session_id=self.session_id)

    def _episodes(self, limit: int | None) -> list[MemoryRecord]:
        """This session's active episodes, newest first, paging through the user's episodes."""
        found: list[MemoryRecord] = []
        offset = 0
        while limit is None or len(found) < limit:
            page = self.memory.get_all(user_id=self.user_id, kinds=["episode"], limit=_PAGE, offset=offset)
            found.extend(r for r in page if r.session_id == self.session_id)
            if len(page) < _PAGE:
                break
            offset += _PAGE
        return found if limit is None else found[:limit]


def message_to_dict(message: BaseMessage) -> dict[str, Any] | None:
    """A LangChain message as a jiyi message dict; None for tool calls and empty content."""
    role = _ROLES.get(message.type)
    text = _text(message.content)
    if role is None or not text.strip():
        return None
    out: dict[str, Any] = {"role": role, "content": text}
    if message.name:
        out["name"] = message.name
    return out


def _text(content: Any) -> str:
    """String content, or the text parts of multimodal content (images are not kept)."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        parts = [p if isinstance(p, str) else p.get("text", "") for p in content
                 if isinstance(p, str) or (isinstance(p, dict) and p.get("type") == "text")]
        return "\n".join(t for t in parts if isinstance(t, str) and t.strip())
    return ""


def buffered_to_message(item: dict[str, Any]) -> BaseMessage:
    """A turn of the short-term buffer (``Memory.recent_messages``) as a LangChain message."""
    kwargs: dict[str, Any] = {"content": str(item["content"])}
    if item.get("id"):
        kwargs["id"] = str(item["id"])
    if item.get("name"):
        kwargs["name"] = str(item["name"])
    return AIMessage(**kwargs) if item.get("role") == "assistant" else HumanMessage(**kwargs)


def record_to_message(rec: MemoryRecord) -> BaseMessage:
    role = rec.metadata.get("role")
    kwargs: dict[str, Any] = {"content": rec.content, "id": rec.id}
    if name := rec.display_name:
        kwargs["name"] = name
    if role == "assistant":
        return AIMessage(**kwargs)
    if role == "system":
        return SystemMessage(**kwargs)
    return HumanMessage(**kwargs)
