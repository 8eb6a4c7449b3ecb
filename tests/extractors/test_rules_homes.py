"""A home said the ways English chat says it (round 33): a new home and where it is, the home before its place, the
user with someone else, a known place and "now"."""

from __future__ import annotations

import pytest
from rules_support import only, run


@pytest.mark.parametrize(("text", "content"), [
    ("we've moved out of the old place. New flat's in Edgeley, Stockport", "User moved to Edgeley"),
    ("our new house is in Leith now", "User moved to Leith"),
    ("Me and Priya live in a flat in Levenshulme.", "User lives in Levenshulme"),
    ("we live in a tiny two-bed flat in Leith", "User lives in Leith"),
    ("I live in the house in Leeds", "User lives in Leeds"),
    ("Evanston now. Commute to the garage is brutal lol", "User lives in Evanston"),
])
def test_a_home_said_in_chat_fills_the_city(text: str, content: str) -> None:
    assert only(text, "user/city").content == content


@pytest.mark.parametrize("text", ["My sister's new flat is in Leeds", "the new place is in Soho, great team",
                                  "Tesco now, pays better", "Priya now works at Tesco"])
def test_someone_elses_home_a_workplace_or_a_firm_is_not_the_users_home(text: str) -> None:
    assert not any(c.slot == "user/city" and c.content.startswith(("User moved to", "User lives in")) for c in run(text))
