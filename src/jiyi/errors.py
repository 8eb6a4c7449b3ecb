"""The one exception tree of jiyi.

    JiyiError
    ├── ConfigError            bad or missing configuration
    ├── MissingDependency      an optional extra is not installed (message says what to pip install)
    ├── InvalidInput           (also ValueError) the caller passed something we refuse; nothing was written
    ├── NotFound               (also KeyError) no such memory for this user
    ├── ScopeViolation         a record or request crossed tenant/user boundaries
    ├── StoreError             the storage backend failed
    │   └── EmbeddingMismatch  the store holds vectors of another model or dimension
    └── ProviderError          an LLM / embedding endpoint failed
        ├── ProviderUnavailable  timeout, connection error, 5xx, 429 after retries
        └── ProviderBadOutput    the provider answered, but not in the shape we need
"""

from __future__ import annotations


class JiyiError(Exception):
    """Base of every error jiyi raises on purpose."""


class ConfigError(JiyiError):
    """Configuration is invalid or incomplete."""


class MissingDependency(JiyiError, ImportError):
    """An optional dependency is missing; the message names the extra to install."""

    def __init__(self, what: str, extra: str) -> None:
        super().__init__(f"{what} needs an optional dependency: pip install 'jiyi[{extra}]'")
        self.extra = extra


class InvalidInput(JiyiError, ValueError):
    """The input was rejected; nothing has been written."""


class NotFound(JiyiError, KeyError):
    """No such memory (or it belongs to someone else, which looks the same)."""

    def __str__(self) -> str:  # KeyError quotes its message; we don't want that
        return str(self.args[0]) if self.args else "not found"


class ScopeViolation(JiyiError):
    """A record or a request tried to cross tenant or user boundaries."""


class StoreError(JiyiError):
    """The storage backend failed."""


class WriteConflict(StoreError):
    """Another writer changed a record between this writer's read and its write; nothing was written.

    Raised by ``Store.apply`` for an :class:`~jiyi.stores.protocol.Upsert` whose ``expect``
    no longer matches: read the record again and redo the change.
    """


class EmbeddingMismatch(StoreError):
    """The store was built with another embedding model or dimension."""


class ProviderError(JiyiError):
    """An external model provider (LLM, embeddings) failed."""


class ProviderUnavailable(ProviderError):
    """The provider could not be reached or kept failing after retries."""


class ProviderBadOutput(ProviderError):
    """The provider answered with something we cannot use."""
