"""A purge names what it erases: an empty memory id is bad input, not a missing memory."""

from __future__ import annotations

from pathlib import Path

import pytest

from jiyi import Memory
from jiyi.errors import InvalidInput, NotFound


def test_an_empty_memory_id_is_invalid_input_and_an_unknown_one_not_found(tmp_path: Path) -> None:
    mem = Memory(path=tmp_path / "m.db", embedder="hash")
    try:
        with pytest.raises(InvalidInput, match="memory_id must not be empty"):
            mem.purge(memory_id="", user_id="u1")
        with pytest.raises(NotFound):
            mem.purge(memory_id="no-such-id", user_id="u1")
    finally:
        mem.close()
