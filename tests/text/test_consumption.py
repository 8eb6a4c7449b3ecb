"""What a habit consumes, by kind (text/consumption.py): a category covers its brands and measures."""

from __future__ import annotations

import pytest

from jiyi.text.consumption import kinds_of


@pytest.mark.parametrize(("text", "kinds"), [
    ("两杯澳白", {"coffee"}), ("three espressos a day", {"coffee"}), ("我一天一包的量", {"smoke"}),
    ("烟", {"smoke"}), ("quit vaping", {"smoke"}), ("烟也少抽点", {"smoke"}), ("烟还抽吗", {"smoke"}), ("烟台的海鲜", set()), ("抽空去趟超市", set()), ("早饭吃了两根油条", set()),
])
def test_kinds_cover_their_brands_and_measures(text: str, kinds: set[str]) -> None:
    assert kinds_of(text) == kinds
