"""A used store restores over every door: the REST client and `jiyi export` → `jiyi import`.

Recalls raise a memory's strength past 1; the importer refused that (issue 26), so no
backup of a store that had been searched could be restored anywhere.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any

from server_support import LiveServer
from test_server_cli import JIYI

from jiyi.client import JiyiClient


def _same(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{k: v for k, v in r.items() if k not in ("tenant", "format")} for r in rows]


def test_a_searched_users_backup_restores_through_the_client(server: LiveServer, uid: str) -> None:
    with JiyiClient(server.url, api_key=server.keys["acme"]) as acme, \
            JiyiClient(server.url, api_key=server.keys["globex"]) as globex:
        acme.remember("The user keeps bees on the roof", user_id=uid)
        acme.remember("The user's sister lives in Porto", user_id=uid)
        for _ in range(4):
            acme.search("bees on the roof", user_id=uid)
        rows = list(acme.export(user_id=uid))
        assert max(r["strength"] for r in rows) > 1
        assert globex.import_(rows) == len(rows)  # another tenant: a fresh store for this user
        assert _same(list(globex.export(user_id=uid))) == _same(rows)


def test_jiyi_export_then_import_into_a_fresh_home(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("JIYI_")}
    env["JIYI_EMBEDDER"] = "hash"

    def jiyi(home: Path, *args: str) -> str:
        done = subprocess.run([*JIYI, "--home", str(home), *args], env=env, capture_output=True, text=True,
                              timeout=120, check=False)
        assert done.returncode == 0, done.stderr
        return done.stdout

    used, fresh = tmp_path / "used", tmp_path / "fresh"
    jiyi(used, "add", "-u", "u1", "我养了一只叫年糕的柯基")
    for _ in range(3):
        jiyi(used, "search", "-u", "u1", "柯基叫什么")
    backup = tmp_path / "u1.jsonl"
    jiyi(used, "export", "-u", "u1", "-o", str(backup))
    rows = [json.loads(line) for line in backup.read_text().splitlines()]
    assert rows and max(r["strength"] for r in rows) > 1
    assert f"imported {len(rows)} memories" in jiyi(fresh, "import", str(backup))
    again = tmp_path / "again.jsonl"
    jiyi(fresh, "export", "-u", "u1", "-o", str(again))
    assert _same([json.loads(line) for line in again.read_text().splitlines()]) == _same(rows)
