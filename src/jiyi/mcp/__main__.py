"""``python -m jiyi.mcp``: the stdio server, configured from JIYI_* variables only.

Same as ``jiyi mcp``; the pinned user comes from ``JIYI_MCP_USER``, the default user from
``JIYI_MCP_DEFAULT_USER``.
"""

from __future__ import annotations

import os

from jiyi.mcp.server import serve
from jiyi.memory import Memory


def main() -> None:
    with Memory() as memory:
        serve(memory, transport="stdio", default_user=os.environ.get("JIYI_MCP_DEFAULT_USER") or None,
              user=os.environ.get("JIYI_MCP_USER") or None)


if __name__ == "__main__":
    main()
