"""What a raw turn states, family by family, and the couple a statement opens with (text/topics.py)."""

from __future__ import annotations

import pytest

from jiyi.text.subjects import co_subject
from jiyi.text.turn_topics import turn_families


@pytest.mark.parametrize(("turn", "lang", "families"), [
    ("我在苏州做UI的 公司叫青梧科技 天天改稿", "zh", {"employer"}),
    ("对 在厂里上班 走路五分钟", "zh", {"employer"}),  # said without a subject: the user's
    ("我女朋友叫小雨 在上海读研", "zh", {"partner"}),
    ("i live in penang, 12 hr shifts", "en", {"residence"}),
    ("my gf priya is coming over tonight", "en", {"partner"}),
    ("我朋友在苏州上班", "zh", set()),  # someone else's
    ("hi 我叫阿珂 在 RMIT 读书 住 Brunswick", "zh", {"residence"}),  # 住 and a place a space apart
    ("住院三天了 好无聊", "zh", set()), ("住得离公司很远", "zh", set()),
    ("我妈住在杭州", "zh", set()),
    ("my sister lives in leeds", "en", set()),
    ("我在苏州出差呢", "zh", set()),  # a trip, no standing value
    ("今天好冷", "zh", set()),
    ("质检主管，在恒远电子装配车间，干了六年了", "zh", {"employer"}),   # a title alone; an organisation after 在
    ("在星巴克等朋友", "zh", set()),                                      # an organisation, no job there
    ("俺在南关开了个面馆 干了八年了", "zh", {"employer"}),                 # work of one's own
    ("我表哥开了家火锅店", "zh", set()),                                   # someone else's
    ("嗯 我开货拉拉的 一天跑七八单", "zh", {"employer"}),                  # a trade said as what one does
    ("我做饭的", "zh", set()),                                             # a chore, no trade
    ("行 我那台二手宝来也跑了十五万公里了", "zh", {"vehicle"}),            # a car by what it has run
    ("我今天跑了十公里", "zh", set()),                                     # a run, no car
    # said in passing: a place with 这边 / "here in", renting there, a title at a workplace, a trade alone
    ("长沙这边热死了 空调坏了", "zh", {"residence"}),
    ("东京这边的朋友说要来", "zh", set()),                                 # 这边的: whose friends, not where one is
    ("also it's raining AGAIN here in Vancouver", "en", {"residence"}),
    ("here in the office it is freezing", "en", set()),                   # no place
    ("我们租在北京朝阳双井 一室一厅", "zh", {"residence"}),
    ("我们组在上海张江 做支付风控的 天天救火", "zh", {"employer"}),
    ("开玩笑的 别当真", "zh", set()),                                      # 开玩笑 is one word: no trade
    ("在行政部打杂 订餐订票啥都管", "zh", {"employer"}),
    ("I'm Hannah, UX researcher at a fintech in Berlin", "en", {"employer"}),
    ("my sister is a nurse at the clinic", "en", set()),
])
def test_the_families_a_turn_states_a_standing_value_of(turn: str, lang: str, families: set[str]) -> None:
    assert turn_families(turn, lang) == families


@pytest.mark.parametrize(("text", "lang", "names"), [
    ("Rohan and User called it off", "en", ("Rohan",)),
    ("天宇和用户分手了", "zh", ("天宇",)),
    ("User called it off", "en", ()),
    ("They and User split", "en", ()),
])
def test_the_other_one_of_a_couple(text: str, lang: str, names: tuple[str, ...]) -> None:
    assert co_subject(text, lang) == names
