"""What the rules must not store, and what they must store with less certainty or someone else's name.

Messages are stamped 2025-03-05 10:00 UTC (rules_support.TS).
"""

from __future__ import annotations

import pytest
from rules_support import _d, run

from jiyi.extractors.rules.clauses import split_clauses
from jiyi.extractors.rules.hygiene import is_hedged
from jiyi.records import Kind


def kinds(text: str) -> list[tuple[str, str | None, str]]:
    return [(c.kind.value, c.slot, c.content) for c in run(text)]


# ---------------------------------------------------------------- questions ask, they do not tell

@pytest.mark.parametrize("text", [
    "我周末一般喜欢去爬山吗？", "我平时喜欢喝乌龙茶吗", "我住在宁波吗？", "我平时爱看纪录片吗",
    "我每周都去游泳了吗？", "Did I tell you I like tamales?", "Do I like zydeco?", "Did I say I live in Dundee?",
    "Have I mentioned that I work at a pharmacy?", "Do I live in Leeds?",
])
def test_a_question_is_never_stored_as_a_fact(text: str) -> None:
    assert run(text) == [], kinds(text)


@pytest.mark.parametrize(("text", "told", "asked"), [
    ("周日爬山 谁去", "爬山", "谁去"), ("同学下周结婚 随多少份子合适", "结婚", "份子"),
    ("表妹月底来玩 带她逛哪儿好", "来玩", "逛哪"), ("爸下个月过生日 买点啥", "生日", "买点啥"),
])
def test_a_question_word_without_a_question_mark_still_asks(text: str, told: str, asked: str) -> None:
    """What was told stays; the question after it (谁去, 逛哪儿好, 买点啥) is not part of any memory."""
    cands = run(text)
    assert any(told in c.content for c in cands) and not any(asked in c.content for c in cands), kinds(text)


@pytest.mark.parametrize("text", ["我吃啥都不挑", "放假哪也不去", "我在哪都能睡着", "最近没啥胃口", "明天体检 有点怕查出啥",
                                  "谁劝我熬夜我跟谁急", "周末带娃去看哪吒2"])  # (哪吒: a name, not 哪)
def test_a_question_word_with_dou_ye_or_a_fear_tells(text: str) -> None:
    assert not any(c.question for c in split_clauses(text, "zh", [])), [(c.text, c.question) for c in
                                                                        split_clauses(text, "zh", [])]


@pytest.mark.parametrize(("text", "slot", "content"), [
    ("I like zydeco, do you?", "pref/zydeco", "User likes zydeco"),
    ("我喜欢吃酸菜鱼，你呢？", "pref/酸菜鱼", "用户喜欢吃酸菜鱼"),
    ("我住在绍兴，你知道绍兴吗？", "user/city", "用户住在绍兴"),
])
def test_a_statement_with_a_question_after_it_is_kept_without_the_question(text: str, slot: str,
                                                                           content: str) -> None:
    found = [c for c in run(text) if c.slot == slot]
    assert [c.content for c in found] == [content]
    assert all("?" not in c.content and "？" not in c.content for c in run(text))


@pytest.mark.parametrize(("text", "slot"), [("我什么水果都喜欢吃，就是对菠萝过敏", "allergy/菠萝"),
                                            ("我不是跟你说过我对花生过敏嘛", "allergy/花生"),
                                            ("我之前跟你说过我喜欢养多肉", "pref/多肉"),
                                            ("Didn't I tell you I'm allergic to pecans?", "allergy/pecans"),
                                            ("我记得我说过我对虾皮过敏", "allergy/虾皮")])
def test_a_statement_with_a_question_word_is_still_a_statement(text: str, slot: str) -> None:
    assert any(c.slot == slot for c in run(text)), kinds(text)


# ---------------------------------------------------------------- talk about memory is not a fact

@pytest.mark.parametrize("text", ["请记住这一点，非常重要", "一定要记住这个，很关键！", "remember this, it matters",
                                  "Please remember that, it's really important.", "记得我说过的话", "我希望你能记住我的喜好",
                                  "记住刚才那句话", "Don't forget what I told you"])
