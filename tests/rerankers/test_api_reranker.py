"""The api reranker against a real local /rerank server: request shape, answers good and bad."""

from __future__ import annotations

import math

import pytest
from fake_rerank import Answer, FakeRerank

from jiyi import registry
from jiyi.config import Settings
from jiyi.errors import ConfigError, ProviderBadOutput, ProviderUnavailable
from jiyi.rerankers.api import ApiReranker

DOCS = ["the cat sat", "a dog barked at the cat", "rain in spring"]


def test_scores_come_back_in_document_order(fake_rerank: FakeRerank) -> None:
    rr = ApiReranker(fake_rerank.base_url, "bge-reranker-v2-m3")
    assert rr.rerank("cat dog", DOCS) == [1.0, 2.0, 0.0]
    sent = fake_rerank.requests[0]
    assert sent.path == "/v1/rerank"
    assert sent.json == {"model": "bge-reranker-v2-m3", "query": "cat dog", "documents": DOCS, "top_n": 3}
    assert "authorization" not in sent.headers  # the key is optional
    rr.close()


def test_api_key_is_sent_as_bearer(fake_rerank: FakeRerank) -> None:
    ApiReranker(fake_rerank.base_url, "m", "sk-rerank").rerank("cat", DOCS)
    assert fake_rerank.requests[0].headers["authorization"] == "Bearer sk-rerank"


def test_partial_answer_leaves_the_rest_unscored() -> None:
    with FakeRerank(keep=1) as server:
        scores = ApiReranker(server.base_url, "m").rerank("rain spring", DOCS)
    assert scores[2] == 2.0 and math.isnan(scores[0]) and math.isnan(scores[1])


@pytest.mark.parametrize("answer", [
    Answer(raw=b"<html>not json</html>"),
    Answer(body={"data": []}),
    Answer(body={"results": [{"index": 7, "relevance_score": 0.5}]}),
    Answer(body={"results": [{"index": 0}]}),
    Answer(body={"results": [{"index": "0", "relevance_score": 0.5}]}),
    Answer(body={"results": []}),
])
def test_garbage_answers_are_bad_output(fake_rerank: FakeRerank, answer: Answer) -> None:
    fake_rerank.push(answer)
    with pytest.raises(ProviderBadOutput):
        ApiReranker(fake_rerank.base_url, "m").rerank("cat", DOCS)


@pytest.mark.parametrize("status", [429, 500, 503])
def test_busy_or_failing_server_is_unavailable_without_retries(fake_rerank: FakeRerank, status: int) -> None:
    fake_rerank.push(Answer(status, {"error": "busy"}, headers={"Retry-After": "0"}))
    with pytest.raises(ProviderUnavailable, match=str(status)):
        ApiReranker(fake_rerank.base_url, "m").rerank("cat", DOCS)
    assert len(fake_rerank.requests) == 1  # within a search's budget there is no time for a retry


def test_slow_server_times_out(fake_rerank: FakeRerank) -> None:
    fake_rerank.push(Answer(body={"results": []}, delay=5))
    with pytest.raises(ProviderUnavailable, match="timed out"):
        ApiReranker(fake_rerank.base_url, "m", timeout=0.3).rerank("cat", DOCS)


def test_settings_and_registry(fake_rerank: FakeRerank) -> None:
    with pytest.raises(ConfigError, match="JIYI_RERANKER_BASE_URL"):
        registry.create("reranker", "api", Settings(reranker="api", reranker_model="m"))
    with pytest.raises(ConfigError, match="JIYI_RERANKER_MODEL"):
        registry.create("reranker", "api", Settings(reranker="api", reranker_base_url=fake_rerank.base_url))
    rr = registry.create("reranker", "api", Settings(reranker_base_url=fake_rerank.base_url, reranker_model="m"))
    assert isinstance(rr, ApiReranker) and rr.rerank("dog", DOCS) == [0.0, 1.0, 0.0]


def test_settings_from_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("JIYI_RERANKER", "api")
    monkeypatch.setenv("JIYI_RERANKER_BASE_URL", "http://127.0.0.1:9/v1")
    monkeypatch.setenv("JIYI_RERANKER_MODEL", "bge")
    monkeypatch.setenv("JIYI_RERANKER_API_KEY", "k")
    monkeypatch.setenv("JIYI_RERANKER_CANDIDATES", "80")
    monkeypatch.setenv("JIYI_RERANKER_TIMEOUT", "0.5")
    s = Settings()
    assert (s.reranker, s.reranker_base_url, s.reranker_model, s.reranker_api_key) == (
        "api", "http://127.0.0.1:9/v1", "bge", "k")
    assert (s.reranker_candidates, s.reranker_timeout) == (80, 0.5)
    assert (Settings.model_fields["reranker_candidates"].default,
            Settings.model_fields["reranker_timeout"].default) == (50, 2.0)


def test_unknown_backend_names_the_real_ones() -> None:
    with pytest.raises(ConfigError, match="api, llm, sentence-transformers"):
        registry.create("reranker", "bge", Settings())
