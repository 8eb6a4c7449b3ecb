"""The episode path's idempotency check: one batched look-up per add, same answers as per turn."""

from __future__ import annotations

from collections import Counter
from typing import Any

from jiyi import Kind, Memory


def turns(ids: list[str], tag: str = "") -> list[dict[str, Any]]:
    return [{"role": "user", "content": f"第{i}轮：我周末想去{tag}爬山，顺便看看红叶", "id": i} for i in ids]


def episodes(mem: Memory, user_id: str) -> Counter[tuple[str, str | None]]:
    return Counter((r.source_ids[0], r.session_id)
                   for r in mem.get_all(user_id=user_id, kinds=[Kind.EPISODE]))


def test_readding_messages_does_not_duplicate_their_episodes(make_memory: object) -> None:
    mem: Memory = make_memory()  # type: ignore[operator]
    mem.add(turns(["a", "b", "c"]), user_id="u1", session_id="s1", sync=True)
    mem.add(turns(["b", "c", "d"], "香山"), user_id="u1", session_id="s1", sync=True)  # b, c again; d new
    mem.add(turns(["a"]), user_id="u1", session_id="s2", sync=True)  # same id, other session: a new turn
    mem.add(turns(["a", "b"]), user_id="u2", session_id="s1", sync=True)  # other user: their own
    assert episodes(mem, "u1") == Counter({("a", "s1"): 1, ("b", "s1"): 1, ("c", "s1"): 1, ("d", "s1"): 1,
                                           ("a", "s2"): 1})
    assert episodes(mem, "u2") == Counter({("a", "s1"): 1, ("b", "s1"): 1})


def test_one_source_lookup_per_add_not_per_turn(make_memory: object) -> None:
    mem: Memory = make_memory()  # type: ignore[operator]
    calls: Counter[str] = Counter()
    store = mem.store
    batched, single = store.find_by_sources, store.find_by_source

    def find_by_sources(*args: Any) -> Any:
        calls["find_by_sources"] += 1
        return batched(*args)

    def find_by_source(*args: Any) -> Any:
        calls["find_by_source"] += 1
        return single(*args)

    store.find_by_sources, store.find_by_source = find_by_sources, find_by_source  # type: ignore[method-assign]
    mem.add(turns([f"m{i}" for i in range(50)]), user_id="u1", session_id="s1", sync=True)
    assert calls == Counter({"find_by_sources": 1})
    assert len(episodes(mem, "u1")) == 50


def test_pleasantries_are_kept_as_low_importance_episodes_flagged_smalltalk(make_memory: object) -> None:
    mem: Memory = make_memory()  # type: ignore[operator]
    mem.add([{"role": "user", "content": "我对花生过敏", "id": "1"},
             {"role": "assistant", "content": "你好！有什么可以帮你？", "id": "2"},
             {"role": "user", "content": "推荐点零食", "id": "3"},
             {"role": "assistant", "content": "很高兴认识你，小明！", "id": "4"}], user_id="u", sync=True)
    eps = {r.source_ids[0]: r for r in mem.get_all(user_id="u", kinds=[Kind.EPISODE])}
    assert eps["2"].importance <= 0.1 and eps["4"].importance <= 0.1
    assert eps["2"].metadata.get("smalltalk") is True and eps["4"].metadata.get("smalltalk") is True
    assert eps["1"].importance > eps["3"].importance > 0.1
    assert "smalltalk" not in eps["1"].metadata and "smalltalk" not in eps["3"].metadata