def test_a_request_to_remember_that_points_elsewhere_is_not_stored(text: str) -> None:
    assert run(text) == [], kinds(text)


@pytest.mark.parametrize(("text", "slot", "content"), [
    ("记住，我对山竹过敏，这个很重要", "allergy/山竹", "用户对山竹过敏"),
    ("remember that I hate olives, it matters", "pref/olives", "User hates olives"),
])
def test_emphasis_is_no_part_of_the_fact_it_stresses(text: str, slot: str, content: str) -> None:
    c = next(c for c in run(text) if c.slot == slot)
    assert c.content == content
    assert c.importance >= 0.85


@pytest.mark.parametrize(("text", "content"), [
    ("记住：我老公对头孢过敏，这个很重要，千万别忘了", "用户的老公对头孢过敏"),
    ("记得我不吃香菜，别忘了哦", "用户不吃香菜"),
    ("Remember: I am allergic to penicillin, don't forget", "User is allergic to penicillin"),
    ("I am allergic to penicillin, please remember that", "User is allergic to penicillin"),
])
def test_a_reminder_after_a_statement_is_no_part_of_it(text: str, content: str) -> None:
    assert [c.content for c in run(text)] == [content]


@pytest.mark.parametrize(("text", "content"), [("记住这件事：后天上午十点体检", "用户2025年3月7日10:00体检"),
                                              ("Remember this: my visa expires in August", "User's visa expires in August 2025")])
def test_a_pointer_that_opens_what_is_remembered_is_no_part_of_it(text: str, content: str) -> None:
    assert [c.content for c in run(text)] == [content]


@pytest.mark.parametrize("text", ["remember this okay?? really important", "记住这个 好吗 非常重要", "note that pls, super important"])
def test_a_request_to_remember_that_only_points_and_stresses_keeps_nothing(text: str) -> None:
    assert not [c for c in run(text) if "remember" in c.content or "记住" in c.content], [c.content for c in run(text)]


@pytest.mark.parametrize(("text", "slot"), [("能不能记住我对鹌鹑蛋过敏？", "allergy/鹌鹑蛋"), ("你能记住我对鹌鹑蛋过敏吗？", "allergy/鹌鹑蛋"),
                                            ("Could you remember that I'm vegan?", "diet/type")])
def test_a_request_to_remember_put_as_a_question_is_a_request(text: str, slot: str) -> None:
    assert any(c.slot == slot and c.importance >= 0.85 and "?" not in c.content for c in run(text)), kinds(text)


def test_a_polite_request_keeps_what_it_asks_to_remember() -> None:
    assert [c.content for c in run("麻烦帮我记住我的储物柜号是C-208好吗？")] == ["用户要求记住：用户的储物柜号是C-208"]
    ev = [c for c in run("可以帮我记一下我下周三去洗牙吗？") if c.kind is Kind.EVENT]
    assert [c.content for c in ev] == ["用户2025年3月12日去洗牙"]


@pytest.mark.parametrize("text", ["我车牌号是浙A3K729 帮我记着 老是忘", "下周四复诊 你帮我记一下，省得我到时候抓瞎",
                                  "储物柜密码 0815 帮我记住 回头取东西用"])
def test_what_follows_a_request_after_a_break_says_why_and_is_not_remembered(text: str) -> None:
    """The request is about what came before it; "老是忘" / "回头取东西用" is the reason."""
    assert not [c for c in run(text) if "记住" in c.content], kinds(text)


@pytest.mark.parametrize(("text", "kept"), [("帮我记一下 周五交水电费", "交水电费"), ("对了 帮我记住：阳台的花周日浇", "阳台的花"),
                                            ("@小助手 帮我记一下年会节目的事", "年会节目"),
                                            ("房东电话 13800001111 帮我记着 月底要找他退押金", "退押金")])  # dated: a plan
def test_what_follows_a_request_with_nothing_before_it_a_colon_or_its_own_day_is_remembered(text: str, kept: str) -> None:
    assert any(kept in c.content for c in run(text)), kinds(text)


