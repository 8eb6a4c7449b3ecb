"""Fusion of route rankings: weighted reciprocal-rank fusion (RRF)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

RRF_K = 60


def fuse_rrf(
    routes: Mapping[str, Sequence[tuple[str, float]]],
    weights: Mapping[str, float],
    k: int = RRF_K,
) -> dict[str, dict[str, float]]:
    """id → {route: weighted rrf contribution}; the fused score is the sum of the parts.

    Ranks, not raw scores, are fused: BM25 and cosine live on different scales.
    """
    parts: dict[str, dict[str, float]] = {}
    for route, ranked in routes.items():
        w = weights.get(route, 0.0)
        if w <= 0:
            continue
        for rank, (mid, _score) in enumerate(ranked):
            parts.setdefault(mid, {})[route] = w / (k + rank + 1)
    return parts


def max_fused(weights: Mapping[str, float], routes: Sequence[str], k: int = RRF_K) -> float:
    """The fused score of an item ranked first by every route that ran (for normalising to 0–1)."""
    return sum(weights.get(r, 0.0) for r in routes) / (k + 1) or 1.0
