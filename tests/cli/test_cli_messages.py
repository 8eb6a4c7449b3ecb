"""Every command an error message tells the user to run exists (`jiyi --help` lists it)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from jiyi.cli import cli


def named_commands(text: str) -> list[list[str]]:
    """The `jiyi …` commands quoted in ``text``, as argument lists (options and placeholders dropped)."""
    return [[w for w in m.split()[1:] if not w.startswith(("-", "<", "$"))]
            for m in re.findall(r"`(jiyi [^`]+)`", text)]


def runs(words: list[str]) -> bool:
    return CliRunner().invoke(cli, [*words, "--help"]).exit_code == 0


def test_the_bad_key_error_names_a_real_command(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("JIYI_EMBEDDER", "hash")
    monkeypatch.setenv("JIYI_ENCRYPTION_KEY", "not-a-key")
    result = CliRunner().invoke(cli, ["--home", str(tmp_path), "list", "-u", "u1"])
    assert result.exit_code != 0 and "32 bytes" in result.output, result.output
    commands = named_commands(result.output)
    assert commands, result.output
    for words in commands:
        assert runs(words), f"`jiyi {' '.join(words)}` is not a command ({result.output.strip()})"


def test_a_made_up_command_is_caught() -> None:  # the check above can fail
    assert not runs(["keys", "new-encryption-key"])
