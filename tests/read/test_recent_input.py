"""``recent`` on search / build_context: what is accepted, what is refused, and that it reaches recall."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import pytest

from jiyi import Memory
from jiyi.aio import AsyncMemory
from jiyi.errors import InvalidInput
from jiyi.read.recent import MAX_RECENT, MAX_RECENT_CHARS, RecentTurn, check_recent


def test_strings_and_messages_become_turns_oldest_first() -> None:
    turns = check_recent(["周末去爬了山", {"role": "assistant", "content": "哪座山？"},
                          {"role": "user", "content": " 城北那座 ", "timestamp": "2026-01-02T10:00:00Z"}])
    assert turns == (RecentTurn("user", "周末去爬了山"), RecentTurn("assistant", "哪座山？"),
                     RecentTurn("user", "城北那座"))
    assert check_recent(None) == () and check_recent([]) == ()


@pytest.mark.parametrize(("bad", "words"), [
    ("just one string", "must be a list"),
    ({"role": "user", "content": "a dict, not a list"}, "must be a list"),
    ([42], "recent[0] must be a string or a dict"),
    ([{"role": "narrator", "content": "x"}], "recent[0].role"),
    ([{"role": "user"}], "recent[0].content"),
    (["ok", {"role": "user", "content": "   "}], "recent[1].content is empty"),
    ([{"role": "user", "content": "x", "mood": "happy"}], "unknown keys ['mood']"),
    (["x" * (MAX_RECENT_CHARS + 1)], "the limit is"),
    (["hi"] * (MAX_RECENT + 1), "pass the last few"),
])
def test_bad_recent_is_refused_with_the_place_named(bad: Any, words: str) -> None:
    with pytest.raises(InvalidInput, match=words.replace("[", r"\[").replace("]", r"\]")):
        check_recent(bad)


def test_search_and_build_context_refuse_bad_recent(make_memory: Callable[..., Memory]) -> None:
    mem = make_memory()
    with pytest.raises(InvalidInput, match="recent"):
        mem.search("那个地方叫什么", user_id="u1", recent="not a list")
    with pytest.raises(InvalidInput, match=r"recent\[0\]\.role"):
        mem.build_context("那个地方叫什么", user_id="u1", recent=[{"role": "bot", "content": "x"}])


def test_recent_is_accepted_everywhere(make_memory: Callable[..., Memory], tmp_path: Any) -> None:
    mem = make_memory()
    mem.add("我养了一只叫豆包的柯基", user_id="u1", sync=True)
    history = ["我家狗最近不爱吃饭", {"role": "assistant", "content": "它多大了？"}]
    assert mem.search("它叫什么来着？", user_id="u1", recent=history)
    assert isinstance(mem.build_context("它叫什么来着？", user_id="u1", recent=history), str)

    async def run() -> list[Any]:
        async with AsyncMemory(home=tmp_path / "aio", background_worker=False) as amem:
            await amem.add("我养了一只叫豆包的柯基", user_id="u1", sync=True)
            return list(await amem.search("它叫什么来着？", user_id="u1", recent=history))

    assert asyncio.run(run())
