"""Allergies, conditions and diet: one by one, by what they do, without a subject, beside a diet."""

from __future__ import annotations

import pytest
from rules_support import _d, only, run

from jiyi.records import Kind, Visibility


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
                                  "给小宝喂了口虾泥 全身起疹子 医生说是虾过敏 吓死我", "我对芒果过敏 吃一口就起疹子",
                                  "我有关节炎 一碰膝盖就肿"])  # where it swells is no allergen
def test_an_effect_that_is_no_allergy_is_none(text: str) -> None:
    """…and how much was eaten is no allergen: 吃一口就起疹子 after 我对芒果过敏 names mango alone."""
    assert not [c for c in run(text) if (c.slot or "").startswith("allergy/") and "芒果" not in c.slot]


@pytest.mark.parametrize("text", ["血压高不高？", "我血糖不高", "我妈血糖高"])
def test_a_reading_asked_denied_or_anothers_is_not_the_users(text: str) -> None:
    assert not [c for c in run(text) if c.slot == "health/血糖" or c.slot == "health/血压"]


# ---------------------------------------------------------------- allergies, conditions and diet, one by one

@pytest.mark.parametrize(
    ("text", "slot", "content"),
    [("我对花生过敏", "allergy/花生", "用户对花生过敏"), ("我花生过敏，挺严重的", "allergy/花生", "用户对花生严重过敏"),
     ("对青霉素过敏", "allergy/青霉素", "用户对青霉素过敏"),
     ("I'm allergic to peanuts.", "allergy/peanuts", "User is allergic to peanuts"),
     ("I have a severe shellfish allergy", "allergy/shellfish", "User is allergic to shellfish"),
     ("Heads up: I've got a tree nut allergy, carry an EpiPen", "allergy/tree nut", "User is allergic to tree nut")],
)
def test_allergy_is_normal_visibility_and_important(text: str, slot: str, content: str) -> None:
    c = only(text, slot)
    assert (c.kind, c.content, c.visibility) == (Kind.FACT, content, Visibility.NORMAL)
    assert c.importance == pytest.approx(0.9)


def test_several_allergens_give_one_memory_each() -> None:
    assert {c.slot for c in run("我对花生和海鲜过敏")} == {"allergy/花生", "allergy/海鲜"}
    assert {c.slot for c in run("I'm allergic to peanuts and shellfish")} == {"allergy/peanuts", "allergy/shellfish"}


@pytest.mark.parametrize(("text", "slots"), [
    ("btw im allergic to peanuts, like epipen level", {"allergy/peanuts"}),
    ("I'm allergic to shellfish, so no shrimp please", {"allergy/shellfish"}),
    ("I'm allergic to peanuts, tree nuts and shellfish", {"allergy/peanuts", "allergy/tree nuts", "allergy/shellfish"}),
])
def test_an_afterthought_after_the_allergens_is_none(text: str, slots: set[str]) -> None:
    assert {c.slot for c in run(text) if (c.slot or "").startswith("allergy/")} == slots


@pytest.mark.parametrize(("text", "slots"), [
    ("no prawn crackers pls. shellfish allergy, it's serious", {"allergy/shellfish"}),
    ("also severe sesame allergy btw", {"allergy/sesame"}),
    ("allergy season is brutal this year", set()),
    ("my sister's peanut allergy is bad", set()),
    ("the peanut allergy thing at school is annoying", set()),
    ("peanut allergy meds are so expensive", set()),
])
def test_an_allergy_said_as_a_clause_of_its_own_is_the_speakers(text: str, slots: set[str]) -> None:
    assert {c.slot for c in run(text) if (c.slot or "").startswith("allergy/")} == slots


def test_not_allergic() -> None:
    assert all(not (c.slot or "").startswith("allergy/") for c in run("我对花生不过敏"))


@pytest.mark.parametrize(
    ("text", "slot", "content"),
    [("我有高血压", "health/高血压", "用户有高血压"), ("医生说已经算高血压一级了", "health/高血压", "用户有高血压"),
     ("我得了糖尿病", "health/糖尿病", "用户有糖尿病"), ("I have diabetes.", "health/diabetes", "User has diabetes"),
     ("I was diagnosed with asthma", "health/asthma", "User has asthma"),
     ("我痛风，海鲜基本不碰", "health/痛风", "用户有痛风"),  # the condition right after the subject
     ("im diabetic so easy on the sugar", "health/diabetes", "User has diabetes"),  # said as what the user is
     ("i have coeliac, bread is off the table", "health/celiac disease", "User has coeliac disease"),  # their spelling
     ("I'm coeliac so no gluten", "health/celiac disease", "User has coeliac disease"),
     ("我这老胃炎又犯了 吃啥都难受", "health/胃炎", "用户有胃炎"),  # a condition flaring up again is one the user has
     # a condition told by what treats it
     ("packed my insulin and the glucose meter, off we go", "health/diabetes", "User has diabetes"),
     ("ugh left my inhaler in the car again", "health/asthma", "User has asthma"),
     ("我每天睡前打一针胰岛素", "health/糖尿病", "用户有糖尿病"),
     # what limits moving or seeing: an injured body part, colour blindness
     ("我膝盖一直不太行，打球都得戴护膝", "health/膝盖", "用户膝盖一直不太行"),
     ("and im colorblind (deuteranopia) so pls no red vs green", "health/color blindness", "User has color blindness")],
)
def test_diagnoses_are_sensitive(text: str, slot: str, content: str) -> None:
    c = only(text, slot)
    assert (c.content, c.visibility) == (content, Visibility.SENSITIVE)


