"""A simulated reranker of a chosen quality, for measuring what a reranker would buy (eval only).

It scores a candidate as ``d · label + ε``, ε ~ N(0, 1), where ``label`` is 1 when the
memory traces back to one of the question's evidence turns (at most
``MAX_SOURCES_PER_HIT`` of them, as the metrics count) and 0 otherwise. For two unit
Gaussians a mean gap ``d`` separates a relevant from an irrelevant candidate with
probability ``AUC = Φ(d/√2)``, so ``d = √2 · Φ⁻¹(AUC)``. The noise is drawn from a hash
of (seed, question, text): the same pair scores the same in every run, whatever the
candidate count or weights, so variants differ only in what they change.

It is no model: it knows the answer key. It runs through the real read path (fusion,
the gate, the boosts, the rerank step, dedup) and so measures how much of a given
reranker quality jiyi's ranking lets through. ``jiyi eval --simulate-reranker 0.8,0.9``.
"""

from __future__ import annotations

import hashlib
import math
import random
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from statistics import NormalDist
from typing import TYPE_CHECKING, Any

from jiyi.records import MemoryRecord
from jiyi.write.episodes import index_text

if TYPE_CHECKING:
    from jiyi.eval.run import EvalOptions


def gap_for_auc(auc: float) -> float:
    """The mean gap ``d`` of two unit Gaussians whose AUC is ``auc`` (0.5 < auc < 1)."""
    if not 0.5 <= auc < 1.0:
        raise ValueError(f"AUC {auc} is outside [0.5, 1)")
    return math.sqrt(2.0) * NormalDist().inv_cdf(auc)


class SimulatedReranker:
    """The evidence label plus seeded Gaussian noise (a :class:`~jiyi.rerankers.protocol.Reranker`).

    ``evidence`` maps each question to its evidence turn ids. Call :meth:`index` with the
    conversation's memories before searching: it learns which turns each text comes from.
    """

    name = "simulated"

    def __init__(self, auc: float, evidence: Mapping[str, Sequence[str]], *, seed: int = 0,
                 max_sources: int = 5) -> None:
        self.auc, self.gap, self.seed = auc, gap_for_auc(auc), seed
        self._evidence = {q.strip(): frozenset(ids) for q, ids in evidence.items()}
        self._max_sources = max_sources
        self._sources: dict[str, frozenset[str]] = {}

    def index(self, records: Iterable[MemoryRecord]) -> None:
        """Learn the source turns of every memory's text (texts shared by several memories: all of them)."""
        for rec in records:
            if len(rec.source_ids) <= self._max_sources:
                text = index_text(rec)
                self._sources[text] = self._sources.get(text, frozenset()) | frozenset(rec.source_ids)

    def label(self, query: str, text: str) -> int:
        return int(bool(self._sources.get(text, frozenset()) & self._evidence.get(query.strip(), frozenset())))

    def rerank(self, query: str, texts: Sequence[str]) -> list[float]:
        return [self.gap * self.label(query, t) + self._noise(query, t) for t in texts]

    def _noise(self, query: str, text: str) -> float:
        digest = hashlib.sha256(f"{self.seed}\x00{query}\x00{text}".encode()).digest()
        return random.Random(int.from_bytes(digest[:8], "big")).gauss(0.0, 1.0)


def parse_aucs(text: str) -> list[float | None]:
    """``none,0.8,0.9`` → [None, 0.8, 0.9] (None: no reranker); ValueError outside [0.5, 1)."""
    out: list[float | None] = []
    for part in (p.strip().lower() for p in text.split(",")):
        if part in ("none", "off"):
            out.append(None)
        elif part:
            value = float(part)
            gap_for_auc(value)
            out.append(value)
    if not out:
        raise ValueError("no AUC given")
    return out


def format_simulations(reports: Mapping[str, Mapping[str, Any]], *, candidates: int, weight: float) -> str:
    """One row per simulated AUC: recall@k, all@10, session recall@10, MRR over the main categories."""
    head = f"{'reranker':<10}{'R@5':>7}{'R@10':>7}{'all@10':>8}{'sess@10':>9}{'MRR':>7}"
    lines = [f"simulated reranker: {candidates} candidates, rerank weight {weight:g}", head, "-" * len(head)]
    for name, data in reports.items():
        o = data["overall"]
        lines.append(f"{name:<10}{o['recall']['@5']:>7.3f}{o['recall']['@10']:>7.3f}{o['all']['@10']:>8.3f}"
                     f"{o['session_recall']['@10']:>9.3f}{o['mrr']:>7.3f}")
    return "\n".join(lines)


def run_simulations(data: Path, opts: EvalOptions, aucs: str, *, seed: int = 0,
                    json_out: Path | None = None) -> str:
    """``run_eval`` once per AUC of ``aucs`` (text, see :func:`parse_aucs`); the table as text."""
    import json

    from jiyi.config import load_settings
    from jiyi.eval.run import run_eval
    from jiyi.read.rank import DEFAULT_WEIGHTS

    reports: dict[str, dict[str, Any]] = {}
    for auc in parse_aucs(aucs):
        opts.simulate_reranker, opts.seed = auc, seed
        reports["none" if auc is None else f"{auc:g}"] = run_eval(data, opts).to_dict(questions=False)
    if json_out is not None:
        json_out.write_text(json.dumps(reports, ensure_ascii=False, indent=1), encoding="utf-8")
    settings = load_settings()
    weight = {**DEFAULT_WEIGHTS, **settings.weights}["rerank"]
    return format_simulations(reports, candidates=settings.reranker_candidates, weight=weight)
