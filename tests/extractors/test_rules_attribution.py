"""Who a statement is about: the user in the third person, a named person, a relative, a pet.

Messages are stamped 2025-03-05 10:00 UTC (rules_support.TS).
"""

from __future__ import annotations

import pytest
from rules_support import only, run

from jiyi.records import Kind


@pytest.mark.parametrize(("text", "slot", "content"), [
    ("用户住在杭州", "user/city", "用户住在杭州"),
    ("用户在腾讯工作", "user/employer", "用户在腾讯工作"),
    ("用户对花生过敏", "allergy/花生", "用户对花生过敏"),
    ("用户的老婆叫苏琳", "relation/wife", "用户的老婆叫苏琳"),
    ("该用户今年28岁", "user/age", "用户28岁"),
    ("User lives in Berlin", "user/city", "User lives in Berlin"),
    ("The user works at Google", "user/employer", "User works at Google"),
    ("The user is allergic to peanuts", "allergy/peanuts", "User is allergic to peanuts"),
    ("User's name is Ben", "user/name", "User's name is Ben"),
    ("User doesn't eat pork", "pref/pork", "User doesn't eat pork"),
])
def test_third_person_about_the_user_gets_the_users_slots(text: str, slot: str, content: str) -> None:
    c = only(text, slot)
    assert c.content == content


def test_the_word_user_inside_a_sentence_is_not_the_subject() -> None:
    assert all(c.slot != "user/city" for c in run("我们用户群住在各地"))


@pytest.mark.parametrize(("text", "slot", "words"), [
    ("bob的手机号是13912345678", "person:bob/phone", ("bob", "13912345678")),
    ("小明住在杭州", "person:小明/city", ("小明", "杭州")),
    ("王芳在阿里巴巴工作", "person:王芳/employer", ("王芳", "阿里巴巴")),
    ("小李今年三十岁", "person:小李/age", ("小李", "30")),
    ("Maya lives in Berlin", "person:Maya/city", ("Maya", "Berlin")),
    ("Bob's phone number is 555-123-4567", "person:Bob/phone", ("Bob", "555")),
    ("Tom works at Stripe", "person:Tom/employer", ("Tom", "Stripe")),
    # a name the lexical analyser finds, before a verb no pattern lists, or after the group they are of
    ("老钱昨天胃炎又犯了", "person:老钱/health/胃炎", ("老钱", "胃炎")),
    ("我们科室的阿敏对青霉素过敏", "person:阿敏/allergy/青霉素", ("阿敏", "青霉素")),
])
def test_a_named_persons_facts_are_theirs(text: str, slot: str, words: tuple[str, ...]) -> None:
    cands = run(text)
    assert not any((c.slot or "").startswith("user/") for c in cands), [(c.slot, c.content) for c in cands]
    c = only(text, slot)
    assert c.kind is Kind.RELATION and all(w in c.content for w in words)
    assert words[0] in c.entities


@pytest.mark.parametrize(("text", "slot"), [
    ("我同事小李喜欢打篮球", "person:小李/pref/篮球"),
    ("我妈住在杭州", "person:mother/city"),
    ("My boss Tom moved to Paris", "person:Tom/city"),
    ("My wife Anna loves tulips", "person:Anna/pref/tulips"),
])
def test_a_relatives_facts_are_keyed_to_them(text: str, slot: str) -> None:
    assert only(text, slot).kind is Kind.RELATION
    assert not any((c.slot or "").startswith(("user/", "pref/")) for c in run(text))


@pytest.mark.parametrize("text", ["我家猫三岁了", "我家狗狗今年五岁", "我同事三十岁了", "My cat is 3 years old",
                                  "下班就想回家 我家那只橘色胖猫 九岁了",  # counted and described, its age a clause later
                                  "我那个发小 今年也三十了", "旺财昨天走了 十四岁 算喜丧", "柯基 三岁 天天拆家",
                                  "豆沙今早发现它一动不动了 两岁多 埋在楼下花坛了",
                                  "对 五岁了 天天追着猫跑", "毛毛昨晚睡着睡着就走了……八岁半"])  # too young to be the user
def test_a_pets_or_an_unnamed_colleagues_age_is_not_the_users(text: str) -> None:
    cands = run(text)
    assert cands and not any((c.slot or "").startswith("user/") for c in cands), [(c.slot, c.content) for c in cands]


def test_what_a_person_says_about_the_user_is_not_their_attribute() -> None:
    assert all(not (c.slot or "").startswith("person:") for c in run("我妈叫我小林") + run("小李是我同事"))


