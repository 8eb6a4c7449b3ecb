"""Retrieval metrics over ranked hits, as pure functions.

A ranking is a sequence of hits, each given as the turn ids it came from (a hit's
``source_ids``: one for an episode, possibly several for an extracted fact). The top
k of a ranking covers the union of its first k hits' turn ids. ``evidence`` is the
set of turn ids that hold the answer.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from jiyi.eval.locomo import session_of

Ranking = Sequence[Sequence[str]]


def covered(ranked: Ranking, k: int) -> set[str]:
    """Turn ids covered by the first ``k`` hits."""
    return {sid for hit in ranked[:k] for sid in hit}


def recall_at_k(ranked: Ranking, evidence: Sequence[str], k: int) -> float:
    """Share of the evidence turns found in the top ``k`` (0 when there is no evidence)."""
    ev = set(evidence)
    return len(ev & covered(ranked, k)) / len(ev) if ev else 0.0


def all_at_k(ranked: Ranking, evidence: Sequence[str], k: int) -> float:
    """1 when every evidence turn is in the top ``k``, else 0."""
    ev = set(evidence)
    return 1.0 if ev and ev <= covered(ranked, k) else 0.0


def ranked_sessions(ranked: Ranking) -> list[str]:
    """Sessions in the order the ranking first reaches them (a session ranks by its best hit)."""
    return list(dict.fromkeys(session_of(sid) for hit in ranked for sid in hit))


def session_recall_at_k(ranked: Ranking, evidence: Sequence[str], k: int) -> float:
    """Session-level recall: share of the evidence's sessions among the first ``k`` sessions reached.

    Sessions are the retrieval unit here: the ranking is read as a ranking of sessions
    (each placed by its best hit), as when a session is handed to a reader whole.
    """
    want = {session_of(e) for e in evidence}
    got = set(ranked_sessions(ranked)[:k])
    return len(want & got) / len(want) if want else 0.0


def hit_session_recall_at_k(ranked: Ranking, evidence: Sequence[str], k: int) -> float:
    """Share of the evidence's sessions that one of the top ``k`` hits comes from."""
    want = {session_of(e) for e in evidence}
    got = {session_of(t) for t in covered(ranked, k)}
    return len(want & got) / len(want) if want else 0.0


def ndcg_at_k(ranked: Ranking, evidence: Sequence[str], k: int = 10) -> float:
    """Binary-gain nDCG: a hit gains one per evidence turn it covers first (no double counting)."""
    ev = set(evidence)
    if not ev:
        return 0.0
    seen: set[str] = set()
    dcg = 0.0
    for i, hit in enumerate(ranked[:k]):
        new = (set(hit) & ev) - seen
        seen |= new
        dcg += len(new) / math.log2(i + 2)
    ideal = sum(1.0 / math.log2(i + 2) for i in range(min(len(ev), k)))
    return min(1.0, dcg / ideal)


def first_rank(ranked: Ranking, turn: str) -> int | None:
    """1-based rank of the first hit covering ``turn``, or None."""
    for i, hit in enumerate(ranked):
        if turn in hit:
            return i + 1
    return None


def reciprocal_rank(ranked: Ranking, evidence: Sequence[str]) -> float:
    """1 / rank of the first hit covering any evidence turn (0 if none does)."""
    ev = set(evidence)
    for i, hit in enumerate(ranked):
        if ev & set(hit):
            return 1.0 / (i + 1)
    return 0.0


def latest_first(ranked: Ranking, evidence: Sequence[str]) -> bool | None:
    """Does the latest evidence turn (listed first) outrank every older one?

    None when there is nothing to compare (fewer than two evidence turns). The latest
    turn must itself be retrieved; an older turn that was not retrieved counts as
    ranked below it.
    """
    if len(evidence) < 2:
        return None
    latest = first_rank(ranked, evidence[0])
    if latest is None:
        return False
    older = [first_rank(ranked, e) for e in evidence[1:]]
    return all(r is None or latest < r for r in older)


def percentile(values: Sequence[float], p: float) -> float:
    """The ``p``-th percentile by linear interpolation between closest ranks (numpy's default)."""
    if not values:
        return 0.0
    xs = sorted(values)
    pos = (len(xs) - 1) * p / 100.0
    lo = math.floor(pos)
    hi = min(lo + 1, len(xs) - 1)
    return xs[lo] + (xs[hi] - xs[lo]) * (pos - lo)