@pytest.mark.parametrize("text", ["你记得我喜欢什么吗？", "你还记得我的猫叫什么来着", "Do you remember what I told you about my knee?"])
def test_a_question_about_what_is_remembered_stores_nothing(text: str) -> None:
    assert run(text) == [], kinds(text)


# ---------------------------------------------------------------- owners keep what is theirs

@pytest.mark.parametrize(("text", "who"), [("记住：我表哥对山竹过敏", "表哥"), ("我姐夫对猫毛过敏", "姐夫"),
                                          ("记住，我的舅舅对花生过敏", "舅舅"), ("我邻居对海鲜过敏", "邻居"),
                                          ("记住：楼下老周对花生过敏", "楼下老周"), ("记住，我们组长对酒精过敏", "组长"),
                                          ("remember that my landlord is allergic to cats", "landlord")])
def test_someone_elses_allergy_stays_theirs(text: str, who: str) -> None:
    found = run(text)
    assert not any((c.slot or "").startswith("allergy/") for c in found), kinds(text)
    assert any(who in c.content and ("过敏" in c.content or "allergic" in c.content) for c in found), kinds(text)
    assert not any(c.content.startswith(("用户对", "User is allergic", "User asked")) for c in found), kinds(text)


@pytest.mark.parametrize("text", ["我从小就对榛子过敏", "我们全家都对榛子过敏", "我一直对榛子过敏", "我有点对榛子过敏"])
def test_the_users_allergy_said_with_more_words_is_still_the_users(text: str) -> None:
    assert [c.content for c in run(text) if c.slot == "allergy/榛子"] == ["用户对榛子过敏"], kinds(text)


@pytest.mark.parametrize("text", ["我表妹今年九岁了", "我邻居的猫五岁了", "我同桌的狗两岁了", "My neighbour's parrot is 12"])
def test_someone_elses_or_a_pets_age_is_not_the_users(text: str) -> None:
    assert not any(c.slot == "user/age" for c in run(text)), kinds(text)


# ---------------------------------------------------------------- upcoming dates stay ahead

@pytest.mark.parametrize(("text", "day"), [
    ("我们12月20号去看话剧", "2025-12-20"), ("12月28号我要去漠河看极光", "2025-12-28"),
    ("I'm flying to Reykjavik on January 3rd", "2026-01-03"), ("We will visit my aunt on February 2", "2026-02-02"),
    ("我3号要交房租", "2025-04-03"), ("I'm going to the dentist on the 2nd", "2025-04-02"),
])
def test_a_bare_date_of_an_upcoming_event_is_the_next_one(text: str, day: str) -> None:
    ev = next(c for c in run(text) if c.kind is Kind.EVENT)
    assert ev.valid_from == _d(day)
    assert ev.expires_at is not None and ev.expires_at > _d("2025-03-05")


def test_a_participle_after_get_is_no_past_tense() -> None:
    ev = next(c for c in run("my sister is getting married on February 14") if c.kind is Kind.EVENT)
    assert ev.valid_from == _d("2026-02-14")  # said in March 2025: the next one


@pytest.mark.parametrize(("text", "day"), [("我去年12月20号去看了话剧", "2024-12-20"),
                                           ("I went to Reykjavik on January 3rd", "2025-01-03"),
                                           ("3月1号我交了论文", "2025-03-01"), ("3号我交了房租", "2025-03-03"),
                                           ("my sister got married on February 14", "2025-02-14"),
                                           ("我是2月10号到的深圳 帮女儿带孩子", "2025-02-10")])  # 是…的: what was
def test_a_bare_date_told_as_past_stays_past(text: str, day: str) -> None:
    ev = next(c for c in run(text) if c.kind is Kind.EVENT)
    assert ev.valid_from == _d(day)


@pytest.mark.parametrize("text", ["发布会推迟到5月20号了 场地出了问题", "launch got pushed to May 20 because the venue fell through"])
def test_a_date_a_plan_was_moved_to_is_ahead_whatever_the_tense(text: str) -> None:
    ev = next(c for c in run(text) if c.kind is Kind.EVENT)
    assert ev.valid_from == _d("2025-05-20")


