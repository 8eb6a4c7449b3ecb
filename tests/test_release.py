"""A release a user can install: wheel and sdist build, pass ``twine check``, and the wheel
installs into a clean virtualenv where ``jiyi demo`` runs.

``JIYI_DEMO_OUTPUT=path`` keeps the demo's output. The virtualenv is new on every run (only
pip's download cache is shared), so nothing from this checkout leaks into it.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tarfile
import venv
import zipfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]


def run(cmd: list[str], *, cwd: Path | None = None, timeout: float = 900) -> str:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("JIYI_", "PYTHONPATH", "VIRTUAL_ENV"))}
    proc = subprocess.run(check=False, args=cmd, cwd=cwd, env={**env, "PYTHONIOENCODING": "utf-8", "COLUMNS": "100"},
                          capture_output=True, text=True, timeout=timeout)
    assert proc.returncode == 0, f"{cmd}:\n{proc.stdout[-2000:]}\n{proc.stderr[-3000:]}"
    return proc.stdout


@pytest.fixture(scope="module")
def dist(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("dist")
    run([sys.executable, "-m", "build", "--wheel", "--sdist", "--outdir", str(out), str(REPO)])
    return out


def project_version() -> str:
    match = re.search(r'^version = "([^"]+)"', (REPO / "pyproject.toml").read_text("utf-8"), re.MULTILINE)
    assert match
    return match.group(1)


def test_wheel_and_sdist_pass_twine_check(dist: Path) -> None:
    version = project_version()
    wheel = dist / f"jiyi-{version}-py3-none-any.whl"
    sdist = dist / f"jiyi-{version}.tar.gz"
    assert wheel.is_file() and sdist.is_file(), sorted(p.name for p in dist.iterdir())
    out = run([sys.executable, "-m", "twine", "check", "--strict", str(wheel), str(sdist)])
    assert out.count("PASSED") == 2, out
    names = zipfile.ZipFile(wheel).namelist()
    assert "jiyi/__init__.py" in names and "jiyi/py.typed" in names
    assert not [n for n in names if n.startswith(("tests/", "integrations/"))]
    with tarfile.open(sdist) as tar:
        members = tar.getnames()
    assert f"jiyi-{version}/pyproject.toml" in members and f"jiyi-{version}/README.md" in members


def test_the_wheel_installs_in_a_clean_venv_and_runs_the_demo(dist: Path, tmp_path: Path) -> None:
    version = project_version()
    env_dir = tmp_path / "venv"
    venv.create(env_dir, with_pip=True)
    py = env_dir / "bin" / "python"
    run([str(py), "-m", "pip", "install", "-q", str(dist / f"jiyi-{version}-py3-none-any.whl")], cwd=tmp_path)
    assert run([str(py), "-c", "import jiyi; print(jiyi.__version__, jiyi.__file__)"], cwd=tmp_path).startswith(
        f"{version} {env_dir}")
    out = run([str(env_dir / "bin" / "jiyi"), "demo"], cwd=tmp_path, timeout=600)
    if os.environ.get("JIYI_DEMO_OUTPUT"):
        Path(os.environ["JIYI_DEMO_OUTPUT"]).write_text(out, "utf-8")
    assert "杭州" in out and "花生" in out  # the move and the allergy are recalled
    assert "<memories>" in out  # the context block is rendered
