"""English as typed in chat: apostrophes put back, a dropped "I" restored where the user's verb starts."""

from __future__ import annotations

import pytest

from jiyi.text.casual import with_apostrophes, with_names, with_subject


@pytest.mark.parametrize(("typed", "read"), [
    ("im from nyc", "i'm from nyc"),
    ("Im moving", "I'm moving"),
    ("i dont eat pork and ive quit soda", "i don't eat pork and i've quit soda"),
    ("thats my cat, shes 5", "that's my cat, she's 5"),
])
def test_contractions_get_their_apostrophe(typed: str, read: str) -> None:
    assert with_apostrophes(typed) == read


@pytest.mark.parametrize("word_of_its_own", ["its fine", "we were there", "ill go later", "my id card", "lets go",
                                             "well done", "we won"])
def test_words_that_are_words_stay(word_of_its_own: str) -> None:
    assert with_apostrophes(word_of_its_own) == word_of_its_own


@pytest.mark.parametrize(("typed", "read"), [
    ("moved to denver last month lol", "i moved to denver last month lol"),
    ("lol yeah, quit my job. been vegan for a year now", "lol yeah, i quit my job. i've been vegan for a year now"),
    ("living in austin now", "i'm living in austin now"),
    ("vape free for 5 weeks now", "i'm vape free for 5 weeks now"),
    ("Finally quit vaping", "I finally quit vaping"),
    ("ok. sold my car", "ok. i sold my car"),
])
def test_a_dropped_i_comes_back(typed: str, read: str) -> None:
    assert with_subject(typed) == read


@pytest.mark.parametrize("has_subject", ["I moved to Boston", "my cat died", "Actually, I live in Chicago", "it rained",
                                         "just saying", "finally!", "sounds good"])
def test_a_sentence_with_its_subject_or_no_verb_of_the_users_stays(has_subject: str) -> None:
    assert with_subject(has_subject) == has_subject


@pytest.mark.parametrize(("typed", "read"), [
    ("i have a dog named biscuit", "i have a dog named Biscuit"),
    ("my cats name is mochi", "my cats name is Mochi"),
    ("we found a cafe called lumen", "we found a cafe called Lumen"),
    ("i called my mom", "i called my mom"),
    ("my wife anna is a teacher", "my wife Anna is a teacher"),
    ("my gf sarah and i are going to japan", "my gf Sarah and i are going to japan"),
    ("my cat died", "my cat died"),
    ("my boss just quit", "my boss just quit"),
    ("my sister lives in austin", "my sister lives in austin"),
    ("he was named after my grandpa", "he was named after my grandpa"),
    ("Our dog named biscuit loves Max", "Our dog named biscuit loves Max"),  # capitalises elsewhere: as written
])
def test_a_name_typed_lowercase_after_named_or_called(typed: str, read: str) -> None:
    assert with_names(typed) == read
