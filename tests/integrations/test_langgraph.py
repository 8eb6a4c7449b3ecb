"""JiyiStore through LangGraph's own BaseStore interface, and an agent graph that uses it."""

from __future__ import annotations

import asyncio
import importlib.util
import sys
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("langgraph")

from langgraph.store.base import BaseStore, GetOp, InvalidNamespaceError, PutOp, SearchOp

from jiyi.clock import FrozenClock
from jiyi.integrations.langgraph import JiyiStore
from jiyi.memory import Memory

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "langgraph_agent.py"


@pytest.fixture
def mem(tmp_path: Path, clock: FrozenClock) -> Any:
    with Memory(path=tmp_path / "jiyi.db", home=tmp_path, clock=clock, background_worker=False) as memory:
        yield memory


@pytest.fixture
def store(mem: Memory) -> JiyiStore:
    return JiyiStore(mem)


def test_put_get_keeps_the_value_exactly_and_update_replaces_it(store: JiyiStore, clock: FrozenClock) -> None:
    assert isinstance(store, BaseStore)
    ns = ("memories", "u1")
    value = {"content": "用户对花生过敏", "source": "chat", "tags": ["health"], "n": 3}
    store.put(ns, "allergy", value)
    item = store.get(ns, "allergy")
    assert item is not None and item.value == value and item.key == "allergy" and item.namespace == ns
    created = item.created_at
    clock.set(clock.now() + timedelta(minutes=5))
    store.put(ns, "allergy", {"content": "用户对花生和芒果过敏"})
    again = store.get(ns, "allergy")
    assert again is not None and again.value == {"content": "用户对花生和芒果过敏"}
    assert again.created_at == created and again.updated_at > created
    assert store.get(ns, "nope") is None and store.get(("memories", "u2"), "allergy") is None
    assert len(store.search(ns)) == 1  # replaced, not added


def test_search_ranks_by_meaning_within_the_namespace(store: JiyiStore, clock: FrozenClock) -> None:
    for key, value in (("a", {"content": "用户对花生过敏"}), ("b", {"content": "用户住在杭州西湖区"}),
                       ("c", {"text": "The user plays tennis on Sundays"})):
        store.put(("memories", "u1"), key, value)
        clock.set(clock.now() + timedelta(minutes=1))
    store.put(("memories", "u2"), "a", {"content": "用户最喜欢吃花生酱"})
    hits = store.search(("memories", "u1"), query="我能吃花生酱吗")
    assert hits[0].key == "a" and hits[0].score is not None and hits[0].score > 0
    assert all(h.namespace == ("memories", "u1") for h in hits)
    assert store.search(("memories", "u1"), query="what sport does the user play")[0].key == "c"
    both = store.search(("memories",), query="花生")
    assert {(h.namespace[1], h.key) for h in both} >= {("u1", "a"), ("u2", "a")}
    assert [h.key for h in store.search(("memories", "u1"), limit=2, offset=1)] == ["b", "a"]  # newest first


def test_filter_delete_and_list_namespaces(store: JiyiStore) -> None:
    store.put(("memories", "u1"), "a", {"content": "用户对花生过敏", "type": "health", "importance": 9})
    store.put(("memories", "u1"), "b", {"content": "用户喜欢爬山", "type": "hobby", "importance": 4})
    store.put(("notes", "u1", "work"), "n", {"content": "周五交季度报告"})
    assert [i.key for i in store.search(("memories", "u1"), filter={"type": "hobby"})] == ["b"]
    assert [i.key for i in store.search(("memories",), filter={"importance": {"$gte": 5}})] == ["a"]
    assert all(i.value["type"] == "hobby" for i in store.search(("memories", "u1"), query="花生 爬山",
                                                                 filter={"type": "hobby"}))
    assert store.list_namespaces() == [("memories", "u1"), ("notes", "u1", "work")]
    assert store.list_namespaces(prefix=("notes",)) == [("notes", "u1", "work")]
    assert store.list_namespaces(suffix=("u1",)) == [("memories", "u1")]
    assert store.list_namespaces(max_depth=1) == [("memories",), ("notes",)]
    store.delete(("memories", "u1"), "a")
    assert store.get(("memories", "u1"), "a") is None
    assert [i.key for i in store.search(("memories", "u1"), query="花生过敏")] != ["a"]
    assert "a" not in [i.key for i in store.search(("memories", "u1"))]
    store.put(("memories", "u1"), "a", {"content": "用户对花生过敏"})  # a deleted key can be put again
    assert store.get(("memories", "u1"), "a") is not None
    with pytest.raises(InvalidNamespaceError):
        store.put((), "x", {"content": "y"})


