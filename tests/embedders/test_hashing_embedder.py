"""The offline hash embedder used to test plumbing."""

from __future__ import annotations

import numpy as np
import pytest

from jiyi import registry
from jiyi.config import Settings
from jiyi.embedders.hashing import HashingEmbedder, from_settings
from jiyi.embedders.protocol import Embedder
from jiyi.errors import ConfigError


def test_shape_dtype_norm_and_protocol() -> None:
    emb = HashingEmbedder()
    assert isinstance(emb, Embedder) and emb.model == "hash-256" and emb.dim == 256
    out = emb.embed_passages(["用户住在上海", "User lives in Shanghai", "x"])
    assert out.shape == (3, 256) and out.dtype == np.float32
    assert np.allclose(np.linalg.norm(out, axis=1), 1.0, atol=1e-5)
    q = emb.embed_query("用户住在上海")
    assert q.shape == (256,) and np.allclose(q, out[0])
    assert emb.embed_passages([]).shape == (0, 256)


def test_deterministic_across_processes_by_golden_value() -> None:
    # Python's hash() is salted per process; this value would change from run to run if we used it.
    vec = HashingEmbedder().embed_query("用户对花生过敏")
    nonzero = np.flatnonzero(vec)
    assert len(nonzero) > 5
    assert HashingEmbedder().embed_query("用户对花生过敏").tobytes() == vec.tobytes()
    assert nonzero[:5].tolist() == GOLDEN_INDICES


def test_shared_characters_mean_closer_vectors() -> None:
    emb = HashingEmbedder()
    a, b, c = emb.embed_passages(["用户住在上海浦东", "用户住在上海", "明天下午去打篮球"])
    assert float(a @ b) > float(a @ c) + 0.3


def test_text_without_characters_is_the_zero_vector() -> None:
    assert not HashingEmbedder().embed_query("   ").any()


def test_settings_and_registry() -> None:
    assert from_settings(Settings(embedder="hash")).dim == 256
    emb = registry.create("embedder", "hash", Settings(embedder="hash", embedder_model="hash-64"))
    assert emb.model == "hash-64" and emb.embed_query("abc").shape == (64,)
    with pytest.raises(ConfigError, match="hash-<dim>"):
        from_settings(Settings(embedder_model="bge-m3"))
    with pytest.raises(ConfigError):
        HashingEmbedder(dim=4)


GOLDEN_INDICES = [11, 22, 45, 71, 73]  # first non-zero buckets of "用户对花生过敏"
