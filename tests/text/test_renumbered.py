"""A value said again with new numbers (text/renumbered.py): a price raised, an hour moved, a rent halved."""

from __future__ import annotations

import pytest

from jiyi.text.renumbered import renumbers


@pytest.mark.parametrize(("newer", "older"), [
    ("羊肉又涨了 莫得法 粉涨了一块 二两16 三两19", "粉的价钱 二两15块 三两18块 加肉另外算"),  # a quantity before each price
    ("起价咯 没办法 椰浆太贵 现在一粒 1.50 令吉", "我的摊 kuih 一粒 1 令吉 二十年没有起价咯"),
    ("公司改时间了 冷库那边出货早 以后七点半就得到岗", "上班时间八点半 比以前规律多了"),  # an hour and a word both say
    ("rent is now $260 a week since Tom moved in", "rent is $520 a week, brutal"),
    ("现在房租涨到3500了", "房租3200 每个月10号交"),
    ("现在每天跑10公里", "每天跑5公里"),
])
def test_new_numbers_in_the_old_frames_are_a_change(newer: str, older: str) -> None:
    assert renumbers(newer, older)


@pytest.mark.parametrize(("newer", "older"), [
    ("你莫看价钱便宜 一天要卖两三百碗", "粉的价钱 二两15块 三两18块"),  # no word of change, no shared frame
    ("现在女儿5岁了", "我儿子3岁"),  # an age is no frame here, and another child
    ("后儿个得去医院复查尿酸 要空腹 早上七点半到 门诊三楼", "上班时间八点半 比以前规律多了"),  # another hour's business
    ("现在下午三点去接孩子", "每天早上八点送孩子上学"),
    ("以后周二晚上8点练球", "周四晚上8点练球"),  # the same numbers
    ("2026年开始每天跑步", "2025年每天跑步"),  # years
    ("粉的价钱 二两15块 三两18块", "粉的价钱 二两15块 三两18块"),
])
def test_other_numbers_or_the_same_ones_are_no_change(newer: str, older: str) -> None:
    assert not renumbers(newer, older)
