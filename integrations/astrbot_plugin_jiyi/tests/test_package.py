"""The plugin folder is what AstrBot's loader expects."""

from __future__ import annotations

import json
from importlib.metadata import version
from pathlib import Path

import yaml
from packaging.specifiers import SpecifierSet

ROOT = Path(__file__).resolve().parents[1]


def test_metadata_loads_for_this_astrbot() -> None:
    meta = yaml.safe_load((ROOT / "metadata.yaml").read_text("utf-8"))
    assert all(isinstance(meta.get(k), str) and meta[k] for k in ("name", "desc", "version", "author"))
    assert meta["name"] == ROOT.name
    assert version("astrbot") in SpecifierSet(meta["astrbot_version"])
    assert "4.24.0" not in SpecifierSet(meta["astrbot_version"])  # mark_as_temp needs 4.24.1


def test_config_schema_and_requirements() -> None:
    schema = json.loads((ROOT / "_conf_schema.json").read_text("utf-8"))
    allowed = {"string", "text", "int", "float", "bool", "object", "list", "dict", "template_list", "file"}
    for key, item in schema.items():
        assert item["type"] in allowed, key
        if "options" in item:
            assert item["default"] in item["options"], key
    main = (ROOT / "main.py").read_text("utf-8")
    for key in ("scope", "injection", "top_k", "budget_tokens", "recall_timeout", "embedding", "extractor"):
        assert key in schema and f'"{key}"' in main
    assert (ROOT / "requirements.txt").read_text("utf-8").split()[0].startswith("jiyi")


def test_the_upload_zip_extracts_as_astrbot_installs_it(tmp_path: Path) -> None:
    """``python -m jiyi.integrations.astrbot_zip``, then AstrBot's own archive check and extraction."""
    import subprocess
    import sys

    from astrbot.core.star.star_manager import PluginManager
    from astrbot.core.star.updater import _PluginUpdater

    proc = subprocess.run(check=False, args=[sys.executable, "-m", "jiyi.integrations.astrbot_zip",
                                             "--plugin-dir", str(ROOT), "--out", str(tmp_path / "dist")],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    archive = Path(proc.stdout.strip())
    meta = yaml.safe_load((ROOT / "metadata.yaml").read_text("utf-8"))
    assert archive.name == f"astrbot_plugin_jiyi-{meta['version']}.zip"
    assert _PluginUpdater.inspect_plugin_archive(str(archive))["metadata"]["name"] == "astrbot_plugin_jiyi"
    target = tmp_path / "plugins" / "plugin_upload_x"
    _PluginUpdater.__new__(_PluginUpdater)._extract_plugin_archive(str(archive), str(target))
    assert PluginManager._get_plugin_dir_name_from_metadata(str(target)) == "astrbot_plugin_jiyi"
    shipped = {p.relative_to(target).as_posix() for p in target.rglob("*") if p.is_file()}
    expected = {p.relative_to(ROOT).as_posix() for p in [*ROOT.glob("*"), *ROOT.glob("pages/*/*")]
                if p.is_file() and p.suffix != ".sh"}
    assert "pages/memories/index.html" in expected
    assert shipped == expected  # every plugin file and the dashboard page, under the plugin folder; no tests, no scripts
