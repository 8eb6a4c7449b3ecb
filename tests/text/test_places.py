"""Known places in lowercase text: the longest name at the phrase's start, in its usual spelling."""

from __future__ import annotations

import pytest

from jiyi.text.places import place_at_start


@pytest.mark.parametrize(("phrase", "expected"), [
    ("denver last month lol", ("Denver", 1)),
    ("san diego next year", ("San Diego", 2)),
    ("new york for work", ("New York", 2)),
    ("st louis", ("St. Louis", 2)),
    ("saint louis", ("St. Louis", 2)),
    ("nyc", ("New York City", 1)),
    ("sf", ("San Francisco", 1)),
    ("zurich", ("Zürich", 1)),
    ("sao paulo", ("São Paulo", 2)),
    ("japan", ("Japan", 1)),
    ("texas now", ("Texas", 1)),
    ("chengdu", ("Chengdu", 1)),
])
def test_a_known_place_at_the_start(phrase: str, expected: tuple[str, int]) -> None:
    assert place_at_start(phrase) == expected


@pytest.mark.parametrize("phrase", ["the city", "a new place", "my parents", "town", "home now", "here", "lax", "most of it",
                                    "ufa", "together"])
def test_ordinary_words_and_airport_codes_are_no_place(phrase: str) -> None:
    assert place_at_start(phrase) is None
