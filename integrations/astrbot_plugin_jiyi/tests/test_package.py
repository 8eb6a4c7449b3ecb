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
