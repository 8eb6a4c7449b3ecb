"""Relation words, given names and pronoun genders."""

from __future__ import annotations

import pytest

from jiyi.text.relations import (
    PRONOUN_GENDER,
    REL_EN,
    REL_ZH,
    SINGLE_VALUED,
    alternation,
    en_relation_names,
    looks_like_name_zh,
    zh_relation_names,
)
from jiyi.text.wordlists import word_list, words


@pytest.mark.parametrize(
    ("text", "found"),
    [("我女朋友小雅", [("女朋友", "girlfriend", "小雅")]), ("我老公周航在家", [("老公", "husband", "周航")]),
     ("我儿子叫乐乐", [("儿子", "son", "乐乐")]), ("还有19号是我老婆苏琳生日", [("老婆", "wife", "苏琳")]),
     ("我妈是老师", []), ("送我妈的", []), ("我妈妈和我爸爸", []),
     ("我家狗狗的名字叫豆豆", [("狗狗", "pet", "豆豆")]),
     ("我朋友叫我小王", []), ("我妈叫我小林", []),  # what they call the user, not their names
     # a relation word opening the message, its name a space after it; not one in the middle without 我
     ("男朋友 Nat 是泰国人", [("男朋友", "boyfriend", "Nat")]), ("老婆 苏琳 在银行上班", [("老婆", "wife", "苏琳")]),
     ("男朋友说周末去爬山", []), ("她男朋友小杰是厨师", [])],
)
def test_zh_relation_names(text: str, found: list[tuple[str, str, str]]) -> None:
    assert zh_relation_names(text) == found


@pytest.mark.parametrize(
    ("text", "found"),
    [("My wife Anna loves tulips", [("wife", "wife", "Anna")]),
     ("my sister's name is Emma", [("sister", "sister", "Emma")]),
     ("my dog Max", [("dog", "pet", "Max")]), ("my wife and I", []), ("my mom Is great", [])],
)
def test_en_relation_names(text: str, found: list[tuple[str, str, str]]) -> None:
    assert en_relation_names(text) == found


@pytest.mark.parametrize(("word", "ok"), [("小雅", True), ("老王", True), ("乐乐", True), ("苏琳", True),
                                          ("李文杰", True), ("Anna", True), ("过敏", False), ("老公", False), ("老师", False),
                                          ("一起", False), ("anna", False), ("", False),
                                          ("老个", False), ("小只", False)])  # "the old one" (Wu 个 is 的)
def test_looks_like_name(word: str, ok: bool) -> None:
    assert looks_like_name_zh(word) is ok


def test_lexicon_is_consistent() -> None:
    keys = {k for k, _ in REL_ZH.values()} | {k for k, _ in REL_EN.values()}
    assert SINGLE_VALUED <= keys
    assert {"son", "daughter", "friend", "pet"}.isdisjoint(SINGLE_VALUED)
    assert PRONOUN_GENDER["她"] == REL_ZH["老婆"][1] == REL_EN["wife"][1] == "f"


def test_alternation_prefers_longer_words() -> None:
    assert alternation(["妈", "妈妈"]) == "妈妈|妈"
    assert alternation(["a.b"]) == r"a\.b"


def test_word_lists() -> None:
    assert words("的 了\n吗  的") == frozenset({"的", "了", "吗"})
    assert word_list("b a b") == ["b", "a", "b"]
