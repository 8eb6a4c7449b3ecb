"""Entities: the words someone would search for."""

from __future__ import annotations

from jiyi.text.entities import find_entities


def test_chinese_people_places_orgs_and_codes() -> None:
    ents = find_entities("我老婆苏琳在上海启衡信息技术有限公司上班，订单号CG2502248817", "zh")
    assert {"苏琳", "上海启衡信息技术有限公司", "CG2502248817"} <= set(ents)


def test_chinese_mis_tags_are_dropped() -> None:
    ents = find_entities("我对花生过敏，我老公周航在家", "zh")
    assert "过敏" not in ents and "老公" not in ents and "周航" in ents


def test_org_without_the_verb_before_it() -> None:
    assert find_entities("去见华恒集团的人", "zh") == ("华恒集团",)


def test_english_capitalised_names_not_sentence_starters() -> None:
    ents = find_entities("Lost my job yesterday. I met Caroline at the Pride fest in New York.", "en")
    assert ents == ("Caroline", "Pride", "New York")


def test_vocative_name_at_sentence_start_is_kept() -> None:
    assert find_entities("Caroline, that trip was insane", "en") == ("Caroline",)


def test_numbers_with_two_digits() -> None:
    assert find_entities("血压150/95，吃了1片", "zh") == ("150/95",)


def test_extra_values_first_and_no_fragments() -> None:
    ents = find_entities("地址是碧波路690弄12号603", "zh", extra=["碧波路690弄12号603"])
    assert ents[0] == "碧波路690弄12号603"
    assert "碧波" not in ents and "690" not in ents


def test_limit() -> None:
    text = " ".join(f"Name{i} met Person{i}." for i in range(20))
    assert len(find_entities(text, "en", limit=5)) == 5


def test_an_english_statement_with_a_chinese_place_keeps_names_only() -> None:
    """Jieba tags every Latin word of a mixed text; an English statement's are read as English names."""
    assert find_entities("User lives in 罗湖 near the old market, tons of food", "en") == ("罗湖",)
    assert "Rust" in find_entities("用户在一家做跨境支付的小公司写 Rust", "zh")
