"""Storage trouble reaches the caller as a StoreError naming the store's path (never a raw sqlite3 error)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from jiyi.errors import ConfigError, StoreError
from jiyi.memory import Memory


def _conn(mem: Memory) -> sqlite3.Connection:
    """This thread's connection to the store (a real SQLite setting is changed on it, nothing is patched)."""
    return mem.store._pool.get()  # type: ignore[attr-defined,no-any-return]


def test_a_read_only_store_is_a_store_error_naming_the_path(mem: Memory) -> None:
    mem.add("我住在上海", user_id="u1", sync=True)
    _conn(mem).execute("PRAGMA query_only = ON")
    with pytest.raises(StoreError) as err:
        mem.add("我搬到杭州了", user_id="u1", sync=True)
    assert "jiyi.db" in str(err.value) and "readonly" in str(err.value)
    with pytest.raises(StoreError):
        mem.remember("我喜欢咖啡", user_id="u1")
    _conn(mem).execute("PRAGMA query_only = OFF")
    assert mem.search("住在哪", user_id="u1")


def test_a_full_disk_is_a_store_error_naming_the_path(mem: Memory) -> None:
    mem.add("我住在上海", user_id="u1", sync=True)
    conn = _conn(mem)
    pages = conn.execute("PRAGMA page_count").fetchone()[0]
    conn.execute(f"PRAGMA max_page_count = {pages}")
    with pytest.raises(StoreError) as err:
        for i in range(200):
            mem.add(f"第{i}条：我今天学了很多关于数据库和存储空间的知识。" * 20, user_id="u1", sync=True)
    assert "jiyi.db" in str(err.value) and "full" in str(err.value)


@pytest.mark.parametrize("config", [{"path": "/"}, {"path": "DIR"}, {"home": "FILE"}])
def test_a_store_path_that_is_a_directory_or_a_home_that_is_a_file(tmp_path: Path, config: dict[str, str]) -> None:
    (tmp_path / "file").write_text("x", encoding="utf-8")
    real = {k: {"DIR": str(tmp_path), "FILE": str(tmp_path / "file")}.get(v, v) for k, v in config.items()}
    with pytest.raises(StoreError):
        Memory(embedder="hash", background_worker=False, **real)  # type: ignore[arg-type]


def test_broken_configuration_is_a_config_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "config.toml").write_text("store = [\n", encoding="utf-8")
    monkeypatch.setenv("JIYI_HOME", str(tmp_path))
    with pytest.raises(ConfigError):
        Memory(embedder="hash", background_worker=False)
    monkeypatch.delenv("JIYI_HOME")
    monkeypatch.setenv("JIYI_WEIGHTS", "{not json")
    with pytest.raises(ConfigError):
        Memory(home=tmp_path / "other", embedder="hash", background_worker=False)
