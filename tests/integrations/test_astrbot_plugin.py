"""Runs the AstrBot plugin's own suite in its Python ≥ 3.12 virtualenv (AstrBot needs 3.12).

jiyi supports 3.10+, so the plugin tests cannot run in this interpreter; the script builds
~/.cache/jiyi/astrbot-<version>-venv on first use (venv.sh, minutes) and runs them against real
AstrBot event objects.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

#: one AstrBot virtualenv is shared (~/.cache/jiyi): its tests run in one worker under pytest-xdist
pytestmark = pytest.mark.xdist_group("astrbot")

SCRIPT = Path(__file__).resolve().parents[2] / "integrations" / "astrbot_plugin_jiyi" / "run_tests.sh"


@pytest.mark.timeout(2400)
def test_astrbot_plugin_suite_passes() -> None:
    proc = subprocess.run(check=False, args=["bash", str(SCRIPT)], capture_output=True, text=True, timeout=2400)
    tail = (proc.stdout + proc.stderr)[-3000:]
    assert proc.returncode == 0, tail
    assert " passed" in proc.stdout and " failed" not in proc.stdout, tail
