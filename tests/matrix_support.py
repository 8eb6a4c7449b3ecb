"""Vector matrices for the SQLite store's search tests (tests/stores/test_ann.py, test_int8.py)."""

from __future__ import annotations

import numpy as np

from jiyi.stores.sqlite.vectors import MatrixColumns, UserMatrix


def clustered(n: int, dim: int, seed: int, centers: int = 40) -> np.ndarray:
    """Unit vectors around random centres (a topic structure, as real embeddings have)."""
    rng = np.random.default_rng(seed)
    c = rng.standard_normal((centers, dim)).astype(np.float32)
    x = c[rng.integers(centers, size=n)] + 0.35 * rng.standard_normal((n, dim)).astype(np.float32)
    return x / np.linalg.norm(x, axis=1, keepdims=True)


def matrix_of(x: np.ndarray) -> UserMatrix:
    n = len(x)
    cols = MatrixColumns(ids=[f"m{i}" for i in range(n)], rids=np.arange(1, n + 1), kinds=np.zeros(n, np.int8),
                         statuses=np.zeros(n, np.int8), sensitive=np.zeros(n, bool), sessions=[None] * n,
                         agents=[None] * n, created=np.zeros(n), vectors=x)
    return UserMatrix.from_columns(x.shape[1], 1, cols)
