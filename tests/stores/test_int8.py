"""The int8 first pass of the vector matrices: codes follow the rows, results stay exact."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import pytest
from matrix_support import clustered, matrix_of

from jiyi.records import Kind, Status
from jiyi.stores.protocol import RecordFilter
from jiyi.stores.sqlite import int8, ivf
from jiyi.stores.sqlite.vectors import RowMeta, UserMatrix

pytestmark = pytest.mark.skipif(not int8.available(), reason="numkong is not installed")


@pytest.fixture
def codes_on() -> Iterator[None]:
    old = int8.set_enabled(True)
    yield
    int8.set_enabled(old)


def assert_codes_follow_rows(m: UserMatrix) -> None:
    live = np.flatnonzero(m.alive[: m.n])
    decoded = m.codes[live].astype(np.float32) * m.unit[live, None]
    assert np.all(np.abs(decoded - m.matrix[live]) <= m.unit[live, None] / 2 + 1e-7)


def exact_top(m: UserMatrix, q: np.ndarray, k: int, mask: np.ndarray | None = None) -> list[str]:
    scores = m.matrix[: m.n] @ q
    if mask is not None:
        scores[~mask] = -np.inf
    return [str(m.ids[i]) for i in np.argsort(-scores, kind="stable")[:k]]


def test_codes_decode_to_the_rows_within_half_a_unit() -> None:
    rows = clustered(300, 64, seed=1) * np.linspace(0.1, 3.0, 300, dtype=np.float32)[:, None]
    codes, unit = int8.encode(rows)
    assert codes.dtype == np.int8 and np.abs(codes).max() == 127
    assert np.all(np.abs(codes * unit[:, None] - rows) <= unit[:, None] / 2 + 1e-7)
    zero_codes, zero_unit = int8.encode(np.zeros((2, 8), np.float32))
    assert not zero_codes.any() and np.all(zero_unit == 1.0)


def test_integer_dots_are_exact() -> None:
    rng = np.random.default_rng(2)
    codes = rng.integers(-127, 128, size=(500, 384)).astype(np.int8)
    query = int8.code_query(rng.standard_normal(384).astype(np.float32))
    out = np.empty(500, dtype=np.float32)
    int8.dots_into(codes, query, out)
    assert np.array_equal(out, (codes.astype(np.int64) @ query.codes[0].astype(np.int64)).astype(np.float32))


def test_codes_follow_appends_updates_compaction_and_clustering(codes_on: None) -> None:
    x = clustered(3_000, 32, seed=3)
    m = matrix_of(x[:1_000])
    meta = [RowMeta(f"m{i}", Kind.FACT, Status.ACTIVE, False, None, None, 0.0) for i in range(3_000)]
    m.upsert_many([(meta[i], x[i], i + 1) for i in range(1_000, 3_000)])  # appends
    m.upsert_many([(meta[i], x[(i + 7) % 3_000], i + 1) for i in range(300)])  # new vectors in place
    assert_codes_follow_rows(m)
    for i in range(300, 2_000):
        m.remove(f"m{i}")  # past half tombstoned: compaction moves rows
    assert_codes_follow_rows(m)
    live = m.matrix[: m.n]
    cent = ivf.train(live, ivf.n_clusters(len(live)))
    m.install_clusters(cent, ivf.assign(live, cent))  # rows reordered cluster by cluster
    assert_codes_follow_rows(m)


@pytest.mark.parametrize("filtered", [False, True])
def test_rankings_through_codes_are_the_exact_top_k_with_exact_scores(codes_on: None, filtered: bool) -> None:
    x = clustered(6_000, 64, seed=4) + 1.5 * clustered(1, 64, seed=9)  # a direction all rows share, as in e5
    x /= np.linalg.norm(x, axis=1, keepdims=True)
    m = matrix_of(x)
    flt = RecordFilter()
    if filtered:  # every other row leaves the session filter
        m.upsert_many([(RowMeta(f"m{i}", Kind.FACT, Status.ACTIVE, False, "s1" if i % 2 else None, None, 0.0), None,
                        i + 1) for i in range(6_000)])
        flt = RecordFilter(session_id="s1")
    mask, count = m._mask(flt)
    k, found = 100, 0
    for q in clustered(40, 64, seed=5):
        assert m._coded(q, count, k) is not None  # the int8 pass answers, not the float32 product
        ranked = m.ranking(q, k, flt, deep=200)
        ids = [i for i, _ in ranked.hits]
        truth = exact_top(m, q, k, mask)
        found += len(set(ids) & set(truth))
        assert ids[:10] == truth[:10]
        for mid, score in ranked.hits:
            assert score == pytest.approx(float(x[int(mid[1:])] @ q), abs=1e-5)
        scores = (m.matrix[: m.n] @ q)[mask]
        assert ranked.stats is not None and ranked.stats.count == count
        sd = float(scores.std())
        assert abs(ranked.stats.mean - scores.mean()) < 0.015 * sd  # 0.023 sd unshifted (int8 module doc)
        assert ranked.stats.var == pytest.approx(scores.var(), rel=0.01)
        assert abs(ranked.stats.floor - np.sort(scores)[-200]) < 0.05 * sd
    assert found / (40 * k) >= 0.999


def test_switched_off_the_matrix_scores_float32_rows(codes_on: None) -> None:
    x = clustered(4_000, 64, seed=6)
    m = matrix_of(x)
    q = clustered(1, 64, seed=7)[0]
    with_codes = m.ranking(q, 50, RecordFilter(), deep=100)
    assert int8.describe().startswith("numkong ")
    int8.set_enabled(False)
    assert int8.describe() == "off" and m._coded(q, 4_000, 50) is None
    without = m.ranking(q, 50, RecordFilter(), deep=100)
    assert [i for i, _ in without.hits] == [i for i, _ in with_codes.hits]
    scores = m.matrix[: m.n] @ q
    assert without.stats is not None and without.stats.mean == pytest.approx(float(scores.mean()), abs=1e-6)
