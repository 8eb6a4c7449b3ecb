"""A LangGraph long-term memory store backed by jiyi (``pip install 'jiyi[langgraph]'``).

:class:`JiyiStore` is a ``langgraph.store.base.BaseStore``: give it to ``graph.compile(store=...)``
(or ``create_react_agent(..., store=...)``) and a node reads and writes memories with
``store.put / get / search / delete / list_namespaces`` and their ``a…`` twins.

- A **namespace** (``("memories", "u1")``) is one jiyi user: its items are that user's memories,
  stored in the jiyi database you opened, next to what ``Memory.add`` extracted for them.
- An **item** is one memory whose ``content`` is the value's ``"content"`` (or ``"text"`` /
  ``"memory"``) string, else the value as JSON; the value itself is kept whole and given back
  exactly. The memory's id is derived from (namespace, key), so ``put`` with the same key
  replaces it (its history keeps the old text). That text is at most 2,000 characters (jiyi's
  limit for one memory) and the value at most 64 KiB as JSON; past either, ``put`` raises
  ``InvalidInput`` naming the operation, namespace and key.
- **Secrets in values** are treated like secrets in content: every string in the value is
  masked as jiyi stores text (passwords, codes, card numbers always; contact details too when
  an encryption key is configured), the originals sealed with the key and put back on ``get`` and
  ``search``; without a key a secret is not kept at all. An item holding a secret is found by
  ``get`` and by a search without ``query``, never by a ranked search (jiyi recalls no secret).
- ``search(namespace_prefix, query=...)`` ranks with jiyi's recall (keywords, vectors, recency,
  Chinese and English); without a query, items come newest first. ``filter`` matches value keys
  (``{"type": "fact"}``, or operators ``$eq $ne $gt $gte $lt $lte``).
- ``ttl`` (minutes, > 0) becomes the memory's expiry; ``get`` and ``search`` push it back by the
  item's ttl when ``refresh_ttl`` (BaseStore's default). ``index`` is accepted and ignored: every
  item is searchable.

The store takes a :class:`~jiyi.memory.Memory` you own (and close). The async methods run the
synchronous ones on a worker thread.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import math
import re
import uuid
from collections.abc import Callable, Iterable, Mapping
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from jiyi.errors import InvalidInput, MissingDependency
from jiyi.privacy.detect import PLACEHOLDER
from jiyi.privacy.mask import higher
from jiyi.privacy.protect import open_pairs, protect_text
from jiyi.privacy.seal import SEALED_KEY, Keyring
from jiyi.records import Visibility
from jiyi.write.validate import MAX_CONTENT_CHARS

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
            return self._get(op.namespace, op.key, op.refresh_ttl)
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
    def _get(self, namespace: tuple[str, ...], key: str, refresh: bool = False) -> Item | None:
        rec = self.memory.get(item_id(namespace, key), user_id=namespace_user(namespace))
        item = self._item(rec) if rec is not None else None
        if item is not None and refresh and rec is not None:
            self._refresh(rec, "get")
        return item

    def _item(self, rec: MemoryRecord) -> Item | None:
        return to_item(rec, self._now(), self.memory.keyring)

    def _put(self, namespace: tuple[str, ...], key: str, value: dict[str, Any], ttl: float | None) -> None:
        check_namespace(namespace)
        where = f"JiyiStore.put({namespace!r}, {key!r})"
        minutes = check_ttl(ttl, where)
        user = namespace_user(namespace)
        rid = item_id(namespace, key)
        now = self._now()
        old = self.memory.get(rid, user_id=user)
        created = old.created_at if old is not None and self._item(old) is not None else now
        kind = value.get("kind") if value.get("kind") in KINDS else "fact"
        text = item_text(value)
        if len(text) > MAX_CONTENT_CHARS:
            raise InvalidInput(f"{where}: the item's text is {len(text):,} characters, over jiyi's {MAX_CONTENT_CHARS:,} "
                               "for one memory (the value's 'content', 'text' or 'memory' string, else the "
                               "value as JSON): split it over several keys")
        stored, pairs, level = protect_value(value, self.memory.keyring)
        meta: dict[str, Any] = {"namespace": list(namespace), "key": key, "value": stored}
        if minutes is not None:
            meta["ttl"] = minutes
        if pairs and self.memory.keyring is not None:
            meta[SEALED_KEY] = self.memory.keyring.seal(pairs)
        row: dict[str, Any] = {
            "id": rid, "user_id": user, "content": text, "kind": kind, "visibility": level.value,
            "created_at": created.isoformat(), "updated_at": now.isoformat(), "importance": 0.8, "confidence": 1.0,
            "metadata": {META: meta},
        }
        if minutes is not None:
            row["expires_at"] = (now + timedelta(minutes=minutes)).isoformat()
        self._write(row, where)

    def _write(self, row: dict[str, Any], where: str) -> None:
        try:
            self.memory.import_([row])
        except InvalidInput as exc:  # the importer's words name a row the caller never made
            raise InvalidInput(f"{where}: {_own_words(str(exc))}") from None

    def _refresh(self, rec: MemoryRecord, op: str) -> None:
        """Push an item's expiry back by its ttl (BaseStore's ``refresh_ttl``); nothing else changes."""
        meta = rec.metadata.get(META)
        if not isinstance(meta, dict) or not isinstance(minutes := meta.get("ttl"), (int, float)) \
                or rec.expires_at is None:
            return
        row = {**rec.to_dict(), "expires_at": (self._now() + timedelta(minutes=minutes)).isoformat(), "history": []}
        self._write(row, f"JiyiStore.{op}({tuple(meta['namespace'])!r}, {meta['key']!r}) refreshing its ttl")

    def _delete(self, namespace: tuple[str, ...], key: str) -> None:
        user = namespace_user(namespace)
        rid = item_id(namespace, key)
        rec = self.memory.get(rid, user_id=user)
        if rec is not None and self._item(rec) is not None:
            self.memory.delete(rid, user_id=user)

    def _search(self, op: SearchOp) -> list[SearchItem]:
        now = self._now()
        want = op.offset + op.limit
        found: list[tuple[float | None, MemoryRecord]] = []
        for user, _ in self._namespaces_under(op.namespace_prefix):
            if op.query:  # the store's caller is the agent's own code: contact details are its to read
                hits = self.memory.search(op.query, user_id=user, limit=min(_MAX_SEARCH, max(want * 3, 20)),
                                          include_sensitive=True)
                found += [(h.score, h.record) for h in hits]
            else:
                found += [(None, r) for r in self.memory.get_all(user_id=user)]
        items: list[tuple[SearchItem, MemoryRecord]] = []
        for score, rec in found:
            item = to_item(rec, now, self.memory.keyring)
            if item is None or item.namespace[: len(op.namespace_prefix)] != op.namespace_prefix:
                continue
            if op.filter and not matches(item.value, op.filter):
                continue
            items.append((SearchItem(item.namespace, item.key, item.value, item.created_at, item.updated_at, score),
                          rec))
        if op.query:
            items.sort(key=lambda i: -(i[0].score or 0.0))
        else:
            items.sort(key=lambda i: i[0].updated_at, reverse=True)
        page = items[op.offset : want]
        if op.refresh_ttl:
            for _, rec in page:
                self._refresh(rec, "search")
        return [item for item, _ in page]

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


def to_item(rec: MemoryRecord, now: datetime, keyring: Keyring | None = None) -> Item | None:
    """The LangGraph item a memory holds (its sealed values put back with ``keyring``); None for a
    deleted or expired one, or one not put by a store."""
    meta = rec.metadata.get(META)
    if not isinstance(meta, dict) or rec.status.value != "active":
        return None
    if rec.expires_at is not None and rec.expires_at <= now:
        return None
    value = open_value(meta["value"], meta.get(SEALED_KEY), keyring)
    return Item(value=dict(value), key=str(meta["key"]), namespace=tuple(meta["namespace"]),
                created_at=rec.created_at, updated_at=rec.updated_at)


def check_ttl(ttl: object, where: str) -> float | None:
    """Minutes to live: a positive finite number, or None for no expiry."""
    if ttl is None:
        return None
    if isinstance(ttl, bool) or not isinstance(ttl, (int, float)) or not math.isfinite(ttl) or ttl <= 0:
        raise InvalidInput(f"{where}: ttl must be a positive number of minutes (or None for no expiry), "
                           f"got {ttl!r:.40}")
    return float(ttl)


def _strings(value: Any, fn: Callable[[str], str]) -> Any:
    """``value`` with ``fn`` applied to every string in it, dict items in sorted key order (the order
    the sealed values are matched back in, whatever order a store's JSON keeps the keys in)."""
    if isinstance(value, str):
        return fn(value)
    if isinstance(value, dict):
        return {k: _strings(value[k], fn) for k in sorted(value, key=str)}
    if isinstance(value, list):
        return [_strings(v, fn) for v in value]
    return value


def protect_value(value: dict[str, Any], keyring: Keyring | None) -> tuple[dict[str, Any], list[tuple[str, str]],
                                                                            Visibility]:
    """The value as stored: every string masked like content, the masked pairs in order, its level."""
    pairs: list[tuple[str, str]] = []
    level = Visibility.NORMAL

    def mask(text: str) -> str:
        nonlocal level
        p = protect_text(text, keyring)
        pairs.extend(p.pairs)
        level = higher(level, p.level)
        return p.text

    masked = _strings(value, mask)
    return {k: masked[k] for k in value}, pairs, level  # the caller's key order again


def open_value(stored: Any, sealed: Any, keyring: Keyring | None) -> Any:
    """``stored`` with the sealed values put back into their placeholders (masked when no key opens them)."""
    pool = open_pairs([sealed], keyring) if sealed is not None else []
    if not pool:
        return stored

    def fill(text: str) -> str:
        def one(m: re.Match[str]) -> str:
            for i, (ph, original) in enumerate(pool):
                if ph == m.group(0):
                    del pool[i]
                    return original
            return m.group(0)

        return PLACEHOLDER.sub(one, text)

    opened = _strings(stored, fill)
    return {k: opened[k] for k in stored} if isinstance(stored, dict) else opened


def _own_words(message: str) -> str:
    """An importer's message in the store's terms ("import row 0.metadata …" → "the item's metadata …")."""
    return re.sub(r"^import row \d+\.?\s*", "the item's ", message)


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
