"""The CLI end to end through click's runner on a temp home."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from jiyi.cli import cli


def run(home: Path, *args: str) -> str:
    result = CliRunner().invoke(cli, ["--home", str(home), *args], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result.output


def test_add_search_list_show_history_delete(tmp_path: Path) -> None:
    out = run(tmp_path, "add", "-u", "u1", "我住在武汉，喜欢热干面", "--json")
    events = json.loads(out)["events"]
    assert events
    hits = json.loads(run(tmp_path, "search", "-u", "u1", "我住哪", "--json"))
    assert any("武汉" in h["content"] for h in hits)
    listed = json.loads(run(tmp_path, "list", "-u", "u1", "--json"))
    mid = listed[0]["id"]
    assert json.loads(run(tmp_path, "show", "-u", "u1", mid, "--json"))["id"] == mid
    assert json.loads(run(tmp_path, "history", "-u", "u1", mid, "--json"))[0]["event"] == "ADD"
    run(tmp_path, "update", "-u", "u1", mid, "用户住在长沙")
    run(tmp_path, "delete", "-u", "u1", mid)
    assert mid not in {r["id"] for r in json.loads(run(tmp_path, "list", "-u", "u1", "--json"))}
    assert json.loads(run(tmp_path, "gc", "--json"))["dry_run"] is True


def test_export_import_forget(tmp_path: Path) -> None:
    run(tmp_path, "add", "-u", "u1", "我对海鲜过敏")
    dump = tmp_path / "u1.jsonl"
    run(tmp_path, "export", "-u", "u1", "-o", str(dump))
    lines = dump.read_text(encoding="utf-8").splitlines()
    assert lines and all(json.loads(line)["user_id"] == "u1" for line in lines)
    other = tmp_path / "other"
    assert f"imported {len(lines)}" in run(other, "import", str(dump))
    assert "forgot" in run(tmp_path, "forget", "-u", "u1", "--yes")
    assert json.loads(run(tmp_path, "list", "-u", "u1", "--status", "all", "--json")) == []


def test_errors_are_clean(tmp_path: Path) -> None:
    result = CliRunner().invoke(cli, ["--home", str(tmp_path), "show", "-u", "u1", "nope"])
    assert result.exit_code != 0
    assert "no memory" in result.output
    bad = CliRunner().invoke(cli, ["--home", str(tmp_path), "search", "-u", "", "x"])
    assert bad.exit_code != 0 and "user_id" in bad.output


def test_every_command_has_help() -> None:
    for name, command in cli.commands.items():
        assert command.help or command.short_help, f"{name} has no help"
        assert CliRunner().invoke(cli, [name, "--help"]).exit_code == 0


def test_doctor_and_demo(tmp_path: Path) -> None:
    doc = json.loads(run(tmp_path, "doctor", "--json"))
    assert doc["model"]["dim"] == 384
    demo = run(tmp_path, "demo")
    assert "杭州" in demo and "<memories>" in demo
