"""OpenAI-compatible chat proxy that adds jiyi memory to any client (``jiyi proxy``; needs ``jiyi[server]``)."""

from jiyi.proxy.app import MemoryProxy, ProxyOptions, create_app, serve
from jiyi.proxy.forward import StreamText, Upstream

__all__ = ["MemoryProxy", "ProxyOptions", "StreamText", "Upstream", "create_app", "serve"]
