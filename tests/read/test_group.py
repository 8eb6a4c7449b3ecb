"""A group chat stored per sender: a member's block carries the others' standing facts, and they stay theirs."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest

from jiyi.clock import FrozenClock
from jiyi.memory import Memory
from jiyi.read.context import _GROUP_TITLE
from jiyi.read.group import LINES, as_member, name_forms
from jiyi.records import Kind, MemoryRecord

GROUP = "qq-group-42"


def say(mem: Memory, user: str, name: str | None, text: str, session: str = GROUP, group: bool | None = None) -> None:
    msg = {"role": "user", "content": text, **({"name": name} if name else {})}
    mem.add([msg], user_id=user, session_id=session, sync=True, group=session == GROUP if group is None else group)


def section(block: str, lang: str = "zh") -> list[str]:
    """The lines under the group heading."""
    if f"## {_GROUP_TITLE[lang]}" not in block:
        return []
    after = block.split(f"## {_GROUP_TITLE[lang]}", 1)[1]
    return [ln for ln in after.splitlines() if ln.startswith("- ")]


@pytest.fixture
def group(mem: Memory) -> Memory:
    say(mem, "u-hao", "阿豪", "我对猫毛过敏，一靠近猫就打喷嚏")
    say(mem, "u-tang", "糖糖", "周末来我家玩桌游吧")
    say(mem, "u-lin", "林姐", "我不吃坚果")
    return mem


def test_a_members_allergy_said_in_the_group_reaches_anothers_block_as_theirs(group: Memory) -> None:
    block = group.build_context("我想养只猫，周末朋友常来家里玩，会有问题吗", user_id="u-tang")
    lines = section(block)
    assert any("阿豪" in ln and "猫毛" in ln for ln in lines), block
    assert not re.search(r"(?m)^- 用户.*猫毛", block)  # never the asker's own allergy


def test_a_members_private_chat_stays_private(group: Memory) -> None:
    say(group, "u-hao", "阿豪", "我对芒果过敏", session="dm-hao")
    block = group.build_context("帮我做个水果拼盘", user_id="u-tang")
    assert "芒果" not in block and "猫毛" in block


def test_someone_who_shared_no_session_sees_nothing_of_the_group(group: Memory) -> None:
    say(group, "u-stranger", "路人", "我想养只猫", session="dm-stranger")
    block = group.build_context("我想养只猫", user_id="u-stranger")
    assert "阿豪" not in block and _GROUP_TITLE["zh"] not in block


def test_a_shared_session_id_is_no_group_unless_both_said_so(mem: Memory) -> None:
    for group in (False, True):  # "default" for everyone: u-a said it is no group, then only u-a said it is
        say(mem, "u-a", None, "我对虾过敏", session="default", group=False)
        say(mem, "u-b", None, "周末吃海鲜自助吧", session="default", group=group)
        assert "虾过敏" not in mem.build_context("周末吃海鲜自助", user_id="u-b")


def test_group_needs_a_session(mem: Memory) -> None:
    from jiyi.errors import InvalidInput

    with pytest.raises(InvalidInput, match="session_id"):
        mem.add("我对虾过敏", user_id="u-a", group=True)


def test_secrets_and_erased_members_never_show(group: Memory) -> None:
    say(group, "u-hao", "阿豪", "我的身份证号是110101199003071234")
    block = group.build_context("我想养只猫", user_id="u-tang")
    assert "110101199003071234" not in block and "猫毛" in block
    group.delete_all(user_id="u-hao")
    assert "猫毛" not in group.build_context("我想养只猫", user_id="u-tang")


def test_the_section_can_be_turned_off(make_memory) -> None:
    mem = make_memory(group_context=False)
    say(mem, "u-hao", "阿豪", "我对猫毛过敏")
    say(mem, "u-tang", "糖糖", "周末来我家玩桌游吧")
    block = mem.build_context("我想养只猫", user_id="u-tang")
    assert "阿豪" not in block and _GROUP_TITLE["zh"] not in block


def test_at_most_a_few_lines_of_others_are_shown(mem: Memory) -> None:
    for i, food in enumerate(["花生", "芒果", "虾", "牛奶", "菠萝"]):
        say(mem, f"u-{i}", f"群友{i}", f"我对{food}过敏")
    say(mem, "u-tang", "糖糖", "周末聚餐大家想吃什么")
    lines = section(mem.build_context("周末聚餐吃什么", user_id="u-tang"))
    assert 1 <= len(lines) <= LINES
    assert all(re.match(r"- 群友\d", ln) for ln in lines), lines


def test_a_subject_left_as_the_user_is_named_after_its_speaker(mem: Memory) -> None:
    rec = MemoryRecord(id="m", tenant="t", user_id="u-hal", content="User is allergic to shellfish",
                       kind=Kind.FACT, created_at=mem.clock.now(), updated_at=mem.clock.now(), speaker="hal")
    assert as_member(rec).content == "hal is allergic to shellfish"
    nameless = rec.replace(speaker=None, content="用户不吃坚果")
    assert as_member(nameless).content == "u-hal不吃坚果"
    elsewhere = rec.replace(content="Peanuts are banned at the office")
    assert as_member(elsewhere).content == "hal: Peanuts are banned at the office"


def test_whom_a_member_has_counts_among_their_standing_facts(mem: Memory) -> None:
    say(mem, "u-mari", "Marisol", "@bot can cats and babies mix? we've got a tabby called Pickle")
    say(mem, "u-zed", "Zed", "thinking about a pet tbh")
    block = mem.build_context("should i get a cat?", user_id="u-zed")
    assert any("Pickle" in ln and "Marisol" in ln for ln in section(block, "en")), block


def test_a_members_condition_that_decides_the_query_comes_first_though_sensitive(group: Memory) -> None:
    """A member's pregnancy told to the group is shown for where to hike, not for an unrelated question."""
    for text in ("我最近在学吉他", "我在滨江上班", "我怀孕了，五个月", "我周末喜欢去书店"):
        say(group, "u-lin", "林姐", text)
    hike = section(group.build_context("周末大家去哪爬山比较好", user_id="u-tang"))
    assert any("林姐" in ln and "怀孕" in ln for ln in hike), hike
    assert not any("怀孕" in ln for ln in section(group.build_context("推荐一本小说", user_id="u-tang")))


