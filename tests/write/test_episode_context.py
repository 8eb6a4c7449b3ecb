"""The three ways an episode's context vector is made (settings.episode_context)."""

from __future__ import annotations

import numpy as np
import pytest

from jiyi import ConfigError, Memory


def vectors(mem: Memory, channel: str) -> list[np.ndarray | None]:
    """Each episode's vector on ``channel`` in turn order (None: it has none there)."""
    scope = mem._scope("u1")
    eps = sorted(mem.get_all(user_id="u1", kinds=["episode"]), key=lambda r: r.source_ids)
    found = mem.store.vectors(scope, [r.id for r in eps], channel)
    return [found.get(r.id) for r in eps]


@pytest.mark.parametrize("mode", ["joint", "mean", "off"])
def test_context_vectors(make_memory: object, mode: str) -> None:
    mem: Memory = make_memory(episode_context=mode)  # type: ignore[operator]
    mem.add([{"role": "user", "content": "我想周末去爬山", "id": "a1"},
             {"role": "assistant", "content": "可以试试香山，秋天红叶很好看", "id": "a2"}], user_id="u1", sync=True)
    own = [v for v in vectors(mem, "content") if v is not None]
    ctx = vectors(mem, "context")
    assert len(own) == 2 and ctx[0] is None  # the first turn has no previous turn: no context vector
    mean = (own[0] + own[1]) / np.linalg.norm(own[0] + own[1])
    if mode == "off":
        assert ctx[1] is None
        return
    assert ctx[1] is not None
    if mode == "mean":
        assert np.allclose(ctx[1], mean, atol=1e-5)
    else:
        assert not np.allclose(ctx[1], own[1], atol=1e-3) and not np.allclose(ctx[1], mean, atol=1e-3)
        assert abs(float(np.linalg.norm(ctx[1])) - 1.0) < 1e-4


def test_bad_mode_is_refused(make_memory: object) -> None:
    with pytest.raises(ConfigError, match="episode_context"):
        make_memory(episode_context="sideways")  # type: ignore[operator]


def test_a_self_contained_memory_has_one_vector_and_the_context_route_reads_it(make_memory: object) -> None:
    """A fact stores no copy on the context channel; fusion gives it its vector z-score there."""
    mem: Memory = make_memory()  # type: ignore[operator]
    fact = mem.remember("用户对花生过敏", user_id="u1")
    mem.add([{"role": "user", "content": "今天天气不错", "id": "b1"},
             {"role": "user", "content": "我们去公园散步吧", "id": "b2"}], user_id="u1", sync=True)
    scope = mem._scope("u1")
    assert fact.id in mem.store.vectors(scope, [fact.id], "content")
    assert mem.store.vectors(scope, [fact.id], "context") == {}
    updated = mem.update(fact.id, "用户对花生和虾过敏", user_id="u1")
    assert mem.store.vectors(scope, [updated.id], "context") == {}
    hit = next(h for h in mem.search("花生过敏", user_id="u1") if h.id == fact.id)
    assert hit.scores["context_z"] == pytest.approx(
        hit.scores["vector_z"] * mem.weights["context"] / mem.weights["vector"], rel=1e-12)
