"""MCP server: jiyi's memory as tools for MCP clients (``jiyi mcp``; needs ``jiyi[mcp]``)."""

from jiyi.mcp.server import MemoryTools, build_server, serve

__all__ = ["MemoryTools", "build_server", "serve"]
