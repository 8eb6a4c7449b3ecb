"""Migrating Mnemosyne rows (as its Milvus collection holds them) through the admin command."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

from astrbot_harness import FakeContext, command, load_plugin, make_event
from astrbot_plugin_jiyi.mnemosyne import MigrationReport, rows_to_records, split_hidden_meta

ROWS: list[dict[str, Any]] = [
    {"memory_id": 449281, "personality_id": "猫娘", "session_id": "qq1:FriendMessage:10001",
     "content": "用户说自己对花生过敏，下周三要去北京出差。", "create_time": 1735689600},
    {"memory_id": 449282, "personality_id": "猫娘", "session_id": "qq1:GroupMessage:g1",
     "content": "群里约好周末去爬香山，Bob 负责带水。<!--MNEMOSYNE_META {\"participants\": "
                "[{\"user_id\": \"B2\", \"name\": \"Bob\"}, \"A1\"], \"entities\": [\"香山\"]}-->",
     "create_time": 1735776000},
    {"memory_id": 449283, "personality_id": "猫娘", "session_id": "qq1:GroupMessage:g1",
     "content": "大家聊了聊最近的电影。", "create_time": 1735862400},
    {"memory_id": 449284, "personality_id": "猫娘", "session_id": "qq1:FriendMessage:10001",
     "content": "data:image/png;base64," + "iVBORw0KGgo" * 40, "create_time": 1735862400},
]


def test_import_from_an_exported_collection(tmp_path: Path) -> None:
    source = tmp_path / "mnemosyne_rows.jsonl"
    source.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in ROWS), "utf-8")

    async def main() -> None:
        plugin = load_plugin(FakeContext(), {})
        try:
            report = (await command(make_event(f"mem import_mnemosyne {source}", sender="adm", admin=True)))[0]
            assert "读取 4 行，导入 3 条记忆（3 个用户）" in report
            assert "跳过 1 行" in report and "空内容 1 行" in report

            found = (await command(make_event("mem search 花生过敏", sender="10001")))[0]
            assert "用户说自己对花生过敏，下周三要去北京出差。" in found
            for sender in ("B2", "A1"):
                listed = (await command(make_event("mem list", sender=sender)))[0]
                assert "群里约好周末去爬香山，Bob 负责带水。" in listed and "MNEMOSYNE_META" not in listed
            assert (await command(make_event("mem list", sender="C3")))[0] == "（没有记忆）"

            mem = await plugin.holder.memory()
            rec = mem.get_all(user_id="qq1:10001")[0]
            assert rec.kind.value == "summary" and rec.created_at.isoformat().startswith("2025-01-01")
            assert rec.metadata["source"] == "mnemosyne" and rec.metadata["mnemosyne_id"] == "449281"

            await command(make_event(f"mem import_mnemosyne {source}", sender="adm", admin=True))
            assert len(mem.get_all(user_id="qq1:10001")) == 1  # a re-run overwrites, never duplicates

            missing = (await command(make_event("mem import_mnemosyne /nope.jsonl", sender="adm", admin=True)))[0]
            assert missing.startswith("迁移失败")
        finally:
            await plugin.terminate()

    asyncio.run(main())


def test_rows_follow_the_plugin_scope() -> None:
    report = MigrationReport()
    owners = {r["user_id"] for r in rows_to_records(ROWS, scope="persona", tenant="t", report=report)}
    assert owners == {"qq1:10001@猫娘", "qq1:B2@猫娘", "qq1:A1@猫娘"}
    report = MigrationReport()
    owners = {r["user_id"] for r in rows_to_records(ROWS, scope="session", tenant="t", report=report)}
    assert owners == {"qq1:FriendMessage:10001|10001", "qq1:GroupMessage:g1|B2", "qq1:GroupMessage:g1|A1"}


def test_hidden_meta_in_either_form() -> None:
    text, meta = split_hidden_meta('总结内容<mnemosyne_meta>{"participants": ["1", "2"]}</mnemosyne_meta>')
    assert text == "总结内容" and meta["participants"] == ["1", "2"]
    assert split_hidden_meta("没有元数据") == ("没有元数据", {})
    assert split_hidden_meta("坏的<!-- {not json} -->")[1] == {}
