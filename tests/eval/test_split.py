"""The tune/check split: fixed, disjoint, covering, and wired into `jiyi eval`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from jiyi.cli import cli
from jiyi.errors import InvalidInput
from jiyi.eval.scenarios import load_scenarios
from jiyi.eval.split import check_split, conversations_of, scenario_in


@pytest.mark.parametrize("count", [1, 2, 3, 5, 10])
def test_conversation_parts_are_disjoint_and_cover_the_file(count: int) -> None:
    tune, check = conversations_of("tune", count), conversations_of("check", count)
    assert sorted(tune + check) == list(range(count))
    assert not set(tune) & set(check)
    if count > 1:
        assert check and tune and max(tune) < min(check)


def test_the_dev_files_split_as_documented() -> None:
    assert conversations_of("check", 3) == [2] and conversations_of("tune", 5) == [0, 1, 2]


def test_every_dev_scenario_is_in_exactly_one_part_and_check_holds_every_category() -> None:
    dev = load_scenarios("dev")
    check = [s for s in dev.scenarios if scenario_in("check", s.id)]
    tune = [s for s in dev.scenarios if scenario_in("tune", s.id)]
    assert len(check) + len(tune) == len(dev.scenarios) and check and tune
    all_categories = {p.category for s in dev.scenarios for p in s.probes}
    assert {p.category for s in check for p in s.probes} == all_categories


def test_an_unknown_split_is_refused() -> None:
    with pytest.raises(InvalidInput, match="tune, check"):
        check_split("train")


def test_cli_refuses_split_with_conversations(tmp_path: Path) -> None:
    data = tmp_path / "d.json"
    data.write_text(json.dumps([]), encoding="utf-8")
    result = CliRunner().invoke(cli, ["--home", str(tmp_path), "eval", "--data", str(data), "--split", "check", "--conversations", "0"])
    assert result.exit_code != 0 and "not both" in result.output
