"""extractors/rules/answers.py: a yes to the bot's yes-or-no question says what the question said."""

from __future__ import annotations

import pytest
from rules_support import run

from jiyi.extractors.rules.answers import adopted, answered, denied, introduced, pointed


@pytest.mark.parametrize(("question", "reply", "lang", "said"), [
    ("Oh, are you moving out of Leeds?", "yep, Bristol from next week", "en",
     "I am moving out of Leeds, Bristol from next week"),
    ("Did you end up taking the job at Halden?", "yeah", "en", "I did end up taking the job at Halden"),
    ("Nice! Have you sold your old bike?", "yup, last weekend", "en", "I have sold my old bike, last weekend"),
    ("你要搬去成都了吗？", "对 下周就走", "zh", "我要搬去成都了，下周就走"),
    ("还在顺丰送快递吗？", "嗯 不过快不干了", "zh", "我还在顺丰送快递，不过快不干了"),
])
def test_a_yes_says_the_question(question: str, reply: str, lang: str, said: str) -> None:
    assert adopted(question, reply, lang) == said


@pytest.mark.parametrize(("question", "reply", "lang"), [
    ("Where are you moving to?", "yeah Bristol", "en"),  # asks where: the answer says it
    ("Want me to set a reminder?", "yes please", "en"),  # the bot's offer
    ("Are you moving out of Leeds?", "nah, just redecorating", "en"),  # a no
    ("你搬去哪了？", "对 成都", "zh"),  # asks where
    ("要我帮你记下来吗？", "嗯", "zh"),  # an offer
    ("你要搬去成都了吗？", "对了 我换手机号了", "zh"),  # 对了 is "by the way", no yes
    ("最近怎么样", "嗯 还行", "zh"),  # no question mark, no question
    ("上海市浦东新区碧波路690弄12号603室，收件人林晓雯，对吗？", "对的，设成默认", "zh"),  # the bot reading back
    ("So that's Tuesday at 3, right?", "yep", "en"),
])
def test_no_yes_to_a_question_about_the_user_adopts_nothing(question: str, reply: str, lang: str) -> None:
    assert adopted(question, reply, lang) is None


def test_a_yes_to_a_move_fills_the_city() -> None:
    cands = run("你是搬到成都了吗？", "对 上周搬的", roles=("assistant", "user"))
    assert any(c.slot == "user/city" and "成都" in c.content for c in cands), [(c.slot, c.content) for c in cands]
    assert not any(c.slot == "user/city" for c in run("对 上周搬的"))  # the reply alone names no city


@pytest.mark.parametrize(("question", "reply", "lang", "said"), [
    ("你现在住哪？", "合肥", "zh", "我住在合肥"),
    ("你在哪个城市呀？", "杭州 滨江这边", "zh", "我住在杭州，滨江这边"),
    ("在合肥住哪一块呢？", "就在滨湖 租了个loft", "zh", "我住在合肥滨湖，租了个loft"),  # where in a place it names
    ("润去哪儿啦？", "合肥！新单位在滨湖那边", "zh", "我搬到了合肥，新单位在滨湖那边"),
    ("你是做什么工作的？", "护士", "zh", "我是护士"),
    ("Where do you live?", "Bristol", "en", "I live in Bristol"),
    ("What do you do for work?", "nurse, at St Mary's", "en", "I work as nurse, at St Mary's"),
    ("where did you move to?", "Leeds, last month", "en", "I moved to Leeds, last month"),
])
def test_a_bare_answer_says_what_was_asked(question: str, reply: str, lang: str, said: str) -> None:
    assert answered(question, reply, lang) == said


@pytest.mark.parametrize(("question", "reply", "lang"), [
    ("你住哪？", "我住杭州", "zh"),  # a full sentence says it itself
    ("Where do you live?", "I live in Bristol", "en"),
    ("你平时喜欢干啥？", "打球", "zh"),  # no question of where one lives or works
    ("你现在住哪？", "你猜？", "zh"),  # a question back
    ("你现在住哪？", "说来话长 之前在成都后来又去了重庆然后", "zh"),  # no bare answer
])
def test_no_bare_answer_to_a_question_of_home_or_work_adopts_nothing(question: str, reply: str, lang: str) -> None:
    assert answered(question, reply, lang) is None


def test_a_bare_answer_fills_the_slot_the_question_asked_for() -> None:
    cands = run("你现在住哪？", "合肥", roles=("assistant", "user"))
    assert [(c.slot, c.content) for c in cands if c.slot] == [("user/city", "用户住在合肥")]
    assert not run("合肥")  # the reply alone says nothing


