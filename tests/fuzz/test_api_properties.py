"""Property tests over the Python API's inputs: whatever a caller passes, ``Memory`` either
accepts it or raises a ``JiyiError`` subclass (never TypeError, UnicodeEncodeError,
RecursionError, OverflowError, sqlite3 errors...), and a refused call writes nothing.

Bounded and seeded (derandomized, no example database): a few seconds.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from jiyi.errors import JiyiError
from jiyi.memory import Memory

EXAMPLES = 60
PROPS = settings(max_examples=EXAMPLES, derandomize=True, deadline=None, database=None,
                 suppress_health_check=list(HealthCheck))
COUNTS: dict[str, int] = {}

text = st.one_of(st.text(max_size=40), st.text(alphabet=st.characters(codec=None), max_size=12),
                 st.sampled_from(["", " ", "\x00", "a\ud800b", "\udfff", "我住在上海", "x" * 2001]))
json_leaf = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=True), text)
anything = st.one_of(json_leaf, st.lists(json_leaf, max_size=3), st.dictionaries(text, json_leaf, max_size=3),
                     st.just(object()), st.just(math.inf), st.just(2**70), st.just(-1), st.just(0))
ids = st.one_of(st.none(), text, st.integers(), st.sampled_from(["m\n1", "m 1", "m\x001", "ok-1"]))
times = st.one_of(st.none(), text, st.sampled_from(["9999-12-31T23:59:59Z", "0001-01-01T00:00:00+08:00",
                                                    "2025-03-02T09:15:00+08:00", "1899-12-31", "soon"]))


def _deep(n: int) -> dict[str, Any]:
    d: dict[str, Any] = {}
    for _ in range(n):
        d = {"k": d}
    return d


metadata = st.one_of(st.none(), anything, st.builds(_deep, st.integers(0, 3000)))
message = st.fixed_dictionaries({"content": st.one_of(text, anything)},
                                optional={"role": st.one_of(text, st.sampled_from(["user", "assistant"])),
                                          "id": ids, "timestamp": times, "name": st.one_of(text, anything)})


@pytest.fixture(scope="module")
def mem(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Memory]:
    home: Path = tmp_path_factory.mktemp("props")
    with Memory(home=home, embedder="hash", background_worker=False) as m:
        yield m
    print(f"\nhypothesis: {COUNTS}")


def _call(name: str, fn: Any) -> None:
    COUNTS[name] = COUNTS.get(name, 0) + 1
    try:
        fn()
    except JiyiError:
        pass


@PROPS
@given(messages=st.one_of(text, message, st.lists(message, max_size=3), anything), user=st.one_of(text, anything),
       session=st.one_of(st.none(), ids, anything), meta=metadata, sync=st.booleans())
def test_add(mem: Memory, messages: Any, user: Any, session: Any, meta: Any, sync: bool) -> None:
    _call("add", lambda: mem.add(messages, user_id=user, session_id=session, metadata=meta, sync=sync))


@PROPS
@given(content=st.one_of(text, anything), kind=st.one_of(st.none(), text, anything),
       importance=st.one_of(st.none(), anything, st.floats()), session=st.one_of(st.none(), ids, anything),
       until=times, visibility=st.one_of(st.none(), text))
def test_remember(mem: Memory, content: Any, kind: Any, importance: Any, session: Any, until: Any,
                  visibility: Any) -> None:
    _call("remember", lambda: mem.remember(content, user_id="u1", kind=kind, importance=importance,
                                           session_id=session, valid_until=until, visibility=visibility))


@PROPS
@given(query=st.one_of(text, anything), limit=anything, at=times, kinds=st.one_of(st.none(), text, anything),
       filters=st.one_of(st.none(), anything, st.fixed_dictionaries(
           {}, optional={"session_id": anything, "agent_id": anything, "created_after": times,
                         "created_before": times})))
def test_search(mem: Memory, query: Any, limit: Any, at: Any, kinds: Any, filters: Any) -> None:
    _call("search", lambda: mem.search(query, user_id="u1", limit=limit, at=at, kinds=kinds, filters=filters))


@PROPS
@given(limit=st.one_of(st.none(), anything), offset=anything, status=st.one_of(st.none(), text),
       kinds=st.one_of(st.none(), text, anything), session=st.one_of(st.none(), ids, anything))
def test_get_all(mem: Memory, limit: Any, offset: Any, status: Any, kinds: Any, session: Any) -> None:
    _call("get_all", lambda: mem.get_all(user_id="u1", limit=limit, offset=offset, status=status, kinds=kinds,
                                         session_id=session))


row = st.fixed_dictionaries(
    {"id": ids, "user_id": st.one_of(text, st.just("u1")), "content": st.one_of(text, anything),
     "kind": st.one_of(text, st.sampled_from(["fact", "episode", "bogus"])), "created_at": times,
     "updated_at": times},
    optional={"importance": anything, "confidence": anything, "metadata": metadata, "session_id": anything,
              "source_ids": anything, "status": anything, "valid_from": times, "entities": anything})


@PROPS
@given(rows=st.one_of(st.lists(row, max_size=2), anything))
def test_import(mem: Memory, rows: Any) -> None:
    _call("import", lambda: mem.import_(rows if isinstance(rows, list) else [rows]))


def test_every_accepted_write_is_processed(mem: Memory) -> None:
    """Run last in the module: whatever ``add`` accepted above, its job ran (none failed)."""
    assert mem.flush(timeout=120) is True
    assert mem.failed_jobs() == []
