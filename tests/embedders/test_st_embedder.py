"""The sentence-transformers embedder (needs the optional `st` extra for most tests)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np
import pytest

from jiyi.embedders.sentence_transformers import SentenceTransformerEmbedder, default_prefixes
from jiyi.errors import MissingDependency

HAVE_ST = importlib.util.find_spec("sentence_transformers") is not None
needs_st = pytest.mark.skipif(
    not HAVE_ST, reason="sentence-transformers is not installed (pip install 'jiyi[st]')"
)


@pytest.mark.parametrize(
    ("model", "query", "passage"),
    [
        ("intfloat/multilingual-e5-small", "query: ", "passage: "),
        ("BAAI/bge-small-zh-v1.5", "为这个句子生成表示以用于检索相关文章：", ""),
        ("BAAI/bge-base-en-v1.5", "Represent this sentence for searching relevant passages: ", ""),
        ("BAAI/bge-m3", "", ""),
        ("sentence-transformers/all-MiniLM-L6-v2", "", ""),
        ("/models/gte5-custom", "", ""),
    ],
)
def test_default_prefixes(model: str, query: str, passage: str) -> None:
    assert default_prefixes(model) == (query, passage)


@pytest.mark.skipif(
    HAVE_ST, reason="sentence-transformers is installed; this checks the message without it"
)
def test_missing_dependency_says_what_to_install() -> None:
    with pytest.raises(MissingDependency, match=r"pip install 'jiyi\[st\]'"):
        SentenceTransformerEmbedder("any-model")


@needs_st
def test_local_model_by_path(tmp_path: Path) -> None:
    from sentence_transformers import SentenceTransformer, models

    vectors = tmp_path / "vectors.txt"
    vectors.write_text(
        "user 1 0 0 0\nlives 0 1 0 0\nshanghai 0 0 1 0\nbeijing 0 0 0 1\n", encoding="utf-8"
    )
    words = models.WordEmbeddings.from_text_file(str(vectors))
    pooling = models.Pooling(words.get_word_embedding_dimension())
    SentenceTransformer(modules=[words, pooling]).save(str(tmp_path / "tiny"))

    emb = SentenceTransformerEmbedder(str(tmp_path / "tiny"), device="cpu")
    assert emb.dim == 4 and emb.model == str(tmp_path / "tiny")
    out = emb.embed_passages(["user lives shanghai", "user lives beijing"])
    assert out.shape == (2, 4) and out.dtype == np.float32
    assert np.allclose(np.linalg.norm(out, axis=1), 1.0, atol=1e-5)
    q = emb.embed_query("shanghai")
    assert float(q @ out[0]) > float(q @ out[1])