@pytest.mark.parametrize(("question", "reply", "lang", "said"), [
    ("老贺，最近烟还抽得凶不？", "早不碰了 俩月了", "zh", "烟早不碰了 俩月了"),
    ("可乐还天天喝吗？", "早戒了", "zh", "可乐早戒了"),
    ("still vaping?", "nah quit in march", "en", "I stopped vaping, in march"),
    ("do you still drink monster every morning?", "nope, not anymore", "en", "I no longer drink monster every morning"),
])
def test_a_bare_stop_says_what_the_question_asked_about(question: str, reply: str, lang: str, said: str) -> None:
    assert denied(question, reply, lang) == said


@pytest.mark.parametrize(("question", "reply", "lang"), [
    ("烟还抽吗？", "还抽 少了点", "zh"),            # no stop
    ("最近忙啥呢？", "早不弄了", "zh"),              # no question of still doing a thing
    ("周末还去打球吗？", "不去了", "zh"),            # nothing named to stop (打球 is a verb)
    ("how was the gym?", "quit lol", "en"),
])
def test_no_bare_stop_to_a_still_question_says_nothing(question: str, reply: str, lang: str) -> None:
    assert denied(question, reply, lang) is None


def test_a_bare_stop_ends_the_habit_the_bot_asked_about() -> None:
    cands = run("老贺，最近烟还抽得凶不？", "早不碰了 俩月了", roles=("assistant", "user"))
    assert [(c.slot, c.content) for c in cands if c.slot] == [("pref/烟", "用户早不碰烟了，俩月了")]  # in the user's words
    assert not any(c.slot == "pref/早" for c in run("我早戒了"))  # 早 is when, not what


def test_a_name_the_bot_calls_the_user_by_is_not_whom_it_asks_about() -> None:
    """"小王，最近怎么样？" speaks to 小王 (the user); "小王最近怎么样？" asks about them."""
    to_user = run("小王，最近怎么样？", "挺好的 在深圳做HR", roles=("assistant", "user"))
    assert ("user/job", "用户是HR") in [(c.slot, c.content) for c in to_user]
    of_them = run("小王最近怎么样？", "在深圳做HR", roles=("assistant", "user"))
    assert not [c for c in of_them if c.slot and c.slot.startswith("user/")]


@pytest.mark.parametrize(("texts", "roles", "slot"), [
    (("辛苦了，酒也少喝点啊", "那玩意儿我早不碰了 半年了"), ("assistant", "user"), "pref/酒"),  # the bot's advice names it
    (("跟你讲 那东西我断了", "医生说我心跳太快 烟味都不让闻"), ("user", "user"), "pref/烟"),  # the next turn names it
])
def test_a_stop_that_only_points_names_what_the_talk_around_it_names(texts: tuple[str, ...], roles: tuple[str, ...],
                                                                      slot: str) -> None:
    cands = run(*texts, roles=roles)
    assert slot in [c.slot for c in cands], [(c.slot, c.content) for c in cands]
    assert not any("那玩意儿" in c.content or "那东西" in c.content for c in cands if c.slot)


def test_a_pointing_stop_names_nothing_when_the_talk_names_two_kinds_or_a_pet() -> None:
    two = run("咖啡少喝点，烟也少抽点", "那玩意儿我早不碰了", roles=("assistant", "user"))
    assert not any(c.slot in ("pref/咖啡", "pref/烟") for c in two), [(c.slot, c.content) for c in two]
    assert pointed("烟也少抽点", "它我早不碰了", [], "zh") is None  # 它 is a pet or a car as often as a habit


@pytest.mark.parametrize(("texts", "name"), [
    (("新年新气象 我又脱单了哈哈", "！！是谁呀", "一个开花店的 叫苏禾 在鼓楼那边"), "苏禾"),
    (("guess who's seeing someone again", "No way! Who's the lucky guy?", "his name's Theo, a paramedic from Cork"), "Theo"),
])
def test_the_name_a_new_love_is_asked_for_is_the_partners(texts: tuple[str, ...], name: str) -> None:
    cands = run(*texts, roles=("user", "assistant", "user"))
    partner = [c for c in cands if c.slot and "partner" in c.slot]
    assert partner and name in partner[0].content, [(c.slot, c.content) for c in cands]


def test_a_name_given_without_a_new_love_told_is_nobodys_partner() -> None:
    assert introduced("周末去爬山了", "是谁带的队？", "一个老驴友 叫苏禾", "zh") is None
    assert introduced("我又恋爱了", "是谁？", "不告诉你 嘿嘿", "zh") is None  # no name given
