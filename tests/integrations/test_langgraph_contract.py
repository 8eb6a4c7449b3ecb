"""JiyiStore keeps LangGraph's BaseStore contract and jiyi's promises.

langgraph (1.2) ships no store conformance suite (langgraph-checkpoint-conformance covers
checkpointers only), so the contract is checked side by side: hypothesis drives the same
puts, deletes, gets, filtered searches and namespace listings into LangGraph's own
``InMemoryStore`` and into ``JiyiStore``, and every answer must agree. What InMemoryStore does
not do (TTL) is checked against BaseStore's docstrings; what jiyi adds (secrets masked and
sealed, its size limit) on its own.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("langgraph")

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from langgraph.store.base import Item
from langgraph.store.memory import InMemoryStore

from jiyi.clock import FrozenClock
from jiyi.errors import InvalidInput
from jiyi.integrations.langgraph import JiyiStore
from jiyi.memory import Memory
from jiyi.privacy.seal import generate_key

NAMESPACES = [("memories", "u1"), ("memories", "u2"), ("prefs", "u1"), ("memories", "u1", "work")]
KEYS = ["a", "b", "c"]
values = st.fixed_dictionaries(  # "n" always there: InMemoryStore's $gte raises on a missing key
    {"content": st.sampled_from(["I like green tea", "Meeting moved to Friday", "我喜欢爬山", "Dog is named Biscuit"]),
     "n": st.integers(0, 3)},
    optional={"kind": st.sampled_from(["fact", "preference", "note"]),
              "tags": st.lists(st.sampled_from(["x", "y"]), max_size=2)})
ns = st.sampled_from(NAMESPACES)
prefixes = st.sampled_from([(), ("memories",), ("memories", "u1"), ("prefs",), ("nothing",)])
filters = st.one_of(st.none(), st.fixed_dictionaries({"n": st.integers(0, 3)}),
                    st.fixed_dictionaries({"n": st.fixed_dictionaries({"$gte": st.integers(0, 3)})}),
                    st.fixed_dictionaries({"kind": st.sampled_from(["fact", "note"])}))
ops = st.lists(st.one_of(
    st.tuples(st.just("put"), ns, st.sampled_from(KEYS), values),
    st.tuples(st.just("delete"), ns, st.sampled_from(KEYS), st.none()),
    st.tuples(st.just("get"), ns, st.sampled_from(KEYS), st.none()),
    st.tuples(st.just("search"), prefixes, filters, st.none()),
    st.tuples(st.just("list"), st.sampled_from([None, ("memories",)]), st.sampled_from([None, ("u1",)]),
              st.sampled_from([None, 1, 2])),
), min_size=1, max_size=14)


def shown(item: Item | None) -> Any:
    return None if item is None else (item.namespace, item.key, item.value)


def namespaces(store: Any, prefix: Any, suffix: Any, depth: int | None) -> list[tuple[str, ...]]:
    """InMemoryStore's listing, less the namespaces it keeps with no item in them (a ``delete`` of a
    key never put leaves one behind: an artefact of its defaultdict, not BaseStore's contract)."""
    full = store.list_namespaces(prefix=prefix, suffix=suffix, limit=1000)
    held = [n for n in full if any(i.namespace == n for i in store.search(n, limit=1000))]
    return sorted({n[:depth] for n in held} if depth else held)


def answer(store: Any, op: tuple[Any, ...]) -> Any:
    name, a, b, c = op
    if name == "list" and isinstance(store, InMemoryStore):
        return namespaces(store, a, b, c)
    if name == "put":
        return store.put(a, b, c)
    if name == "delete":
        return store.delete(a, b)
    if name == "get":
        return shown(store.get(a, b))
    if name == "search":  # BaseStore names no order for a search without query: compare as sets
        return sorted(json.dumps(shown(i), sort_keys=True) for i in store.search(a, filter=b, limit=100))
    return sorted(store.list_namespaces(prefix=a, suffix=b, max_depth=c, limit=100))


