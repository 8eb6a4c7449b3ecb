"""The probe field ``recent`` (the conversation before the query), ``--no-recent``, the bundled follow-up file."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from jiyi.cli import cli
from jiyi.eval.scenarios import ScenarioFileError, load_scenarios, parse_scenarios
from jiyi.eval.scenarios.format import RecentMessage

CN = "+08:00"


def _file(recent: Any) -> dict[str, Any]:
    return {"format": "jiyi-scenarios/1", "scenarios": [{
        "id": "otter",
        "sessions": [{"user": "wen", "start": f"2027-02-01T20:00:00{CN}", "messages": [
            {"role": "user", "content": "我在河边的观鸟小屋认识了一位护林员，叫蔺青山"},
            {"role": "user", "content": "我办了一张市图书馆的借书卡，编号末尾是七七"}]}],
        "probes": [{"id": "who", "category": "follow-up", "user": "wen", "at": f"2027-03-01T20:00:00{CN}",
                    "query": "他叫什么来着？", "recent": recent,
                    "hits": {"k": 1, "include": "蔺青山"}}]}]}


def test_recent_parses_strings_and_messages() -> None:
    sfile = parse_scenarios(_file(["周末又去河边观鸟了", {"role": "assistant", "content": "又遇到那位护林员了吗？"}]))
    probe = sfile.probes[0]
    assert probe.recent == (RecentMessage("user", "周末又去河边观鸟了"),
                            RecentMessage("assistant", "又遇到那位护林员了吗？"))
    assert parse_scenarios(_file([])).probes[0].recent == ()


@pytest.mark.parametrize(("recent", "words"), [
    ("a string", r"probes\[0\]\.recent: expected a list"),
    ([{"role": "bot", "content": "x"}], r"recent\[0\]\.role"),
    ([{"role": "user"}], r"recent\[0\]: missing content"),
    ([{"content": "x", "when": "now"}], r"recent\[0\]: unknown key"),
    ([""], r"recent\[0\]: expected a non-empty string"),
    (["x"] * 51, "at most 50"),
])
def test_bad_recent_names_the_place(recent: Any, words: str) -> None:
    with pytest.raises(ScenarioFileError, match=words):
        parse_scenarios(_file(recent))


def test_bundled_followup_file_loads_by_name_with_ten_probes_in_both_languages() -> None:
    sfile = load_scenarios("followup")
    probes = [p for p in sfile.probes if p.category == "follow-up"]
    assert len(probes) >= 10 and all(p.recent for p in probes)
    langs = {"zh" if any("\u4e00" <= ch <= "\u9fff" for ch in p.query) else "en" for p in probes}
    assert langs == {"zh", "en"}


def test_cli_runs_with_and_without_recent(tmp_path: Path) -> None:
    path = tmp_path / "f.json"
    path.write_text(json.dumps(_file(["周末又去河边观鸟了", "又碰到那个护林员了"]), ensure_ascii=False),
                    encoding="utf-8")
    runner = CliRunner()
    with_recent = runner.invoke(cli, ["eval", "--scenarios", str(path), "--brief",
                                      "--json", str(tmp_path / "a.json")])
    alone = runner.invoke(cli, ["eval", "--scenarios", str(path), "--brief", "--no-recent",
                                "--json", str(tmp_path / "b.json")])
    assert with_recent.exit_code == 0, with_recent.output
    assert alone.exit_code == 0, alone.output
    assert "follow-up" in with_recent.output and "follow-up" in alone.output
    assert "1/1" in with_recent.output  # the ranger is named only in the conversation's words
