"""A NUL in metadata is refused as invalid input (a 4xx over REST) on both stores, before any store
sees it: PostgreSQL's jsonb cannot hold one (a 503 that invited retries), SQLite would keep it."""

from __future__ import annotations

from pathlib import Path

import pytest

from jiyi.clock import FrozenClock
from jiyi.errors import InvalidInput
from jiyi.memory import Memory
from jiyi.stores.protocol import Store


@pytest.mark.parametrize("metadata", [{"source": "qq\x00group"}, {"k\x00": 1}, {"tags": ["a", {"deep": "x\x00"}]}])
def test_nul_in_metadata_is_invalid_input(store: Store, tmp_path: Path, clock: FrozenClock,
                                          metadata: dict[str, object]) -> None:
    with Memory(store=store, clock=clock, home=tmp_path, embedder="hash", background_worker=False) as mem:
        for sync in (True, False):
            with pytest.raises(InvalidInput, match="NUL"):
                mem.add("我住在杭州", user_id="u1", metadata=metadata, sync=sync)
        assert store.pending_jobs() == 0
        mem.add("我住在杭州", user_id="u1", metadata={"source": "qq group"}, sync=True)  # without it: stored
        assert mem.get_all(user_id="u1")
