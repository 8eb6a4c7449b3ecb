"""Which messages are requests to forget, and what they name (jiyi.privacy.forget)."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from jiyi.privacy.forget import detect_forget, matches
from jiyi.records import Kind, MemoryRecord, Status

T = datetime(2025, 3, 5, tzinfo=timezone.utc)


@pytest.mark.parametrize(("text", "topic"), [
    ("忘记我的住址", "address"),
    ("请忘掉我的地址吧", "address"),
    ("forget my address", "address"),
    ("Please forget my home address.", "address"),
    ("把我的手机号删了", "phone"),
    ("别记我的电话了", "phone"),
    ("delete my phone number please", "phone"),
    ("不要记我的邮箱", "email"),
    ("don't remember my email anymore", "email"),
    ("把我的WiFi密码忘了吧", "password"),
    ("删除我的银行卡信息", "bank_card"),
    ("forget my ID number", "id_number"),
])
def test_topic_requests(text: str, topic: str) -> None:
    req = detect_forget(text)
    assert req is not None and req.topics == (topic,) and not req.everything


@pytest.mark.parametrize("text", ["忘记我说过的所有话", "忘记我的所有信息", "forget everything",
                                  "Please forget everything you know about me.", "Can you forget what I told you?"])
def test_everything(text: str) -> None:
    req = detect_forget(text)
    assert req is not None and req.everything


@pytest.mark.parametrize("text", ["我忘了密码", "忘了带伞", "forget it", "我记得你", "把这个删了",
                                  "I always forget my keys at home, haha", "别忘了我的生日派对"])
def test_not_requests(text: str) -> None:
    assert detect_forget(text) is None


def test_free_words_and_matching() -> None:
    req = detect_forget("忘掉我喜欢猫这件事")
    assert req is not None and req.words == "喜欢猫"

    def rec(content: str, slot: str | None = None, status: Status = Status.ACTIVE) -> MemoryRecord:
        return MemoryRecord("x", "t", "u", content, Kind.FACT, T, T, slot=slot, status=status)

    assert matches(rec("用户喜欢猫"), req) and not matches(rec("用户喜欢狗"), req)
    addr = detect_forget("forget my address")
    assert addr is not None
    assert matches(rec("用户的地址是[已隐藏:地址]"), addr)
    assert matches(rec("I moved to 42 Wallaby Way"), addr)  # the value itself shows the topic
    assert matches(rec("something", slot="user/address"), addr)
    assert not matches(rec("用户住址在上海", status=Status.DELETED), addr)
    assert not matches(rec("用户喜欢猫"), addr)