@pytest.fixture
def fresh(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    opened: list[Memory] = []

    def make() -> JiyiStore:
        home = tmp_path_factory.mktemp("lg")
        mem = Memory(home=home, embedder="hash", background_worker=False)
        opened.append(mem)
        return JiyiStore(mem)

    yield make
    for mem in opened:
        mem.close()


@settings(max_examples=40, derandomize=True, deadline=None, database=None, suppress_health_check=list(HealthCheck))
@given(program=ops)
def test_jiyi_store_answers_as_in_memory_store_does(fresh: Any, program: list[tuple[Any, ...]]) -> None:
    ours, theirs = fresh(), InMemoryStore()
    for op in program:
        assert answer(ours, op) == answer(theirs, op), op


def open_store(tmp_path: Path, clock: FrozenClock, **config: Any) -> JiyiStore:
    return JiyiStore(Memory(path=tmp_path / "lg.db", home=tmp_path, clock=clock, embedder="hash",
                            background_worker=False, **config))


SECRET_VALUE = {"content": "My wifi password is quartz-lemon-8841",
                "extra": {"card": "my card number is 4111 1111 1111 1111", "where": "router in the hall"},
                "notes": ["the backup password is pine-cobalt-5530"]}


def stored_bytes(tmp_path: Path) -> bytes:
    return b"".join(p.read_bytes() for p in tmp_path.glob("lg.db*"))


def test_secrets_in_a_value_are_sealed_at_rest_and_given_back(tmp_path: Path, clock: FrozenClock) -> None:
    store = open_store(tmp_path, clock, encryption_key=generate_key())
    store.put(("memories", "u1"), "wifi", SECRET_VALUE)
    item = store.get(("memories", "u1"), "wifi")
    assert item is not None and item.value == SECRET_VALUE
    assert [i.value for i in store.search(("memories",))] == [SECRET_VALUE]
    user = store.memory.users()[0]
    exported = json.dumps(list(store.memory.export(user_id=user)), ensure_ascii=False)
    store.memory.close()
    at_rest = stored_bytes(tmp_path)
    for secret in ("quartz-lemon-8841", "4111 1111 1111 1111", "pine-cobalt-5530"):
        assert secret.encode() not in at_rest, secret
        assert secret not in json.dumps(json.loads(exported)[0]["metadata"]), secret  # sealed, not in clear
    assert b"router in the hall" in at_rest  # what is no secret stays readable


def test_without_a_key_a_secret_in_a_value_is_not_kept(tmp_path: Path, clock: FrozenClock) -> None:
    store = open_store(tmp_path, clock)
    store.put(("memories", "u1"), "wifi", SECRET_VALUE)
    item = store.get(("memories", "u1"), "wifi")
    assert item is not None and "quartz-lemon-8841" not in json.dumps(item.value)
    assert item.value["extra"]["where"] == "router in the hall"
    store.memory.close()
    assert b"quartz-lemon-8841" not in stored_bytes(tmp_path) and b"pine-cobalt-5530" not in stored_bytes(tmp_path)


@pytest.mark.parametrize("read", ["get", "search"])
def test_reads_refresh_the_ttl_unless_told_not_to(tmp_path: Path, clock: FrozenClock, read: str) -> None:
    store = open_store(tmp_path, clock)
    ns = ("memories", "u1")
    store.put(ns, "k", {"content": "Parking spot is B12"}, ttl=10)

    def look(refresh: bool) -> bool:
        if read == "get":
            return store.get(ns, "k", refresh_ttl=refresh) is not None
        return bool(store.search(ns, refresh_ttl=refresh))

    for _ in range(3):  # 24 minutes in all, each read within 10 of the last
        clock.set(clock.now() + timedelta(minutes=8))
        assert look(True)
    clock.set(clock.now() + timedelta(minutes=8))
    assert look(False)  # 8 after the last refresh: alive, and not refreshed now
    clock.set(clock.now() + timedelta(minutes=3))
    assert not look(True)
    store.memory.close()


@pytest.mark.parametrize("ttl", [-5, 0, float("nan"), float("inf"), "10"])
def test_a_ttl_that_is_no_positive_number_is_refused(tmp_path: Path, clock: FrozenClock, ttl: Any) -> None:
    store = open_store(tmp_path, clock)
    with pytest.raises(InvalidInput, match=r"JiyiStore.put\(\('memories', 'u1'\), 'k'\): ttl must be a positive"):
        store.put(("memories", "u1"), "k", {"content": "x"}, ttl=ttl)
    assert store.search(("memories",)) == []
    store.memory.close()


def test_the_size_limit_is_stated_and_the_error_names_the_operation(tmp_path: Path, clock: FrozenClock) -> None:
    store = open_store(tmp_path, clock)
    store.put(("memories", "u1"), "ok", {"content": "y" * 2000})
    with pytest.raises(InvalidInput) as long_text:
        store.put(("memories", "u1"), "long", {"content": "y" * 2001})
    assert "JiyiStore.put(('memories', 'u1'), 'long')" in str(long_text.value)
    assert "2,001 characters, over jiyi's 2,000" in str(long_text.value)
    with pytest.raises(InvalidInput) as big_value:
        store.put(("memories", "u1"), "big", {"content": "short", "blob": "z" * 70_000})
    assert "JiyiStore.put(('memories', 'u1'), 'big')" in str(big_value.value)
    for err in (long_text.value, big_value.value):
        assert "import row" not in str(err)
    store.memory.close()
