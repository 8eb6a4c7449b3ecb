"""Migrating LivingMemory (``astrbot_plugin_livingmemory`` 2.x) into jiyi, read-only.

LivingMemory keeps its memories in ``data/plugin_data/astrbot_plugin_livingmemory/``:

- ``livingmemory.db`` (SQLite): ``documents`` (AstrBot's FaissVecDB document table: ``id``,
  ``doc_id``, ``text``, ``metadata`` JSON with ``session_id``, ``persona_id``, ``importance``,
  ``create_time`` epoch seconds, ``status``, ``topics``, ``key_facts``…), ``memory_sources``
  (``memory_id`` → ``source_json``, the conversation the memory was summarised from, each
  message with its ``sender_id``) and ``memory_atoms`` (one typed fact per row:
  ``atom_type`` factual / preference / planned / relational / episodic, ``status``,
  ``importance``, ``confidence``, ``created_at``, ``event_time``);
- ``livingmemory.index``: the FAISS vectors of those documents, made by LivingMemory's
  embedding model. They are not reused (jiyi indexes with its own embedder, so recall is
  consistent); the file is only checked to be there beside the database.

The database is opened read-only (``mode=ro``): the migration never changes LivingMemory's
files, so the old plugin keeps working until it is removed. Each document becomes a jiyi
``summary`` memory and each live atom a memory of its kind, owned by whom LivingMemory scoped it to:

- ``livingmemory:global`` → the bot's global scope;
- ``livingmemory:user:<platform>:<id>`` (its ``user`` scope mode) → that person;
- a private chat's UMO (``qq1:FriendMessage:123``) → the chat partner;
- a group chat's UMO → every person who spoke in the source conversation (its
  ``memory_sources``); a group memory with no source cannot be attributed and is skipped.

Record ids are stable, so running the import twice overwrites instead of duplicating.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from .content import clean_text
from .scopes import GLOBAL_OWNER, Speaker, owner_id

GLOBAL_SCOPE = "livingmemory:global"
USER_PREFIX = "livingmemory:user:"
ATOM_KINDS = {"factual": "fact", "preference": "preference", "planned": "event", "relational": "relation",
              "episodic": "event"}
LIVE_ATOMS = frozenset({"active", "dormant"})
LIVE_DOCUMENTS = frozenset({"active", ""})


@dataclass
class LivingMemoryReport:
    documents: int = 0
    atoms: int = 0
    imported: int = 0
    skipped_unattributed: int = 0
    skipped_inactive: int = 0
    skipped_empty: int = 0
    index_found: bool = False
    owners: set[str] = field(default_factory=set)

    def summary(self) -> str:
        index = "找到" if self.index_found else "未找到"
        return (f"LivingMemory 迁移：读取 {self.documents} 条记忆和 {self.atoms} 条原子事实，导入 {self.imported} 条"
                f"（{len(self.owners)} 个用户）；无法归属到个人而跳过 {self.skipped_unattributed} 条，"
                f"已归档/失效 {self.skipped_inactive} 条，空内容 {self.skipped_empty} 条。"
                f"向量索引 livingmemory.index {index}（不复用，jiyi 用自己的模型重新索引）。")


def read_livingmemory(path: Path, *, scope: str, platform_ids: Mapping[str, str] | None = None
                      ) -> tuple[list[dict[str, Any]], LivingMemoryReport]:
    """jiyi import records for every memory in LivingMemory's ``livingmemory.db`` (read-only)."""
    path = Path(path)
    if path.is_dir():
        path = path / "livingmemory.db"
    if not path.is_file():
        raise OSError(f"没有找到 LivingMemory 的数据库 {path}（默认在 data/plugin_data/astrbot_plugin_livingmemory/）")
    report = LivingMemoryReport(index_found=path.with_suffix(".index").is_file())
    conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
    conn.row_factory = sqlite3.Row
    try:
        tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        if "documents" not in tables:
            raise ValueError(f"{path} 不是 LivingMemory 的数据库（没有 documents 表）")
        sources = _sources(conn) if "memory_sources" in tables else {}
        docs = list(conn.execute("SELECT id, text, metadata, created_at FROM documents ORDER BY id"))
        atoms = list(conn.execute("SELECT * FROM memory_atoms ORDER BY id")) if "memory_atoms" in tables else []
    finally:
        conn.close()
    mapping = dict(platform_ids or {})
    records: list[dict[str, Any]] = []
    owners_of: dict[int, list[str]] = {}
    for doc in docs:
        report.documents += 1
        meta = _json(doc["metadata"])
        owners = _owners(meta.get("session_id"), meta.get("persona_id"), sources.get(int(doc["id"]), []), scope, mapping)
        owners_of[int(doc["id"])] = owners
        if str(meta.get("status") or "") not in LIVE_DOCUMENTS:
            report.skipped_inactive += 1
            continue
        text = clean_text(str(doc["text"] or ""))
        if not text:
            report.skipped_empty += 1
            continue
        if not owners:
            report.skipped_unattributed += 1
            continue
        when = _when(meta.get("create_time"), doc["created_at"])
        extra = {"livingmemory_id": str(doc["id"]), "persona": meta.get("persona_id"),
                 "topics": list(meta.get("topics") or [])[:10]}
        records.extend(_records(f"doc{doc['id']}", text, "summary", owners, when, when, meta.get("importance"), 0.7,
                                str(meta.get("session_id") or ""), extra, report))
    for atom in atoms:
        report.atoms += 1
        if str(atom["status"] or "active") not in LIVE_ATOMS:
            report.skipped_inactive += 1
            continue
        text = clean_text(str(atom["content"] or ""))
        if not text:
            report.skipped_empty += 1
            continue
        owners = owners_of.get(int(atom["parent_memory_id"])) or _owners(atom["session_id"], atom["persona_id"], [],
                                                                        scope, mapping)
        if not owners:
            report.skipped_unattributed += 1
            continue
        created = _when(atom["created_at"], None)
        valid = _when(atom["event_time"], None) if atom["event_time"] else created
        extra = {"livingmemory_atom_id": str(atom["id"]), "livingmemory_id": str(atom["parent_memory_id"]),
                 "atom_type": atom["atom_type"], "persona": atom["persona_id"]}
        records.extend(_records(f"atom{atom['id']}", text, ATOM_KINDS.get(str(atom["atom_type"]), "fact"), owners,
                                created, valid, atom["importance"], atom["confidence"], str(atom["session_id"] or ""),
                                extra, report))
    return records, report