def test_a_member_named_in_the_query_comes_first_and_their_move_lasts(group: Memory) -> None:
    """"林姐现在在哪个城市" asks about 林姐: her posting next month, told in the group as an event, is hers."""
    say(group, "u-lin", "林姐", "跟你们说 我下个月调岗去青岛了 公司安排的")
    for i in range(LINES + 1):  # more standing facts of others than the section shows
        say(group, "u-hao", "阿豪", f"我周{'一二三四'[i]}晚上固定去打羽毛球")
    block = group.build_context("林姐现在在哪个城市来着 想给她寄点东西", user_id="u-tang")
    lines = section(block)  # (her turn itself is among what the group said of the query's matter: read/group_said.py)
    assert lines and "林姐" in lines[0] and re.search(r"(?m)^- 林姐[:：][^\n]*青岛", block), block


def test_a_member_named_in_the_query_brings_what_they_said_of_themselves(group: Memory) -> None:
    """A member's own turn that tells where they are ("信号太差了 在昆明出差呢") is no standing fact, yet a
    query naming them is about them: it is shown, as theirs. Unnamed, it stays out."""
    say(group, "u-hao", "阿豪", "信号太差了 在昆明出差呢 这边天天下雨")
    named = section(group.build_context("阿豪这几天在哪来着 想约他吃饭", user_id="u-tang"))
    assert any("阿豪" in ln and "昆明" in ln for ln in named), named
    assert not any("昆明" in ln for ln in section(group.build_context("周末去哪吃饭", user_id="u-tang")))


def test_a_named_members_flare_up_decides_a_food_query(mem: Memory) -> None:
    say(mem, "u-uncle", "大伯", "我这老胃炎又犯了 吃啥都难受")
    say(mem, "u-me", "小雨", "周末去大伯家看看")
    lines = section(mem.build_context("去大伯家带点什么吃的好", user_id="u-me"))
    assert any("大伯" in ln and "胃炎" in ln for ln in lines), lines


def test_a_members_blood_sugar_decides_what_to_bring_home(mem: Memory) -> None:
    say(mem, "u-dad", "老爸", "我血糖又高了 医生说得好好控制饮食")
    say(mem, "u-me", "璐璐", "爸你少吃点月饼!!!")
    lines = section(mem.build_context("过年回家给家里人带点啥吃的好", user_id="u-me"))
    assert any("老爸" in ln and "血糖" in ln for ln in lines), lines


def test_a_members_condition_told_by_its_treatment_decides_an_outing(mem: Memory) -> None:
    say(mem, "u-kai", "kai", "bringing my insulin pen and some juice boxes, the usual")
    say(mem, "u-ren", "ren", "who's in for the ridge walk on saturday")
    lines = section(mem.build_context("what should we pack for the ridge walk?", user_id="u-ren"), "en")
    assert any("kai" in ln and "diabetes" in ln for ln in lines), lines


def test_a_member_called_by_kin_is_named_by_the_same_kin_in_the_query(mem: Memory) -> None:
    """In a family group 妈妈 says she has a check-up; "我妈…" asks about her (妈 / 老妈 / 母亲 are one relation)."""
    say(mem, "u-mum", "妈妈", "下周三我去人民医院拿体检报告")
    say(mem, "u-son", "小军", "好的 我陪你去")
    lines = section(mem.build_context("我妈拿报告是哪天来着", user_id="u-son"))
    assert any("体检报告" in ln for ln in lines), lines
    assert not any("体检报告" in ln for ln in section(mem.build_context("我爸拿报告是哪天来着", user_id="u-son")))


