"""The SQLite file's mode: tightened to the owner's bits, never loosened; a file its owner may not
write is opened read-only and every write is refused with a clear error (root included)."""

from __future__ import annotations

import stat
from pathlib import Path

import pytest

from jiyi.errors import StoreError
from jiyi.memory import Memory


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def filled(tmp_path: Path) -> Path:
    db = tmp_path / "bot.db"
    with Memory(path=db, home=tmp_path, embedder="hash", background_worker=False) as mem:
        mem.add("我住在杭州", user_id="u1", sync=True)
    return db


@pytest.mark.parametrize(("given", "kept"), [(0o644, 0o600), (0o640, 0o600), (0o600, 0o600)])
def test_a_readable_file_is_made_private(tmp_path: Path, given: int, kept: int) -> None:
    db = filled(tmp_path)
    db.chmod(given)
    with Memory(path=db, home=tmp_path, embedder="hash", background_worker=False) as mem:
        mem.add("我养了一只猫", user_id="u1", sync=True)
    assert mode(db) == kept


@pytest.mark.parametrize(("given", "kept"), [(0o400, 0o400), (0o444, 0o400)])
def test_a_read_only_file_stays_read_only_and_refuses_writes(tmp_path: Path, given: int, kept: int) -> None:
    db = filled(tmp_path)
    db.chmod(given)
    before = db.read_bytes()
    with Memory(path=db, home=tmp_path, embedder="hash", background_worker=False) as mem:
        assert [r.content for r in mem.get_all(user_id="u1", status=None)]  # reads work
        assert mem.search("我住在哪里", user_id="u1")
        with pytest.raises(StoreError, match=r"read-only .*chmod u\+w"):
            mem.add("我养了一只猫", user_id="u1", sync=True)
        with pytest.raises(StoreError, match="read-only"):
            mem.add("我养了一只猫", user_id="u1")
        with pytest.raises(StoreError, match="read-only"):
            mem.delete_all(user_id="u1")
    assert mode(db) == kept
    assert db.read_bytes() == before