def _records(key: str, text: str, kind: str, owners: list[str], created: str, valid: str, importance: Any,
             confidence: Any, session: str, extra: dict[str, Any], report: LivingMemoryReport
             ) -> Iterator[dict[str, Any]]:
    for user_id in owners:
        digest = hashlib.sha1(f"{key}|{user_id}".encode()).hexdigest()[:20]
        report.owners.add(user_id)
        report.imported += 1
        yield {"id": f"livingmemory-{digest}", "tenant": "", "user_id": user_id, "content": text[:2000], "kind": kind,
               "created_at": created, "updated_at": created, "valid_from": valid,
               "importance": _unit(importance, 0.5), "confidence": _unit(confidence, 0.7),
               "session_id": session[:128] or None, "metadata": {"source": "livingmemory", **extra}}


def _owners(session_id: Any, persona: Any, source: list[Mapping[str, Any]], scope: str,
            platform_ids: Mapping[str, str]) -> list[str]:
    """Whose memory a LivingMemory scope is (jiyi owner ids under ``scope``)."""
    sid = str(session_id or "")
    persona_id = str(persona) if persona else None
    if sid == GLOBAL_SCOPE:
        return [GLOBAL_OWNER]
    if sid.startswith(USER_PREFIX):
        platform, _, identity = sid[len(USER_PREFIX):].partition(":")
        if not identity:
            return []
        speaker = Speaker(platform_ids.get(platform, platform), identity, umo="", persona=persona_id)
        return [owner_id(speaker, "persona" if scope == "persona" else "user")]
    parts = sid.split(":", 2)
    if len(parts) != 3:
        return []
    platform_id, message_type, chat_id = parts
    if message_type == "FriendMessage":
        return [owner_id(Speaker(platform_id, chat_id, sid, persona=persona_id), scope)]
    senders = [str(m.get("sender_id") or "") for m in source
               if m.get("role", "user") == "user" and not (m.get("metadata") or {}).get("is_bot_message")]
    people = [s for s in dict.fromkeys(senders) if s and s != "unknown"]
    return [owner_id(Speaker(platform_id, s, sid, persona=persona_id), scope) for s in people]


def _sources(conn: sqlite3.Connection) -> dict[int, list[dict[str, Any]]]:
    out: dict[int, list[dict[str, Any]]] = {}
    for row in conn.execute("SELECT memory_id, source_json FROM memory_sources"):
        try:
            parsed = json.loads(row["source_json"] or "[]")
        except (TypeError, ValueError):
            continue
        if isinstance(parsed, list):
            out[int(row["memory_id"])] = [m for m in parsed if isinstance(m, dict)]
    return out


def _json(raw: Any) -> dict[str, Any]:
    try:
        value = json.loads(raw or "{}")
    except (TypeError, ValueError):
        return {}
    return value if isinstance(value, dict) else {}


def _unit(value: Any, default: float) -> float:
    try:
        number = float(value)
    except (TypeError, ValueError):
        return default
    return min(1.0, max(0.0, number))


def _when(epoch: Any, text: Any) -> str:
    """ISO time from epoch seconds (LivingMemory's ``create_time``), else its text column, else now."""
    try:
        seconds = float(epoch)
    except (TypeError, ValueError):
        seconds = 0.0
    if seconds > 1e12:
        seconds /= 1000
    if seconds > 0:
        return datetime.fromtimestamp(seconds, timezone.utc).isoformat()
    if text:
        try:
            parsed = datetime.fromisoformat(str(text))
            return (parsed if parsed.tzinfo else parsed.replace(tzinfo=timezone.utc)).isoformat()
        except ValueError:
            pass
    return datetime.now(timezone.utc).isoformat()


def platform_map(text: Any) -> dict[str, str]:
    """``aiocqhttp=qq1`` lines: LivingMemory's platform names → AstrBot platform ids."""
    pairs = (line.partition("=") for line in str(text or "").splitlines())
    return {k.strip(): v.strip() for k, sep, v in pairs if sep and k.strip() and v.strip()}
