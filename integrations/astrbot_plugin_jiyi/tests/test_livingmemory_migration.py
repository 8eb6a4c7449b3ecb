"""Migrating LivingMemory 2.6's storage through the admin command, read-only.

The fixture is built the way LivingMemory builds it: the ``documents`` table and the
``livingmemory.index`` vectors by AstrBot's own FaissVecDB parts (``DocumentStorage``,
``EmbeddingStorage``), which LivingMemory uses for its store; ``memory_sources`` and
``memory_atoms`` with the DDL of LivingMemory's ``core/managers/memory_engine.py`` and
``storage/atom_store.py`` (2.6.0-beta.3); metadata with the keys its ``add_memory`` writes.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import sqlite3
import uuid
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import numpy as np
from astrbot.core.db.vec_db.faiss_impl.document_storage import DocumentStorage
from astrbot.core.db.vec_db.faiss_impl.embedding_storage import EmbeddingStorage
from astrbot_harness import FakeContext, command, load_plugin, make_event

T0 = 1767225600.0  # 2026-01-01 00:00 UTC
DAY = 86400.0

SOURCES_DDL = """CREATE TABLE IF NOT EXISTS memory_sources (
    memory_id INTEGER PRIMARY KEY, source_json TEXT NOT NULL, created_at REAL NOT NULL, updated_at REAL NOT NULL)"""
ATOMS_DDL = """CREATE TABLE IF NOT EXISTS memory_atoms (
    id INTEGER PRIMARY KEY AUTOINCREMENT, parent_memory_id INTEGER NOT NULL, atom_type TEXT NOT NULL DEFAULT 'unknown',
    content TEXT NOT NULL, entities TEXT DEFAULT '[]', importance REAL NOT NULL DEFAULT 0.5,
    confidence REAL NOT NULL DEFAULT 0.7, created_at REAL NOT NULL, last_accessed_at REAL NOT NULL,
    last_reinforced_at REAL, event_time REAL, ttl_days REAL NOT NULL DEFAULT 30.0, expires_at REAL NOT NULL,
    status TEXT NOT NULL DEFAULT 'active', reinforcement_count INTEGER NOT NULL DEFAULT 0,
    decay_type TEXT NOT NULL DEFAULT 'exponential', session_id TEXT, persona_id TEXT, metadata TEXT DEFAULT '{}')"""


def meta(session: str | None, created: float, **extra: Any) -> dict[str, Any]:
    """What LivingMemory's MemoryEngine.add_memory stores (plus the processor's structured fields)."""
    return {"session_id": session, "persona_id": "猫娘", "importance": 0.7, "create_time": created,
            "last_access_time": created, "status": "active", "topics": ["日常"], "key_facts": [],
            "sentiment": "neutral", "summary_schema_version": "v2", **extra}


DOCS: list[tuple[str, dict[str, Any], list[dict[str, Any]]]] = [
    ("用户说自己对花生过敏，下周三要去北京出差。", meta("qq1:FriendMessage:10001", T0, interaction_type="private_chat"), []),
    ("用户喜欢周末去爬山。", meta("livingmemory:user:aiocqhttp:20002", T0 + DAY), []),
    ("本群每周五晚上八点开例会。", meta("livingmemory:global", T0 + 2 * DAY), []),
    ("群里约好周六去香山，Bob 负责带水。", meta("qq1:GroupMessage:g1", T0 + 3 * DAY, interaction_type="group_chat",
                                        participants=["Alice", "Bob"]),
     [{"id": 1, "session_id": "qq1:GroupMessage:g1", "role": "user", "content": "周六去香山吧", "sender_id": "A1",
       "sender_name": "Alice", "timestamp": T0, "metadata": {"is_bot_message": False}},
      {"id": 2, "session_id": "qq1:GroupMessage:g1", "role": "user", "content": "我带水", "sender_id": "B2",
       "sender_name": "Bob", "timestamp": T0, "metadata": {"is_bot_message": False}},
      {"id": 3, "session_id": "qq1:GroupMessage:g1", "role": "assistant", "content": "好的", "sender_id": "bot",
       "sender_name": "bot", "timestamp": T0, "metadata": {"is_bot_message": True}}]),
    ("大家聊了聊最近的电影。", meta("qq1:GroupMessage:g1", T0 + 4 * DAY), []),  # no source: nobody to own it
    ("用户以前住在南京。", meta("qq1:FriendMessage:10001", T0 + 5 * DAY, status="archived"), []),
]
# (parent document index, atom_type, content, status, event_time)
ATOMS = [(0, "preference", "用户对花生过敏", "active", None),
         (0, "planned", "用户下周三去北京出差", "active", T0 + 8 * DAY),
         (0, "factual", "用户住在上海", "superseded", None)]


async def build(folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    db = folder / "livingmemory.db"
    docs = DocumentStorage(str(db))
    await docs.initialize()
    vectors = EmbeddingStorage(8, str(folder / "livingmemory.index"))
    ids = []
    for i, (text, metadata, _) in enumerate(DOCS):
        doc_int = await docs.insert_document(str(uuid.uuid4()), text, metadata)
        await vectors.insert(np.full(8, i + 1, dtype=np.float32), doc_int)
        ids.append(doc_int)
    await docs.close()
    conn = sqlite3.connect(db)
    conn.execute(SOURCES_DDL)
    conn.execute(ATOMS_DDL)
    for doc_int, (_, _, source) in zip(ids, DOCS):
        if source:
            conn.execute("INSERT INTO memory_sources VALUES (?, ?, ?, ?)",
                         (doc_int, json.dumps(source, ensure_ascii=False), T0, T0))
    for parent, kind, content, status, event_time in ATOMS:
        conn.execute("INSERT INTO memory_atoms (parent_memory_id, atom_type, content, created_at, last_accessed_at, "
                     "event_time, expires_at, status, session_id, persona_id) VALUES (?,?,?,?,?,?,?,?,?,?)",
                     (ids[parent], kind, content, T0, T0, event_time, T0 + 90 * DAY, status,
                      "qq1:FriendMessage:10001", "猫娘"))
    conn.commit()
    conn.close()
    return db


def digest(folder: Path) -> dict[str, str]:
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(folder.iterdir()) if p.is_file()}


def test_import_from_livingmemory_storage(astrbot_root: Path) -> None:
    folder = astrbot_root / "data" / "plugin_data" / "astrbot_plugin_livingmemory"

    async def main() -> None:
        await build(folder)
        before = digest(folder)
        plugin = load_plugin(FakeContext(), {"livingmemory_platform_ids": "aiocqhttp=qq1"})
        try:
            report = (await command(make_event("mem import_livingmemory", sender="adm", admin=True)))[0]
            assert "读取 6 条记忆和 3 条原子事实，导入 7 条（5 个用户）" in report, report
            assert "跳过 1 条" in report and "已归档/失效 2 条" in report and "向量索引 livingmemory.index 找到" in report
            assert digest(folder) == before  # read-only: LivingMemory's files are untouched

            mine = {r.content: r for r in await plugin.holder.run("get_all", user_id="qq1:10001")}
            assert set(mine) == {"用户说自己对花生过敏，下周三要去北京出差。", "用户对花生过敏", "用户下周三去北京出差"}
            assert mine["用户说自己对花生过敏，下周三要去北京出差。"].kind.value == "summary"
            assert mine["用户对花生过敏"].kind.value == "preference" and mine["用户下周三去北京出差"].kind.value == "event"
            assert mine["用户说自己对花生过敏，下周三要去北京出差。"].created_at == datetime.fromtimestamp(T0, timezone.utc)
            assert mine["用户下周三去北京出差"].valid_from == datetime.fromtimestamp(T0 + 8 * DAY, timezone.utc)
            assert mine["用户对花生过敏"].metadata["source"] == "livingmemory"
            # user scope (platform name mapped to the platform id), the group's speakers, the global scope
            assert [r.content for r in await plugin.holder.run("get_all", user_id="qq1:20002")] == ["用户喜欢周末去爬山。"]
            for sender in ("A1", "B2"):
                got = [r.content for r in await plugin.holder.run("get_all", user_id=f"qq1:{sender}")]
                assert got == ["群里约好周六去香山，Bob 负责带水。"]
            assert "本群每周五晚上八点开例会" in (await command(make_event("mem global", sender="C3")))[0]
            found = (await command(make_event("mem search 花生过敏", sender="10001")))[0]
            assert "花生过敏" in found.splitlines()[0]

            again = (await command(make_event("mem import_livingmemory", sender="adm", admin=True)))[0]
            assert "导入 7 条" in again
            assert len(await plugin.holder.run("get_all", user_id="qq1:10001")) == 3  # stable ids: no duplicates
        finally:
            await plugin.terminate()

    asyncio.run(main())


def test_a_missing_or_foreign_database_is_an_answer_not_a_crash(tmp_path: Path) -> None:
    other = tmp_path / "other.db"
    sqlite3.connect(other).execute("CREATE TABLE t (x)").connection.close()

    async def main() -> None:
        plugin = load_plugin(FakeContext(), {})
        try:
            missing = (await command(make_event(f"mem import_livingmemory {tmp_path / 'nope.db'}", admin=True)))[0]
            assert missing.startswith("迁移失败：没有找到 LivingMemory 的数据库")
            foreign = (await command(make_event(f"mem import_livingmemory {other}", admin=True)))[0]
            assert "没有 documents 表" in foreign
        finally:
            await plugin.terminate()

    asyncio.run(main())
