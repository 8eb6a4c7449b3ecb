"""The three ways an episode's context vector is made (settings.episode_context)."""

from __future__ import annotations

import numpy as np
import pytest

from jiyi import ConfigError, Memory


def vectors(mem: Memory, channel: str) -> list[np.ndarray]:
    scope = mem._scope("u1")
    eps = sorted(mem.get_all(user_id="u1", kinds=["episode"]), key=lambda r: r.source_ids)
    found = mem.store.vectors(scope, [r.id for r in eps], channel)
    return [found[r.id] for r in eps]


@pytest.mark.parametrize("mode", ["joint", "mean", "off"])
def test_context_vectors(make_memory: object, mode: str) -> None:
    mem: Memory = make_memory(episode_context=mode)  # type: ignore[operator]
    mem.add([{"role": "user", "content": "我想周末去爬山", "id": "a1"},
             {"role": "assistant", "content": "可以试试香山，秋天红叶很好看", "id": "a2"}], user_id="u1", sync=True)
    own = vectors(mem, "content")
    ctx = vectors(mem, "context")
    assert np.allclose(ctx[0], own[0], atol=1e-6)  # the first turn has no previous turn
    mean = (own[0] + own[1]) / np.linalg.norm(own[0] + own[1])
    if mode == "off":
        assert np.allclose(ctx[1], own[1], atol=1e-6)
    elif mode == "mean":
        assert np.allclose(ctx[1], mean, atol=1e-5)
    else:
        assert not np.allclose(ctx[1], own[1], atol=1e-3) and not np.allclose(ctx[1], mean, atol=1e-3)
        assert abs(float(np.linalg.norm(ctx[1])) - 1.0) < 1e-4


def test_bad_mode_is_refused(make_memory: object) -> None:
    with pytest.raises(ConfigError, match="episode_context"):
        make_memory(episode_context="sideways")  # type: ignore[operator]
