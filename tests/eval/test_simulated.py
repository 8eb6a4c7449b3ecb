"""The simulated reranker: its AUC is the one asked for, it labels by evidence, it runs through the read path."""

from __future__ import annotations

import math
from datetime import datetime, timezone
from pathlib import Path
from statistics import NormalDist

import pytest
from click.testing import CliRunner

from jiyi.cli import cli
from jiyi.eval.run import EvalOptions, run_eval
from jiyi.eval.simulated import SimulatedReranker, gap_for_auc, parse_aucs
from jiyi.records import Kind, MemoryRecord

T = datetime(2025, 1, 1, tzinfo=timezone.utc)


def rec(mid: str, content: str, sources: tuple[str, ...], kind: Kind = Kind.EPISODE) -> MemoryRecord:
    return MemoryRecord(id=mid, tenant="t", user_id="u", content=content, kind=kind, created_at=T, updated_at=T,
                        source_ids=sources, speaker="Ann" if kind is Kind.EPISODE else None)


@pytest.mark.parametrize("auc", [0.6, 0.7, 0.8, 0.9, 0.95])
def test_gap_gives_the_auc(auc: float) -> None:
    assert NormalDist().cdf(gap_for_auc(auc) / math.sqrt(2)) == pytest.approx(auc)


@pytest.mark.parametrize("auc", [0.7, 0.9])
def test_scores_separate_as_the_auc_says(auc: float) -> None:
    records = [rec(f"m{i}", f"turn number {i}", (f"D1:{i}",)) for i in range(400)]
    evidence = {f"question {q}": [f"D1:{i}" for i in range(q, 400, 10)] for q in range(10)}
    sim = SimulatedReranker(auc, evidence, seed=3)
    sim.index(records)
    pos: list[float] = []
    neg: list[float] = []
    for q, ids in evidence.items():
        scores = sim.rerank(q, [f"Ann: turn number {i}" for i in range(400)])
        for i, s in enumerate(scores):
            (pos if f"D1:{i}" in ids else neg).append(s)
    wins = sum(1 for p in pos for n in neg if p > n) / (len(pos) * len(neg))
    assert wins == pytest.approx(auc, abs=0.03)  # 400 positives against 3,600 negatives


def test_labels_follow_sources_and_noise_is_seeded() -> None:
    records = [rec("a", "I adopted a cat", ("D1:1",)), rec("b", "Ann adopted a cat", ("D1:1",), Kind.FACT),
               rec("c", "rain again", ("D1:2",)), rec("s", "digest", tuple(f"D{i}:1" for i in range(9)), Kind.SUMMARY)]
    sim = SimulatedReranker(0.9, {"What did Ann adopt?": ["D1:1"]}, seed=1)
    sim.index(records)
    texts = ["Ann: I adopted a cat", "Ann adopted a cat", "Ann: rain again", "digest", "never stored"]
    assert [sim.label("What did Ann adopt?", t) for t in texts] == [1, 1, 0, 0, 0]
    assert sim.label("an unknown question", texts[0]) == 0
    first = sim.rerank("What did Ann adopt?", texts)
    assert sim.rerank("What did Ann adopt?", texts[::-1]) == first[::-1]  # per pair, not per call order
    other = SimulatedReranker(0.9, {"What did Ann adopt?": ["D1:1"]}, seed=2)
    other.index(records)
    assert other.rerank("What did Ann adopt?", texts) != first


def test_parse_aucs() -> None:
    assert parse_aucs("none, 0.7,0.9") == [None, 0.7, 0.9]
    for bad in ("1.0", "0.3", "", "x"):
        with pytest.raises(ValueError):
            parse_aucs(bad)


def test_through_the_read_path(locomo_file: Path) -> None:
    base = run_eval(locomo_file, EvalOptions(ks=(1, 10)))
    sim = run_eval(locomo_file, EvalOptions(ks=(1, 10), simulate_reranker=0.99, seed=0,
                                            memory_options={"weights": {"rerank": 20.0}}))
    # a near-perfect reranker puts the Pepper turn first
    pepper = next(r for r in sim.results if "cat" in r.question)
    assert "D1:1" in pepper.ranked[0]
    assert sim.to_dict()["overall"]["mrr"] >= base.to_dict()["overall"]["mrr"]


def test_cli_prints_one_row_per_auc(locomo_file: Path, tmp_path: Path) -> None:
    out = tmp_path / "sim.json"
    res = CliRunner().invoke(cli, ["eval", "--data", str(locomo_file), "--stores", str(tmp_path / "s"),
                                   "--simulate-reranker", "none,0.9", "--json", str(out)], catch_exceptions=False)
    assert res.exit_code == 0, res.output
    rows = [line.split()[0] for line in res.output.splitlines()[3:] if line.strip()]
    assert rows == ["none", "0.9"] and "rerank weight" in res.output
    assert out.exists()
    bad = CliRunner().invoke(cli, ["eval", "--data", str(locomo_file), "--simulate-reranker", "1.5"])
    assert bad.exit_code == 2 and "outside" in bad.output