@pytest.mark.parametrize(("name", "said", "query", "needle"), [
    ("Priya Nair", "I'm a pharmacist btw, ask me before you mix meds", "Priya是干啥工作的来着", "pharmacist"),
    ("林晓雯", "我在省妇幼当护士 夜班多", "晓雯在哪上班来着", "省妇幼"),
])
def test_a_member_is_named_by_a_part_of_their_display_name(group: Memory, name: str, said: str, query: str,
                                                            needle: str) -> None:
    """A question says "Priya" for Priya Nair and 晓雯 for 林晓雯: it is about her, and brings what she said
    before what others said of their own work."""
    say(group, "u-p", name, said)
    for job in ("我在建行上班 柜员", "我是做外贸的 天天跟老外打交道", "我在一家游戏公司当策划", "我在社区医院当医生"):
        say(group, "u-hao", "阿豪", job)
    block = group.build_context(query, user_id="u-tang")
    lines = [ln for ln in block.splitlines() if ln.startswith("- ") and "糖糖" not in ln]  # (not the asker's own)
    assert lines and needle in lines[0], block


def test_a_members_plan_that_names_you_is_yours_to_know(mem: Memory, clock: FrozenClock) -> None:
    """林姐 tells the group "下周三上午十点 跟供应商开会 阿豪跟我一起": 阿豪 asking about it sees it, as 林姐's;
    糖糖, whom it does not name, does not; once the day is past, neither does 阿豪."""
    say(mem, "u-hao", "阿豪", "我这周都在公司 随时找我")
    say(mem, "u-tang", "糖糖", "周末来我家玩桌游吧")
    say(mem, "u-lin", "林姐", "下周三上午十点 跟供应商开会 阿豪跟我一起")
    asked = "跟供应商的会是哪天"
    assert any("林姐" in ln and "供应商" in ln for ln in section(mem.build_context(asked, user_id="u-hao")))
    assert not any("供应商" in ln for ln in section(mem.build_context(asked, user_id="u-tang")))
    clock.set(clock.now() + timedelta(days=20))
    assert not any("供应商" in ln for ln in section(mem.build_context(asked, user_id="u-hao")))


@pytest.mark.parametrize("declared", [True, False])  # per sender, declared; or the whole group under its own id
def test_a_two_word_reaction_in_a_group_stays_out_of_the_block(mem: Memory, declared: bool) -> None:
    who = "xiaoyu" if declared else "g_team"
    say(mem, who if declared else "g_team", "小雨", "下周六团建 我来订烤肉店 记得带身份证", group=declared)
    say(mem, "g_team" if not declared else "xiaoyu", "小雨", "事儿真多", group=declared)
    if not declared:
        say(mem, "g_team", "阿飞", "烤肉店要提前两天订位", group=False)
    block = mem.build_context("我平时都跟你聊些啥啊", user_id=who)
    assert "烤肉" in block and "事儿真多" not in block, block


def test_a_number_a_member_gave_the_group_opens_only_when_asked_for_by_their_name(group: Memory) -> None:
    say(group, "u-lin", "林姐", "我换号了 新号13912345678 有事打这个")
    asked = section(group.build_context("林姐电话多少来着 联系不上她", user_id="u-tang"))
    assert any("林姐" in ln and "13912345678" in ln for ln in asked), asked
    assert not any("13912345678" in ln for ln in section(group.build_context("阿豪电话多少", user_id="u-tang")))
    assert "13912345678" not in group.build_context("周末聚餐定哪家", user_id="u-tang")


@pytest.mark.parametrize(("who", "said"), [("沈阿林", "老沈"), ("沈阿林", "阿林"), ("林晓雯", "晓雯"), ("王磊", "王哥"),
                                           ("Ivy Chen", "Ivy"), ("牛振国", "牛工长"), ("贾凤霞", "贾会计"),
                                           ("周建华", "周队长")])
def test_a_member_is_named_as_people_call_one_another(who: str, said: str) -> None:
    assert said in name_forms(who)


@pytest.mark.parametrize(("who", "not_said"), [("徐老师", "老师"), ("徐老师", "阿师"), ("阿豪", "老阿")])
def test_a_title_or_a_nickname_gives_no_name_of_its_own(who: str, not_said: str) -> None:
    assert not_said not in name_forms(who)


def test_a_member_called_by_surname_and_title_gets_their_new_number(mem: Memory) -> None:
    """"牛工长电话多少" names 牛振国 by his surname and his title: the number he gave last, not the old one."""
    say(mem, "u-niu", "牛振国", "有事打我电话 13831267740")
    say(mem, "u-shi", "石磊", "收到")
    say(mem, "u-niu", "牛振国", "以后打我这个新号 13931157726 那个138的停了")
    asked = section(mem.build_context("牛工长电话多少来着 我找他对下材料", user_id="u-shi"))
    assert any("13931157726" in ln for ln in asked), asked
    assert not any("13831267740" in ln for ln in asked), asked
