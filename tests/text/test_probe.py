"""Linear probes on the embedding: fitted, stored per model, and read only from that model's vectors."""

from __future__ import annotations

import numpy as np
import pytest

from jiyi.embedders.e5 import MODEL_NAME, E5Embedder
from jiyi.read.curate import idle_query
from jiyi.text.changed import tells_change
from jiyi.text.probe import QUERY_PROBES, corpus, fit, probe_for


@pytest.fixture(scope="module")
def e5() -> E5Embedder:
    return E5Embedder()


def test_fit_separates_what_is_separable() -> None:
    rng = np.random.default_rng(7)
    x = rng.normal(size=(200, 8))
    y = (x[:, 2] - x[:, 5] > 0).astype(float)
    weights, bias = fit(x, y, penalty=0.01)
    assert (((x @ weights + bias) > 0) == (y == 1)).mean() > 0.97
    assert abs(weights[2]) > 5 * abs(weights[0])


@pytest.mark.parametrize("name", ["change", "idle"])
def test_each_bundled_probe_has_its_corpus_and_weights_for_the_default_model(name: str) -> None:
    rows = corpus(name)
    assert len(rows) > 1000 and {label for label, _ in rows} == {0, 1}
    probe = probe_for(name, MODEL_NAME)
    assert probe is not None and probe.weights.shape == (E5Embedder.dim,)


def test_no_probe_answers_for_another_model() -> None:
    assert probe_for("change", "bge-m3") is None
    assert tells_change("仓库那摊子不归我管了 现在坐前台", np.ones(1024, dtype=np.float32), "bge-m3") is False


def test_the_probe_reads_a_change_no_word_rule_knows(e5: E5Embedder) -> None:
    said = "仓库那摊子不归我管了 现在坐前台"
    assert not tells_change(said)
    assert tells_change(said, e5.embed_passages([said])[0], MODEL_NAME)


@pytest.mark.parametrize("said", ["我每天骑车去上班 二十分钟", "我住在江北 离公司挺近", "想换个新手机 预算三千"])
def test_a_state_or_a_wish_is_no_change(e5: E5Embedder, said: str) -> None:
    assert not tells_change(said, e5.embed_passages([said])[0], MODEL_NAME)


def test_the_idle_probe_reads_queries(e5: E5Embedder) -> None:
    assert "idle" in QUERY_PROBES
    chat = "嗨呀 今朝落雨 冻煞了"
    assert idle_query(chat, e5.embed_query(chat), MODEL_NAME)
    for asked in ("下礼拜去哪家医院复查来着", "帮我看看周末带娃去哪玩"):
        assert not idle_query(asked, e5.embed_query(asked), MODEL_NAME)
