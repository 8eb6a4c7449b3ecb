"""build_context compression by the LLM, against the real local OpenAI-compatible server.

Recorded-response cases: valid compressed lines (with one citing a memory that was
not shown and one citing nothing, both dropped), lines still over budget (trimmed),
broken JSON, no usable line, 500s and a timeout (the last four fall back to the
normal lowest-rank-first dropping).
"""

from __future__ import annotations

import json
import logging
import re
import sys
from collections.abc import Callable, Iterator
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests/, for `import fake_openai`

from fake_openai import FakeOpenAI, Reply, chat, chat_json, error, slow

from jiyi import Memory
from jiyi.llms.openai_compat import OpenAICompatLLM
from jiyi.llms.protocol import Usage
from jiyi.read.compress import compress_context
from jiyi.read.context import build_context_block, render
from jiyi.read.tokencount import count_tokens
from jiyi.records import Hit, Kind, MemoryRecord, new_id

T0 = datetime(2025, 5, 1, 12, 0, tzinfo=timezone.utc)
FACTS = [
    ("用户住在杭州，2025年4月从上海搬过去，现在住在西湖区附近", Kind.FACT, 10, 0.9),
    ("用户以前住在上海浦东新区，在那里住了五年左右", Kind.FACT, 200, 0.8),
    ("用户对花生严重过敏，吃了含花生的东西会呼吸困难，需要随身带药", Kind.FACT, 60, 1.0),
    ("用户的女朋友叫小雅，是一名小学老师，喜欢猫", Kind.RELATION, 30, 0.9),
    ("用户喜欢吃辣，尤其是川菜和湘菜，但不吃香菜", Kind.PREFERENCE, 40, 0.8),
    ("用户在腾讯做产品经理，负责微信支付相关的产品", Kind.FACT, 90, 0.9),
    ("用户周末常去爬山，最近去过莫干山和天目山", Kind.PREFERENCE, 20, 0.7),
    ("用户希望回答简短一些，不喜欢太长的解释", Kind.PREFERENCE, 5, 0.9),
]
BUDGET = 120
MakeMemory = Callable[..., Memory]


def hits() -> list[Hit]:
    out = []
    for rank, (content, kind, days, conf) in enumerate(FACTS):
        at = T0 - timedelta(days=days)
        rec = MemoryRecord(id=new_id(), tenant="default", user_id="u1", content=content, kind=kind, created_at=at,
                           updated_at=at, confidence=conf, source_ids=(f"msg-{rank}",))
        out.append(Hit(rec, 1.0 - rank / 10, {}))
    return out


@pytest.fixture
def llm(fake_openai: FakeOpenAI) -> Iterator[OpenAICompatLLM]:
    client = OpenAICompatLLM(fake_openai.base_url, "fake-model", timeout=0.5, max_retries=1, backoff=0.01)
    yield client
    client.close()


def compress(items: list[Hit], llm: OpenAICompatLLM, budget: int = BUDGET) -> str:
    return compress_context(items, llm=llm, budget_tokens=budget, count_tokens=count_tokens, lang="zh")


def dropped(items: list[Hit], budget: int = BUDGET) -> str:
    return build_context_block(items, budget_tokens=budget, count_tokens=count_tokens, lang="zh")


GOOD = {"lines": [
    {"text": "用户2025年4月从上海搬到杭州西湖区", "sources": ["h1", "h2"]},
    {"text": "用户对花生严重过敏，需随身带药", "sources": ["h3"]},
    {"text": "用户是腾讯产品经理；女友小雅是小学老师", "sources": ["h6", "h4"]},
    {"text": "管理员密码是123", "sources": ["h99"]},  # cites nothing that was shown: dropped
    {"text": "用户喜欢辣", "sources": []},  # cites nothing: dropped
]}


def test_over_budget_memories_are_compressed_with_sources(llm: OpenAICompatLLM, fake_openai: FakeOpenAI) -> None:
    items = hits()
    assert count_tokens(render(items, "zh")) > BUDGET
    fake_openai.push(chat_json(GOOD, prompt_tokens=400, completion_tokens=60))
    block = compress(items, llm)
    assert count_tokens(block) <= BUDGET
    lines = block.split("\n")
    assert lines[0] == "<memories>" and lines[-1] == "</memories>" and "以日期较新的为准" in lines[1]
    assert "- 用户2025年4月从上海搬到杭州西湖区 (置信 0.8, 2025-04-21)" in lines  # newest date, lowest confidence
    assert "- 用户对花生严重过敏，需随身带药 (置信 1.0, 2025-03-02)" in lines
    assert "- 用户是腾讯产品经理；女友小雅是小学老师 (置信 0.9, 2025-04-01)" in lines
    assert "## 事实" in lines and "密码" not in block and "喜欢辣" not in block
    assert llm.usage == Usage(400, 60)

    (req,) = fake_openai.requests
    assert req.json["response_format"] == {"type": "json_object"}
    assert f"约 {BUDGET} 个 token" in req.messages[0]["content"]
    match = re.search(r"<<<MEMORIES ([0-9a-f]{12})>>>\n(.*)\n<<<END MEMORIES \1>>>", req.messages[1]["content"],
                      re.DOTALL)
    assert match is not None
    shown = [json.loads(line) for line in match.group(2).split("\n")]
    assert [s["id"] for s in shown] == [f"h{i}" for i in range(1, 9)]  # every chosen memory, in rank order
    assert shown[0] == {"id": "h1", "kind": "fact", "date": "2025-04-21", "confidence": 0.9,
                        "content": FACTS[0][0]}


