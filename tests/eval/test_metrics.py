"""The metrics on hand-made rankings, with expected values worked out by hand."""

from __future__ import annotations

import math

import pytest

from jiyi.eval.metrics import (
    QuestionResult,
    abstention,
    all_at_k,
    best_threshold,
    hit_session_recall_at_k,
    knowledge_update,
    latest_first,
    ndcg_at_k,
    percentile,
    ranked_sessions,
    recall_at_k,
    reciprocal_rank,
    session_recall_at_k,
    summarize,
)

# five hits; the third is a fact pointing at two turns
RANKED = [("D1:1",), ("D2:4",), ("D3:1", "D3:2"), ("D1:7",), ("D5:5",)]


def test_recall_counts_evidence_turns_in_top_k() -> None:
    ev = ("D3:2", "D5:5", "D9:9")
    assert recall_at_k(RANKED, ev, 1) == 0.0
    assert recall_at_k(RANKED, ev, 3) == pytest.approx(1 / 3)
    assert recall_at_k(RANKED, ev, 5) == pytest.approx(2 / 3)
    assert recall_at_k(RANKED, ev, 50) == pytest.approx(2 / 3)
    assert recall_at_k(RANKED, (), 5) == 0.0


def test_all_at_k_needs_every_turn() -> None:
    assert all_at_k(RANKED, ("D1:1", "D3:1"), 2) == 0.0
    assert all_at_k(RANKED, ("D1:1", "D3:1"), 3) == 1.0
    assert all_at_k(RANKED, ("D1:1", "D9:9"), 5) == 0.0


def test_session_recall_matches_sessions_not_turns() -> None:
    # evidence sessions D1, D4: D1 is covered by D1:1 (another turn would do), D4 never
    assert session_recall_at_k(RANKED, ("D1:3", "D4:1"), 1) == 0.5
    assert session_recall_at_k(RANKED, ("D10:3",), 5) == 0.0  # D10 is not D1
    assert session_recall_at_k(RANKED, ("D5:1", "D2:9"), 5) == 1.0
    assert ranked_sessions(RANKED) == ["D1", "D2", "D3", "D5"]


def test_session_recall_counts_distinct_sessions_hit_version_counts_hits() -> None:
    # D5 is the 4th session reached but only the 5th hit (D1 comes back at hit 4)
    assert session_recall_at_k(RANKED, ("D5:1",), 4) == 1.0
    assert hit_session_recall_at_k(RANKED, ("D5:1",), 4) == 0.0
    assert hit_session_recall_at_k(RANKED, ("D5:1", "D3:9"), 5) == 1.0


def test_ndcg_binary_gain_by_hand() -> None:
    # evidence at ranks 2 and 4: DCG = 1/log2(3) + 1/log2(5); ideal = 1 + 1/log2(3)
    expected = (1 / math.log2(3) + 1 / math.log2(5)) / (1 + 1 / math.log2(3))
    assert ndcg_at_k(RANKED, ("D2:4", "D1:7"), 10) == pytest.approx(expected)
    assert ndcg_at_k(RANKED, ("D1:1",), 10) == pytest.approx(1.0)
    # a hit covering two evidence turns gains 2 at rank 3; ideal has them at ranks 1 and 2
    two = (2 / math.log2(4)) / (1 + 1 / math.log2(3))
    assert ndcg_at_k(RANKED, ("D3:1", "D3:2"), 10) == pytest.approx(two)
    assert ndcg_at_k(RANKED, ("D5:5",), 4) == 0.0


def test_mrr_is_first_evidence_rank() -> None:
    assert reciprocal_rank(RANKED, ("D1:7", "D5:5")) == pytest.approx(1 / 4)
    assert reciprocal_rank(RANKED, ("D3:2",)) == pytest.approx(1 / 3)
    assert reciprocal_rank(RANKED, ("D8:8",)) == 0.0


def test_latest_first() -> None:
    assert latest_first(RANKED, ("D2:4", "D1:7")) is True  # rank 2 above rank 4
    assert latest_first(RANKED, ("D1:7", "D2:4")) is False
    assert latest_first(RANKED, ("D1:7", "D9:9")) is True  # the outdated turn was not retrieved
    assert latest_first(RANKED, ("D9:9", "D1:1")) is False  # the latest turn was not retrieved
    assert latest_first(RANKED, ("D1:1",)) is None


def test_percentile_interpolates() -> None:
    xs = [10.0, 20.0, 30.0, 40.0, 50.0]
    assert percentile(xs, 50) == 30.0
    assert percentile(xs, 95) == pytest.approx(48.0)  # pos 3.8 → 40 + 0.8·10
    assert percentile([7.0], 95) == 7.0
    assert percentile([], 50) == 0.0


def test_best_threshold_separates() -> None:
    cut = best_threshold([0.1, 0.2, 0.3], [0.25, 0.5, 0.6, 0.7])
    # at 0.5: answerable 3/4 kept, abstention 3/3 caught → 0.875; at 0.25: 4/4 and 2/3 → 0.833
    assert cut["threshold"] == 0.5
    assert cut["balanced_accuracy"] == pytest.approx(0.875)


def _q(cat: str, ev: tuple[str, ...], ranked: list[tuple[str, ...]], top: float | None = None) -> QuestionResult:
    return QuestionResult(category=cat, evidence=ev, ranked=ranked, top_score=top, latency_ms=1.0)


def test_summarize_averages_questions_with_evidence() -> None:
    results = [_q("a", ("D1:1",), RANKED), _q("a", ("D5:5", "D9:9"), RANKED), _q("abstention", (), RANKED)]
    s = summarize(results, (1, 5))
    assert s.n == 2
    assert s.recall == {1: pytest.approx(0.5), 5: pytest.approx(0.75)}
    assert s.all_found == {1: pytest.approx(0.5), 5: pytest.approx(0.5)}
    assert s.mrr == pytest.approx((1 + 1 / 5) / 2)


def test_knowledge_update_and_abstention_reports() -> None:
    results = [_q("knowledge_update", ("D2:4", "D1:7"), RANKED), _q("knowledge_update", ("D1:7", "D1:1"), RANKED),
               _q("knowledge_update", ("D1:1",), RANKED), _q("abstention", (), RANKED, 0.2),
               _q("single_hop", ("D1:1",), RANKED, 0.9)]
    assert knowledge_update(results) == {"n": 2, "latest_first": 0.5}
    ab = abstention(results)
    assert ab["abstention"]["p50"] == 0.2 and ab["answerable"]["n"] == 1
