"""The documented provider presets."""

from __future__ import annotations

import pytest

from jiyi.llms.presets import PRESETS, resolve_base_url


@pytest.mark.parametrize(
    "name", ["openai", "deepseek", "dashscope", "qwen", "siliconflow", "ollama", "vllm"]
)
def test_every_documented_provider_has_a_preset(name: str) -> None:
    preset = PRESETS[name]
    assert preset.base_url.startswith(("https://", "http://localhost"))
    assert preset.base_url.endswith("/v1")
    assert preset.chat_models
    assert preset.needs_key == preset.base_url.startswith("https://")


def test_resolve_base_url() -> None:
    assert resolve_base_url("DeepSeek") == "https://api.deepseek.com/v1"
    assert resolve_base_url("ollama") == "http://localhost:11434/v1"
    assert resolve_base_url("http://10.0.0.1:8000/v1") == "http://10.0.0.1:8000/v1"
