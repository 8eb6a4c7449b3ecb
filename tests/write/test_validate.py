"""Every bad input is refused with InvalidInput, and nothing is written."""

from __future__ import annotations

from typing import Any

import pytest

from jiyi import InvalidInput, Memory

BAD_MESSAGES: list[tuple[str, Any]] = [
    ("empty list", []),
    ("not a message", [42]),
    ("bad role", [{"role": "robot", "content": "hi there friend"}]),
    ("missing content", [{"role": "user"}]),
    ("non-string content", [{"role": "user", "content": 5}]),
    ("blank content", [{"role": "user", "content": "   "}]),
    ("bad timestamp", [{"role": "user", "content": "我住在上海", "timestamp": "yesterday-ish"}]),
    ("timestamp type", [{"role": "user", "content": "我住在上海", "timestamp": 1700000000.5}]),
    ("unknown key", [{"role": "user", "content": "我住在上海", "colour": "red"}]),
    ("bad id", [{"role": "user", "content": "我住在上海", "id": "has space"}]),
    ("bad name", [{"role": "user", "content": "我住在上海", "name": ""}]),
    ("too long", [{"role": "user", "content": "长" * 20_001}]),
    ("one bad among good", [{"role": "user", "content": "我叫小王"}, {"role": "user", "content": None}]),
    ("wrong type", 3.14),
]


@pytest.mark.parametrize("label,messages", BAD_MESSAGES, ids=[b[0] for b in BAD_MESSAGES])
def test_bad_messages_rejected_and_nothing_written(mem: Memory, label: str, messages: Any) -> None:
    with pytest.raises(InvalidInput):
        mem.add(messages, user_id="u1", sync=True)
    assert mem.store.pending_jobs() == 0
    assert mem.get_all(user_id="u1", status=None) == []


@pytest.mark.parametrize("user_id", ["", "   ", None, 7, "x" * 129, "bad\nid"])
def test_bad_user_ids_rejected(mem: Memory, user_id: Any) -> None:
    with pytest.raises(InvalidInput):
        mem.add("我住在上海", user_id=user_id, sync=True)
    with pytest.raises(InvalidInput):
        mem.search("上海", user_id=user_id)


@pytest.mark.parametrize("kwargs", [{"limit": 0}, {"limit": "5"}, {"kinds": ["planet"]},
                                    {"at": "not a date"}, {"filters": {"colour": "red"}}])
def test_bad_search_arguments(mem: Memory, kwargs: dict[str, Any]) -> None:
    with pytest.raises(InvalidInput):
        mem.search("上海", user_id="u1", **kwargs)


def test_invalid_input_is_a_value_error(mem: Memory) -> None:
    with pytest.raises(ValueError):
        mem.add([], user_id="u1")
