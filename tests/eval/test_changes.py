"""The change-pair harness (`jiyi eval --changes`): file checks, the tally, the report, the CLI.

The engine part asks only what any working jiyi guarantees: a slot given a new value supersedes
the old one (the phone number), and a remark about the weather closes nothing.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from jiyi.cli import cli
from jiyi.errors import InvalidInput
from jiyi.eval.changes import BUNDLED, Pair, Tally, load_pairs, run_pairs


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "pairs.tsv"
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize("text", [
    "2\tpet\ta\tb\n",  # a label other than 0 or 1
    "1\tpet\ta\n",  # three fields
    "1\tpet\t \tb\n",  # an empty statement
    "# only a comment\n",  # no pairs
])
def test_a_malformed_file_is_refused_naming_the_line(tmp_path: Path, text: str) -> None:
    with pytest.raises(InvalidInput, match="pairs.tsv"):
        load_pairs(write(tmp_path, text))


def test_the_bundled_files_load() -> None:
    sizes = {name: load_pairs(name)[1] for name in BUNDLED}
    assert len(sizes["written.tsv"]) == 78 and len(sizes["blind.tsv"]) == 655
    for pairs in sizes.values():
        assert {p.label for p in pairs} == {0, 1}


def test_the_tally_counts_each_outcome() -> None:
    t = Tally()
    for label, closed in [(1, True), (1, False), (1, True), (0, True), (0, False)]:
        t.add(label, closed)
    assert (t.found, t.missed, t.wrong, t.kept) == (2, 1, 1, 1)
    assert "2/3" in t.row("x") and "1/2" in t.row("x")


def test_a_replaced_value_closes_and_small_talk_does_not() -> None:
    pairs = [Pair(1, "phone", "我的手机号是13855501234", "我的手机号是15011112222"),
             Pair(0, "residence", "我住在洛阳", "今天天气真不错")]
    report = run_pairs("mini", pairs)
    assert (report.total.found, report.total.wrong, report.total.kept) == (1, 0, 1)
    assert report.by_family["phone"].found == 1 and not report.misses and not report.wrong


def test_the_cli_prints_the_table(tmp_path: Path) -> None:
    path = write(tmp_path, "0\tresidence\t我住在洛阳\t今天天气真不错\n")
    result = CliRunner().invoke(cli, ["eval", "--changes", str(path)])
    assert result.exit_code == 0, result.output
    assert "residence" in result.output and "0/1" in result.output
    both = CliRunner().invoke(cli, ["eval", "--changes", str(path), "--scenarios", "dev"])
    assert both.exit_code != 0
