"""jiyi (记忆): long-term memory for LLM chatbots and agents. Chinese first, offline by default.

Names are imported lazily (PEP 562): ``import jiyi`` is cheap and has no side effects;
the engine, the model and the store load when first used.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from jiyi.aio import AsyncMemory
    from jiyi.errors import (ConfigError, EmbeddingMismatch, InvalidInput, JiyiError, MissingDependency, NotFound,
                             ProviderBadOutput, ProviderError, ProviderUnavailable, ScopeViolation, StoreError)
    from jiyi.memory import Memory
    from jiyi.records import (AddResult, EventType, GcReport, Hit, HistoryEvent, Kind, MemoryRecord, Status,
                              Visibility, WriteEvent)

__version__ = "0.2.0"

_LOCATIONS = {
    "Memory": "jiyi.memory",
    "AsyncMemory": "jiyi.aio",
    **{name: "jiyi.errors" for name in (
        "ConfigError", "EmbeddingMismatch", "InvalidInput", "JiyiError", "MissingDependency", "NotFound",
        "ProviderBadOutput", "ProviderError", "ProviderUnavailable", "ScopeViolation", "StoreError")},
    **{name: "jiyi.records" for name in (
        "AddResult", "EventType", "GcReport", "Hit", "HistoryEvent", "Kind", "MemoryRecord", "Status",
        "Visibility", "WriteEvent")},
}
__all__ = sorted([*_LOCATIONS, "__version__"])


def __getattr__(name: str) -> Any:
    module = _LOCATIONS.get(name)
    if module is None:
        raise AttributeError(f"module 'jiyi' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return __all__
