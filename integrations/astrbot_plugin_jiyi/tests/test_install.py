"""Without jiyi: the first import fails (AstrBot then installs requirements.txt); a later
process loads the plugin and ``/mem`` answers with the install command."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent

# Runs in a fresh interpreter: jiyi is made unimportable, then the plugin module is imported
# the way AstrBot's loader does (and again, as its dependency recovery does).
SCRIPT = r"""
import asyncio, sys
sys.path[:0] = [{integrations!r}, {tests!r}]
sys.modules["jiyi"] = None  # `import jiyi` raises ModuleNotFoundError(name="jiyi")
for attempt in (1, 2):
    try:
        import astrbot_plugin_jiyi.main
    except ModuleNotFoundError as exc:
        print("raised", attempt, exc.name)
    else:
        print("loaded", attempt)
        break
else:
    sys.exit(0)  # AstrBot would now install requirements.txt
from astrbot_harness import FakeContext, command, load_plugin, make_event, llm_turn

async def main():
    plugin = load_plugin(FakeContext(), {{}})
    await plugin.initialize()
    req = await llm_turn(make_event("我对花生过敏"), "好的")
    print("parts", len(req.extra_user_content_parts))
    for text in ("mem list", "mem remember 我对花生过敏"):
        print("answer", (await command(make_event(text)))[0].splitlines()[0])
    print("hint", (await command(make_event("mem stats")))[0])
    await plugin.terminate()

asyncio.run(main())
"""


def run_without_jiyi(root: Path) -> str:
    code = SCRIPT.format(integrations=str(HERE.parent.parent), tests=str(HERE))
    proc = subprocess.run(check=False, args=[sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                          env={**os.environ, "ASTRBOT_ROOT": str(root)})
    assert proc.returncode == 0, proc.stderr[-3000:]
    return proc.stdout


def printed(out: str) -> list[str]:
    """The script's own lines (AstrBot's logger writes to stdout too)."""
    return [line for line in out.splitlines() if line.split(" ")[0] in {"raised", "loaded", "parts", "answer"}]


def test_first_process_lets_astrbot_install_then_a_restart_answers_with_the_command(astrbot_root: Path) -> None:
    first = run_without_jiyi(astrbot_root)
    assert printed(first) == ["raised 1 jiyi", "raised 2 jiyi"]  # every import of this process
    marker = astrbot_root / "data" / "plugin_data" / "astrbot_plugin_jiyi" / "install-attempt"
    assert marker.is_file()

    second = run_without_jiyi(astrbot_root)  # a restart: another process id
    lines = printed(second)
    assert lines[0] == "loaded 1"
    assert "parts 0" in lines  # no recall, no exception
    answers = [line for line in lines if line.startswith("answer ")]
    assert len(answers) == 2 and all("没有安装 jiyi" in a for a in answers)
    assert f"{sys.executable} -m pip install jiyi>=0.2.0" in second
    assert "-m pip install /path/to/jiyi-0.2.0-py3-none-any.whl" in second


def test_importing_with_jiyi_clears_the_attempt(astrbot_root: Path) -> None:
    run_without_jiyi(astrbot_root)
    marker = astrbot_root / "data" / "plugin_data" / "astrbot_plugin_jiyi" / "install-attempt"
    assert marker.is_file()
    code = f"import sys; sys.path.insert(0, {str(HERE.parent.parent)!r}); import astrbot_plugin_jiyi.main as m; print(m.JIYI_MISSING)"
    proc = subprocess.run(check=False, args=[sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                          env={**os.environ, "ASTRBOT_ROOT": str(astrbot_root)})
    assert proc.stdout.strip().splitlines()[-1] == "False", proc.stderr[-2000:]
    assert not marker.exists()
