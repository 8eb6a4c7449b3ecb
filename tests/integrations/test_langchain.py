"""The LangChain adapters through langchain-core's own interfaces (Runnable, BaseChatMessageHistory)."""

from __future__ import annotations

import asyncio
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("langchain_core")

from langchain_core.chat_history import BaseChatMessageHistory
from langchain_core.documents import Document
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage
from langchain_core.prompts import ChatPromptTemplate, MessagesPlaceholder
from langchain_core.retrievers import BaseRetriever
from langchain_core.runnables import RunnableLambda

from jiyi.clock import FrozenClock
from jiyi.errors import InvalidInput
from jiyi.integrations.langchain import JiyiChatMessageHistory, JiyiRetriever
from jiyi.memory import Memory


class TickingClock(FrozenClock):
    """Advances a second per reading, like a conversation that moves on."""

    def now(self) -> Any:
        at = super().now()
        self.set(at + timedelta(seconds=1))
        return at


@pytest.fixture
def memory(tmp_path: Path, clock: FrozenClock) -> Any:
    with Memory(path=tmp_path / "jiyi.db", home=tmp_path, clock=TickingClock(clock.now()),
                background_worker=False) as mem:
        yield mem


def test_retriever_is_a_langchain_retriever(memory: Memory) -> None:
    memory.remember("用户对花生过敏", user_id="alice")
    memory.remember("用户住在上海浦东", user_id="alice")
    memory.remember("用户喜欢爬山", user_id="bob")
    retriever = JiyiRetriever(memory=memory, user_id="alice", k=1)
    assert isinstance(retriever, BaseRetriever)

    docs = retriever.invoke("我能吃花生酱吗")
    assert [d.page_content for d in docs] == ["用户对花生过敏"]
    meta = docs[0].metadata
    assert meta["kind"] == "fact" and meta["score"] > 0 and set(meta["scores"]) and docs[0].id == meta["id"]
    assert memory.get(meta["id"], user_id="alice") is not None

    assert JiyiRetriever(memory=memory, user_id="carol").invoke("花生") == []
    bob = JiyiRetriever(memory=memory, user_id="bob", k=5).invoke("花生 爬山 上海")
    assert [d.page_content for d in bob] == ["用户喜欢爬山"]  # never another user's memory


def test_retriever_async_and_in_a_chain(memory: Memory) -> None:
    memory.remember("用户下周三去北京出差", user_id="alice", kind="event")
    retriever = JiyiRetriever(memory=memory, user_id="alice", kinds=["event"])
    docs = asyncio.run(retriever.ainvoke("北京"))
    assert [d.page_content for d in docs] == ["用户下周三去北京出差"]

    def join(docs: list[Document]) -> str:
        return "\n".join(d.page_content for d in docs)

    chain = retriever | RunnableLambda(join)
    assert chain.invoke("出差") == "用户下周三去北京出差"
    assert JiyiRetriever(memory=memory, user_id="alice", kinds=["preference"]).invoke("北京") == []


def test_history_round_trip_and_sessions(memory: Memory, tmp_path: Path) -> None:
    history = JiyiChatMessageHistory(memory, user_id="alice", session_id="s1")
    assert isinstance(history, BaseChatMessageHistory) and history.messages == []
    history.add_user_message("我下个月要搬到杭州了")
    history.add_ai_message("恭喜！需要我帮你列个搬家清单吗？")
    history.add_messages([HumanMessage("好的，请列一下需要办的手续"), AIMessage("1. 办理居住证 2. 转社保")])

    got = history.messages
    assert [type(m) for m in got] == [HumanMessage, AIMessage, HumanMessage, AIMessage]
    assert [m.content for m in got] == ["我下个月要搬到杭州了", "恭喜！需要我帮你列个搬家清单吗？",
                                        "好的，请列一下需要办的手续", "1. 办理居住证 2. 转社保"]
    assert JiyiChatMessageHistory(memory, user_id="alice", session_id="s2").messages == []
    assert JiyiChatMessageHistory(memory, user_id="bob", session_id="s1").messages == []

    window = JiyiChatMessageHistory(memory, user_id="alice", session_id="s1", max_messages=2).messages
    assert [m.content for m in window] == ["好的，请列一下需要办的手续", "1. 办理居住证 2. 转社保"]

    with Memory(path=tmp_path / "jiyi.db", home=tmp_path, background_worker=False) as other_process:
        again = JiyiChatMessageHistory(other_process, user_id="alice", session_id="s1").messages
    assert [m.content for m in again] == [m.content for m in got]  # durable, not in RAM


