"""The web panel (``/ui``): people see, search, fix and delete what is remembered about them.

Server-rendered (Jinja2) over the same per-tenant ``Memory`` objects as the REST API;
htmx and cytoscape.js are vendored in ``static/`` (no build step, no network). See
docs/web.md.
"""

from __future__ import annotations

from jiyi.web.routes import build_router
from jiyi.web.signing import SecretFile

__all__ = ["SecretFile", "build_router"]
