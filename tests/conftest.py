"""Shared fixtures: a frozen clock, a fresh Memory on a temp SQLite file with the real model."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from datetime import datetime, timezone
from pathlib import Path

import pytest
from fake_openai import FakeOpenAI  # tests/ is on sys.path (pytest pythonpath)

from jiyi.clock import FrozenClock
from jiyi.memory import Memory

T0 = datetime(2025, 3, 5, 9, 0, tzinfo=timezone.utc)  # a Wednesday

# Scheduled gc off for the suite (servers and workers of tests run on test data and frozen clocks);
# tests/maintain/test_schedule.py turns it on where it is the subject.
os.environ.setdefault("JIYI_GC_INTERVAL_HOURS", "0")


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


@pytest.fixture
def fake_openai() -> Iterator[FakeOpenAI]:
    """A real local OpenAI-compatible server with scripted replies (tests/fake_openai.py)."""
    with FakeOpenAI() as server:
        yield server


@pytest.fixture
def llm_settings(fake_openai: FakeOpenAI) -> dict[str, object]:
    """Memory settings pointing the LLM at ``fake_openai`` (one retry, 0.5 s timeout)."""
    return {"llm_base_url": fake_openai.base_url, "llm_model": "fake-model", "llm_api_key": "sk-test",
            "llm_timeout": 0.5, "llm_max_retries": 1}


@pytest.fixture
def llm_memory(make_memory: Callable[..., Memory], llm_settings: dict[str, object]) -> Callable[..., Memory]:
    """A factory of Memory objects whose LLM is ``fake_openai`` (keyword arguments override settings)."""

    def make(**config: object) -> Memory:
        return make_memory(**{**llm_settings, **config})

    return make
