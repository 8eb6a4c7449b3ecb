"""jieba wrapper: lazy, quiet, with a user-dictionary hook that works before initialisation."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from jiyi.text import zh


def test_importing_jiyi_does_not_load_jieba() -> None:
    code = "import sys, jiyi.text.zh, jiyi.text.tokens; print('jieba' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_first_use_is_quiet() -> None:
    code = "from jiyi.text import zh; zh.cut('我住在上海')"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stderr == ""


def test_words_added_before_initialisation_are_applied(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(zh, "_ready", False)
    monkeypatch.setattr(zh, "_pending_words", [])
    zh.add_words(["甲乙记忆引擎"])
    assert zh._pending_words == [("甲乙记忆引擎", None, None)]
    assert "甲乙记忆引擎" in zh.cut("我在用甲乙记忆引擎")
    assert zh._pending_words == []


def test_user_dictionary_file(tmp_path: Path) -> None:
    path = tmp_path / "dict.txt"
    path.write_text("丙丁芝麻糊猫 10 nz\n", encoding="utf-8")
    zh.load_userdict(path)
    assert "丙丁芝麻糊猫" in zh.cut("我家的丙丁芝麻糊猫很胖")
    assert ("丙丁芝麻糊猫", "nz") in zh.pos_tags("丙丁芝麻糊猫很胖")


def test_search_mode_and_pos_tags() -> None:
    assert "共和国" in zh.cut_for_search("中华人民共和国")
    assert ("上海", "ns") in zh.pos_tags("我住在上海")


def test_in_dictionary() -> None:
    assert zh.in_dictionary("花生") and not zh.in_dictionary("苏琳")
