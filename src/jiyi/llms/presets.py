"""Known OpenAI-compatible providers: where they live and which models people use.

jiyi has one client for all of them (:mod:`jiyi.llms.openai_compat`); a preset is only
documentation plus a shortcut: ``JIYI_LLM_BASE_URL=deepseek`` means the DeepSeek URL.
The model is always yours to choose (``JIYI_LLM_MODEL``); the lists below are typical
choices, not a whitelist. Examples::

    # OpenAI
    JIYI_EXTRACTOR=llm JIYI_LLM_BASE_URL=https://api.openai.com/v1 \\
        JIYI_LLM_API_KEY=sk-... JIYI_LLM_MODEL=gpt-4o-mini
    # DeepSeek
    JIYI_LLM_BASE_URL=https://api.deepseek.com/v1 JIYI_LLM_MODEL=deepseek-chat
    # Qwen on Alibaba Cloud DashScope (mainland; international: dashscope-intl.aliyuncs.com)
    JIYI_LLM_BASE_URL=https://dashscope.aliyuncs.com/compatible-mode/v1 JIYI_LLM_MODEL=qwen-plus
    # SiliconFlow
    JIYI_LLM_BASE_URL=https://api.siliconflow.cn/v1 JIYI_LLM_MODEL=Qwen/Qwen2.5-7B-Instruct
    # Ollama on this machine (no key): `ollama pull qwen2.5:7b` first
    JIYI_LLM_BASE_URL=http://localhost:11434/v1 JIYI_LLM_MODEL=qwen2.5:7b
    # vLLM: `vllm serve Qwen/Qwen2.5-7B-Instruct` (add --api-key and set JIYI_LLM_API_KEY if you use one)
    JIYI_LLM_BASE_URL=http://localhost:8000/v1 JIYI_LLM_MODEL=Qwen/Qwen2.5-7B-Instruct

The same presets serve the ``openai`` embedder (``JIYI_EMBEDDER=openai``,
``JIYI_EMBEDDER_BASE_URL``, ``JIYI_EMBEDDER_MODEL``) for the providers that offer an
``/v1/embeddings`` endpoint.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(slots=True, frozen=True)
class Preset:
    """One provider: base URL, whether a key is needed, typical chat and embedding models."""

    name: str
    base_url: str
    needs_key: bool
    chat_models: tuple[str, ...]
    embedding_models: tuple[str, ...] = ()
    notes: str = ""


PRESETS: dict[str, Preset] = {
    "openai": Preset(
        "openai",
        "https://api.openai.com/v1",
        True,
        ("gpt-4o-mini", "gpt-4.1-mini", "gpt-4o"),
        ("text-embedding-3-small", "text-embedding-3-large"),
        "JSON mode supported; usage is reported on every call.",
    ),
    "deepseek": Preset(
        "deepseek",
        "https://api.deepseek.com/v1",
        True,
        ("deepseek-chat", "deepseek-reasoner"),
        (),
        "No embeddings endpoint: pair with the default e5 embedder. deepseek-chat is the better extractor.",
    ),
    "dashscope": Preset(
        "dashscope",
        "https://dashscope.aliyuncs.com/compatible-mode/v1",
        True,
        ("qwen-plus", "qwen-turbo", "qwen-max"),
        ("text-embedding-v3",),
        "Qwen on Alibaba Cloud; outside mainland China use https://dashscope-intl.aliyuncs.com/compatible-mode/v1.",
    ),
    "siliconflow": Preset(
        "siliconflow",
        "https://api.siliconflow.cn/v1",
        True,
        ("Qwen/Qwen2.5-7B-Instruct", "deepseek-ai/DeepSeek-V3", "Qwen/Qwen2.5-72B-Instruct"),
        ("BAAI/bge-m3",),
        "Many open models behind one key; model names are the Hugging Face ids.",
    ),
    "ollama": Preset(
        "ollama",
        "http://localhost:11434/v1",
        False,
        ("qwen2.5:7b", "qwen2.5:3b", "llama3.1:8b"),
        ("bge-m3", "nomic-embed-text"),
        "Local, no key. Pull the model first (ollama pull qwen2.5:7b). Small models extract less well.",
    ),
    "vllm": Preset(
        "vllm",
        "http://localhost:8000/v1",
        False,
        ("Qwen/Qwen2.5-7B-Instruct",),
        (),
        "Self-hosted; the model is whatever `vllm serve` loaded. A key only if started with --api-key.",
    ),
}
PRESETS["qwen"] = PRESETS["dashscope"]


def resolve_base_url(value: str) -> str:
    """A preset name (``deepseek``, ``qwen``…) becomes its base URL; a URL is returned unchanged."""
    preset = PRESETS.get(value.strip().lower())
    return preset.base_url if preset else value
