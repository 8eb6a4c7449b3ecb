"""Shared fixtures: a frozen clock, a fresh Memory on a temp SQLite file with the real model."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime, timezone
from pathlib import Path

import pytest

from jiyi.clock import FrozenClock
from jiyi.memory import Memory

T0 = datetime(2025, 3, 5, 9, 0, tzinfo=timezone.utc)  # a Wednesday


@pytest.fixture
def clock() -> FrozenClock:
    return FrozenClock(T0)


@pytest.fixture
def make_memory(tmp_path: Path, clock: FrozenClock) -> Iterator[object]:
    """Factory for Memory instances on one temp file; all closed at teardown."""
    opened: list[Memory] = []

    def make(**config: object) -> Memory:
        config.setdefault("path", tmp_path / "jiyi.db")
        config.setdefault("home", tmp_path)
        config.setdefault("background_worker", False)
        mem = Memory(clock=clock, **config)  # type: ignore[arg-type]
        opened.append(mem)
        return mem

    yield make
    for mem in opened:
        mem.close()


@pytest.fixture
def mem(make_memory: object) -> Memory:
    return make_memory()  # type: ignore[operator]
