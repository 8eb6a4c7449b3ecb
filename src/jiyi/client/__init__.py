"""A client for ``jiyi serve`` with the same methods as ``Memory``: switch by changing one line.

    mem = Memory()                                               # embedded
    mem = JiyiClient("http://127.0.0.1:8765", api_key="jiyi_…")  # service

Results are the record types ``Memory`` returns (``MemoryRecord``, ``Hit``,
``AddResult``, ``HistoryEvent``, ``GcReport``) and errors the exception classes it
raises (``InvalidInput``, ``NotFound`` …, each also carrying ``.status`` and ``.code``
of the HTTP answer). Errors only a service has are :class:`ServiceError` subclasses.
``AsyncJiyiClient`` mirrors ``AsyncMemory``. Needs httpx (``pip install 'jiyi[server]'``).
"""

from __future__ import annotations

from jiyi.client.clients import AsyncJiyiClient, JiyiClient
from jiyi.client.errors import AuthError, RateLimited, ServiceError, ServiceUnavailable

__all__ = ["AsyncJiyiClient", "AuthError", "JiyiClient", "RateLimited", "ServiceError", "ServiceUnavailable"]
