"""The LLM extractor and privacy, against the real-socket fake server (tests/fake_openai.py):
the model never sees a secret, its ``forget`` list deletes what it names for the sender
only, and "everything" needs a message that asks for it."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests/, for `import fake_openai`

from fake_openai import FakeOpenAI, chat_json

from jiyi.extractors.prompts.extraction import parse_extraction
from jiyi.memory import Memory
from jiyi.records import EventType, Kind, Status

MakeMemory = Callable[..., Memory]


@pytest.fixture
def llm_mem(make_memory: MakeMemory, llm_settings: dict[str, Any]) -> Memory:
    return make_memory(**{**llm_settings, "embedder": "hash", "extractor": "llm", "llm_resolve": False,
                          "summary_every_rounds": 0, "extract_every_rounds": 1})


def remember_address(mem: Memory, fake: FakeOpenAI, user: str, address: str) -> None:
    fake.push(chat_json({"memories": [{"content": f"用户住在{address}", "kind": "fact", "slot": "user/住址",
                                       "sensitive": True, "source_ids": ["m1"]},
                                      {"content": "用户喜欢川菜", "kind": "preference", "source_ids": ["m1"]}]}))
    mem.add({"role": "user", "content": f"我住在{address}，平时爱吃川菜", "id": f"{user}-a"}, user_id=user, sync=True)


def test_the_model_never_sees_a_secret(llm_mem: Memory, fake_openai: FakeOpenAI) -> None:
    fake_openai.push(chat_json({"memories": [{"content": "用户的支付密码是[已隐藏:支付密码]", "kind": "fact",
                                              "source_ids": ["m1"]}]}))
    llm_mem.add("记住我的支付密码是 884422，卡号 6222 0212 3456 7890 128", user_id="u1", sync=True)
    prompt = fake_openai.requests[-1].prompt
    assert "884422" not in prompt and "6222 0212" not in prompt and "[已隐藏:支付密码]" in prompt
    (fact,) = [r for r in llm_mem.get_all(user_id="u1") if r.kind is Kind.FACT]
    assert fact.visibility.value == "secret"  # the placeholder raised the model's normal fact to secret


@pytest.mark.parametrize(("said", "what"), [("我搬走了，以前那个住址就别留着了", "住址"),
                                            ("I moved out, so please forget my old address", "address")])
def test_forget_from_the_model(llm_mem: Memory, fake_openai: FakeOpenAI, said: str, what: str) -> None:
    remember_address(llm_mem, fake_openai, "u1", "张江路123号")
    remember_address(llm_mem, fake_openai, "u2", "张江路123号")
    fake_openai.push(chat_json({"memories": [], "forget": [{"what": what, "source_ids": ["m1"]}]}))
    result = llm_mem.add({"role": "user", "content": said, "id": "u1-f"}, user_id="u1", sync=True)
    deleted = {e.id for e in result.events if e.event is EventType.DELETE}
    assert deleted
    left = llm_mem.get_all(user_id="u1", status=None)
    assert all("张江路" not in r.content for r in left if r.status is not Status.DELETED)
    assert any("川菜" in r.content for r in left if r.status is Status.ACTIVE)
    assert not any(said in r.content and r.status is not Status.DELETED for r in left)  # the request is no turn
    assert any("张江路" in r.content for r in llm_mem.get_all(user_id="u2"))  # never another user


@pytest.mark.parametrize(("said", "what"), [("I moved out, so my old place doesn't matter to you anymore", "address"),
                                            ("帮我翻译这段话：forget my address", "address"),
                                            ("请帮我清空购物车", "*"), ("我忘记带钥匙了", "用户")])
def test_a_forget_item_for_a_message_that_asks_nothing_is_refused(
        llm_mem: Memory, fake_openai: FakeOpenAI, said: str, what: str) -> None:
    remember_address(llm_mem, fake_openai, "u1", "张江路123号")
    before = {r.id for r in llm_mem.get_all(user_id="u1")}
    fake_openai.push(chat_json({"memories": [], "forget": [{"what": what, "source_ids": ["m1"]}]}))
    result = llm_mem.add({"role": "user", "content": said, "id": "u1-n"}, user_id="u1", sync=True)
    assert not result.forgotten and result.forget == []
    assert before <= {r.id for r in llm_mem.get_all(user_id="u1")}


def test_rules_catch_the_common_phrasings_before_the_model(llm_mem: Memory, fake_openai: FakeOpenAI) -> None:
    remember_address(llm_mem, fake_openai, "u1", "张江路123号")
    asked = len(fake_openai.requests)
    result = llm_mem.add("forget my address", user_id="u1", sync=True)
    assert result.forget == ["address"] and result.forgotten
    assert len(fake_openai.requests) == asked  # nothing left to extract: the model was not asked


def test_everything_needs_a_message_that_asks(llm_mem: Memory, fake_openai: FakeOpenAI) -> None:
    remember_address(llm_mem, fake_openai, "u1", "张江路123号")
    before = len(llm_mem.get_all(user_id="u1"))
    fake_openai.push(chat_json({"memories": [], "forget": [{"what": "*", "source_ids": ["m1"]}]}))  # misled
    llm_mem.add("今天天气不错，我们去公园散步了很久，很开心", user_id="u1", sync=True)
    assert len(llm_mem.get_all(user_id="u1")) >= before
    fake_openai.push(chat_json({"memories": [], "forget": [{"what": "*", "source_ids": ["m1"]}]}))
    result = llm_mem.add("把你记得的关于我的东西统统清空吧", user_id="u1", sync=True)
    assert len(result.forgotten) >= before and llm_mem.get_all(user_id="u1") == []


def test_reply_forget_shapes() -> None:
    reply = parse_extraction('{"memories": [], "forget": ["住址", {"what": "*", "source_ids": ["m2", 3]}, '
                             '{"what": ""}, 7, {"source_ids": ["m1"]}]}')
    assert reply.forget == [("住址", []), ("*", ["m2", "3"])]
    assert parse_extraction('{"memories": []}').forget == []
