"""A lasting state said in a frame no template knows is kept by its topic family."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from jiyi.extractors.rules import RulesExtractor
from jiyi.records import Kind, Message

AT = datetime(2026, 10, 1, 12, 0, tzinfo=timezone.utc)


def run(text: str) -> list[tuple[str, str | None]]:
    return [(c.content, c.slot) for c in RulesExtractor().extract([Message(role="user", content=text, timestamp=AT)])]


@pytest.mark.parametrize(("text", "slot", "said"), [
    ("我在苏州住", "user/city", "苏州"),
    ("I teach at Maple Grove Elementary", "user/employer", "Maple Grove"),
    ("I'm engaged to Tomas", "relation/partner", "Tomas"),
])
def test_a_single_valued_state_gets_its_slot_and_value(text: str, slot: str, said: str) -> None:
    found = run(text)
    assert len(found) == 1 and found[0][1] == slot and said in found[0][0]


@pytest.mark.parametrize("text", ["我还在一家面包店兼职", "周末在练游泳 呛了好几口水", "I'm learning the cello",
                                  "我骑一辆小牛电动车上班", "I ride a Kawasaki to work", "I'm gluten-free",
                                  "我在准备考教资", "我每天抽半包烟", "my parrot is Kiwi"])
def test_a_many_valued_state_is_kept_without_a_slot(text: str) -> None:
    found = RulesExtractor().extract([Message(role="user", content=text, timestamp=AT)])
    assert found and all(c.kind in (Kind.FACT, Kind.PREFERENCE, Kind.RELATION, Kind.BEHAVIOR) for c in found)
    assert found[0].content.startswith(("用户", "User"))


@pytest.mark.parametrize("text", ["我在成都住了两晚", "I might move in with my sister", "我在家做饭", "你在哪住？",
                                  "我妹妹在武汉住", "years ago I drove a truck", "我今天好累"])
def test_what_is_no_lasting_state_of_the_user_is_not_kept_as_one(text: str) -> None:
    assert not [c for c in run(text) if c[1] in ("user/city", "user/employer", "relation/partner")]
    assert not [c for c in run(text) if c[1] is None and "好累" not in c[0] and "truck" not in c[0] and "成都" in c[0]]


def test_a_sentence_a_template_already_read_gets_nothing_more() -> None:
    assert [c for c, _ in run("我养了两只猫，名字叫团子和饺子")] == ["用户的猫叫团子", "用户的猫叫饺子"]


def test_a_name_said_after_a_thing_is_the_things_not_the_users() -> None:
    assert not [c for c in run("周末在一家书店兼职 叫Paper Moon 人不多") if c[1] == "user/name"]
    assert run("你好 我是新来的 叫王磊") == [("用户名字是王磊", "user/name")]


def test_a_title_beside_a_self_introduction_is_the_users_job() -> None:
    found = {slot: content for content, slot in run(
        "hiya! I'm Hannah, UX researcher at a fintech in Berlin, originally from Leeds")}
    assert found.get("user/job") == "User's job is UX researcher"
    assert found.get("user/employer") == "User works at a fintech"
    assert found.get("user/hometown") == "User is from Leeds"
    assert "user/job" not in {s for _, s in run("I'm Sarah, my sister is a nurse at the clinic")}


@pytest.mark.parametrize("text", ["我租在徐汇", "房子租在徐汇 离公司骑车十分钟", "我们租在北京朝阳双井 一室一厅"])
def test_where_one_rents_is_where_one_lives(text: str) -> None:
    assert [slot for _, slot in run(text)] == ["user/city"]


def test_a_noun_and_the_verb_after_it_are_no_ones_name() -> None:
    """房子租在徐汇 is not a person "房子租" living in 徐汇; 小明住在杭州 is 小明's."""
    assert not [slot for _, slot in run("房子租在徐汇") if slot and slot.startswith("person:")]
    assert [slot for _, slot in run("小明住在杭州")] == ["person:小明/city"]


def test_a_workplace_one_is_at_now_is_the_employer() -> None:
    assert ("User works at a bank", "user/employer") in run("nah, I'm at a bank now, way better pay")
    assert not [s for _, s in run("I'm at the bank now, queue is long") if s == "user/employer"]  # a visit


@pytest.mark.parametrize("text", ["got my own place finally, a studio in Manchester", "它被我送去报废了 补贴拿了两万"])
def test_a_change_no_template_knows_is_kept_in_the_users_words(text: str) -> None:
    found = run(text)
    assert len(found) == 1 and found[0][0].startswith(("User", "用户")), found


@pytest.mark.parametrize("text", ["@小鹿 我那一堆考研书咋处理 二手能卖掉吗", "should i sell my car lol", "我可能会搬去珠海",
                                  "changed my email signature, looks so pro now"])
def test_a_change_asked_about_or_wished_is_not_kept_as_one(text: str) -> None:
    assert not [c for c, _ in run(text) if "卖" in c or "sell" in c or "搬" in c or "email" in c]
