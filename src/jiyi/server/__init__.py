"""The HTTP service (``jiyi serve``): FastAPI over ``Memory``, API keys mapped to tenants.

Needs the ``server`` extra: ``pip install 'jiyi[server]'``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from jiyi.server.app import ServerOptions, create_app

__all__ = ["ServerOptions", "create_app"]


def __getattr__(name: str) -> Any:
    if name in __all__:
        from jiyi.server import app

        return getattr(app, name)
    raise AttributeError(f"module 'jiyi.server' has no attribute {name!r}")
