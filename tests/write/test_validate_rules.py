"""Every door refuses bad input with an InvalidInput (a JiyiError), and writes nothing."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import pytest

from jiyi import InvalidInput, Memory
from jiyi.write.validate import check_metadata, check_record_id, check_time


def _nested(depth: int) -> dict[str, Any]:
    d: dict[str, Any] = {}
    for _ in range(depth):
        d = {"a": d}
    return d


BAD_CALLS: list[tuple[str, Callable[[Memory], object]]] = [
    ("surrogate in content", lambda m: m.add("我住在\ud800上海", user_id="u1")),
    ("surrogate in query", lambda m: m.search("上海\udfff", user_id="u1")),
    ("surrogate in remember", lambda m: m.remember("喜欢\ud83d咖啡", user_id="u1")),
    ("metadata not JSON", lambda m: m.add("我住在上海", user_id="u1", metadata={"x": object()})),
    ("metadata NaN", lambda m: m.add("我住在上海", user_id="u1", metadata={"x": math.nan})),
    ("metadata deep", lambda m: m.add("我住在上海", user_id="u1", metadata=_nested(5000))),
    ("metadata keys", lambda m: m.add("我住在上海", user_id="u1", metadata={1: "a"})),
    ("metadata list", lambda m: m.add("我住在上海", user_id="u1", metadata=["a"])),  # type: ignore[arg-type]
    ("kind bogus", lambda m: m.remember("我喜欢咖啡", user_id="u1", kind="bogus")),
    ("visibility bogus", lambda m: m.remember("我喜欢咖啡", user_id="u1", visibility="loud")),
    ("importance 7", lambda m: m.remember("我喜欢咖啡", user_id="u1", importance=7)),
    ("importance NaN", lambda m: m.remember("我喜欢咖啡", user_id="u1", importance=math.nan)),
    ("remember session object", lambda m: m.remember("我喜欢咖啡", user_id="u1", session_id={"a": 1})),  # type: ignore[arg-type]
    ("remember session newline", lambda m: m.remember("我喜欢咖啡", user_id="u1", session_id="s\n1")),
    ("get_all limit text", lambda m: m.get_all(user_id="u1", limit="ten")),  # type: ignore[arg-type]
    ("get_all limit -1", lambda m: m.get_all(user_id="u1", limit=-1)),
    ("get_all limit 0", lambda m: m.get_all(user_id="u1", limit=0)),
    ("get_all limit 1001", lambda m: m.get_all(user_id="u1", limit=1001)),
    ("get_all offset -1", lambda m: m.get_all(user_id="u1", offset=-1)),
    ("get_all offset huge", lambda m: m.get_all(user_id="u1", offset=2**70)),
    ("search limit 0", lambda m: m.search("上海", user_id="u1", limit=0)),
    ("search at 9999", lambda m: m.search("上海", user_id="u1", at="9999-12-31T23:59:59Z")),
    ("search at year 1", lambda m: m.search("上海", user_id="u1", at="0001-01-01T00:00:00+08:00")),
    ("search filter session object", lambda m: m.search("上海", user_id="u1", filters={"session_id": {"a": 1}})),
    ("search filter session list", lambda m: m.search("上海", user_id="u1", filters={"session_id": ["a"]})),
    ("search filters list", lambda m: m.search("上海", user_id="u1", filters=["a"])),  # type: ignore[arg-type]
    ("search kinds bogus", lambda m: m.search("上海", user_id="u1", kinds=["bogus"])),
    ("add timestamp 9999", lambda m: m.add([{"content": "明天我要去北京", "timestamp": "9999-12-31T23:59:59Z"}],
                                           user_id="u1")),
    ("sync add timestamp 9999", lambda m: m.add([{"content": "明天我要去北京", "timestamp": "9999-12-31T23:59:59Z"}],
                                                user_id="u1", sync=True)),
    ("add id newline", lambda m: m.add([{"content": "明天我要去北京", "id": "m1\n"}], user_id="u1")),
    ("add id NUL", lambda m: m.add([{"content": "明天我要去北京", "id": "m\x001"}], user_id="u1")),
    ("update too long", lambda m: m.update("x", "长" * 2001, user_id="u1")),
    ("gc now garbage", lambda m: m.gc(now="soon")),  # type: ignore[arg-type]
    ("gc now 9999", lambda m: m.gc(now="9999-12-31T23:59:59Z")),  # type: ignore[arg-type]
]


@pytest.mark.parametrize("label,call", BAD_CALLS, ids=[b[0] for b in BAD_CALLS])
def test_bad_calls_raise_invalid_input_and_write_nothing(mem: Memory, label: str, call: Callable[[Memory], object]) -> None:
    with pytest.raises(InvalidInput):
        call(mem)
    assert mem.store.pending_jobs() == 0
    assert mem.get_all(user_id="u1", status=None) == []


def _row(**over: Any) -> dict[str, Any]:
    row = {"id": "r1", "user_id": "u1", "content": "我喜欢咖啡", "kind": "preference",
           "created_at": "2025-01-01T00:00:00Z", "updated_at": "2025-01-01T00:00:00Z"}
    row.update(over)
    return row


BAD_ROWS = [
    _row(importance=7), _row(confidence=-0.5), _row(id="r\n1"), _row(id="r 1"), _row(content="长" * 1_000_000),
    _row(kind="bogus"), _row(created_at="9999-12-31T23:59:59Z"), _row(metadata={"x": math.inf}),
    _row(session_id="s\x00"), _row(source_ids="m1"), _row(status="gone"), _row(content="a\ud800b"),
    _row(kind="episode", content="长" * 20_001),
]


@pytest.mark.parametrize("row", BAD_ROWS)
def test_import_applies_the_same_rules(mem: Memory, row: dict[str, Any]) -> None:
    with pytest.raises(InvalidInput):
        mem.import_([row])
    assert mem.get_all(user_id="u1", status=None) == []


def test_a_good_import_row_and_nul_in_remember() -> None:
    assert check_record_id(42) == "42"
    assert check_metadata({"a": [1, {"b": None}]}) == {"a": [1, {"b": None}]}
    assert check_time("2025-03-02T09:15:00+08:00", "t").isoformat() == "2025-03-02T01:15:00+00:00"


def test_nul_is_dropped_from_remembered_text(mem: Memory) -> None:
    rec = mem.remember("我喜欢\x00咖啡", user_id="u1")
    assert "\x00" not in rec.content
    assert mem.import_([_row(id="r2", importance=0.5)]) == 1
