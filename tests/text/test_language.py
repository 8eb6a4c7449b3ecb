"""Script counting picks the language of a message."""

from __future__ import annotations

import pytest

from jiyi.text.language import detect_language


@pytest.mark.parametrize(
    ("text", "lang"),
    [("我叫小王", "zh"), ("I live in Boston", "en"), ("我用iPhone15拍的", "zh"), ("I love 北京 duck", "en"),
     ("订单号CG2502248817", "zh"), ("OK 好的", "zh"), ("Hello, world", "en")],
)
def test_detect(text: str, lang: str) -> None:
    assert detect_language(text) == lang


def test_no_script_falls_back_to_default() -> None:
    assert detect_language("👍 123") == "zh"
    assert detect_language("👍 123", default="en") == "en"
