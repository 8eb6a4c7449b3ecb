"""A change verb's other senses, and a move said without a verb of moving (text/verb_senses.py)."""

from __future__ import annotations

import re

import pytest

from jiyi.text.verb_senses import degree_complement, left_behind, place_moved_to


@pytest.mark.parametrize(("text", "place"), [("被调到合肥了", "合肥"), ("以后就是珠海人了", "珠海"), ("终于成了深圳人啦", "深圳")])
def test_a_posting_or_a_new_belonging_names_the_place_moved_to(text: str, place: str) -> None:
    at = place_moved_to(text)
    assert at is not None and text[at:].startswith(place)


@pytest.mark.parametrize("text", ["我调到销售部了", "以后就是打工人了", "我也是成年人了"])
def test_no_place_no_move(text: str) -> None:
    assert place_moved_to(text) is None


@pytest.mark.parametrize(("text", "says_extremely"), [("累死了", True), ("冷死了", True), ("狗死了", False), ("病死了", False)])
def test_si_after_a_predicate_says_extremely(text: str, says_extremely: bool) -> None:
    assert degree_complement(text, re.search("死", text)) is says_extremely


@pytest.mark.parametrize(("text", "behind"), [("I left my umbrella on the bus", True), ("I left my job", False),
                                              ("I left the Guardian last week", False)])
def test_left_with_no_workplace_after_it_quits_nothing(text: str, behind: bool) -> None:
    workplace = re.compile(r"(?i)\b(?:job|work|company|office)\b")
    assert left_behind(text, re.search("left", text), workplace) is behind
