"""Another person's condition the user told of decides a question of what to eat or where to go
(read/standing.py ``others_conditions``): it ranks in the top five of search and reaches the block as theirs."""

from __future__ import annotations

import re

import pytest

from jiyi.memory import Memory
from jiyi.read.gate import BODY_CATEGORIES, asked_categories
from jiyi.read.standing import CONDITION_CATEGORIES, conditions_asked, conditions_for


def tell(mem: Memory, *texts: str) -> None:
    for i, text in enumerate(texts):
        mem.add([{"role": "user", "content": text, "id": f"t{i}"}], user_id="u", sync=True)


FILLER_ZH = ("周末去看了个展", "最近在追一部剧", "今天加班到九点", "我家楼下新开了家面馆", "下周要交季度报告",
             "我家猫又把花盆打翻了", "最近在学吉他", "部门新来了个实习生", "这周末要去爬山", "想换个机械键盘",
             "早上地铁挤死了", "年会要表演节目", "最近迷上了做面包", "老板说下个月团建", "明天要早起开会")
FILLER_EN = ("went to a gallery on saturday", "binge watching a new show", "worked late again today",
             "a new noodle place opened downstairs", "quarterly report is due next week",
             "my cat knocked a plant over again", "learning guitar these days", "we got a new intern at work",
             "hiking this weekend maybe", "thinking about a new mechanical keyboard", "the train was packed today",
             "we have to perform something at the year-end party", "obsessed with baking bread lately",
             "team building trip next month", "early meeting tomorrow ugh")


@pytest.mark.parametrize(("told", "filler", "query", "who", "what"), [
    ("我同事老贺有肾结石", FILLER_ZH, "周五部门团建 订个什么餐厅", "老贺", "肾结石"),
    ("my boss Ravi is gluten intolerant", FILLER_EN, "office bake sale next week, what should i bake?", "Ravi",
     "gluten"),
])
def test_a_colleagues_condition_is_there_for_the_food_question(mem: Memory, told: str, filler: tuple[str, ...],
                                                              query: str, who: str, what: str) -> None:
    tell(mem, told, *filler)
    top = [h.record.content for h in mem.search(query, user_id="u", limit=5)]
    assert any(who in c and what in c for c in top), top
    block = mem.build_context(query, user_id="u")
    assert who in block and what in block, block
    assert not re.search(rf"(?m)^- (?:用户|User) (?:is |has )?(?:有)?{what}", block)


@pytest.mark.parametrize(("told", "query", "who", "what"), [
    # no word of food or outing in the question: the care probe reads that a body decides it
    ("我二哥孙国庆血糖高 医生不让吃甜的", "元旦包饺子 二哥那份要注意啥", "二哥", "血糖"),
    ("我爸糖尿病好几年了 天天打胰岛素", "想给爸妈寄点杭州特产，寄啥好", "爸", "糖尿病"),
])
def test_a_relatives_condition_is_there_when_the_care_probe_reads_the_question(mem: Memory, told: str, query: str,
                                                                               who: str, what: str) -> None:
    assert not conditions_asked(query)  # (no word of the question asks for it)
    tell(mem, told, *FILLER_ZH)
    block = mem.build_context(query, user_id="u")
    assert re.search(rf"{who}[^\n]{{0,16}}{what}", block), block


def test_the_care_probe_opens_no_ones_condition_for_a_question_no_body_decides() -> None:
    assert conditions_for("帮我写个周报", body=False) == frozenset()
    assert conditions_for("元旦包饺子 二哥那份要注意啥", body=True) == BODY_CATEGORIES
    assert conditions_for("我上次包饺子是哪天", body=True) == frozenset()  # the past: nothing to plan


def test_a_question_of_the_users_own_health_opens_no_one_elses() -> None:
    """Coughing is the user's: a colleague's kidney stones decide nothing there (they may still match by meaning)."""
    assert not asked_categories("最近老咳嗽 该去医院挂什么科") & CONDITION_CATEGORIES
    assert asked_categories("周五部门团建 订个什么餐厅") & CONDITION_CATEGORIES


def test_a_condition_told_in_a_turn_no_rule_read_is_there_too(mem: Memory) -> None:
    tell(mem, "our team lead tomas is gluten intolerant so team lunches are always at the pho place", *FILLER_EN)
    assert not [r for r in mem.get_all(user_id="u") if "gluten" in r.content and r.kind.value != "episode"]
    block = mem.build_context("office bake sale next week, what should i bake?", user_id="u")
    assert "gluten" in block, block


def test_a_question_about_what_happened_is_decided_by_no_condition() -> None:
    """"When did I bake that cake?" plans nothing: the conditions that decide a meal are not asked for."""
    assert conditions_asked("what cake should i bake for the office party?")
    assert not conditions_asked("when did i bake that chocolate cake for the office?")
    assert not conditions_asked("上次团建是在哪家餐厅吃的来着")
