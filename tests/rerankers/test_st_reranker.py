"""The sentence-transformers reranker: loading and its errors (scoring needs the `st` extra and a model)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from jiyi import registry
from jiyi.config import Settings
from jiyi.errors import ConfigError, MissingDependency
from jiyi.rerankers.sentence_transformers import CrossEncoderReranker

HAVE_ST = importlib.util.find_spec("sentence_transformers") is not None


@pytest.mark.skipif(HAVE_ST, reason="sentence-transformers is installed; this checks the message without it")
@pytest.mark.parametrize("name", ["sentence-transformers", "st", "cross-encoder"])
def test_without_the_extra_the_error_says_what_to_install(name: str) -> None:
    with pytest.raises(MissingDependency, match=r"reranker needs .*pip install 'jiyi\[st\]'"):
        registry.create("reranker", name, Settings(reranker=name))


@pytest.mark.skipif(not HAVE_ST, reason="sentence-transformers is not installed (pip install 'jiyi[st]')")
def test_a_missing_local_model_is_a_config_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="JIYI_RERANKER_MODEL"):
        CrossEncoderReranker(str(tmp_path / "no-such-model"))
