"""A LangGraph long-term memory store backed by jiyi (``pip install 'jiyi[langgraph]'``).

:class:`JiyiStore` is a ``langgraph.store.base.BaseStore``: give it to ``graph.compile(store=...)``
(or ``create_react_agent(..., store=...)``) and a node reads and writes memories with
``store.put / get / search / delete / list_namespaces`` and their ``a…`` twins.

- A **namespace** (``("memories", "u1")``) is one jiyi user: its items are that user's memories,
  stored in the jiyi database you opened, next to what ``Memory.add`` extracted for them.
- An **item** is one memory whose ``content`` is the value's ``"content"`` (or ``"text"`` /
  ``"memory"``) string, else the value as JSON; the value itself is kept whole and given back
  exactly. The memory's id is derived from (namespace, key), so ``put`` with the same key
  replaces it (its history keeps the old text).
- ``search(namespace_prefix, query=...)`` ranks with jiyi's recall (keywords, vectors, recency,
  Chinese and English); without a query, items come newest first. ``filter`` matches value keys
  (``{"type": "fact"}``, or operators ``$eq $ne $gt $gte $lt $lte``).
- ``ttl`` (minutes) becomes the memory's expiry. ``index`` is accepted and ignored: every item
  is searchable.

The store takes a :class:`~jiyi.memory.Memory` you own (and close). The async methods run the
synchronous ones on a worker thread.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import uuid
from collections.abc import Iterable, Mapping
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from jiyi.errors import MissingDependency

try:
    from langgraph.store.base import (
        BaseStore,
        GetOp,
        Item,
        ListNamespacesOp,
        Op,
        PutOp,
        Result,
        SearchItem,
        SearchOp,
    )
except ImportError as exc:  # pragma: no cover - exercised only without the extra
    raise MissingDependency("jiyi.integrations.langgraph", "langgraph") from exc

if TYPE_CHECKING:
    from jiyi.memory import Memory
    from jiyi.records import MemoryRecord

META = "langgraph"
PREFIX = "lg:"
_ID_SPACE = uuid.UUID("6f1c3b8e-2a41-4f0e-9a57-6a6b1d0c2e11")
_TEXT_KEYS = ("content", "text", "memory")
_MAX_SEARCH = 1000
KINDS = frozenset({"fact", "preference", "event", "relation", "summary"})  # a value's "kind", else fact


class JiyiStore(BaseStore):
    """LangGraph's ``BaseStore`` over a jiyi :class:`~jiyi.memory.Memory`.

    >>> store = JiyiStore(Memory(path="agent.db"))
    >>> store.put(("memories", "u1"), "allergy", {"content": "用户对花生过敏"})
    >>> store.search(("memories", "u1"), query="能吃花生酱吗")[0].value
    {'content': '用户对花生过敏'}
    """

    supports_ttl = True

    def __init__(self, memory: Memory) -> None:
        self.memory = memory

    # ---- BaseStore -----------------------------------------------------------------------
    def batch(self, ops: Iterable[Op]) -> list[Result]:
        return [self._run(op) for op in ops]

    async def abatch(self, ops: Iterable[Op]) -> list[Result]:
        ops = list(ops)
        return await asyncio.to_thread(self.batch, ops)

    def _run(self, op: Op) -> Result:
        if isinstance(op, GetOp):
            return self._get(op.namespace, op.key)
        if isinstance(op, SearchOp):
            return self._search(op)
        if isinstance(op, PutOp):
            if op.value is None:
                self._delete(op.namespace, op.key)
            else:
                self._put(op.namespace, op.key, dict(op.value), op.ttl)
            return None
        if isinstance(op, ListNamespacesOp):
            return self._list_namespaces(op)
        raise TypeError(f"unknown store operation {type(op).__name__}")

    # ---- operations ----------------------------------------------------------------------
    def _get(self, namespace: tuple[str, ...], key: str) -> Item | None:
        rec = self.memory.get(item_id(namespace, key), user_id=namespace_user(namespace))
        return to_item(rec, self._now()) if rec is not None else None

    def _put(self, namespace: tuple[str, ...], key: str, value: dict[str, Any], ttl: float | None) -> None:
        check_namespace(namespace)
        user = namespace_user(namespace)
        rid = item_id(namespace, key)
        now = self._now()
        old = self.memory.get(rid, user_id=user)
        created = old.created_at if old is not None and to_item(old, now) is not None else now
        kind = value.get("kind") if value.get("kind") in KINDS else "fact"
        row: dict[str, Any] = {
            "id": rid, "user_id": user, "content": item_text(value), "kind": kind,
            "created_at": created.isoformat(), "updated_at": now.isoformat(), "importance": 0.8, "confidence": 1.0,
            "metadata": {META: {"namespace": list(namespace), "key": key, "value": value}},
        }
        if ttl is not None:
            row["expires_at"] = (now + timedelta(minutes=float(ttl))).isoformat()
        self.memory.import_([row])

    def _delete(self, namespace: tuple[str, ...], key: str) -> None:
        user = namespace_user(namespace)
        rid = item_id(namespace, key)
        rec = self.memory.get(rid, user_id=user)
        if rec is not None and to_item(rec, self._now()) is not None:
            self.memory.delete(rid, user_id=user)

    def _search(self, op: SearchOp) -> list[SearchItem]:
        now = self._now()
        want = op.offset + op.limit
        found: list[tuple[float | None, MemoryRecord]] = []
        for user, _ in self._namespaces_under(op.namespace_prefix):
            if op.query:
                hits = self.memory.search(op.query, user_id=user, limit=min(_MAX_SEARCH, max(want * 3, 20)))
                found += [(h.score, h.record) for h in hits]
            else:
                found += [(None, r) for r in self.memory.get_all(user_id=user)]
        items: list[SearchItem] = []
        for score, rec in found:
            item = to_item(rec, now)
            if item is None or item.namespace[: len(op.namespace_prefix)] != op.namespace_prefix:
                continue
            if op.filter and not matches(item.value, op.filter):
                continue
            items.append(SearchItem(item.namespace, item.key, item.value, item.created_at, item.updated_at, score))
        if op.query:
            items.sort(key=lambda i: -(i.score or 0.0))
        else:
            items.sort(key=lambda i: i.updated_at, reverse=True)
        return items[op.offset : want]

    def _list_namespaces(self, op: ListNamespacesOp) -> list[tuple[str, ...]]:
        spaces = sorted({ns for _, ns in self._namespaces_under(())})
        for cond in op.match_conditions or ():
            path = tuple(cond.path)
            if cond.match_type == "prefix":
                spaces = [ns for ns in spaces if _path_matches(ns[: len(path)], path)]
            else:
                spaces = [ns for ns in spaces if len(ns) >= len(path) and _path_matches(ns[-len(path):], path)]
        if op.max_depth is not None:
            spaces = sorted({ns[: op.max_depth] for ns in spaces})
        return spaces[op.offset : op.offset + op.limit]

    def _namespaces_under(self, prefix: tuple[str, ...]) -> list[tuple[str, tuple[str, ...]]]:
        """(jiyi user, namespace) of every namespace that has items and starts with ``prefix``."""
        out = []
        for user in self.memory.users():
            if not user.startswith(PREFIX):
                continue
            ns = user_namespace(user) or self._stored_namespace(user)
            if ns is not None and ns[: len(prefix)] == tuple(prefix):
                out.append((user, ns))
        return out

    def _stored_namespace(self, user: str) -> tuple[str, ...] | None:
        """A namespace too long for a user id is read back from one of its items."""
        for rec in self.memory.get_all(user_id=user, limit=1):
            meta = rec.metadata.get(META)
            if isinstance(meta, dict):
                return tuple(meta["namespace"])
        return None

    def _now(self) -> datetime:
        return self.memory.clock.now()


# ---- mapping ----------------------------------------------------------------------------
def check_namespace(namespace: tuple[str, ...]) -> None:
    from langgraph.store.base import InvalidNamespaceError

    if not namespace or not all(isinstance(p, str) and p for p in namespace):
        raise InvalidNamespaceError(f"a namespace is a non-empty tuple of non-empty strings, got {namespace!r}")


def namespace_user(namespace: tuple[str, ...]) -> str:
    """The jiyi user id of a namespace: readable when it fits in 128 characters, else hashed."""
    text = json.dumps(list(namespace), ensure_ascii=False, separators=(",", ":"))
    user = PREFIX + text
    if len(user) <= 128 and all(ord(c) >= 32 for c in text):
        return user
    return f"{PREFIX}#{hashlib.sha256(text.encode()).hexdigest()[:40]}"


def user_namespace(user: str) -> tuple[str, ...] | None:
    if not user.startswith(PREFIX + "["):
        return None
    return tuple(json.loads(user[len(PREFIX):]))


def item_id(namespace: tuple[str, ...], key: str) -> str:
    return str(uuid.uuid5(_ID_SPACE, json.dumps([list(namespace), key], ensure_ascii=False)))


def item_text(value: Mapping[str, Any]) -> str:
    """The memory text of a value: its content/text/memory string, else the value as JSON."""
    for key in _TEXT_KEYS:
        text = value.get(key)
        if isinstance(text, str) and text.strip():
            return text.strip()
    return json.dumps(value, ensure_ascii=False, sort_keys=True, default=str)


def to_item(rec: MemoryRecord, now: datetime) -> Item | None:
    """The LangGraph item a memory holds; None for a deleted or expired one, or one not put by a store."""
    meta = rec.metadata.get(META)
    if not isinstance(meta, dict) or rec.status.value != "active":
        return None
    if rec.expires_at is not None and rec.expires_at <= now:
        return None
    return Item(value=dict(meta["value"]), key=str(meta["key"]), namespace=tuple(meta["namespace"]),
                created_at=rec.created_at, updated_at=rec.updated_at)


def matches(value: Mapping[str, Any], flt: Mapping[str, Any]) -> bool:
    """LangGraph's filter: equality per key, or a dict of ``$eq $ne $gt $gte $lt $lte``."""
    for key, want in flt.items():
        have = value.get(key)
        if isinstance(want, dict) and want and all(k.startswith("$") for k in want):
            for opname, arg in want.items():
                if not _compare(opname, have, arg):
                    return False
        elif have != want:
            return False
    return True


def _compare(opname: str, have: Any, arg: Any) -> bool:
    if opname == "$eq":
        return bool(have == arg)
    if opname == "$ne":
        return bool(have != arg)
    if have is None:
        return False
    try:
        if opname == "$gt":
            return bool(have > arg)
        if opname == "$gte":
            return bool(have >= arg)
        if opname == "$lt":
            return bool(have < arg)
        if opname == "$lte":
            return bool(have <= arg)
    except TypeError:
        return False
    raise ValueError(f"unsupported filter operator {opname!r} (use $eq $ne $gt $gte $lt $lte)")


def _path_matches(part: tuple[str, ...], path: tuple[str, ...]) -> bool:
    return len(part) == len(path) and all(p == "*" or p == q for q, p in zip(part, path))
