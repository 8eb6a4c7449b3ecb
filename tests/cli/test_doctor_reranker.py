"""``jiyi doctor`` checks the configured reranker with one real call and says what went wrong."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner
from rerankers.fake_rerank import Answer, FakeRerank  # tests/ is on sys.path

from jiyi.cli import cli


@pytest.fixture
def server() -> Iterator[FakeRerank]:
    with FakeRerank() as fake:
        yield fake


def doctor(home: Path, monkeypatch: pytest.MonkeyPatch, base_url: str, *args: str) -> tuple[int, str]:
    monkeypatch.setenv("JIYI_EMBEDDER", "hash")
    monkeypatch.setenv("JIYI_RERANKER", "api")
    monkeypatch.setenv("JIYI_RERANKER_BASE_URL", base_url)
    monkeypatch.setenv("JIYI_RERANKER_MODEL", "bge-reranker-v2-m3")
    monkeypatch.setenv("JIYI_RERANKER_TIMEOUT", "0.5")
    result = CliRunner().invoke(cli, ["--home", str(home), "doctor", *args])
    return result.exit_code, result.output


def test_doctor_reports_a_working_reranker(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                           server: FakeRerank) -> None:
    code, out = doctor(tmp_path, monkeypatch, server.base_url, "--json")
    assert code == 0, out
    report = json.loads(out)
    assert report["settings"]["reranker"] == "api"
    assert report["reranker"]["ok"] is True and len(report["reranker"]["scores"]) == 2
    assert server.requests[0].json["model"] == "bge-reranker-v2-m3"  # a real call went out


@pytest.mark.parametrize(("answer", "said"), [
    (Answer(500, {"error": "model not loaded"}), "HTTP 500"),
    (Answer(raw=b"<html>"), "not JSON"),
    (Answer(body={"results": []}, delay=5), "timed out"),
])
def test_doctor_reports_the_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, server: FakeRerank,
                                  answer: Answer, said: str) -> None:
    server.push(answer)
    code, out = doctor(tmp_path, monkeypatch, server.base_url)
    assert code == 1
    assert "reranker" in out and said in out and "Error: the reranker check failed" in out


def test_doctor_without_a_server(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    code, out = doctor(tmp_path, monkeypatch, "http://127.0.0.1:9/v1")
    assert code == 1 and "connection failed" in out
