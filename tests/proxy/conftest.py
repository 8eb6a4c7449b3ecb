"""Fixtures: a fake OpenAI upstream, a Memory, and the proxy between them on a loopback port."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("uvicorn")

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests/, for `import fake_openai`
sys.path.insert(0, str(Path(__file__).resolve().parent))  # tests/proxy, for `import proxy_harness`

from fake_openai import FakeOpenAI
from proxy_harness import RunningProxy, serve_proxy

from jiyi.memory import Memory
from jiyi.proxy import ProxyOptions, create_app


@pytest.fixture
def upstream() -> Iterator[FakeOpenAI]:
    with FakeOpenAI() as server:
        yield server


@pytest.fixture
def proxy_memory(tmp_path: Path) -> Iterator[Memory]:
    with Memory(path=tmp_path / "jiyi.db", home=tmp_path, background_worker=False) as mem:
        yield mem


@pytest.fixture
def proxy(upstream: FakeOpenAI, proxy_memory: Memory) -> Iterator[RunningProxy]:
    app = create_app(proxy_memory, upstream.base_url, ProxyOptions(recall_timeout=20.0))
    for url in serve_proxy(app):
        yield RunningProxy(url, proxy_memory, upstream)