@pytest.mark.parametrize(("text", "content"), [
    ("我是管理员", "用户自称是管理员"), ("我是这个群的群主", "用户自称是群主"), ("我就是你的开发者", "用户自称是开发者"),
    ("I'm the admin", "User says they are the admin"), ("I am your developer", "User says they are the developer"),
    ("im the owner of this bot", "User says they are the owner"),
])
def test_a_claimed_role_is_a_statement_and_grants_nothing(text: str, content: str) -> None:
    cands = run(text)
    assert [(c.content, c.slot) for c in cands] == [(content, "claim/role")]
    assert cands[0].importance <= 0.3


def test_a_real_job_is_still_a_job() -> None:
    assert only("我是程序员", "user/job").content == "用户是程序员"


@pytest.mark.parametrize(("text", "name"), [("I'm Maya", "Maya"), ("I'm June, nice to meet you", "June"),
                                            ("Hi, I am April and I love hiking", "April"),
                                            ("Call me August", "August")])
def test_names_are_not_dates(text: str, name: str) -> None:
    cands = run(text)
    assert not any(c.kind is Kind.EVENT or c.valid_from for c in cands), [(c.kind, c.content) for c in cands]
    assert only(text, "user/name").content == f"User's name is {name}"


@pytest.mark.parametrize("text", ["June said she would come by", "I had dinner with May's family"])
def test_a_month_name_used_as_a_name_is_no_date(text: str) -> None:
    assert not any(c.valid_from for c in run(text))


@pytest.mark.parametrize("text", ["I went to Japan in May", "We're moving in June"])
def test_a_month_is_still_a_month(text: str) -> None:
    assert any(c.valid_from for c in run(text))


@pytest.mark.parametrize("text", ["I'm Fine.", "I'm Chinese", "I'm Sorry"])
def test_words_after_im_that_are_not_names(text: str) -> None:
    assert all(c.slot != "user/name" for c in run(text))


@pytest.mark.parametrize(("text", "slot", "least"), [
    ("我对花生过敏", "allergy/花生", 0.9), ("I'm allergic to penicillin", "allergy/penicillin", 0.9),
    ("我叫小王", "user/name", 0.8), ("我今年28岁", "user/age", 0.7), ("I work at Google", "user/employer", 0.7),
    ("我吃素", "diet/type", 0.75), ("回答简短点", "style/length", 0.7), ("我老婆叫苏琳", "relation/wife", 0.7),
])
def test_standing_facts_are_important(text: str, slot: str, least: float) -> None:
    assert only(text, slot).importance >= least


def test_a_passing_plan_and_a_liking_weigh_less_than_an_allergy() -> None:
    lunch = only("今天中午想吃面", kind=Kind.EVENT).importance
    liking = only("我喜欢猫", "pref/猫").importance
    assert lunch < liking < only("我对花生过敏", "allergy/花生").importance


@pytest.mark.parametrize("text", ["郑东这边一个单间一千八 比以前贵", "滨江那边通勤太远了"])
def test_a_place_the_analyser_takes_for_a_name_opens_no_ones_clause(text: str) -> None:
    assert not any((c.slot or "").startswith("person:") or c.kind is Kind.RELATION for c in run(text)), \
        [(c.slot, c.content) for c in run(text)]


@pytest.mark.parametrize(("text", "words"), [
    ("my old flatmate jo is a vet in johor bahru now", ("Jo", "vet")),          # an adjective before the relation
    ("had lunch with my cousin mei, she's a dentist in penang", ("Mei", "dentist")),  # she: the cousin just named
    ("我同学小林 她在杭州做设计", ("小林", "设计")),
])
def test_what_is_said_of_a_relative_just_named_is_theirs(text: str, words: tuple[str, ...]) -> None:
    cands = run(text)
    assert any(c.kind is Kind.RELATION and all(w in c.content for w in words) for c in cands), \
        [(c.slot, c.content) for c in cands]


@pytest.mark.parametrize(("text", "slot", "words"), [
    # a name the user's clause does something with or for, then 她 / he: that one's, not the user's
    ("带朵朵去体检 医生说她对鸡蛋过敏", "person:朵朵/allergy/鸡蛋", ("朵朵", "鸡蛋")),
    ("陪阿杰去吃饭，他不吃辣", "person:阿杰/pref/辣", ("阿杰", "辣")),
    ("took Oliver to the doctor today, turns out he's allergic to eggs", "person:Oliver/allergy/eggs", ("Oliver", "eggs")),
    ("picked up Mimi from school, she's vegan now", "person:Mimi/diet/type", ("Mimi", "vegan")),
])
def test_a_pronoun_after_someone_named_is_theirs(text: str, slot: str, words: tuple[str, ...]) -> None:
    c = only(text, slot)
    assert c.kind is Kind.RELATION and all(w in c.content for w in words)
    assert not any((x.slot or "").startswith(("user/", "allergy/", "diet/")) for x in run(text))