def test_history_replays_small_talk_and_skips_system_and_images(memory: Memory) -> None:
    history = JiyiChatMessageHistory(memory, user_id="alice", session_id="s1")
    history.add_messages([
        SystemMessage("You are helpful."),
        HumanMessage("谢谢"),
        HumanMessage(content=[{"type": "text", "text": "这张图里的猫叫团子"},
                              {"type": "image_url", "image_url": {"url": "data:image/png;base64,iVBORw0KGgo="}}]),
        HumanMessage("我叫小林", name="lin"),
    ])
    got = history.messages
    assert [m.content for m in got] == ["谢谢", "这张图里的猫叫团子", "我叫小林"]  # the system prompt is no turn
    assert got[2].name == "lin"
    assert all("base64" not in r.content for r in memory.get_all(user_id="alice"))


def test_clear_forgets_the_session_not_the_user(memory: Memory) -> None:
    memory.remember("用户对花生过敏", user_id="alice")
    s1 = JiyiChatMessageHistory(memory, user_id="alice", session_id="s1")
    s2 = JiyiChatMessageHistory(memory, user_id="alice", session_id="s2")
    s1.add_user_message("今天的会议改到下午三点")
    s2.add_user_message("周末想去西湖划船")
    s1.clear()
    assert s1.messages == [] and [m.content for m in s2.messages] == ["周末想去西湖划船"]
    assert [d.page_content for d in JiyiRetriever(memory=memory, user_id="alice", k=1).invoke("花生")] == [
        "用户对花生过敏"]


def test_history_in_a_chain_without_runnable_with_message_history(memory: Memory) -> None:
    """langchain-core 1.x deprecates RunnableWithMessageHistory: the chain reads and writes the history itself."""
    seen: list[list[BaseMessage]] = []

    def model(prompt: Any) -> AIMessage:
        messages = prompt.to_messages()
        seen.append(messages)
        return AIMessage(f"收到：{messages[-1].content}")

    prompt = ChatPromptTemplate.from_messages([("system", "你是助手。"), MessagesPlaceholder("history"),
                                               ("human", "{question}")])
    chain = prompt | RunnableLambda(model)

    def turn(question: str, session_id: str) -> AIMessage:
        history = JiyiChatMessageHistory(memory, user_id="alice", session_id=session_id)
        reply: AIMessage = chain.invoke({"question": question, "history": history.messages})
        history.add_messages([HumanMessage(question), reply])
        return reply

    turn("我的猫叫团子", "chat-1")
    reply = turn("我的猫叫什么？", "chat-1")

    assert reply.content == "收到：我的猫叫什么？"
    second = [m.content for m in seen[1]]
    assert second == ["你是助手。", "我的猫叫团子", "收到：我的猫叫团子", "我的猫叫什么？"]
    stored = JiyiChatMessageHistory(memory, user_id="alice", session_id="chat-1").messages
    assert [m.content for m in stored] == ["我的猫叫团子", "收到：我的猫叫团子", "我的猫叫什么？", "收到：我的猫叫什么？"]
    found = JiyiRetriever(memory=memory, user_id="alice", k=3).invoke("团子")
    assert any("猫叫团子" in d.page_content for d in found)  # the turns are long-term memory too


def test_history_replays_the_turns_the_bot_had_small_talk_included(memory: Memory) -> None:
    history = JiyiChatMessageHistory(memory, user_id="bea", session_id="s9")
    said = [HumanMessage("hi!"), AIMessage("Hello! How can I help?"), HumanMessage("I'm training for a marathon"),
            AIMessage("Great, when is it?"), HumanMessage("ok thanks"), AIMessage("You're welcome!")]
    for i in range(0, len(said), 2):
        history.add_messages(said[i:i + 2])
    got = history.messages
    assert [(m.type, m.content) for m in got] == [(m.type, m.content) for m in said]
    assert [m.content for m in JiyiChatMessageHistory(memory, user_id="bea", session_id="other").messages] == []
    history.clear()
    assert history.messages == []


def test_the_retriever_reads_the_conversation_from_its_history(memory: Memory) -> None:
    memory.remember("The user's favourite ramen bar is Menya Kaze", user_id="kai")
    history = JiyiChatMessageHistory(memory, user_id="kai", session_id="s1")
    history.add_messages([HumanMessage("We went for ramen last Friday"), AIMessage("Nice, how was it?")])
    retriever = JiyiRetriever(memory=memory, user_id="kai", k=3, history=history)
    assert retriever._recent("which ramen bar was it?") == [
        {"role": "user", "content": "We went for ramen last Friday"},
        {"role": "assistant", "content": "Nice, how was it?"}]
    docs = retriever.invoke("which ramen bar was it?")
    assert any("Menya Kaze" in d.page_content for d in docs)  # among the k the agent reads
    # the turns reach Memory.search: past its 50 messages it refuses them, by name
    history.add_messages([HumanMessage(f"note {i} about noodles") for i in range(50)])
    whole = JiyiChatMessageHistory(memory, user_id="kai", session_id="s1", max_messages=100)
    with pytest.raises(InvalidInput, match="recent holds 52 messages"):
        JiyiRetriever(memory=memory, user_id="kai", history=whole, recent_turns=60).invoke("which bar?")