def describe(values: Sequence[float]) -> dict[str, float]:
    """n, min, p25, median, p75, max, mean of a sample."""
    if not values:
        return {"n": 0}
    return {"n": len(values), "min": min(values), "p25": percentile(values, 25), "p50": percentile(values, 50),
            "p75": percentile(values, 75), "max": max(values), "mean": sum(values) / len(values)}


def best_threshold(abstain: Sequence[float], answerable: Sequence[float]) -> dict[str, float]:
    """The top-hit score cut that best separates abstention from answerable questions.

    Answer when top score ≥ threshold, abstain below. Chooses the cut with the highest
    balanced accuracy (mean of the two per-class accuracies), ties to the lower cut.
    """
    if not abstain or not answerable:
        return {}
    cuts = sorted(set(abstain) | set(answerable))
    cuts.append(cuts[-1] + 1e-9)
    best = (-1.0, 0.0, 0.0, 0.0)
    for t in cuts:
        keep = sum(1 for s in answerable if s >= t) / len(answerable)
        drop = sum(1 for s in abstain if s < t) / len(abstain)
        bal = (keep + drop) / 2
        if bal > best[0]:
            best = (bal, t, keep, drop)
    return {"threshold": best[1], "balanced_accuracy": best[0], "answerable_kept": best[2],
            "abstention_caught": best[3]}


@dataclass(slots=True)
class QuestionResult:
    """One question's outcome: its evidence, the ranking returned, the top score and the latency."""

    category: str
    evidence: tuple[str, ...]
    ranked: list[tuple[str, ...]]
    top_score: float | None
    latency_ms: float
    question: str = ""
    conversation: str = ""


@dataclass(slots=True)
class Summary:
    """Averages of every metric over a group of questions."""

    n: int
    recall: dict[int, float] = field(default_factory=dict)
    all_found: dict[int, float] = field(default_factory=dict)
    session_recall: dict[int, float] = field(default_factory=dict)
    hit_session_recall: dict[int, float] = field(default_factory=dict)
    ndcg10: float = 0.0
    mrr: float = 0.0

    def to_dict(self) -> dict[str, object]:
        return {"n": self.n, "recall": _keyed(self.recall), "all": _keyed(self.all_found),
                "session_recall": _keyed(self.session_recall),
                "hit_session_recall": _keyed(self.hit_session_recall), "ndcg@10": self.ndcg10, "mrr": self.mrr}


def _keyed(d: Mapping[int, float]) -> dict[str, float]:
    return {f"@{k}": v for k, v in d.items()}


def summarize(results: Sequence[QuestionResult], ks: Sequence[int]) -> Summary:
    """Mean of each metric over the questions that have evidence."""
    scored = [r for r in results if r.evidence]
    n = len(scored)
    if not n:
        return Summary(0)

    def at_k(metric: Callable[[Ranking, Sequence[str], int], float]) -> dict[int, float]:
        return {k: sum(metric(r.ranked, r.evidence, k) for r in scored) / n for k in ks}

    return Summary(
        n=n,
        recall=at_k(recall_at_k),
        all_found=at_k(all_at_k),
        session_recall=at_k(session_recall_at_k),
        hit_session_recall=at_k(hit_session_recall_at_k),
        ndcg10=sum(ndcg_at_k(r.ranked, r.evidence, 10) for r in scored) / n,
        mrr=sum(reciprocal_rank(r.ranked, r.evidence) for r in scored) / n,
    )


def by_category(results: Iterable[QuestionResult]) -> dict[str, list[QuestionResult]]:
    groups: dict[str, list[QuestionResult]] = {}
    for r in results:
        groups.setdefault(r.category, []).append(r)
    return dict(sorted(groups.items()))


def knowledge_update(results: Sequence[QuestionResult], category: str = "knowledge_update") -> dict[str, float]:
    """Share of update questions whose latest evidence turn outranks the outdated ones."""
    verdicts = [v for r in results if r.category == category
                if (v := latest_first(r.ranked, r.evidence)) is not None]
    if not verdicts:
        return {}
    return {"n": len(verdicts), "latest_first": sum(verdicts) / len(verdicts)}


def abstention(results: Sequence[QuestionResult], category: str = "abstention") -> dict[str, object]:
    """Top-hit scores of questions with no answer against answerable ones, and the best cut."""
    absent = [r.top_score for r in results if r.category == category and r.top_score is not None]
    present = [r.top_score for r in results if r.category != category and r.evidence and r.top_score is not None]
    if not absent:
        return {}
    return {"abstention": describe(absent), "answerable": describe(present),
            "best_cut": best_threshold(absent, present)}
