"""What kind of thing a word names (text/kinds.py): a brand, a model or a breed is of its category."""

from __future__ import annotations

import pytest

from jiyi.text.consumption import kinds_of
from jiyi.text.kinds import named_kinds
from jiyi.text.turn_topics import turn_families


@pytest.mark.parametrize(("text", "kind"), [
    ("一天三罐百事", "soda"),
    ("每天下午一杯瑞幸生椰拿铁", "coffee"),
    ("我那台卡罗拉该保养了", "car"),
    ("my shiba inu hates the rain", "dog"),
    ("two Monster Energy before my shift", "energy"),
    ("家里那只布偶猫又掉毛了", "cat"),
])
def test_a_brand_model_or_breed_names_its_kind(text: str, kind: str) -> None:
    assert kind in named_kinds(text)


@pytest.mark.parametrize("text", ["去烟台玩了三天", "酒店订好了", "茶几上的书", "I biked to the lab", "cake walk"])
def test_words_that_mostly_mean_something_else_name_no_kind(text: str) -> None:
    assert named_kinds(text) == frozenset()


def test_a_brand_is_consumed_as_its_category() -> None:
    assert "soda" in kinds_of("每天两瓶百事") and "smoke" in kinds_of("一天一包利群")


@pytest.mark.parametrize(("text", "lang"), [("我开着一辆二手卡罗拉 跑网约车", "zh"), ("my old corolla finally died lol", "en"),
                                           ("我跑的是一台二手帕萨特 跑滴滴的", "zh"), ("我那台朗逸该换轮胎了", "zh")])
def test_a_car_told_by_its_model_is_a_vehicle_turn(text: str, lang: str) -> None:
    assert "vehicle" in turn_families(text, lang)
