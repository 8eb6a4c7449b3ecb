"""z-score fusion on hand-made route lists."""

from __future__ import annotations

import math

import pytest

from jiyi.read.fuse import fuse_rrf, fuse_zscore, route_zscores


def test_route_zscores_zero_filled_population() -> None:
    # keyword route: 2 matches among 4 memories → population [3, 1, 0, 0]: mean 1, sd sqrt(1.5)
    z, floor = route_zscores([("a", 3.0), ("b", 1.0)], 4, zero_filled=True)
    sd = math.sqrt(1.5)
    assert z == {"a": pytest.approx(2 / sd), "b": pytest.approx(0.0)}
    assert floor == pytest.approx(-1 / sd)


def test_route_zscores_truncated_list_fills_with_lowest() -> None:
    # vector top-2 of 3 memories: the third counts as 0.5 (the lowest listed)
    z, floor = route_zscores([("a", 0.9), ("b", 0.5)], 3, zero_filled=False)
    mean = (0.9 + 0.5 + 0.5) / 3
    sd = math.sqrt(((0.9 - mean) ** 2 + 2 * (0.5 - mean) ** 2) / 3)
    assert z["a"] == pytest.approx((0.9 - mean) / sd)
    assert floor == pytest.approx(z["b"])


def test_fuse_zscore_weights_floors_and_fallback() -> None:
    routes = {"vector": [("ep", 0.9), ("fact", 0.8), ("x", 0.7)],
              "context": [("ep", 0.9), ("x", 0.6)],  # facts have no context vector
              "keyword": [("x", 2.0)]}
    parts = fuse_zscore(routes, {"vector": 1.0, "context": 2.0, "keyword": 0.5},
                        {"vector": 3, "context": 2, "keyword": 3})
    zv, _ = route_zscores(routes["vector"], 3, zero_filled=False)
    zk, floor_k = route_zscores(routes["keyword"], 3, zero_filled=True)
    assert parts["fact"]["context"] == pytest.approx(2.0 * zv["fact"])  # falls back to its own text
    assert parts["ep"]["keyword"] == pytest.approx(0.5 * floor_k)
    assert parts["x"]["keyword"] == pytest.approx(0.5 * zk["x"])
    assert parts["ep"]["context"] == pytest.approx(2.0)  # two items: z = ±1


def test_fuse_zscore_keeps_margins_that_rrf_drops() -> None:
    # a cosine far above the crowd outweighs a narrow keyword lead; RRF ties them
    routes = {"vector": [("far", 0.95), ("b", 0.70), ("c", 0.69), ("d", 0.68)],
              "keyword": [("b", 5.0), ("far", 4.9)]}
    w = {"vector": 1.0, "keyword": 1.0}
    z = {mid: sum(p.values()) for mid, p in fuse_zscore(routes, w, {"vector": 4, "keyword": 4}).items()}
    assert z["far"] > z["b"]
    rrf = {mid: sum(p.values()) for mid, p in fuse_rrf(routes, w).items()}
    assert rrf["far"] == pytest.approx(rrf["b"])


def test_zero_weight_routes_are_ignored() -> None:
    parts = fuse_zscore({"vector": [("a", 1.0), ("b", 0.0)], "recency": [("c", 5.0)]},
                        {"vector": 1.0, "recency": 0.0}, {"vector": 2, "recency": 2})
    assert set(parts) == {"a", "b"} and all(set(p) == {"vector"} for p in parts.values())
