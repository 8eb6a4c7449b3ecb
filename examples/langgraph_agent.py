"""A LangGraph agent with long-term memory in jiyi (``pip install 'jiyi[langgraph]'``).

The graph has two nodes: ``remember`` stores what the user asks it to remember ("记住…" /
"remember …") in the store under ``("memories", user_id)``; ``chat`` searches that namespace for
the message and hands the best memories to the model in a system message. Memories outlive the
conversation thread: a new thread of the same user recalls them.

The model here is langchain-core's fake chat model that answers with what it was shown, so the
example runs offline; swap in any chat model (``ChatOpenAI(...)``) for a real agent.

    python examples/langgraph_agent.py
"""

from __future__ import annotations

import re
import tempfile
import uuid
from pathlib import Path
from typing import Any

from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage
from langchain_core.runnables import RunnableConfig
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.config import get_store
from langgraph.graph import END, START, MessagesState, StateGraph

from jiyi.integrations.langgraph import JiyiStore
from jiyi.memory import Memory

REMEMBER = re.compile(r"^\s*(?:记住[，,:：]?|remember(?: that)?[,:]?)\s*(.+)$", re.IGNORECASE | re.DOTALL)


class EchoModel(GenericFakeChatModel):
    """A fake model that answers with the system message it got (what the agent recalled)."""

    def _generate(self, messages: list[BaseMessage], *args: Any, **kwargs: Any) -> Any:
        shown = next((str(m.content) for m in messages if isinstance(m, SystemMessage)), "")
        self.messages = iter([AIMessage(content=shown or "（没有相关记忆）")])
        return super()._generate(messages, *args, **kwargs)


def build_agent(store: JiyiStore, model: Any | None = None) -> Any:
    llm = model or EchoModel(messages=iter(()))

    def remember(state: MessagesState, config: RunnableConfig) -> dict[str, Any]:
        user = (config.get("configurable") or {})["user_id"]
        match = REMEMBER.match(str(state["messages"][-1].content))
        if match:
            get_store().put(("memories", user), str(uuid.uuid4()), {"content": match.group(1).strip()})
        return {}

    def chat(state: MessagesState, config: RunnableConfig) -> dict[str, Any]:
        user = (config.get("configurable") or {})["user_id"]
        query = str(state["messages"][-1].content)
        found = get_store().search(("memories", user), query=query, limit=3)
        system = "关于用户的记忆：\n" + "\n".join(f"- {i.value['content']}" for i in found) if found else ""
        prompt = ([SystemMessage(system)] if system else []) + list(state["messages"])
        return {"messages": [llm.invoke(prompt)]}

    graph = StateGraph(MessagesState)
    graph.add_node("remember", remember)
    graph.add_node("chat", chat)
    graph.add_edge(START, "remember")
    graph.add_edge("remember", "chat")
    graph.add_edge("chat", END)
    return graph.compile(checkpointer=InMemorySaver(), store=store)


def ask(agent: Any, text: str, *, user_id: str, thread_id: str) -> str:
    config: RunnableConfig = {"configurable": {"user_id": user_id, "thread_id": thread_id}}
    out = agent.invoke({"messages": [HumanMessage(text)]}, config)
    return str(out["messages"][-1].content)


def main() -> None:
    home = Path(tempfile.mkdtemp(prefix="jiyi-langgraph-"))
    with Memory(path=home / "agent.db", home=home) as mem:
        agent = build_agent(JiyiStore(mem))
        for text in ("记住，我对花生过敏", "记住，我住在杭州西湖区", "我养了一只猫"):
            print(f"[thread 1] 用户: {text}\n[thread 1] 助手: {ask(agent, text, user_id='xiaoming', thread_id='t1')}")
        for text in ("我能吃花生酱吗？", "周末在杭州去哪玩"):
            print(f"[thread 2] 用户: {text}\n[thread 2] 助手: {ask(agent, text, user_id='xiaoming', thread_id='t2')}")
        print(f"[other user] 助手: {ask(agent, '我能吃花生酱吗？', user_id='xiaohong', thread_id='t3')}")


if __name__ == "__main__":
    main()
