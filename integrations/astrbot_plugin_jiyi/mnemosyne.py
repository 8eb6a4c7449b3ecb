"""Migrating a Mnemosyne collection into jiyi.

Mnemosyne keeps one Milvus row per session summary: ``memory_id`` (int64), ``personality_id``,
``session_id`` (the chat's UMO, ``qq1:GroupMessage:678``, since its v2.0), ``content`` (the
summary, possibly followed by a hidden JSON block with ``participants``) and
``create_time`` (epoch seconds). Rows become jiyi ``summary`` memories of each person they
are about, under the plugin's scope:

- a private chat's row belongs to the chat partner (the UMO's last part);
- a group row belongs to every participant its hidden metadata names; a group row naming
  no one cannot be attributed to a person and is skipped (and counted).

:func:`rows_to_records` does the conversion on plain dicts, so a migration is testable
(and runnable from a JSONL export) without Milvus; :func:`read_milvus_rows` is the thin
pymilvus reader for a live collection.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from .content import clean_text
from .scopes import Speaker, owner_id

FIELDS = ["memory_id", "personality_id", "session_id", "content", "create_time"]
_HIDDEN = re.compile(r"<!--(.*?)-->|<(\w*meta\w*)>(.*?)</\2>", re.DOTALL | re.IGNORECASE)


@dataclass
class MigrationReport:
    rows: int = 0
    imported: int = 0
    skipped_unattributed: int = 0
    skipped_empty: int = 0
    owners: set[str] = field(default_factory=set)

    def summary(self) -> str:
        return (f"Mnemosyne 迁移：读取 {self.rows} 行，导入 {self.imported} 条记忆（{len(self.owners)} 个用户）；"
                f"无法归属到个人而跳过 {self.skipped_unattributed} 行，空内容 {self.skipped_empty} 行。")


def split_hidden_meta(content: str) -> tuple[str, dict[str, Any]]:
    """The visible summary and the parsed hidden metadata (``{}`` when there is none)."""
    meta: dict[str, Any] = {}
    for match in _HIDDEN.finditer(content or ""):
        raw = match.group(1) if match.group(1) is not None else match.group(3)
        start, end = raw.find("{"), raw.rfind("}")
        if start >= 0 and end > start:
            try:
                parsed = json.loads(raw[start : end + 1])
            except ValueError:
                continue
            if isinstance(parsed, dict):
                meta.update(parsed)
    return _HIDDEN.sub(" ", content or "").strip(), meta


def participants(meta: Mapping[str, Any]) -> list[tuple[str, str]]:
    """``(sender_id, name)`` pairs named by the metadata (ids as strings, names may be "")."""
    out: list[tuple[str, str]] = []
    for item in meta.get("participants") or []:
        if isinstance(item, Mapping):
            uid = item.get("user_id") or item.get("id") or item.get("uid")
            if uid:
                out.append((str(uid), str(item.get("name") or item.get("nickname") or "")))
        elif isinstance(item, (str, int)) and str(item).strip():
            out.append((str(item).strip(), ""))
    return list(dict.fromkeys(out))


def row_speakers(row: Mapping[str, Any], meta: Mapping[str, Any]) -> list[Speaker]:
    """Who a row is about, as Speakers (empty when it cannot be said)."""
    umo = str(row.get("session_id") or "")
    parts = umo.split(":", 2)
    if len(parts) != 3:
        return []
    platform_id, message_type, chat_id = parts
    persona = row.get("personality_id") or None
    if message_type == "FriendMessage":
        return [Speaker(platform_id, chat_id, umo, persona=persona)]
    return [Speaker(platform_id, uid, umo, name, persona=persona) for uid, name in participants(meta)]


def rows_to_records(rows: Iterable[Mapping[str, Any]], *, scope: str, tenant: str,
                    report: MigrationReport) -> Iterator[dict[str, Any]]:
    """jiyi import records (export format) for Mnemosyne rows; ids are stable, so a re-run
    overwrites instead of duplicating."""
    for row in rows:
        report.rows += 1
        text, meta = split_hidden_meta(str(row.get("content") or ""))
        text = clean_text(text)
        if not text:
            report.skipped_empty += 1
            continue
        speakers = row_speakers(row, meta)
        if not speakers:
            report.skipped_unattributed += 1
            continue
        created = _when(row.get("create_time"))
        for speaker in speakers:
            user_id = owner_id(speaker, scope)
            report.owners.add(user_id)
            report.imported += 1
            yield _record(row, text, user_id, tenant, created)


def _record(row: Mapping[str, Any], text: str, user_id: str, tenant: str, created: str) -> dict[str, Any]:
    digest = hashlib.sha1(f"{row.get('memory_id')}|{user_id}".encode()).hexdigest()[:20]
    return {
        "id": f"mnemosyne-{digest}", "tenant": tenant, "user_id": user_id, "content": text[:2000],
        "kind": "summary", "created_at": created, "updated_at": created, "valid_from": created,
        "importance": 0.5, "confidence": 0.7, "session_id": str(row.get("session_id") or "")[:128] or None,
        "metadata": {"source": "mnemosyne", "mnemosyne_id": str(row.get("memory_id")),
                     "persona": row.get("personality_id")},
    }


def _when(value: Any) -> str:
    try:
        seconds = float(value)
    except (TypeError, ValueError):
        seconds = 0.0
    if seconds > 1e12:  # milliseconds
        seconds /= 1000
    if seconds <= 0:
        return datetime.now(timezone.utc).isoformat()
    return datetime.fromtimestamp(seconds, timezone.utc).isoformat()


def read_jsonl_rows(path: Path) -> list[dict[str, Any]]:
    """Rows from a JSON array or JSON-lines file (e.g. an export of the Mnemosyne panel)."""
    text = path.read_text("utf-8").strip()
    if text.startswith("["):
        return [dict(r) for r in json.loads(text)]
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def read_milvus_rows(config: Mapping[str, Any], collection: str, *, batch: int = 500) -> list[dict[str, Any]]:
    """Every row of a Mnemosyne collection (needs ``pip install pymilvus``; Milvus Lite for a .db path)."""
    try:
        from pymilvus import MilvusClient
    except ImportError as exc:
        raise RuntimeError("读取 Milvus 需要 pymilvus：pip install 'pymilvus[milvus_lite]'") from exc
    uri = str(config.get("milvus_lite_path") or config.get("address") or "")
    if not uri:
        raise RuntimeError("请在插件配置 mnemosyne.milvus_lite_path 或 mnemosyne.address 中填写 Mnemosyne 的 Milvus")
    client = MilvusClient(uri=uri, token=str(config.get("token") or ""), db_name=str(config.get("db_name") or "default"))
    try:
        iterator = client.query_iterator(collection, batch_size=batch, filter="memory_id > 0", output_fields=FIELDS)
        rows: list[dict[str, Any]] = []
        while page := iterator.next():
            rows.extend(dict(r) for r in page)
        iterator.close()
        return rows
    finally:
        client.close()
