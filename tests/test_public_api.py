"""The public surface: __all__, AsyncMemory parity, errors."""

from __future__ import annotations

import asyncio
import inspect
from pathlib import Path

import jiyi
from jiyi import AsyncMemory, Memory
from jiyi.aio import ASYNC_METHODS


def test_all_names_exist() -> None:
    for name in jiyi.__all__:
        assert hasattr(jiyi, name), name


def test_async_mirrors_every_public_memory_method() -> None:
    public = {n for n, v in inspect.getmembers(Memory, inspect.isfunction) if not n.startswith("_")}
    mirrored = set(ASYNC_METHODS) | {"export", "close"}
    assert public - {"forget"} <= mirrored, public - mirrored


def test_async_memory_round_trip(tmp_path: Path) -> None:
    async def run() -> list[str]:
        async with AsyncMemory(path=tmp_path / "a.db", home=tmp_path, background_worker=False) as mem:
            await mem.add("我喜欢吃川菜", user_id="u1", sync=True)
            hits = await mem.search("喜欢什么菜", user_id="u1")
            rows = await mem.export(user_id="u1")
            assert rows
            return [h.content for h in hits]

    assert any("川菜" in c for c in asyncio.run(run()))