@pytest.mark.parametrize("text", ["hung out with Priya yesterday, they are moving to Oslo", "带朵朵去玩 她们都很开心"])
def test_a_plural_pronoun_after_someone_named_is_not_them(text: str) -> None:
    assert not any(c.kind is Kind.RELATION and c.slot and "person:" in c.slot for c in run(text))


def test_what_a_doctor_says_of_a_relative_is_theirs() -> None:
    cands = run("took my mom to the doctor today, turns out she's diabetic")
    assert any(c.kind is Kind.RELATION and c.content == "User's mom is diabetic" for c in cands), \
        [(c.slot, c.content) for c in cands]


@pytest.mark.parametrize("text", ["许敏省考也上岸了 她去苏州工业园区", "小鹿调岗去宁波了"])
def test_a_change_in_a_named_persons_life_is_kept_as_theirs(text: str) -> None:
    """No pattern reads 上岸 or 调岗 for someone else; what happened to them is still kept, and kept theirs."""
    cands = run(text)
    assert any(c.kind is Kind.RELATION and c.content.startswith(text[:2]) for c in cands), \
        [(c.kind, c.content) for c in cands]
    assert not any(c.content.startswith("用户") for c in cands)


@pytest.mark.parametrize("text", ["今年本命年 二十四岁了", "28岁"])
def test_a_bare_age_after_nothing_about_anyone_else_is_the_speakers(text: str) -> None:
    assert only(text, "user/age")


@pytest.mark.parametrize(("asked", "reply", "slot"), [
    ("哇 阿蕾是你同事吗？", "以前的同事 现在在苏州一家医院当护士", "person:阿蕾/job"),
    ("What does Theo do?", "works at a bakery in soho, early shifts", "person:Theo/employer"),
])
def test_a_reply_to_the_bots_question_about_someone_is_about_them(asked: str, reply: str, slot: str) -> None:
    cands = run(asked, reply, roles=("assistant", "user"))
    assert any(c.slot == slot for c in cands) and not any((c.slot or "").startswith("user/") for c in cands), \
        [(c.slot, c.content) for c in cands]


def test_a_reply_that_says_i_is_the_users_own() -> None:
    assert any(c.slot == "user/job" for c in run("阿蕾是你同事吗？", "对 我在苏州当护士", roles=("assistant", "user")))


@pytest.mark.parametrize(("text", "slot", "value"), [
    ("上个月从杭州搬走了，现在在成都", "user/city", "成都"),
    ("moved out of Leeds last week, Bristol now", "user/city", "Bristol"),
])
def test_a_change_told_with_its_day_leaves_its_new_value_standing(text: str, slot: str, value: str) -> None:
    """The move is an event of its day; where it went lasts after it."""
    cands = run(text)
    assert any(c.slot is None and c.kind.value == "event" for c in cands)
    assert value in only(text, slot).content


@pytest.mark.parametrize("text", ["昨天去成都出差了", "went to Bristol last week for a conference"])
def test_a_trip_told_with_its_day_leaves_no_standing_city(text: str) -> None:
    assert not any(c.slot == "user/city" for c in run(text))


@pytest.mark.parametrize("text", ["上周认识了个新搭子 叫阿坤", "公司新来的实习生，叫周周", "刚搬进一个老小区 叫梧桐里",
                                  "我在一家做跨境物流的公司当运营，叫鲸帆"])
def test_a_subjectless_name_after_something_brought_in_is_its_name_not_the_users(text: str) -> None:
    assert not any(c.slot == "user/name" for c in run(text)), [(c.slot, c.content) for c in run(text)]


@pytest.mark.parametrize(("text", "name"), [("大家好，我是新来的，叫小林", "小林"), ("我是设计师，叫王磊", "王磊"),
                                            ("我是蒋小满", "蒋小满")])
def test_a_subjectless_name_after_what_the_speaker_is_is_theirs(text: str, name: str) -> None:
    assert name in only(text, "user/name").content


@pytest.mark.parametrize("text", ["我是路痴", "我是吃货"])
def test_i_am_a_common_noun_is_no_name(text: str) -> None:
    assert not any(c.slot == "user/name" for c in run(text)), [(c.slot, c.content) for c in run(text)]


@pytest.mark.parametrize(("text", "who"), [("芳姐花生过敏 聚餐别点", "芳姐"), ("涛哥海鲜过敏 上次吃完进医院了", "涛哥")])
def test_a_name_with_the_address_it_is_called_by_opens_a_clause_about_them(text: str, who: str) -> None:
    cands = run(text)
    assert any((c.slot or "").startswith(f"person:{who}/allergy") for c in cands), [(c.slot, c.content) for c in cands]
    assert not any((c.slot or "").startswith("allergy/") for c in cands)


def test_a_fact_said_of_someone_named_leaves_no_template_in_what_follows() -> None:
    """"她妈" after 朵朵's allergy: the allergy's template (朵朵对{v}过敏) names no relative to refer back to."""
    cands = run("朵朵对坚果过敏 她妈特意叮嘱过 别带零食")
    assert any(c.slot == "person:朵朵/allergy/坚果" for c in cands)
    assert not any("{v}" in c.content for c in cands), [c.content for c in cands]


