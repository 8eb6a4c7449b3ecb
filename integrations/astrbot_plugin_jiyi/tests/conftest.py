"""Plugin tests run in the Python 3.12 venv with the real ``astrbot`` package (run_tests.sh)."""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent))  # integrations/, so the plugin imports as a package
sys.path.insert(0, str(HERE))  # for astrbot_harness
os.environ.setdefault("ASTRBOT_ROOT", tempfile.mkdtemp(prefix="astrbot-root-"))  # before astrbot is imported


@pytest.fixture(autouse=True)
def astrbot_root(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Each test gets its own AstrBot data dir (and so its own plugin_data/…/jiyi.db)."""
    monkeypatch.setenv("ASTRBOT_ROOT", str(tmp_path))
    for key in list(os.environ):
        if key.startswith("JIYI_"):
            monkeypatch.delenv(key)
    return tmp_path
