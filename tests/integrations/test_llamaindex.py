"""The LlamaIndex adapters through llama-index-core's own retriever, Memory and chat engine."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("llama_index.core")

from llama_index.core.base.llms.types import ChatMessage, MessageRole
from llama_index.core.chat_engine import SimpleChatEngine
from llama_index.core.llms.mock import MockLLM
from llama_index.core.memory import Memory as LlamaMemory
from llama_index.core.retrievers import BaseRetriever

from jiyi.clock import FrozenClock
from jiyi.errors import InvalidInput
from jiyi.integrations.llamaindex import JiyiMemoryBlock, JiyiRetriever, recent_of
from jiyi.memory import Memory


@pytest.fixture
def mem(tmp_path: Path, clock: FrozenClock) -> Any:
    with Memory(path=tmp_path / "jiyi.db", home=tmp_path, clock=clock, background_worker=False) as memory:
        yield memory


def test_retriever_returns_a_users_memories_best_first(mem: Memory) -> None:
    mem.remember("用户对花生过敏", user_id="alice")
    mem.remember("用户住在上海浦东", user_id="alice")
    mem.remember("用户喜欢爬山", user_id="bob")
    retriever = JiyiRetriever(mem, user_id="alice", k=2)
    assert isinstance(retriever, BaseRetriever)
    nodes = retriever.retrieve("我能吃花生酱吗")
    assert nodes[0].node.get_content() == "用户对花生过敏" and nodes[0].score is not None and nodes[0].score > 0
    assert nodes[0].node.metadata["kind"] == "fact" and nodes[0].node.node_id == nodes[0].node.id_
    assert mem.get(nodes[0].node.node_id, user_id="alice") is not None
    assert all("爬山" not in n.node.get_content() for n in retriever.retrieve("爬山 花生 上海"))
    again = asyncio.run(retriever.aretrieve("花生"))
    assert again[0].node.get_content() == "用户对花生过敏"
    assert JiyiRetriever(mem, user_id="carol").retrieve("花生") == []


def test_memory_block_stores_flushed_turns_and_recalls_them(mem: Memory) -> None:
    block = JiyiMemoryBlock(memory=mem, user_id="alice", session_id="s1")
    asyncio.run(block.aput([ChatMessage(role=MessageRole.USER, content="我女儿下个月满三岁，她最喜欢恐龙"),
                            ChatMessage(role=MessageRole.ASSISTANT, content="好的，记住了")]))
    mem.flush()
    assert {r.content for r in mem.get_all(user_id="alice", kinds=["episode"])} == {
        "我女儿下个月满三岁，她最喜欢恐龙", "好的，记住了"}
    text = asyncio.run(block.aget([ChatMessage(role=MessageRole.USER, content="给我女儿挑个生日礼物")]))
    assert text.startswith("<memories>") and "恐龙" in text
    assert asyncio.run(block.aget([])) == ""
    other = JiyiMemoryBlock(memory=mem, user_id="bob")
    assert "恐龙" not in asyncio.run(other.aget([ChatMessage(role=MessageRole.USER, content="给我女儿挑个生日礼物")]))


def test_a_chat_engine_with_the_block_sends_memories_to_the_model(mem: Memory) -> None:
    mem.remember("用户对花生过敏", user_id="alice")
    memory = LlamaMemory.from_defaults(session_id="s1", token_limit=4000,
                                       memory_blocks=[JiyiMemoryBlock(memory=mem, user_id="alice")])
    engine = SimpleChatEngine.from_defaults(llm=MockLLM(), memory=memory)
    prompt = str(engine.chat("我周末想做花生酱拌面"))  # MockLLM answers with the prompt it got
    assert "<jiyi>" in prompt and "用户对花生过敏" in prompt
    assert prompt.index("用户对花生过敏") < prompt.index("我周末想做花生酱拌面")


def test_turns_the_short_term_memory_flushes_become_long_term_once(mem: Memory) -> None:
    memory = LlamaMemory.from_defaults(session_id="s1", token_limit=60, chat_history_token_ratio=0.5,
                                       token_flush_size=20,
                                       memory_blocks=[JiyiMemoryBlock(memory=mem, user_id="alice")])
    said = ["我下周三要去北京出差", "好的，祝出差顺利", "我住在杭州西湖区", "杭州很美",
            "我女儿下个月满三岁", "恭喜", "我对花生过敏", "记住了"]
    for i, text in enumerate(said):
        memory.put(ChatMessage(role=MessageRole.USER if i % 2 == 0 else MessageRole.ASSISTANT, content=text))
        memory.get()  # what a chat engine does each turn: the block sees the conversation so far
    mem.flush()
    stored = [r.content for r in mem.get_all(user_id="alice", kinds=["episode"])]
    assert sorted(stored) == sorted(said)  # every turn, flushed or still in the window, stored once


def test_the_documented_chat_engine_recalls_in_the_next_session(mem: Memory) -> None:
    """docs/integrations/llamaindex.md as written: a normal, short chat (far below the flush
    threshold) in session s1, then a new session whose prompt carries what s1 said."""
    def engine(session: str) -> SimpleChatEngine:
        memory = LlamaMemory.from_defaults(session_id=session, token_limit=4000,
                                           memory_blocks=[JiyiMemoryBlock(memory=mem, user_id="alice")])
        return SimpleChatEngine.from_defaults(llm=MockLLM(), memory=memory)

    first = engine("s1")
    first.chat("I am allergic to peanuts")
    first.chat("Also I just moved to Porto")
    mem.flush()
    prompt = str(engine("s2").chat("Can I have a satay sauce tonight?"))
    assert "allergic to peanuts" in prompt
    assert prompt.index("allergic to peanuts") < prompt.index("Can I have a satay sauce tonight?")
    episodes = [r.content for r in mem.get_all(user_id="alice", kinds=["episode"])]
    assert episodes.count("I am allergic to peanuts") == 1 and {r.session_id for r in mem.get_all(
        user_id="alice", kinds=["episode"])} <= {"s1", "s2"}


def test_the_block_reads_the_conversation_before_the_latest_message(mem: Memory) -> None:
    mem.remember("The user's favourite ramen bar is Menya Kaze", user_id="kai")
    said = [ChatMessage(role=MessageRole.SYSTEM, content="Be brief."),
            ChatMessage(role=MessageRole.USER, content="We went for ramen last Friday"),
            ChatMessage(role=MessageRole.ASSISTANT, content="Nice, how was it?"),
            ChatMessage(role=MessageRole.USER, content="which ramen bar was it?")]
    assert recent_of(said[:3], 8) == [{"role": "user", "content": "We went for ramen last Friday"},
                                     {"role": "assistant", "content": "Nice, how was it?"}]
    assert recent_of(said[:3], 1) == [{"role": "assistant", "content": "Nice, how was it?"}]
    text = asyncio.run(JiyiMemoryBlock(memory=mem, user_id="kai").aget(said))
    assert "Menya Kaze" in text
    # the turns reach Memory.build_context: past its 50 messages it refuses them, by name
    long = [ChatMessage(role=MessageRole.USER, content=f"note {i}") for i in range(55)] + said[-1:]
    with pytest.raises(InvalidInput, match="recent holds 55 messages"):
        asyncio.run(JiyiMemoryBlock(memory=mem, user_id="kai", recent_turns=60).aget(long))
