"""Splitting a long turn into window-sized parts."""

from __future__ import annotations

import pytest

from jiyi.text.chunks import split_text


@pytest.mark.parametrize("text", [
    "我明天要去北京出差，顺便看看老朋友。" * 120,
    "The quick brown fox jumps over the lazy dog. Then it slept! " * 60,
    "x" * 1234,
    "word " * 400,
    "第一句。\n第二句！" * 150,
])
def test_parts_are_short_in_order_and_lose_nothing(text: str) -> None:
    parts = split_text(text, 500)
    assert len(parts) > 1
    assert all(0 < len(p) <= 500 for p in parts)
    squeeze = "".join(text.split())
    assert "".join("".join(p.split()) for p in parts) == squeeze


def test_a_sentence_end_is_preferred_to_a_cut_inside_a_sentence() -> None:
    text = ("我喜欢爬山。" * 50) + ("周末我去杭州。" * 50)
    assert all(p.endswith("。") for p in split_text(text, 500))


def test_short_text_is_one_part() -> None:
    assert split_text("  你好，世界  ", 500) == ["你好，世界"]
    assert split_text("   ", 500) == []