def test_a_block_within_budget_is_not_sent_to_the_llm(llm: OpenAICompatLLM, fake_openai: FakeOpenAI) -> None:
    items = hits()[:2]
    assert compress(items, llm) == render(items, "zh")
    assert compress([], llm) == ""
    assert fake_openai.requests == []


def test_compressed_lines_still_too_long_lose_their_tail(llm: OpenAICompatLLM, fake_openai: FakeOpenAI) -> None:
    wordy = {"lines": [{"text": f"第{i}行：" + FACTS[i][0] * 2, "sources": [f"h{i + 1}"]} for i in range(4)]}
    fake_openai.push(chat_json(wordy))
    block = compress(hits(), llm)
    assert count_tokens(block) <= BUDGET and "第0行" in block and "第3行" not in block


@pytest.mark.parametrize(
    ("script", "logged"),
    [
        ([chat('{"lines": [{"text": "用户住在杭州", "sources": ["h1"]}')], "ReplyInvalid: not valid JSON"),
        ([chat_json({"lines": [{"text": "管理员密码是123", "sources": ["h42"]}]})], "no line of the reply cites"),
        ([chat_json({"lines": [{"text": "用户住在杭州" * 60, "sources": ["h1"]}]})], "does not fit 120 tokens"),
        ([error(500), error(502)], "ProviderUnavailable"),
        ([slow(2.0), slow(2.0)], "timed out"),
    ],
    ids=["broken-json", "no-cited-line", "nothing-fits", "http-500", "timeout"],
)
def test_failures_fall_back_to_dropping_the_lowest_ranked(
    llm: OpenAICompatLLM, fake_openai: FakeOpenAI, caplog: pytest.LogCaptureFixture, script: list[Reply],
    logged: str
) -> None:
    fake_openai.push(*script)
    items = hits()
    with caplog.at_level(logging.WARNING, logger="jiyi.read.compress"):
        block = compress(items, llm)
    assert block == dropped(items) and block  # the normal block: a prefix of the ranking
    assert FACTS[0][0] in block and FACTS[-1][0] not in block
    assert logged in caplog.text


# ---- through Memory -------------------------------------------------------------------------------


@pytest.fixture
def llm_memory(make_memory: MakeMemory, fake_openai: FakeOpenAI) -> MakeMemory:
    def make(**config: Any) -> Memory:
        options = {"llm_base_url": fake_openai.base_url, "llm_model": "fake-model", "llm_timeout": 0.5,
                       "llm_max_retries": 0, "llm_resolve": False}
        return make_memory(**{**options, **config})

    return make


def seed(mem: Memory) -> None:
    for content, kind, _, _ in FACTS:
        mem.remember(content, user_id="u1", kind=kind)


def test_build_context_compress_switch_and_setting(llm_memory: MakeMemory, fake_openai: FakeOpenAI) -> None:
    mem = llm_memory()
    seed(mem)
    plain = mem.build_context("说说我的情况", user_id="u1", budget_tokens=BUDGET)
    assert fake_openai.requests == [] and plain.startswith("<memories>")
    fake_openai.push(chat_json({"lines": [{"text": "用户住在杭州，对花生严重过敏", "sources": ["h1", "h2"]}]}))
    block = mem.build_context("说说我的情况", user_id="u1", budget_tokens=BUDGET, compress=True)
    assert "- 用户住在杭州，对花生严重过敏 (置信" in block and len(fake_openai.requests) == 1

    always = llm_memory(context_compress=True)
    fake_openai.push(chat_json({"lines": [{"text": "用户是腾讯产品经理", "sources": ["h1"]}]}))
    assert "用户是腾讯产品经理 (置信" in always.build_context("说说我的情况", user_id="u1", budget_tokens=BUDGET)
    assert len(fake_openai.requests) == 2
    always.build_context("说说我的情况", user_id="u1", budget_tokens=BUDGET, compress=False)
    assert len(fake_openai.requests) == 2  # compress=False wins over the setting


def test_without_an_llm_compress_is_the_normal_block(make_memory: MakeMemory) -> None:
    mem = make_memory()
    seed(mem)
    assert mem.llm is None
    block = mem.build_context("说说我的情况", user_id="u1", budget_tokens=BUDGET, compress=True)
    assert block.startswith("<memories>") and count_tokens(block) <= BUDGET
