"""z-score fusion on hand-made route lists."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest

from jiyi.read.fuse import fuse_arrays, fuse_rrf, fuse_zscore, route_zscores
from jiyi.stores.protocol import Pairs, ScoreStats


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


@pytest.mark.parametrize("population", [40, 90])
def test_a_short_list_with_store_statistics_fuses_as_the_deep_list(population: int) -> None:
    # 40 memories scored (vector routes: all of them; keyword: the matches); at 90 the rest are fills
    rng = np.random.default_rng(population)
    routes = {name: sorted(((f"m{i}", float(s)) for i, s in enumerate(rng.random(40) * scale) if s > cut),
                           key=lambda t: -t[1])
              for name, scale, cut in (("vector", 1.0, 0.0), ("context", 0.9, 0.0), ("keyword", 5.0, 0.6))}
    weights = {"vector": 1.0, "context": 0.5, "keyword": 0.7}
    pop = {"vector": population, "context": population, "keyword": population}
    deep = fuse_arrays(routes, weights, pop, depth=10)
    stats = {}
    for name, found in routes.items():
        scores = np.array([s for _, s in found])
        stats[name] = ScoreStats(len(scores), float(scores.mean()), float(scores.var()), float(scores.min()))
    short = fuse_arrays({name: found[:10] for name, found in routes.items()}, weights, pop, depth=10, stats=stats)
    assert short.ids == deep.ids
    np.testing.assert_allclose(short.parts, deep.parts, rtol=1e-12, atol=1e-12)
    assert short.best(15) == deep.best(15)


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


def _reference_fuse(routes: dict[str, list[tuple[str, float]]], weights: dict[str, float],
                    population: dict[str, int], depth: int = 200) -> dict[str, dict[str, float]]:
    """The dict-per-item fusion the read path used before :func:`fuse_arrays` (kept as the oracle)."""
    zs = {}
    for r, found in routes.items():
        if weights.get(r, 0.0) <= 0 or not found:
            continue
        scores = np.fromiter((s for _, s in found), dtype=np.float64, count=len(found))
        fill = 0.0 if r in ("keyword", "entity") else float(scores.min())
        n = max(population.get(r, len(found)), len(scores))
        rest = n - len(scores)
        mean = (float(scores.sum()) + rest * fill) / n
        var = (float(((scores - mean) ** 2).sum()) + rest * (fill - mean) ** 2) / n
        sd = math.sqrt(var) if var > 1e-12 else 1.0
        z = (scores[:depth] - mean) / sd
        zs[r] = ({mid: float(v) for (mid, _), v in zip(found[:depth], z)}, (fill - mean) / sd)
    out: dict[str, dict[str, float]] = {}
    for mid in {m for z, _ in zs.values() for m in z}:
        parts = {}
        for r, (z, floor) in zs.items():
            value = z.get(mid)
            if value is None:
                other = zs.get({"context": "vector"}.get(r, ""))
                value = other[0].get(mid, floor) if other else floor
            parts[r] = weights[r] * value
        out[mid] = parts
    return out


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_fuse_arrays_ranks_exactly_as_the_dict_fusion(seed: int) -> None:
    rng = np.random.default_rng(seed)
    ids = [f"m{i:04d}" for i in range(1500)]

    def route(n: int, scale: float, offset: float) -> list[tuple[str, float]]:
        picked = rng.choice(len(ids), size=n, replace=False)
        scores = np.sort(np.round(rng.normal(offset, scale, n), 2))[::-1]  # rounded: ties happen
        return [(ids[i], float(s)) for i, s in zip(picked, scores)]

    routes = {"vector": route(1000, 0.05, 0.8), "context": route(900, 0.05, 0.8), "keyword": route(300, 2.0, 6.0),
              "recency": route(10, 1.0, 0.0)}
    weights = {"vector": 1.0, "context": 1.0, "keyword": 0.4, "recency": 0.0}
    population = {"vector": 1500, "context": 1400, "keyword": 1500, "recency": 10}
    fused = fuse_arrays(routes, weights, population)
    ref = _reference_fuse(routes, weights, population)
    ref_total = {mid: sum(p.values()) for mid, p in ref.items()}
    assert sorted(fused.ids) == sorted(ref)
    assert fused.best(50) == sorted(ref_total, key=lambda m: (-ref_total[m], m))[:50]
    assert all(fused.relevance(m, 0.0) == ref_total[m] for m in ref)  # bit for bit, not approx
    assert fused.parts_of("m0000") == ref.get("m0000", {})
    assert fused.floor == min(ref_total.values())


def test_fusion_best_breaks_ties_by_id() -> None:
    routes = {"vector": [("c", 0.5), ("b", 0.5), ("a", 0.5), ("d", 0.1)]}
    fused = fuse_arrays(routes, {"vector": 1.0}, {"vector": 4})
    assert fused.best(2) == ["a", "b"] and fused.best(10) == ["a", "b", "c", "d"]
    assert fuse_arrays({}, {"vector": 1.0}, {}).best(5) == [] and fuse_arrays({}, {}, {}).floor == 0.0


def test_search_ranks_alike_with_store_statistics_and_with_deep_lists(make_memory: Any) -> None:
    """A store without statistics (PostgreSQL, an IVF index) lists 1,000; below that both are complete."""
    from jiyi.stores.protocol import Ranking

    mem = make_memory(weights={"entity": 0.1, "recency": 0.1})
    talk = [{"role": "user", "content": f"I {verb} {thing} with my {who} on day {n}.", "id": f"D1:{n}"}
            for n, (verb, thing, who) in enumerate(
                (v, t, w) for v in ("baked", "painted", "hiked") for t in ("bread", "pottery", "hills", "tea")
                for w in ("sister", "friend"))]
    mem.add(talk, user_id="u1", session_id="s1", sync=True)
    queries = ["What did I bake with my sister?", "pottery", "Who did I hike with?"]
    with_stats = [[(h.id, h.score) for h in mem.search(q, user_id="u1", limit=8)] for q in queries]
    store = mem.store
    vector_search, keyword_search = store.vector_search, store.keyword_search
    store.vector_ranking = lambda scope, q, k, flt, channel="content", *, deep: Ranking(  # type: ignore[method-assign]
        vector_search(scope, q, deep, flt, channel))
    store.keyword_ranking = lambda scope, tokens, k, flt, *, deep: Ranking(  # type: ignore[method-assign]
        keyword_search(scope, tokens, deep, flt))
    deep = [[(h.id, h.score) for h in mem.search(q, user_id="u1", limit=8)] for q in queries]
    assert [[i for i, _ in hits] for hits in deep] == [[i for i, _ in hits] for hits in with_stats]
    for a, b in zip(deep, with_stats):
        assert [s for _, s in a] == pytest.approx([s for _, s in b], abs=1e-9)


@pytest.mark.parametrize("seed", [0, 1])
def test_store_pairs_fuse_bit_for_bit_as_tuple_lists(seed: int) -> None:
    """Routes handed over as :class:`Pairs` (id list + score array) fuse exactly as lists of tuples."""
    rng = np.random.default_rng(seed)
    ids = [f"m{i:04d}" for i in range(800)]

    def route(n: int) -> Pairs:
        picked = rng.choice(len(ids), size=n, replace=False)
        return Pairs([ids[i] for i in picked], np.sort(rng.normal(0.8, 0.05, n).astype(np.float32))[::-1])

    pairs = {"vector": route(200), "context": route(150), "keyword": route(120)}
    stats = {"vector": ScoreStats(800, 0.7, 0.01, 0.75)}
    weights, population = {"vector": 1.0, "context": 1.0, "keyword": 0.4}, {r: 800 for r in pairs}
    as_arrays = fuse_arrays(pairs, weights, population, depth=100, stats=stats)
    as_lists = fuse_arrays({r: list(p) for r, p in pairs.items()}, weights, population, depth=100, stats=stats)
    assert as_arrays.ids == as_lists.ids and as_arrays.best(50) == as_lists.best(50)
    assert as_arrays.total.tolist() == as_lists.total.tolist()


def test_pairs_read_as_a_list_of_tuples() -> None:
    pairs = Pairs(["a", "b", "c"], np.array([0.5, 0.25, 0.125], dtype=np.float32))
    assert pairs == [("a", 0.5), ("b", 0.25), ("c", 0.125)] and len(pairs) == 3
    assert pairs[1] == ("b", 0.25) and pairs[1:] == [("b", 0.25), ("c", 0.125)] and isinstance(pairs[:1], Pairs)
    assert dict(pairs) == {"a": 0.5, "b": 0.25, "c": 0.125} and pairs != [("a", 0.5)]
    with pytest.raises(ValueError, match="2 ids but 1 scores"):
        Pairs(["a", "b"], np.array([1.0]))