# ---------------------------------------------------------------- a hedge is less sure

@pytest.mark.parametrize(("sure", "unsure"), [
    ("我下个月去西宁出差", "我下个月可能去西宁出差"), ("我周末去钓鱼", "我周末也许去钓鱼"),
    ("I'm moving to Tucson next month", "I might move to Tucson next month"),
    ("Next week I'm visiting my parents", "Maybe next week I'm visiting my parents"),
])
def test_a_hedged_statement_carries_less_confidence(sure: str, unsure: str) -> None:
    a, b = run(sure), run(unsure)
    assert a and b, (kinds(sure), kinds(unsure))
    assert max(c.confidence for c in b) < min(c.confidence for c in a)


def test_a_hedged_value_does_not_take_the_slot_but_a_hedged_allergy_does() -> None:
    assert not any(c.slot == "user/city" for c in run("我可能会搬到无锡住")), kinds("我可能会搬到无锡住")
    c = next(c for c in run("我可能对头孢过敏") if c.slot == "allergy/头孢")
    assert c.content == "用户可能对头孢过敏"
    assert c.confidence < next(c for c in run("我对头孢过敏") if c.slot == "allergy/头孢").confidence


def test_wondering_is_a_hedge() -> None:
    c = next(c for c in run("I wonder if I'm allergic to lychee") if c.slot == "allergy/lychee")
    assert c.confidence < 0.8 and "possibly" in c.content


def test_not_possible_is_no_hedge() -> None:
    assert is_hedged("我也许会喜欢榴莲", "zh") and not is_hedged("我不可能喜欢榴莲", "zh")
    assert is_hedged("I may move to Perth", "en") and not is_hedged("I moved in May", "en")


@pytest.mark.parametrize(("text", "who"), [("我养了只柯基，今年两岁", "柯基"), ("我养了一只狗，叫麻薯，三岁", "狗"),
                                          ("我有一个女儿，今年五岁", "女儿")])
def test_an_age_after_someone_introduced_is_theirs(text: str, who: str) -> None:
    found = run(text)
    assert not any(c.slot == "user/age" for c in found), kinds(text)
    assert any(c.content.startswith(f"用户的{who}") and "岁" in c.content for c in found), kinds(text)


def test_the_users_own_age_after_an_introduction_is_still_theirs() -> None:
    assert any(c.slot == "user/age" for c in run("我养了只猫，我今年三十岁"))


# ---------------------------------------------------------------- one clause, one meaning

@pytest.mark.parametrize(("text", "slot", "content"), [
    ("我喜欢吃辣，但是最近胃不好", "pref/辣", "用户喜欢吃辣"),
    ("I love kayaking, the weather is great today", "pref/kayaking", "User loves kayaking"),
    ("I like rooibos, thanks for asking", "pref/rooibos", "User likes rooibos"),
])
def test_a_clause_about_something_else_is_not_glued_on(text: str, slot: str, content: str) -> None:
    assert [c.content for c in run(text) if c.slot == slot] == [content]


def test_the_weather_is_no_event_of_the_users() -> None:
    assert not any("天气" in c.content for c in run("我平时喜欢下棋，今天天气不错")), kinds("我平时喜欢下棋，今天天气不错")


def test_a_continued_statement_is_still_one() -> None:
    assert any(c.content == "用户一般6点起，7点到公司" for c in run("我一般6点起，7点到公司"))


@pytest.mark.parametrize(("text", "content"), [
    ("I don't really like fennel but my wife loves it", "User's wife loves fennel"),
    ("我不太喜欢吃茴香，但是我老婆很爱", "用户的老婆很爱茴香"),
    ("我喜欢攀岩，我老公也喜欢", "用户的老公也喜欢攀岩"),
])
def test_a_statement_about_someone_ending_on_it_takes_the_object_before(text: str, content: str) -> None:
    assert content in [c.content for c in run(text)], kinds(text)


