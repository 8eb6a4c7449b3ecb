"""Pack the AstrBot plugin as the zip AstrBot's dashboard uploads (插件 → 安装 → 从文件安装).

AstrBot reads ``metadata.yaml`` from the archive's single top folder (or its root), installs
the folder as ``data/plugins/<name from metadata.yaml>`` and then its ``requirements.txt``.
The zip holds one top folder, ``astrbot_plugin_jiyi/``, with the plugin's files only (its
tests, test scripts and caches stay out).

    python -m jiyi.integrations.astrbot_zip [--plugin-dir DIR] [--out dist/]
"""

from __future__ import annotations

import argparse
import zipfile
from collections.abc import Iterator
from pathlib import Path

PLUGIN = "astrbot_plugin_jiyi"
LEFT_OUT_DIRS = frozenset({"tests", "__pycache__", ".pytest_cache", ".mypy_cache", ".ruff_cache"})
LEFT_OUT_FILES = frozenset({"run_tests.sh", "venv.sh"})


class PluginFolderNotFound(FileNotFoundError):
    """The plugin folder is not where it was looked for."""


def default_plugin_dir() -> Path:
    """``integrations/astrbot_plugin_jiyi`` of the jiyi checkout this module runs from."""
    return Path(__file__).resolve().parents[3] / "integrations" / PLUGIN


def plugin_files(plugin_dir: Path) -> Iterator[Path]:
    """The files that go into the zip, sorted (the same folder gives the same zip listing)."""
    for path in sorted(plugin_dir.rglob("*")):
        rel = path.relative_to(plugin_dir)
        if path.is_dir() or LEFT_OUT_DIRS.intersection(rel.parts) or rel.name in LEFT_OUT_FILES:
            continue
        if rel.suffix in {".pyc", ".pyo"} or rel.name.startswith("."):
            continue
        yield path


def build_plugin_zip(out_dir: Path, plugin_dir: Path | None = None) -> Path:
    """Write ``<out_dir>/astrbot_plugin_jiyi-<version>.zip``; returns its path."""
    plugin_dir = (plugin_dir or default_plugin_dir()).resolve()
    if not (plugin_dir / "metadata.yaml").is_file():
        raise PluginFolderNotFound(f"no AstrBot plugin (metadata.yaml) in {plugin_dir}; "
                                   "pass --plugin-dir integrations/astrbot_plugin_jiyi of a jiyi checkout")
    version = _metadata_field(plugin_dir / "metadata.yaml", "version") or "0"
    out_dir.mkdir(parents=True, exist_ok=True)
    target = out_dir / f"{PLUGIN}-{version}.zip"
    with zipfile.ZipFile(target, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        for path in plugin_files(plugin_dir):
            zf.write(path, f"{PLUGIN}/{path.relative_to(plugin_dir).as_posix()}")
    return target


def _metadata_field(path: Path, key: str) -> str:
    """One top-level ``key: value`` of a flat YAML file (no YAML parser needed for it)."""
    for line in path.read_text("utf-8").splitlines():
        name, sep, value = line.partition(":")
        if sep and name.strip() == key:
            return value.strip().strip("'\"")
    return ""


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m jiyi.integrations.astrbot_zip", description=__doc__.split("\n")[0])
    parser.add_argument("--plugin-dir", type=Path, default=None, help="the plugin folder (default: this checkout's)")
    parser.add_argument("--out", type=Path, default=Path("dist"), help="output folder (default: dist)")
    args = parser.parse_args(argv)
    try:
        print(build_plugin_zip(args.out, args.plugin_dir))
    except PluginFolderNotFound as exc:
        parser.exit(1, f"error: {exc}\n")


if __name__ == "__main__":
    main()
