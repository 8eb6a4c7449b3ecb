"""recall() end to end on a real store: named speakers, and no record decoded twice per search."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime, timezone
from typing import Any

from jiyi import Memory
from jiyi.records import Hit, Kind, MemoryRecord, Scope

TALK = [
    {"role": "user", "name": "Caroline", "content": "I live in Boston and I love pottery.", "id": "D1:1"},
    {"role": "user", "name": "Melanie", "content": "I'm allergic to peanuts, so I bake without them.", "id": "D1:2"},
    {"role": "user", "name": "Caroline", "content": "I went hiking with my sister last weekend.", "id": "D1:3"},
    {"role": "user", "name": "Melanie", "content": "I live in Denver now.", "id": "D1:4"},
]


def test_two_speakers_facts_name_them_and_keep_their_own_city(make_memory: Callable[..., Memory]) -> None:
    mem = make_memory()
    mem.add(TALK, user_id="u1", session_id="s1", sync=True)
    facts = {r.content: r for r in mem.get_all(user_id="u1") if r.kind is not Kind.EPISODE}
    assert "Melanie is allergic to peanuts" in facts
    assert {"Caroline lives in Boston", "Melanie lives in Denver"} <= set(facts)  # neither superseded
    assert "Melanie" in facts["Melanie is allergic to peanuts"].entities
    hits = mem.search("What is Melanie allergic to?", user_id="u1", limit=3)
    assert any(h.source_ids == ("D1:2",) for h in hits)


def test_entity_seeds_are_not_fetched_again(make_memory: Callable[..., Memory]) -> None:
    mem = make_memory(weights={"entity": 0.1})
    mem.add(TALK, user_id="u1", session_id="s1", sync=True)
    asked: list[str] = []
    real: Callable[[Scope, Sequence[str]], list[MemoryRecord]] = mem.store.get_many

    def spy(scope: Scope, ids: Sequence[str]) -> Any:
        asked.extend(ids)
        return real(scope, ids)

    mem.store.get_many = spy  # type: ignore[method-assign]
    hits = mem.search("Where does Caroline live?", user_id="u1", limit=5)
    assert hits and len(asked) == len(set(asked))


def _hit(mid: str, kind: str, sources: tuple[str, ...], score: float) -> Hit:
    t = datetime(2025, 3, 5, tzinfo=timezone.utc)
    rec = MemoryRecord(id=mid, tenant="t", user_id="u", content=mid, kind=Kind(kind), created_at=t,
                       updated_at=t, source_ids=sources)
    return Hit(rec, score, {})


def test_a_distilled_memory_takes_the_place_of_its_raw_turn_and_scores_descend() -> None:
    from jiyi.read.recall import novel_first

    hits = [_hit("turn", "episode", ("m1",), 0.9), _hit("other", "episode", ("m2",), 0.8),
            _hit("fact", "fact", ("m1",), 0.7), _hit("third", "episode", ("m3",), 0.6)]
    out = novel_first(hits)
    assert [h.id for h in out] == ["fact", "other", "third", "turn"]
    assert [h.source_ids for h in out[:3]] == [("m1",), ("m2",), ("m3",)]  # same turns covered per rank
    assert out[0].score == 0.9 and out[0].scores["took_place_of_turn"] == 0.9
    assert [h.score for h in out] == sorted((h.score for h in out), reverse=True)
    assert out[-1].scores["capped_from"] == 0.9


def test_a_fact_with_other_sources_does_not_swap() -> None:
    from jiyi.read.recall import novel_first

    hits = [_hit("turn", "episode", ("m1",), 0.9), _hit("fact", "fact", ("m1", "m2"), 0.7)]
    assert [h.id for h in novel_first(hits)] == ["turn", "fact"]


def test_a_session_whose_turns_share_the_querys_words_lifts_its_turns(make_memory: Callable[..., Memory]) -> None:
    """The words of the question spread over one session's turns: that session's turns get the lift."""
    mem = make_memory(weights={"session_keyword_shift": 1.0})
    trip = ["We drove up to the lake on Friday.", "The kids built a sandcastle.", "Then a storm came at night."]
    for n, text in enumerate(trip):
        mem.add([{"role": "user", "content": text, "id": f"trip:{n}"}], user_id="u1", session_id="trip", sync=True)
    for s in range(8):
        mem.add([{"role": "user", "content": f"Work meeting number {s} about the quarterly budget.",
                  "id": f"work{s}:0"}], user_id="u1", session_id=f"work{s}", sync=True)
    hits = mem.search("lake sandcastle storm", user_id="u1", limit=20)
    lifted = {h.source_ids[0] for h in hits if h.scores.get("session_keyword", 0) > 0}
    assert lifted and lifted <= {f"trip:{n}" for n in range(3)}
    assert not any(h.scores.get("session_keyword") for h in hits if h.record.session_id != "trip")
    off = make_memory(weights={"session_keyword": 0.0})
    off.add([{"role": "user", "content": trip[0], "id": "x"}], user_id="u1", session_id="trip", sync=True)
    assert all("session_keyword" not in h.scores for h in off.search("lake", user_id="u1"))
