"""``AsyncMemory``: the same API as ``Memory``, awaitable. The core is written once (sync);
each call runs on a worker thread so the event loop never blocks on SQLite or the model.
"""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Callable
from pathlib import Path
from types import TracebackType
from typing import Any, TypeVar

from jiyi.memory import Memory

T = TypeVar("T")

#: Methods mirrored from Memory; ``tests/test_async_parity.py`` checks none is missing.
ASYNC_METHODS = ("add", "end_session", "flush", "remember", "search", "build_context", "get", "get_all",
                 "update", "delete", "purge", "restore", "delete_all", "history", "gc", "import_", "users", "stats",
                 "recent_messages", "clear_buffer", "failed_jobs", "retry_failed", "drop_failed")


class AsyncMemory:
    """Async facade over :class:`Memory` (``await mem.search(...)``)."""

    def __init__(self, path: str | Path | None = None, **config: Any) -> None:
        self.sync = Memory(path, **config)

    async def _call(self, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        return await asyncio.to_thread(functools.partial(fn, *args, **kwargs))

    def __getattr__(self, name: str) -> Any:
        if name not in ASYNC_METHODS:
            raise AttributeError(name)
        fn = getattr(self.sync, name)

        @functools.wraps(fn)
        async def call(*args: Any, **kwargs: Any) -> Any:
            return await self._call(fn, *args, **kwargs)

        return call

    async def export(self, *, user_id: str) -> list[dict[str, Any]]:
        """All of a user's records (materialised: an iterator cannot cross threads lazily)."""
        return await self._call(lambda: list(self.sync.export(user_id=user_id)))

    async def close(self) -> None:
        await self._call(self.sync.close)

    async def __aenter__(self) -> AsyncMemory:
        return self

    async def __aexit__(self, t: type[BaseException] | None, e: BaseException | None,
                        tb: TracebackType | None) -> None:
        await self.close()