def test_a_dislike_said_with_really_is_a_dislike() -> None:
    assert [c.content for c in run("I don't really like fennel") if c.slot == "pref/fennel"] == [
        "User doesn't really like fennel"]


def test_a_fact_about_someone_is_not_glued_onto_their_visit() -> None:
    found = run("我妈下个月来湖州看我，她对柳絮过敏")
    ev = next(c for c in found if c.kind is Kind.EVENT)
    assert ev.content == "用户的妈妈2025年4月来湖州看用户"
    assert ev.expires_at == _d("2025-05-01")  # 过敏 tells no past: a plan, which lapses
    assert any(c.slot == "person:mother/allergy/柳絮" for c in found)


def test_a_plan_continuing_a_statement_about_someone_stays_theirs() -> None:
    ev = next(c for c in run("我老婆住在绍兴，下个月来上海") if c.kind is Kind.EVENT)
    assert ev.content == "用户的老婆2025年4月来上海"


@pytest.mark.parametrize(("text", "content"), [("记住：我表哥对山竹过敏", "用户的表哥对山竹过敏"), ("我侄女在读初中", "用户的侄女在读初中")])
def test_someone_of_the_users_life_is_named_as_the_users(text: str, content: str) -> None:
    assert content in [c.content for c in run(text)], kinds(text)


def test_a_hedge_about_something_else_leaves_the_statement_sure() -> None:
    c = next(c for c in run("I do like canoeing, so that might be fun") if c.slot == "pref/canoeing")
    assert c.confidence == 0.85


def test_a_bare_month_with_no_word_of_the_future_stays_the_nearest() -> None:
    ev = next(c for c in run("就1月那个电暖器，公司能报销") if c.kind is Kind.EVENT)
    assert ev.valid_from == _d("2025-01-01")


def test_an_air_fryer_is_no_weather() -> None:
    assert any(c.kind is Kind.EVENT for c in run("空气净化器今天下午到了，结果我拆开一看，滤网破了"))


# ---------------------------------------------------------------- a sticker says nothing

@pytest.mark.parametrize("text", ["来了来了 [狗头]", "哈哈哈[捂脸]", "[玫瑰][玫瑰]", "收到 [OK]"])
def test_a_reaction_with_a_sticker_is_still_no_memory(text: str) -> None:
    assert run(text) == [], kinds(text)


def test_what_a_message_with_a_sticker_tells_is_kept_without_it() -> None:
    assert [c.content for c in run("我对花生过敏[捂脸]")] == ["用户对花生过敏"]


# ---------------------------------------------------------------- a word that opens with 学 is no subject studied

@pytest.mark.parametrize("text", ["学信网密码 Hzm@lz2026 帮我记着 老忘", "那以后改游泳吧 学校游泳馆一次十块",
                                  "学费交了 八千", "读者来信我都看了"])
def test_a_word_opening_with_a_study_verb_is_no_major(text: str) -> None:
    assert not any(c.slot == "user/major" for c in run(text)), kinds(text)


@pytest.mark.parametrize(("text", "major"), [("我是学计算机的", "计算机"), ("现在读心理学", "心理学"),
                                             ("我学会计的", "会计")])
def test_a_subject_studied_is_still_the_major(text: str, major: str) -> None:
    assert any(c.slot == "user/major" and major in c.content for c in run(text)), kinds(text)


# ---------------------------------------------------------------- a move to a platform is no new home

@pytest.mark.parametrize("text", ["小红书那个号不更了 搬去B站做视频了", "我搬去抖音直播了", "店搬到美团上了"])
def test_a_move_to_a_platform_is_no_city(text: str) -> None:
    assert not any(c.slot == "user/city" for c in run(text)), kinds(text)


@pytest.mark.parametrize(("text", "city"), [("搬到杭州做电商了", "杭州"), ("搬去阿里巴巴附近了", "阿里巴巴"),
                                            ("搬到南山桃园了", "南山桃园")])
def test_a_move_to_a_place_is_still_the_city(text: str, city: str) -> None:
    assert any(c.slot == "user/city" and city in c.content for c in run(text)), kinds(text)
