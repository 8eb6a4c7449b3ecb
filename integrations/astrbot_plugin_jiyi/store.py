"""The plugin's jiyi ``Memory``: built lazily from the plugin config, called off the event loop.

The store lives in ``data/plugin_data/astrbot_plugin_jiyi/`` (never in the plugin folder,
which updates replace), or wherever ``store`` points (a .db path or a postgres:// URI).
"""

from __future__ import annotations

import asyncio
import functools
import json
import os
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, TypeVar

from .providers import AstrBotEmbedder, AstrBotLLM, find_chat_provider_id, find_embedding_provider

T = TypeVar("T")
PLUGIN_NAME = "astrbot_plugin_jiyi"


def plugin_data_dir() -> Path:
    """``<AstrBot data>/plugin_data/astrbot_plugin_jiyi`` (honours ``ASTRBOT_ROOT``), created."""
    try:
        from astrbot.core.utils.astrbot_path import get_astrbot_data_path

        base = Path(get_astrbot_data_path())
    except ImportError:  # running outside AstrBot (tools, tests of the pure modules)
        base = Path(os.environ.get("ASTRBOT_ROOT", ".")) / "data"
    path = base / "plugin_data" / PLUGIN_NAME
    path.mkdir(parents=True, exist_ok=True)
    return path