@pytest.mark.parametrize(
    ("text", "slot", "content"),
    [("我吃素", "diet/type", "用户吃素"), ("我不吃辣", "pref/辣", "用户不吃辣"), ("我从不喝酒", "pref/酒", "用户从不喝酒"),
     ("我戒了咖啡", "pref/咖啡", "用户戒了咖啡"), ("I'm vegetarian", "diet/type", "User is vegetarian"),
     ("I don't eat pork.", "pref/pork", "User doesn't eat pork"), ("I quit smoking", "pref/smoking", "User quit smoking"),
     ("I'm veggie", "diet/type", "User is vegetarian"), ("Just so you know I only eat halal", "diet/type", "User eats halal")],
)
def test_diet(text: str, slot: str, content: str) -> None:
    c = only(text, slot)
    assert (c.kind, c.content) == (Kind.PREFERENCE, content)


def test_quitting_from_a_day_on() -> None:
    c = only("小安，我决定了，从今天开始戒咖啡", "pref/咖啡")
    assert c.content == "用户从2025年3月5日开始戒咖啡"
    assert c.valid_from == _d("2025-03-05")


@pytest.mark.parametrize("text", ["咖啡我是真戒不了", "我想想还是戒了吧"])
def test_not_quitting_anything(text: str) -> None:
    assert all(not (c.slot or "").startswith("pref/") for c in run(text))


def test_topic_first_quitting() -> None:
    assert only("咖啡也戒了快四个月了", "pref/咖啡").content == "用户戒了咖啡"


def test_each_food_refused_with_its_own_verb_is_its_own_preference() -> None:
    """不吃牛肉不吃羊肉: the verb said again starts another object (not one pref keyed 牛肉不吃羊肉)."""
    slots = {c.slot for c in run("我不吃牛肉不吃羊肉 猪肉可以")}
    assert {"pref/牛肉", "pref/羊肉"} <= slots and not any("不吃" in (s or "") for s in slots), slots


@pytest.mark.parametrize(("text", "slot"), [("我开始吃牛肉了", "pref/牛肉"), ("现在能吃辣了", "pref/辣"),
                                            ("我重新喝奶茶了", "pref/奶茶")])
def test_a_food_taken_up_again_is_the_stance_on_it_now(text: str, slot: str) -> None:
    """Keyed as the refusal was (pref/牛肉), so it replaces "用户不吃牛肉"; a meal had again (又吃火锅了) is no stance."""
    assert slot in {c.slot for c in run(text)}
    assert not any((c.slot or "").startswith("pref/") for c in run("昨天又吃火锅了"))


@pytest.mark.parametrize(("text", "slot"), [
    ("我對蝦蟹敏感 食完會出風癩", "allergy/"),  # 敏感 to what is eaten: an allergy (Cantonese, Taiwanese)
    ("體檢說空腹血糖6.8 大夫讓控糖", "health/高血糖"),  # the doctor's order tells the condition
    ("Also ah, I lactose intolerant. Cannot take milk", "diet/type"),  # Singlish: no "am"
])
def test_a_condition_told_in_the_words_of_where_one_lives(text: str, slot: str) -> None:
    assert any((c.slot or "").startswith(slot) for c in run(text)), [(c.slot, c.content) for c in run(text)]


@pytest.mark.parametrize("text", ["我对声音很敏感 晚上睡不好", "我对数字不敏感", "医生让我妈控糖"])
def test_sensitivity_to_what_is_not_eaten_or_anothers_diet_is_no_condition_of_the_users(text: str) -> None:
    assert not any((c.slot or "").startswith(("allergy/", "health/")) for c in run(text)), run(text)


@pytest.mark.parametrize(("text", "condition"), [
    ("I've got asthma", "asthma"), ("I've asthma since I was a kid", "asthma"),  # "I've", no space before it
    ("我胃不好 查出来幽门螺杆菌阳性", "幽门螺杆菌"), ("我腰间盘突出 坐久了疼", "腰间盘突出"), ("我恐高", "恐高"),
    ("我去年放了心脏支架 每日吃阿司匹林", "心脏支架"), ("我晕车 坐大巴要吃药", "晕车"),
])
def test_a_condition_said_bare_or_by_an_apostrophe(text: str, condition: str) -> None:
    assert any(c.slot == f"health/{condition}" for c in run(text)), [(c.slot, c.content) for c in run(text)]


@pytest.mark.parametrize("text", ["我焦虑了", "他胃不好", "那家店的胃口很好"])
def test_a_mood_or_someone_elses_body_is_no_condition_of_the_users(text: str) -> None:
    assert not any((c.slot or "").startswith("health/") for c in run(text)), [(c.slot, c.content) for c in run(text)]


def test_a_condition_after_a_cantonese_connector_is_the_speakers() -> None:
    """仲有 is Cantonese 还有: "仲有我乳糖不耐" is the speaker's condition."""
    assert only("仲有我乳糖不耐 饮奶会肚屙 所以奶茶都要叫燕麦奶", "health/乳糖不耐").content == "用户有乳糖不耐"
