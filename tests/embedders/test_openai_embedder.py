"""OpenAICompatEmbedder against the real local fake server (tests/fake_openai.py)."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import pytest
from fake_openai import FakeOpenAI, chat, embeddings, error, hash_vector

from jiyi import registry
from jiyi.config import Settings
from jiyi.embedders.openai_compat import OpenAICompatEmbedder, from_settings
from jiyi.embedders.protocol import Embedder
from jiyi.errors import ConfigError, ProviderBadOutput, ProviderError, ProviderUnavailable
from jiyi.llms.protocol import Usage


@pytest.fixture
def make_embedder(fake_openai: FakeOpenAI) -> Iterator[object]:
    made: list[OpenAICompatEmbedder] = []

    def make(model: str = "fake-embed", **kw: object) -> OpenAICompatEmbedder:
        kw.setdefault("backoff", 0.01)
        kw.setdefault("timeout", 2.0)
        emb = OpenAICompatEmbedder(fake_openai.base_url, model, "sk-emb", **kw)  # type: ignore[arg-type]
        made.append(emb)
        return emb

    yield make
    for e in made:
        e.close()


def _unit(v: list[float]) -> np.ndarray:
    a = np.asarray(v, dtype=np.float32)
    return a / np.linalg.norm(a)


def test_batches_keep_order_and_normalise(fake_openai: FakeOpenAI, make_embedder: object) -> None:
    emb = make_embedder(batch_size=2, passage_prefix="passage: ")  # type: ignore[operator]
    texts = [f"第{i}条记忆" for i in range(5)]
    out = emb.embed_passages(texts)
    assert out.shape == (5, 8) and out.dtype == np.float32
    for row, text in zip(out, texts):
        assert np.allclose(row, _unit(hash_vector("passage: " + text)), atol=1e-6)
    inputs = [r.json["input"] for r in fake_openai.requests]
    assert inputs == [
        ["passage: 第0条记忆", "passage: 第1条记忆"],
        ["passage: 第2条记忆", "passage: 第3条记忆"],
        ["passage: 第4条记忆"],
    ]
    assert all(
        r.path == "/v1/embeddings" and r.json["model"] == "fake-embed" for r in fake_openai.requests
    )
    assert fake_openai.requests[0].headers["authorization"] == "Bearer sk-emb"
    assert emb.calls == 3 and emb.usage == Usage(15, 0)
    assert isinstance(emb, Embedder) and emb.dim == 8


def test_items_are_sorted_by_index(fake_openai: FakeOpenAI, make_embedder: object) -> None:
    fake_openai.push(embeddings([[1.0, 0.0], [0.0, 2.0]], shuffle=True))
    out = make_embedder().embed_passages(["a", "b"])  # type: ignore[operator]
    assert np.allclose(out, [[1.0, 0.0], [0.0, 1.0]])


def test_query_prefix_and_dimensions_parameter(
    fake_openai: FakeOpenAI, make_embedder: object
) -> None:
    emb = make_embedder(query_prefix="query: ", dimensions=8)  # type: ignore[operator]
    assert emb.dim == 8 and not fake_openai.requests  # known without a request
    q = emb.embed_query("上海")
    assert q.shape == (8,) and np.allclose(q, _unit(hash_vector("query: 上海")), atol=1e-6)
    assert fake_openai.requests[0].json == {
        "model": "fake-embed",
        "input": ["query: 上海"],
        "encoding_format": "float",
        "dimensions": 8,
    }


def test_dim_of_unknown_model_is_probed_once(
    fake_openai: FakeOpenAI, make_embedder: object
) -> None:
    emb = make_embedder()  # type: ignore[operator]
    assert emb.dim == 8 and emb.dim == 8
    assert len(fake_openai.requests) == 1
    assert make_embedder("text-embedding-3-small").dim == 1536  # type: ignore[operator]
    assert len(fake_openai.requests) == 1


def test_empty_input_makes_no_request(fake_openai: FakeOpenAI, make_embedder: object) -> None:
    assert make_embedder(dimensions=8).embed_passages([]).shape == (0, 8)  # type: ignore[operator]
    assert not fake_openai.requests


def test_retries_are_shared_with_the_llm_client(
    fake_openai: FakeOpenAI, make_embedder: object
) -> None:
    fake_openai.push(error(500), error(429, retry_after="0.05"))
    assert make_embedder(max_retries=2).embed_query("x").shape == (8,)  # type: ignore[operator]
    assert len(fake_openai.requests) == 3
    fake_openai.rule = lambda req: error(503)
    with pytest.raises(ProviderUnavailable, match="gave up after 2 attempts"):
        make_embedder(max_retries=1).embed_query("x")  # type: ignore[operator]


def test_auth_error_names_embedder_setting(fake_openai: FakeOpenAI, make_embedder: object) -> None:
    fake_openai.push(error(401))
    with pytest.raises(ProviderError, match="JIYI_EMBEDDER_API_KEY"):
        make_embedder().embed_query("x")  # type: ignore[operator]


@pytest.mark.parametrize(
    "reply",
    [
        embeddings([[1.0, 0.0]]),  # one vector for two inputs
        embeddings([[1.0, 0.0], [1.0]]),  # ragged
        chat("not an embeddings answer"),
    ],
)
def test_malformed_answers_are_bad_output(
    fake_openai: FakeOpenAI, make_embedder: object, reply: object
) -> None:
    fake_openai.push(reply)  # type: ignore[arg-type]
    with pytest.raises(ProviderBadOutput):
        make_embedder().embed_passages(["a", "b"])  # type: ignore[operator]


def test_width_change_is_refused(fake_openai: FakeOpenAI, make_embedder: object) -> None:
    emb = make_embedder(dimensions=8)  # type: ignore[operator]
    fake_openai.push(embeddings([[1.0, 0.0, 0.0]]))
    with pytest.raises(ProviderBadOutput, match="3-dim vectors, expected 8"):
        emb.embed_query("x")


def test_from_settings(fake_openai: FakeOpenAI) -> None:
    with pytest.raises(ConfigError, match="JIYI_EMBEDDER_MODEL"):
        from_settings(Settings(embedder="openai"))
    # No embedder URL: the LLM's endpoint and key are reused.
    emb = registry.create(
        "embedder",
        "openai",
        Settings(
            embedder="openai",
            embedder_model="m",
            llm_base_url=fake_openai.base_url,
            llm_api_key="sk-llm",
        ),
    )
    emb.embed_query("x")
    assert fake_openai.requests[-1].headers["authorization"] == "Bearer sk-llm"
    # Its own URL: the LLM key is not sent to another host.
    own = from_settings(
        Settings(embedder_model="m", embedder_base_url=fake_openai.base_url, llm_api_key="sk-llm")
    )
    own.embed_query("x")
    assert "authorization" not in fake_openai.requests[-1].headers
    assert (
        from_settings(Settings(embedder_model="BAAI/bge-m3", embedder_base_url="siliconflow")).dim
        == 1024
    )
