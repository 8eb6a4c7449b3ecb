"""build_context refuses a limit search would refuse (it used to clamp 0 to 1 silently)."""

from __future__ import annotations

from typing import Any

import pytest

from jiyi.errors import InvalidInput
from jiyi.memory import Memory


@pytest.mark.parametrize("limit", [0, -3, True, "5", 10_001])
def test_build_context_refuses_a_bad_limit(make_memory: Any, limit: object) -> None:
    mem: Memory = make_memory(embedder="hash")
    with pytest.raises(InvalidInput, match="limit"):
        mem.build_context("anything", user_id="u", limit=limit)  # type: ignore[arg-type]


def test_build_context_takes_a_good_limit(make_memory: Any) -> None:
    mem: Memory = make_memory(embedder="hash")
    mem.remember("I keep bees on the roof", user_id="u")
    assert "bees" in mem.build_context("bees", user_id="u", limit=1)
