"""Options of the PostgreSQL store, carried in its URI as ``jiyi_*`` query parameters.

``JIYI_STORE`` is one string, so the store's own knobs ride in it and are removed
before the URI reaches libpq (which rejects unknown parameters):
``postgresql:///jiyi?host=/run/postgresql&jiyi_vector=halfvec&jiyi_pool_max=20``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qsl, quote, urlencode, urlsplit

from jiyi.errors import InvalidInput

#: vector search stays exact (and exactly like SQLite's) up to this many memories per user
EXACT_LIMIT = 20_000
_KNOWN = {
    "vector": "vector_type",
    "pool_min": "pool_min",
    "pool_max": "pool_max",
    "exact_limit": "exact_limit",
    "connect_timeout": "connect_timeout",
}


@dataclass(slots=True, frozen=True)
class PostgresOptions:
    """Store options, given as ``jiyi_*`` query parameters of the URI."""

    vector_type: str = "vector"
    pool_min: int = 1
    pool_max: int = 10
    exact_limit: int = EXACT_LIMIT
    connect_timeout: float = 5.0  # seconds to connect, and a request waits for a pooled connection

    @classmethod
    def split_uri(cls, uri: str) -> tuple[str, PostgresOptions]:
        """``uri`` without its ``jiyi_*`` parameters, and the options they set."""
        parts = urlsplit(uri)
        pairs = parse_qsl(parts.query, keep_blank_values=True)
        ours = {k[len("jiyi_") :]: v for k, v in pairs if k.startswith("jiyi_")}
        if not ours:
            return uri, cls()
        unknown = set(ours) - set(_KNOWN)
        if unknown:
            raise InvalidInput(
                f"unknown store option(s) {', '.join(sorted('jiyi_' + u for u in unknown))}; "
                f"known: {', '.join('jiyi_' + k for k in _KNOWN)}"
            )
        kw: dict[str, Any] = {}
        for key, value in ours.items():
            field = _KNOWN[key]
            try:
                kw[field] = (
                    value
                    if field == "vector_type"
                    else (float if "timeout" in field else int)(value)
                )
            except ValueError:
                raise InvalidInput(f"store option jiyi_{key}={value!r} is not a number") from None
        rest = urlencode([(k, v) for k, v in pairs if not k.startswith("jiyi_")], quote_via=quote)
        # split on "?" by hand: urlunsplit turns "postgresql:///db" (a unix-socket URI) into "postgresql:/db"
        base, _, _ = uri.partition("?")
        fragment = f"#{parts.fragment}" if parts.fragment else ""
        return (f"{base.split('#', 1)[0]}?{rest}" if rest else base.split("#", 1)[0]) + fragment, cls(**kw)


def redact(uri: str) -> str:
    """``uri`` with its password masked, for messages and logs (see :func:`jiyi.redact.redact`)."""
    from jiyi.redact import redact as redact_text

    return redact_text(uri)