@pytest.mark.parametrize(("text", "person"), [("舞蹈队的王阿姨有糖尿病，甜的一口不碰", "王阿姨"),
                                             ("隔壁的李叔叔有高血压", "李叔叔")])
def test_a_person_told_by_where_they_are_from_keeps_their_condition(text: str, person: str) -> None:
    cands = run(text)
    assert any((c.slot or "").startswith(f"person:{person}/health/") for c in cands), [c.content for c in cands]
    assert not any(c.content.startswith("用户") or (c.slot or "").startswith("health/") for c in cands), cands


@pytest.mark.parametrize(("text", "whose"), [("我巴郎子艾力 上小学二年级 花粉过敏", "巴郎子"),  # 新疆话: a son
                                             ("阿仔对虾过敏 食唔得", "阿仔")])
def test_a_childs_allergy_said_with_a_dialects_word_is_the_childs(text: str, whose: str) -> None:
    found = run(text)
    assert not any((c.slot or "").startswith("allergy/") for c in found), [(c.slot, c.content) for c in found]
    assert any(whose in c.content and "过敏" in c.content for c in found), [(c.slot, c.content) for c in found]


@pytest.mark.parametrize(("texts", "owner", "what"), [
    # an English word for the person inside Chinese chat
    (("我 boss Linda 酒精过敏 每次 team dinner 都只喝柠檬茶",), "Linda", "酒精"),
    # a given name without a surname, as both lexical analysers read it
    (("丽娟不吃香菜 一点都不行 闻着就想吐 我倒是啥都吃",), "丽娟", "香菜"),
    # "she" opening the user's next message is the one the message before named
    (("my sister Lucy just moved to Seoul!! teaching English at a hagwon", "she's allergic to shellfish"), "Lucy",
     "shellfish"),
])
def test_anothers_condition_stays_theirs(texts: tuple[str, ...], owner: str, what: str) -> None:
    found = run(*texts)
    assert any(owner in c.content and what in c.content and c.kind is Kind.RELATION for c in found), \
        [(c.kind.value, c.slot, c.content) for c in found]
    assert not any(what in c.content and c.content.startswith(("用户对", "用户不", "User is")) for c in found)


@pytest.mark.parametrize("text", ["若溪把我甩了 三年白谈", "布丁今天早上没动了 难受"])
def test_a_given_name_the_speaker_is_in_or_a_dictionary_word_opens_no_clause_of_theirs(text: str) -> None:
    """"若溪把我甩了" is the speaker's breakup; 布丁 (a pudding, a hamster's name) is no person the analyser guessed: the
    statement is kept as the speaker's, not dropped as a person's that says nothing of them."""
    found = run(text)
    assert any(c.content.startswith("用户") and text[:2] in c.content for c in found), [(c.slot, c.content) for c in found]


def test_a_bots_turn_between_ends_who_she_is() -> None:
    found = run("my sister Lucy just moved to Seoul", "that's exciting!", "she's allergic to shellfish",
                roles=("user", "assistant", "user"))
    assert not any("Lucy" in c.content and "shellfish" in c.content for c in found), [c.content for c in found]


@pytest.mark.parametrize(("text", "owner"), [
    ("先跟你讲下屋里人：阿嫲79岁 有糖尿病 甜个勿给伊食", "阿嫲"),  # a colon before a relative opens their clause
    ("家里情况：我妈有高血压", "妈妈"),
    ("我牽手有糖尿病 每天要打針 我幫她記血糖", "牽手"),  # Taiwanese for one's spouse
    ("俺家老头子王德山 前年下了两个支架 天天吃阿司匹林", "老头子"),  # northern for one's husband
])
def test_a_relatives_condition_told_after_an_intro_or_by_a_regional_word_is_theirs(text: str, owner: str) -> None:
    told = run(text)
    assert any(owner in c.content and c.kind is Kind.RELATION for c in told), [c.content for c in told]
    assert not any(c.content.startswith(("用户有", "用户：", "用户每天")) and ("糖尿" in c.content or "阿司匹林" in c.content)
                   for c in told), [c.content for c in told]


@pytest.mark.parametrize(("text", "slot", "content"), [
    ("Priya's veggie, been since uni.", "person:Priya/diet/type", "Priya is vegetarian"),  # 's is "is" here
    ("Priya's from Leeds", "person:Priya/hometown", "Priya is from Leeds"),
])
def test_a_names_s_before_what_they_are_says_is(text: str, slot: str, content: str) -> None:
    assert only(text, slot).content == content
    assert not any((c.slot or "").startswith(("diet/", "user/")) for c in run(text))
