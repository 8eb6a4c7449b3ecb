"""Every way a stored memory is indexed again gives what ingesting it gives: ``jiyi reembed``
(switching models), ``Memory.update`` and import.

Two widths of the hashing embedder stand for two models (no download, exact vectors).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from click.testing import CliRunner

from jiyi import EmbeddingMismatch, Memory
from jiyi.cli import cli
from jiyi.maintain.reembed import EVERYTHING, reembed
from jiyi.records import Kind
from jiyi.write.embed import CachedEmbedder

TURNS = [{"role": "user", "content": "我下个月要搬到杭州了", "id": "t1", "name": "小王"},
         {"role": "assistant", "content": "杭州不错，西湖边很适合散步", "id": "t2"},
         {"role": "user", "content": "对，我还想在那边养一只猫", "id": "t3", "name": "小王"}]


def _fill(mem: Memory) -> None:
    mem.add(TURNS, user_id="u1", session_id="s1", sync=True)
    mem.remember("用户对花生过敏", user_id="u1")
    gone = mem.remember("用户喜欢爬山", user_id="u2")
    mem.delete(gone.id, user_id="u2")


def _count(mem: Memory) -> int:
    return sum(len(mem.store.list(mem._scope(u), EVERYTHING)) for u in ("u1", "u2"))


def _vectors_by_source(mem: Memory, user: str, channel: str) -> dict[str, np.ndarray]:
    """Each memory's vector on ``channel``, keyed by its source turns (or its content for a fact)."""
    scope = mem._scope(user)
    recs = mem.store.list(scope, EVERYTHING)
    found = mem.store.vectors(scope, [r.id for r in recs], channel)
    return {(",".join(r.source_ids) if r.kind is Kind.EPISODE else r.content): found[r.id]
            for r in recs if r.id in found}


def test_reembed_gives_every_memory_the_vectors_a_fresh_store_of_the_new_model_has(
        make_memory: Any, tmp_path: Path) -> None:
    old = make_memory(embedder="hash", embedder_model="hash-64")
    _fill(old)
    store = old.store
    total = _count(old)
    report = reembed(store, CachedEmbedder(_hash(32), store), batch=2)
    assert store.embedding_info() == ("hash-32", 32)
    assert report.previous == ("hash-64", 64) and report.users == 2 and report.embedded == total and report.kept == 0
    fresh = make_memory(embedder="hash", embedder_model="hash-32", path=tmp_path / "fresh.db")
    _fill(fresh)
    for user in ("u1", "u2"):
        for channel in ("content", "context"):
            got, want = _vectors_by_source(old, user, channel), _vectors_by_source(fresh, user, channel)
            assert got.keys() == want.keys()
            for key in want:
                np.testing.assert_allclose(got[key], want[key], atol=1e-6)
    assert _vectors_by_source(old, "u1", "context").keys() == {"t2", "t3"}  # the first turn has none
    assert all(r.embedding_model == "hash-32" for r in store.list(old._scope("u1"), EVERYTHING))


def test_an_interrupted_reembed_resumes_with_the_memories_left(make_memory: Any) -> None:
    mem = make_memory(embedder="hash", embedder_model="hash-64")
    _fill(mem)
    embedder = CachedEmbedder(_hash(32), mem.store)

    def crash(*_: object) -> None:
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        reembed(mem.store, embedder, batch=2, progress=crash)
    again = reembed(mem.store, embedder, batch=2)
    assert again.previous == ("hash-32", 32) and again.kept == 2 and again.embedded == _count(mem) - 2
    assert reembed(mem.store, embedder).embedded == 0  # nothing left: a third run changes nothing


def test_the_cli_switches_models_only_when_confirmed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("JIYI_EMBEDDER", "hash")
    monkeypatch.setenv("JIYI_EMBEDDER_MODEL", "hash-64")
    _cli(tmp_path, "remember", "-u", "u1", "用户对花生过敏")
    monkeypatch.setenv("JIYI_EMBEDDER_MODEL", "hash-32")
    refused = CliRunner().invoke(cli, ["--home", str(tmp_path), "search", "-u", "u1", "花生"])
    assert refused.exit_code != 0 and "jiyi reembed" in refused.output
    declined = CliRunner().invoke(cli, ["--home", str(tmp_path), "reembed"], input="n\n")
    assert declined.exit_code != 0 and "hash-64" in declined.output
    report = json.loads(_cli(tmp_path, "reembed", "--yes", "--json"))
    assert report["model"] == "hash-32" and report["previous"] == ["hash-64", 64] and report["embedded"] == 1
    hits = json.loads(_cli(tmp_path, "search", "-u", "u1", "花生过敏", "--json"))
    assert [h["content"] for h in hits] == ["用户对花生过敏"]


def test_a_store_of_another_model_is_refused_until_reembedded(make_memory: Any) -> None:
    make_memory(embedder="hash", embedder_model="hash-64").remember("用户住在武汉", user_id="u1")
    with pytest.raises(EmbeddingMismatch, match="jiyi reembed"):
        make_memory(embedder="hash", embedder_model="hash-32")


def test_an_edited_turn_is_indexed_as_if_it_had_been_said_that_way(make_memory: Any, tmp_path: Path) -> None:
    mem = make_memory(embedder="hash", embedder_model="hash-64")
    mem.add(TURNS, user_id="u1", session_id="s1", sync=True)
    third = next(r for r in mem.get_all(user_id="u1", kinds=["episode"]) if r.source_ids == ("t3",))
    mem.update(third.id, "对，我还想在那边养一只狗", user_id="u1")
    said = make_memory(embedder="hash", embedder_model="hash-64", path=tmp_path / "said.db")
    said.add([*TURNS[:2], {**TURNS[2], "content": "对，我还想在那边养一只狗"}], user_id="u1", session_id="s1", sync=True)
    for channel in ("content", "context"):
        np.testing.assert_allclose(_vectors_by_source(mem, "u1", channel)["t3"],
                                   _vectors_by_source(said, "u1", channel)["t3"], atol=1e-6)
    scope = mem._scope("u1")  # the speaker's name is indexed with the new text, as ingest indexes it
    assert third.id in {i for i, _ in mem.store.keyword_search(scope, ["小王"], 10, EVERYTHING)}
    assert third.id in {i for i, _ in mem.store.keyword_search(scope, ["狗"], 10, EVERYTHING)}


def test_an_imported_user_is_indexed_as_the_exported_one_was(make_memory: Any, tmp_path: Path) -> None:
    source = make_memory(embedder="hash", embedder_model="hash-64")
    _fill(source)
    rows = list(source.export(user_id="u1"))
    target = make_memory(embedder="hash", embedder_model="hash-64", path=tmp_path / "target.db")
    assert target.import_(rows) == len(rows)
    for channel in ("content", "context"):
        got, want = _vectors_by_source(target, "u1", channel), _vectors_by_source(source, "u1", channel)
        assert got.keys() == want.keys()
        for key in want:
            np.testing.assert_allclose(got[key], want[key], atol=1e-6)
    for query in ("杭州", "小王", "花生"):
        assert [h.content for h in target.search(query, user_id="u1")][:3] == \
            [h.content for h in source.search(query, user_id="u1")][:3]


def _hash(dim: int) -> Any:
    from jiyi.embedders.hashing import HashingEmbedder

    return HashingEmbedder(dim)


def _cli(home: Path, *args: str) -> str:
    result = CliRunner().invoke(cli, ["--home", str(home), *args], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result.output
