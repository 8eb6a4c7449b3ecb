"""Candidate-set adjustments on hand-made candidates."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from jiyi.read.boosts import (
    current_boost,
    names_in,
    next_turn_boost,
    renumbered_lifts,
    said_at,
    session_boost,
    session_keyword_boost,
    speaker_boost,
    successor_lifts,
)
from jiyi.records import Kind, MemoryRecord
from jiyi.stores.protocol import SessionScores

T = datetime(2024, 1, 1, tzinfo=timezone.utc)


def ep(mid: str, *, session: str = "s1", speaker: str | None = None, prev: str | None = None,
       days: int = 0, outdated_by: str | None = None) -> MemoryRecord:
    meta: dict[str, object] = {}
    if prev:
        meta["prev_id"] = prev
    if outdated_by:
        meta["outdated_by"] = outdated_by
    return MemoryRecord(id=mid, tenant="t", user_id="u", content=mid, kind=Kind.EPISODE, created_at=T,
                        updated_at=T, valid_from=T + timedelta(days=days), source_ids=(f"m-{mid}",),
                        session_id=session, speaker=speaker, metadata=meta)


def test_next_turn_gives_a_turn_its_replys_relevance() -> None:
    cands = [(ep("q", speaker="Ann"), 1.0), (ep("a", speaker="Bo", prev="m-q"), 3.0), (ep("z"), 0.5)]
    got = next_turn_boost(cands, 0.1)
    assert got == {"q": pytest.approx(0.3), "a": pytest.approx(0.05), "z": pytest.approx(0.05)}


def test_a_speakers_own_next_turn_lends_nothing() -> None:
    """The same person going on to another topic is not an answer to the turn before."""
    cands = [(ep("q", speaker="Ann"), 1.0), (ep("a", speaker="Ann", prev="m-q"), 3.0), (ep("z"), 0.5)]
    assert next_turn_boost(cands, 0.1) == {mid: pytest.approx(0.05) for mid in ("q", "a", "z")}


def test_session_boost_is_a_zscore_of_session_best() -> None:
    cands = [(ep("a", session="s1"), 3.0), (ep("b", session="s1"), 0.0), (ep("c", session="s2"), 1.0),
             (ep("d", session="s2"), 1.0)]
    got = session_boost(cands, 1.0)
    # session bests per candidate: 3, 3, 1, 1 → mean 2, sd 1
    assert got == {"a": pytest.approx(1.0), "b": pytest.approx(1.0), "c": pytest.approx(-1.0),
                   "d": pytest.approx(-1.0)}
    assert session_boost([(ep("a"), 1.0), (ep("b"), 2.0)], 1.0) == {}  # one session: nothing to compare


def test_session_keyword_boost_lifts_only_sessions_far_above_the_rest() -> None:
    cands = [(ep("a", session="s1"), 1.0), (ep("b", session="s2"), 1.0), (ep("c", session="s3"), 1.0)]
    # ten sessions: s1 scores 9, s2 scores 1, the other eight 0 → mean 1, sd = sqrt((64 + 0 + 8) / 10)
    found = SessionScores({"s1": 9.0, "s2": 1.0}, 10)
    sd = (72 / 10) ** 0.5
    got = session_keyword_boost(cands, found, 2.0, 1.0)
    assert got == {"a": pytest.approx(2.0 * (8 / sd - 1.0))}  # s2 is at the mean, s3 below it
    assert session_keyword_boost(cands, found, 2.0, 8 / sd) == {}  # nothing beyond the shift
    assert session_keyword_boost(cands, SessionScores(), 2.0, 1.0) == {}
    assert session_keyword_boost(cands, None, 2.0, 1.0) == {}
    assert session_keyword_boost(cands, found, 0.0, 1.0) == {}
    # a store that lists only the best sessions gives the moments of all of them: same z
    top_only = SessionScores({"s1": 9.0}, 10, mean=1.0, variance=72 / 10)
    assert session_keyword_boost(cands, top_only, 2.0, 1.0) == got


def test_speaker_named_in_query() -> None:
    cands = [(ep("a", speaker="Caroline"), 1.0), (ep("b", speaker="Melanie"), 1.0)]
    assert speaker_boost(cands, "What did Caroline paint?", 0.5) == {"a": 0.5}
    assert speaker_boost(cands, "What did Carol paint?", 0.5) == {}
    only = [(ep("a", speaker="Caroline"), 1.0)]
    assert speaker_boost(only, "What did Caroline paint?", 0.5) == {}  # everyone matches: no signal
    assert names_in("林晓雯", "林晓雯的订单") and names_in("John Smith", "where does john live")
    # the user's own turns keep the name they were said under beside them (write/names.py)
    own = ep("c").replace(metadata={"role": "user", "name": "Caroline"})
    assert speaker_boost([(own, 1.0), cands[1]], "What did Caroline paint?", 0.5) == {"c": 0.5}


def test_current_boost_ranks_newer_higher() -> None:
    cands = [(ep("old", days=0), 1.0), (ep("mid", days=5), 1.0), (ep("new", days=10), 1.0)]
    assert current_boost(cands, 2.0) == {"old": 0.0, "mid": pytest.approx(1.0), "new": pytest.approx(2.0)}


def test_successor_lands_just_above_what_it_outdated() -> None:
    cands = [(ep("old", outdated_by="new"), 0.0), (ep("new"), 0.0)]
    lifts = successor_lifts(cands, {"old": 2.0, "new": 0.5})
    assert lifts == {"new": pytest.approx(1.51)}
    assert successor_lifts(cands, {"old": 0.2, "new": 0.5}) == {}  # already above


def test_the_turn_that_ended_a_memory_lands_just_above_it() -> None:
    """"那台朗逸我给我侄子了 我现在骑电瓶车上班" ended "开了十一年的老朗逸": what is now ranks above it."""
    cands = [(ep("car").replace(metadata={"ended_by": "gave"}), 0.0), (ep("gave"), 0.0)]
    assert successor_lifts(cands, {"car": 2.0, "gave": 0.5}, enders=True) == {"gave": pytest.approx(1.51)}
    assert successor_lifts(cands, {"car": 2.0, "gave": 0.5}) == {}  # evidence search ranks by the query alone


def test_new_numbers_for_the_same_thing_rank_above_the_old_ones() -> None:
    """"粉涨了一块 二两16 三两19" after "粉的价钱 二两15块 三两18块": the new prices rank above the old."""
    old = ep("old", days=0).replace(content="粉的价钱 二两15块 三两18块")
    new = ep("new", days=30).replace(content="羊肉又涨了 粉涨了一块 二两16 三两19")
    other = ep("other", days=30, speaker="老王").replace(content="粉涨了一块 二两16 三两19")
    cands = [(old, 0.0), (new, 0.0), (other, 0.0)]
    assert renumbered_lifts(cands, {"old": 2.0, "new": 0.5, "other": 0.1}) == {"new": pytest.approx(1.51)}
    assert renumbered_lifts(cands, {"old": 0.2, "new": 0.5, "other": 0.1}) == {}  # already above
    fact_old = old.replace(id="f1", kind=Kind.FACT, content="用户平时四百八，周末六百八")
    fact_new = new.replace(id="f2", kind=Kind.FACT, content="用户平时三百八，周末四百八")  # its word of change stayed in its turn
    assert renumbered_lifts([(fact_old, 0.0), (fact_new, 0.0)], {"f1": 1.0, "f2": 0.0}) == {"f2": pytest.approx(1.01)}


def test_current_boost_orders_only_the_candidates_near_the_best() -> None:
    cands = [(ep("old", days=0), 5.0), (ep("new", days=10), 4.0), (ep("noise", days=20), 1.0)]
    assert current_boost(cands, 3.0) == {"old": 0.0, "new": pytest.approx(1.5), "noise": pytest.approx(3.0)}
    assert current_boost(cands, 3.0, window=2.0) == {"old": 0.0, "new": pytest.approx(3.0)}
    assert current_boost(cands, 3.0, window=0.5) == {}  # one candidate near the best: nothing to order


def test_said_at_is_the_turn_time_or_the_record_time_of_a_fact() -> None:
    turn = ep("t", days=3)
    fact = turn.replace(kind=Kind.EVENT, valid_from=T - timedelta(days=400), created_at=T + timedelta(days=3))
    assert said_at(turn) == said_at(fact) == T + timedelta(days=3)
