"""A routine moved or swapped: the words of the old one (jiyi.text.replaced)."""

from __future__ import annotations

import pytest

from jiyi.text.replaced import now_contrasted, replaced_terms


@pytest.mark.parametrize(("text", "lang", "terms"), [
    ("夜班调到周五了", "zh", ("夜班",)),                                  # the routine before the swap, not its new day
    ("羽毛球改到周六了", "zh", ("羽毛球",)),
    ("最近改喝燕麦拿铁了 美式太苦", "zh", ("美式",)),                     # the old drink, in the next clause
    ("swim moved to Thursdays now", "en", ("swim",)),
    ("moved my stream over to YouTube", "en", ("stream",)),
    ("switched to oat flat whites, black coffee was wrecking my stomach", "en", ("coffee", "black")),
    ("book club moving to tuesdays, same time", "en", ("book", "club")),   # a routine moving, said as it happens
    ("房租下个月涨到3200了", "zh", ("房租",)),                             # a value raised: the old one is past
    ("會費調漲到 250", "zh", ("會費",)),
    ("rent went up to 2400, landlord is greedy", "en", ("rent",)),          # what the old value was of, only
    ("血压还是高，医生把氨氯地平加到一天一片了", "zh", ("氨氯地平",)),        # an amount raised: what 把 takes
    ("咖啡减成一天一杯了 心悸", "zh", ("咖啡",)),
    ("doc said back to 1 tablet a day", "en", ("tablet",)),               # nothing before it: its unit
])
def test_the_old_routine_is_named(text: str, lang: str, terms: tuple[str, ...]) -> None:
    assert replaced_terms(text, lang) == terms


@pytest.mark.parametrize(("text", "lang"), [
    ("I moved to Austin last month", "en"),      # a move of home (text/topics.py reads it)
    ("想改成周五", "zh"),                         # a wish
    ("我妈改喝豆浆了", "zh"),                     # someone else's
    ("my sister switched to decaf", "en"),
    ("did you switch to oat milk?", "en"),       # asked
    ("我现在改喝茶了", "zh"),                     # only the new one is named: nothing to call old
    ("改天再聊", "zh"),
    ("we're moving to Leeds next month", "en"),  # the speakers' own home
    ("my sister is moving to Perth", "en"),
    ("体重想降到60", "zh"),                       # a wish
    ("我妈的工资涨到五千了", "zh"),                # someone else's
    ("我想把咖啡减到一天一杯", "zh"),              # a wish
])
def test_no_routine_of_the_speakers_replaced(text: str, lang: str) -> None:
    assert replaced_terms(text, lang) == ()


@pytest.mark.parametrize(("text", "lang", "cue"), [
    ("这边两班倒 不是以前那种三班了", "zh", "不是以前"),
    ("现在挂的是蓝鲸跑腿的箱子", "zh", "现在挂的是"),
    ("医生话油太多 而家每朝去公园打太极", "zh", "而家每朝"),
    ("these days I'm on the night desk", "en", "these days"),
    ("终于不用上夜班了", "zh", "终于不用"), ("no longer have to drive to Leeds", "en", "no longer have to"),
])
def test_now_contrasted_finds_what_holds_now(text: str, lang: str, cue: str) -> None:
    span = now_contrasted(text, lang)
    assert span is not None and text[span[0]:span[1]] == cue


@pytest.mark.parametrize(("text", "lang"), [
    ("现在是不是该换个工作？", "zh"),  # a question
    ("我妹现在每天喝三杯咖啡", "zh"),  # someone else's
    ("我打算现在每天跑五公里", "zh"),  # a plan
    ("现在几点了", "zh"),  # no state
    ("now that you mention it, sure", "en"),
])
def test_now_contrasted_is_none_without_a_state_of_the_speakers(text: str, lang: str) -> None:
    assert now_contrasted(text, lang) is None