def test_ttl_expires_items(store: JiyiStore, clock: FrozenClock) -> None:
    store.put(("memories", "u1"), "soon", {"content": "用户今晚八点开会"}, ttl=30)
    store.put(("memories", "u1"), "keep", {"content": "用户对花生过敏"})
    assert store.get(("memories", "u1"), "soon") is not None
    clock.set(clock.now() + timedelta(minutes=31))
    assert store.get(("memories", "u1"), "soon") is None
    assert [i.key for i in store.search(("memories", "u1"))] == ["keep"]


def test_long_namespaces_round_trip(store: JiyiStore) -> None:
    ns = ("memories", "x" * 200, "用户")
    store.put(ns, "k", {"content": "很长的命名空间"})
    assert store.get(ns, "k").value == {"content": "很长的命名空间"}  # type: ignore[union-attr]
    assert store.list_namespaces(prefix=("memories",)) == [ns]


def test_batch_and_async(store: JiyiStore) -> None:
    ns = ("memories", "u1")
    out = store.batch([PutOp(ns, "a", {"content": "用户对花生过敏"}), GetOp(ns, "a"),
                       SearchOp(ns, query="花生"), PutOp(ns, "a", None), GetOp(ns, "a")])
    assert out[0] is None and out[1].value == {"content": "用户对花生过敏"}  # type: ignore[union-attr]
    assert [i.key for i in out[2]] == ["a"] and out[3] is None and out[4] is None  # type: ignore[union-attr]

    async def scenario() -> None:
        await store.aput(ns, "b", {"content": "用户住在杭州"})
        got = await store.aget(ns, "b")
        assert got is not None and got.value["content"] == "用户住在杭州"
        assert [i.key for i in await store.asearch(ns, query="杭州")] == ["b"]
        assert await store.alist_namespaces() == [ns]
        await store.adelete(ns, "b")
        assert await store.aget(ns, "b") is None
        results = await store.abatch([GetOp(ns, "b"), SearchOp(ns)])
        assert results == [None, []]

    asyncio.run(scenario())


def test_the_example_agent_recalls_across_threads(store: JiyiStore) -> None:
    spec = importlib.util.spec_from_file_location("langgraph_agent", EXAMPLE)
    assert spec and spec.loader
    example = importlib.util.module_from_spec(spec)
    sys.modules["langgraph_agent"] = example
    spec.loader.exec_module(example)
    agent = example.build_agent(store)
    example.ask(agent, "记住，我对花生过敏", user_id="xiaoming", thread_id="t1")
    example.ask(agent, "记住，我住在杭州西湖区", user_id="xiaoming", thread_id="t1")
    answer = example.ask(agent, "我能吃花生酱吗？", user_id="xiaoming", thread_id="t2")  # a new thread
    assert answer.splitlines()[1] == "- 我对花生过敏"  # the best memory first, shown to the model
    assert example.ask(agent, "我能吃花生酱吗？", user_id="xiaohong", thread_id="t3") == "（没有相关记忆）"
    assert next(i.value for i in store.search(("memories", "xiaoming"), query="杭州")) == {"content": "我住在杭州西湖区"}
