"""Allergies and conditions as chat tells them: by what they do, without a subject, beside a diet."""

from __future__ import annotations

import pytest
from rules_support import run


def test_an_allergy_beside_a_diet_under_one_subject_keeps_both() -> None:
    """"i'm vegan, 2 yrs now, and allergic to sesame": one subject, two standing facts."""
    slots = {c.slot for c in run("fyi i'm vegan, 2 yrs now, and allergic to sesame which is in EVERYTHING here")}
    assert {"allergy/sesame", "diet/type"} <= slots, slots


@pytest.mark.parametrize(("text", "slot"), [("我吃虾会起疹子 去年还挂了急诊", "allergy/虾"), ("我一吃芒果就嘴肿", "allergy/芒果"),
                                         ("I break out in hives when I eat shrimp", "allergy/shrimp"),
                                         ("i'm red-green colorblind, charts are hell", "health/color blindness"),
                                         ("reminder i can't do peanuts, i swell up like crazy", "allergy/peanuts"),
                                         ("提前说哦我芝麻过敏 麻酱香油啥的都不行", "allergy/芝麻"),
                                         ("also deathly allergic to walnuts. like epipen-level", "allergy/walnuts"),
                                         ("我上周起红疹 医生说是牛奶过敏", "allergy/牛奶"),
                                         ("我血糖又高了 医生说得好好控制饮食", "health/血糖"), ("我血压一直偏高", "health/血压"),
                                         ("I can't be near cats, allergic af", "allergy/cats"),
                                         ("can't have dairy, i'm allergic", "allergy/dairy")])
def test_a_condition_told_by_what_it_does_is_kept(text: str, slot: str) -> None:
    assert slot in {c.slot for c in run(text)}, run(text)


@pytest.mark.parametrize("text", ["吃辣会上火", "我吃多了会胖", "i get tired when i eat pasta", "上周带儿子去医院看了过敏科",
                                  "给小宝喂了口虾泥 全身起疹子 医生说是虾过敏 吓死我", "我对芒果过敏 吃一口就起疹子"])
def test_an_effect_that_is_no_allergy_is_none(text: str) -> None:
    """…and how much was eaten is no allergen: 吃一口就起疹子 after 我对芒果过敏 names mango alone."""
    assert not [c for c in run(text) if (c.slot or "").startswith("allergy/") and "芒果" not in c.slot]


@pytest.mark.parametrize("text", ["血压高不高？", "我血糖不高", "我妈血糖高"])
def test_a_reading_asked_denied_or_anothers_is_not_the_users(text: str) -> None:
    assert not [c for c in run(text) if c.slot == "health/血糖" or c.slot == "health/血压"]
