"""The admin's data commands: export one owner's memories, import Mnemosyne's and LivingMemory's.

Each returns the line the command answers with; a source that cannot be read is "迁移失败：…", not an error.
"""

from __future__ import annotations

import asyncio
import json
import re
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from .livingmemory import read_livingmemory
from .mnemosyne import MigrationReport, read_jsonl_rows, read_milvus_rows, rows_to_records
from .store import MemoryHolder


async def export_jsonl(holder: MemoryHolder, owner: str, data_dir: Path) -> str:
    """``owner``'s memories as a JSONL file under ``data_dir/exports``."""
    mem = await holder.memory()
    rows = await asyncio.to_thread(lambda: list(mem.export(user_id=owner)))
    safe_owner = re.sub(r"[^\w.-]+", "_", owner)
    path = data_dir / "exports" / f"{safe_owner}-{int(time.time())}.jsonl"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), "utf-8")
    return f"已导出 {len(rows)} 条记忆到 {path}"


async def import_mnemosyne(holder: MemoryHolder, mcfg: dict[str, Any], scope: str, source: str) -> str:
    """Mnemosyne's memories from its Milvus collection (``source`` or the configured one) or an exported file."""
    try:
        if source.endswith((".jsonl", ".json")):
            rows = await asyncio.to_thread(read_jsonl_rows, Path(source))
        else:
            collection = source or str(mcfg.get("collection_name") or "default")
            rows = await asyncio.to_thread(read_milvus_rows, mcfg, collection)
    except (OSError, ValueError, RuntimeError) as exc:
        return f"迁移失败：{exc}"
    report = MigrationReport()
    records = list(rows_to_records(rows, scope=scope, tenant="", report=report))
    if records:
        await holder.run("import_", records)
    return report.summary()


async def import_livingmemory(holder: MemoryHolder, data_dir: Path, scope: str, platform_ids: Mapping[str, str],
                              source: str) -> str:
    """LivingMemory's database (``source`` or the plugin's own beside this one's data directory)."""
    path = Path(source) if source else data_dir.parent / "astrbot_plugin_livingmemory" / "livingmemory.db"
    try:
        records, report = await asyncio.to_thread(read_livingmemory, path, scope=scope, platform_ids=platform_ids)
    except (OSError, ValueError) as exc:
        return f"迁移失败：{exc}"
    if records:
        await holder.run("import_", records)
    return report.summary()
