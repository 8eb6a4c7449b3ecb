"""Fixtures: a real local rerank server (fake_rerank.py) and a Memory wired to it."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from fake_rerank import FakeRerank

from jiyi.memory import Memory


@pytest.fixture
def fake_rerank() -> Iterator[FakeRerank]:
    with FakeRerank() as server:
        yield server


#: Four memories of one user: a search for "city" finds the first two by words; only one says Hangzhou.
FACTS = ("I moved to a new city last spring, the city is busy",
         "My favourite city for food is Chengdu, a spicy city",
         "My sister lives in Hangzhou near the lake",
         "I bought a blue bicycle")


@pytest.fixture
def rerank_memory(make_memory: Callable[..., Memory], fake_rerank: FakeRerank) -> Callable[..., Memory]:
    """A Memory with the hash embedder and the api reranker on the fake server, FACTS added for u1 once
    (a second one opens the same file)."""

    def make(**config: Any) -> Memory:
        config = {"embedder": "hash", "reranker": "api", "reranker_base_url": fake_rerank.base_url,
                  "reranker_model": "bge-reranker-test", **config}
        mem = make_memory(**config)
        for fact in FACTS if not mem.get_all(user_id="u1") else ():
            mem.add(fact, user_id="u1", sync=True)
        return mem

    return make
