"""text/over.py: the old thing a change names."""

from __future__ import annotations

import pytest

from jiyi.text.over import named_over, workplace_left


@pytest.mark.parametrize(("text", "left"), [
    ("那个破空调厂子我跑路了", ("空调厂子",)),
    ("之前那家培训机构我溜了", ("培训机构",)),
    ("那个快递公司 我已经辞了", ("快递公司",)),
    ("辞职去了一家咖啡店", ()),  # where the leave is headed
    ("我在奶茶店辞职了", ()),  # the place is said with 在: no description of what was left
    ("公司我不干了", ()),  # too short to name one
    ("那个快递公司挺好的", ()),  # no leave
])
def test_a_workplace_left_by_what_it_is(text: str, left: tuple[str, ...]) -> None:
    assert workplace_left(text, "zh") == left


def test_english_has_no_workplace_description() -> None:
    assert workplace_left("quit that warehouse job", "en") == ()


def test_the_words_of_ending_name_nothing_over() -> None:
    """ "Wrapped up at the Alliance": the capital of the sentence's first word is no name."""
    said = named_over("User: Wrapped up at the Alliance last week, now translating full-time", "en")
    assert "Alliance" in said and "Wrapped" not in said
