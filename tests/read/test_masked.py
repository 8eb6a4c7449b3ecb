"""A secret's line in a prompt: what it is for, with the value hidden; never the value, never in search."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timezone

import pytest

from jiyi.memory import Memory
from jiyi.privacy.seal import generate_key
from jiyi.read.masked import MASKED_KEY, hidden, masked_line
from jiyi.records import Kind, MemoryRecord, Visibility


@pytest.mark.parametrize(("text", "gone", "kept"), [
    ("我家小米密码锁的密码改成 820617 了 别忘了", "820617", "小米密码锁"),
    ("工资卡是建行的 卡号 [已隐藏:银行卡号]", "", "建行"),
    ("my passport no is E12345678 for the visa", "E12345678", "visa"),
])
def test_a_line_with_its_values_hidden_keeps_what_it_says(text: str, gone: str, kept: str) -> None:
    shown = hidden(text)
    assert shown is not None and kept in shown and "[" in shown
    assert not gone or gone not in shown


@pytest.mark.parametrize(("text", "owner"), [
    ("用户的密码是[已隐藏:密码]", None),  # nothing but that a value was given
    ("子涵的密码是[已隐藏:密码]", "子涵"),
    ("Ethan's phone number is [private: phone number]", "Ethan"),
    ("快递柜 [已隐藏:取件码] 在318号柜", None),  # digits left beside the placeholder
    ("今天去公园散步了", None),  # nothing hidden: not this module's to show
])
def test_a_line_that_may_hold_a_value_or_says_nothing_is_not_shown(text: str, owner: str | None) -> None:
    assert hidden(text, owner) is None


def test_a_masked_line_is_flagged_and_keeps_no_entities() -> None:
    now = datetime(2026, 12, 1, tzinfo=timezone.utc)
    rec = MemoryRecord(id="m1", tenant="t", user_id="u1", content="研招网账号密码 Yz@2026kaoyan 别忘了",
                       kind=Kind.EPISODE, created_at=now, updated_at=now, visibility=Visibility.SECRET,
                       entities=("研招网", "Yz@2026kaoyan"))
    shown = masked_line(rec)
    assert shown is not None and shown.metadata[MASKED_KEY] and shown.entities == ()
    assert "Yz@2026kaoyan" not in shown.content and "研招网" in shown.content


TOLD = ["我家小米密码锁的密码改成 820617 了 别忘了", "周末想去爬山", "最近在学吉他 手指好疼", "今天加班到十点 累死",
        "楼下新开了家面馆 牛肉面不错", "下个月要去成都出差", "猫又把沙发抓坏了", "最近在追一部悬疑剧",
        "明天早上八点开会", "周三要去医院复查", "想换个新手机 预算三千", "我女朋友喜欢吃火锅"]


@pytest.mark.parametrize("keyed", [False, True])
def test_the_block_tells_what_a_secret_is_for_and_search_never_returns_it(
        make_memory: Callable[..., Memory], keyed: bool) -> None:
    mem = make_memory(**({"encryption_key": generate_key()} if keyed else {}))
    for text in TOLD:
        mem.add([{"role": "user", "content": text}], user_id="u1", session_id="s1", sync=True)
    block = mem.build_context("门锁好像没电了 咋换电池", user_id="u1")
    assert "小米密码锁" in block and "820617" not in block
    assert "820617" not in mem.build_context("我的门锁密码是多少", user_id="u1", include_sensitive=True)
    hits = mem.search("门锁密码", user_id="u1", include_sensitive=True)
    assert all(h.record.visibility is not Visibility.SECRET for h in hits)
    if keyed:  # the owner still reads the value
        assert any("820617" in r.content for r in mem.get_all(user_id="u1", kinds=["episode"]))


def test_secret_context_off_shows_no_line_of_a_secret(make_memory: Callable[..., Memory]) -> None:
    mem = make_memory(secret_context=False)
    for text in TOLD:
        mem.add([{"role": "user", "content": text}], user_id="u1", session_id="s1", sync=True)
    assert "小米密码锁" not in mem.build_context("门锁好像没电了 咋换电池", user_id="u1")


def test_a_name_beside_a_hidden_value_is_no_value() -> None:
    shown = hidden("家里wifi叫 ZXO-5G 密码是 [已隐藏:密码]")
    assert shown is not None and "ZXO-5G" in shown
    assert hidden("研招网账号 lin_88 密码 [已隐藏:密码]") is None  # (a login's name is not said to be a name)


@pytest.mark.parametrize(("told", "query", "kept", "gone"), [
    ("家里wifi叫 ZXO-5G 密码是 HaiOu_0731", "朋友来家里玩 问网咋连", "ZXO-5G", "HaiOu_0731"),
    ("俺身份证号 371082 1999 0714 062X 入职要填表 你帮我记着", "入职还要补啥材料 帮我列一下", "身份证", "062X"),
])
def test_the_block_tells_what_a_value_was_for(make_memory: Callable[..., Memory], told: str, query: str, kept: str,
                                             gone: str) -> None:
    mem = make_memory()
    for text in [*TOLD[1:], told]:
        mem.add([{"role": "user", "content": text}], user_id="u1", session_id="s1", sync=True)
    block = mem.build_context(query, user_id="u1")
    assert kept in block and gone not in block, block