class MemoryHolder:
    """Owns one ``jiyi.Memory``; ``run`` executes a Memory method on a worker thread."""

    def __init__(self, config: Mapping[str, Any], context: Any, data_dir: Path) -> None:
        self.config = config
        self.context = context
        self.data_dir = data_dir
        self._memory: Any = None
        self._building: asyncio.Future[Any] | None = None
        self.gc_schedule: Any = None  # jiyi's scheduled gc (expiry, the restore window's purge), with the Memory

    async def memory(self) -> Any:
        """The Memory, built on first use (AstrBot providers exist only after startup).

        The build is shielded: a caller that times out (a recall) does not cancel it, so the
        next caller gets the finished Memory; a failed build is retried by the next caller.
        """
        if self._memory is not None:
            return self._memory
        if self._building is None:
            loop = asyncio.get_running_loop()
            self._building = asyncio.ensure_future(asyncio.to_thread(self._build, loop))
        building = self._building
        try:
            self._memory = await asyncio.shield(building)
        except Exception:
            if self._building is building:
                self._building = None
            raise
        return self._memory

    def _build(self, loop: asyncio.AbstractEventLoop) -> Any:
        from jiyi.errors import EmbeddingMismatch
        from jiyi.memory import Memory
        from jiyi.text.tokens import warm

        try:
            memory = Memory(**self._kwargs(loop))
        except EmbeddingMismatch as exc:  # the CLI's advice does not apply inside AstrBot
            raise EmbeddingMismatch(f"{exc}. In AstrBot an admin sends /mem reembed confirm "
                                    "(管理员发送 /mem reembed confirm 用新模型重建向量)") from exc
        warm()  # jieba's dictionary (~0.5 s) with the build, not inside a later recall's time budget
        self.gc_schedule = _start_gc(memory)
        return memory

    async def reembed(self) -> Any:
        """Give every memory vectors of the configured embedder (after the admin switched models).

        The open Memory is closed first (its store holds the old model), and the next use
        builds a new one. Returns :class:`jiyi.maintain.reembed.ReembedReport`.
        """
        await self.close()
        self._building = None
        return await asyncio.to_thread(self._reembed, asyncio.get_running_loop())

    def _reembed(self, loop: asyncio.AbstractEventLoop) -> Any:
        from jiyi import registry
        from jiyi.config import load_settings
        from jiyi.maintain.reembed import reembed
        from jiyi.write.embed import CachedEmbedder

        kwargs = self._kwargs(loop)
        embedder = kwargs.pop("embedder", None)
        kwargs.pop("extractor", None)
        settings = load_settings(**kwargs)
        store = registry.create("store", settings.store_backend(), settings)
        try:
            embedder = embedder or registry.create("embedder", settings.embedder, settings)
            return reembed(store, CachedEmbedder(embedder, store), context_mode=settings.episode_context)
        finally:
            store.close()

    def _kwargs(self, loop: asyncio.AbstractEventLoop) -> dict[str, Any]:
        """``Memory`` arguments from the plugin config (AstrBot providers wrapped for jiyi)."""
        kwargs: dict[str, Any] = {"home": self.data_dir, "tenant": self.config.get("tenant") or "astrbot"}
        store = str(self.config.get("store") or "").strip()
        if store:
            kwargs["store"] = store
        else:
            kwargs["path"] = self.data_dir / "jiyi.db"
        if self.config.get("summary_every_rounds") is not None:
            kwargs["summary_every_rounds"] = int(self.config["summary_every_rounds"])
        if self.config.get("embedding") == "astrbot":
            provider = find_embedding_provider(self.context, str(self.config.get("embedding_provider_id") or ""))
            kwargs["embedder"] = AstrBotEmbedder(provider, loop)
        if self.config.get("extractor") == "astrbot":
            from jiyi.extractors.llm import LLMExtractor

            pid = find_chat_provider_id(self.context, str(self.config.get("llm_provider_id") or ""))
            kwargs["extractor"] = LLMExtractor(AstrBotLLM(self.context, pid, loop,
                                                          streaming=str(self.config.get("llm_streaming") or "auto")))
        if self.config.get("reranker") == "astrbot":
            from . import rerank

            rerank.register(self.context, loop, str(self.config.get("rerank_provider_id") or ""))
            kwargs["reranker"] = rerank.NAME
            kwargs["reranker_timeout"] = float(self.config.get("reranker_timeout") or 2.0)
            kwargs["reranker_candidates"] = int(self.config.get("reranker_candidates") or 30)
        return kwargs

    async def run(self, method: str, /, *args: Any, **kwargs: Any) -> Any:
        mem = await self.memory()
        fn: Callable[..., Any] = getattr(mem, method)
        return await asyncio.to_thread(functools.partial(fn, *args, **kwargs))

    async def close(self) -> None:
        if self._memory is None and self._building is not None:
            try:
                self._memory = await self._building
            except Exception:  # noqa: BLE001 - nothing was opened
                self._memory = None
        if self.gc_schedule is not None:
            schedule, self.gc_schedule = self.gc_schedule, None
            await asyncio.to_thread(schedule.stop)
        if self._memory is not None:
            mem, self._memory = self._memory, None
            await asyncio.to_thread(mem.close)


def _start_gc(memory: Any) -> Any:
    """gc on jiyi's schedule (``JIYI_GC_INTERVAL_HOURS``, default 6, 0 = off), so the documented
    7-day erasure holds in AstrBot without a cron job; None when off or with an older jiyi."""
    try:
        from jiyi.maintain.schedule import for_memory
    except ImportError:
        return None
    return for_memory(memory)


class SessionEpochs:
    """A counter per chat, bumped by ``/reset``: the jiyi session id after a reset is a new one,
    so the short-term window starts empty while long-term memories stay."""

    def __init__(self, path: Path) -> None:
        self.path = path
        try:
            self._data: dict[str, int] = json.loads(path.read_text("utf-8"))
        except (OSError, ValueError):
            self._data = {}

    def session_id(self, umo: str, conversation_id: str | None = None) -> str:
        base = conversation_id or umo
        n = self._data.get(umo, 0)
        return f"{base}#{n}" if n else base

    def bump(self, umo: str) -> int:
        self._data[umo] = self._data.get(umo, 0) + 1
        tmp = self.path.with_suffix(".tmp")
        tmp.write_text(json.dumps(self._data, ensure_ascii=False), "utf-8")
        tmp.replace(self.path)
        return self._data[umo]
