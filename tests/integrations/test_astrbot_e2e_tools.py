"""The plugin's model-facing features in a real AstrBot (one process for the module).

Set up as a bot owner would in the WebUI: the chat model is a fake OpenAI-compatible server;
memory extraction uses a second chat model that answers **only streamed** requests (it refuses
plain ones with HTTP 400, as some providers do, LivingMemory #265); AstrBot's own "vLLM Rerank"
provider points at a fake ``/v1/rerank`` endpoint on loopback; the plugin is set to
``extractor = astrbot`` with that model and ``reranker = astrbot``. Shown here:

- the model calls the plugin's LLM tools (remember, search, forget) through AstrBot's tool
  loop, while memories are injected into the same request, and the tool calls still work;
- forget deletes only after the user confirms in a later message, in words;
- a provider that only streams extracts memories;
- the rerank provider reorders search results, and when it fails the fused order stands.

Every exchange is appended to ``$JIYI_ASTRBOT_TRANSCRIPT`` (default: the tmp dir), one JSON
file per test, for the record.
"""

from __future__ import annotations

import json
import os
import re
import sys
import time
import uuid
from collections import deque
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fake_openai import FakeOpenAI, Recorded, Reply, chat, chat_json, error
from test_astrbot_e2e import (
    REPO,
    Bot,
    chat_provider,
    free_port,
    last_user_text,
    reply_for,
    running_bot,
    wait_until_listed,
)

sys.path.insert(0, str(REPO / "tests" / "rerankers"))
from fake_rerank import Answer, FakeRerank

#: one AstrBot virtualenv is shared (~/.cache/jiyi): its tests run in one worker under pytest-xdist
pytestmark = pytest.mark.xdist_group("astrbot")

MEMORY_TAG = "<memories>"
TOOL_NAMES = {"search_long_term_memory", "remember_long_term_memory", "forget_long_term_memory"}
FAVOURITE: list[str] = [""]  # what the fake reranker prefers (set by the rerank test)
PLAN: deque[Reply] = deque()  # the model's next answers to the agent, in order


def tool_call(name: str, args: dict[str, Any]) -> Reply:
    """A chat completion that calls ``name`` (a plain answer: the tool tests send without streaming)."""
    call = {"id": f"call_{uuid.uuid4().hex[:8]}", "type": "function",
            "function": {"name": name, "arguments": json.dumps(args, ensure_ascii=False)}}
    return Reply(body={"id": "chatcmpl-tool", "object": "chat.completion", "created": int(time.time()),
                       "model": "fake-model",
                       "choices": [{"index": 0, "finish_reason": "tool_calls",
                                    "message": {"role": "assistant", "content": None, "tool_calls": [call]}}],
                       "usage": {"prompt_tokens": 30, "completion_tokens": 10, "total_tokens": 40}})


def model(req: Recorded) -> Reply:
    """The chat model: the planned answers first (only to the agent's requests, which offer tools;
    WebChat's own title request offers none); after a tool ran it repeats what the tool said, else
    it echoes the user."""
    if (req.json or {}).get("tools") and PLAN:
        return PLAN.popleft()
    last = req.messages[-1] if req.messages else {}
    if last.get("role") == "tool":
        return chat(f"工具结果：{str(last.get('content'))[:60]}")
    return reply_for(req)


def stream_only_extractor(req: Recorded) -> Reply:
    """A provider that refuses plain requests; streamed, it extracts what the conversation says."""
    body = req.json or {}
    if not body.get("stream"):
        return error(400, "this endpoint only supports stream=true")
    said = "\n".join(str(m.get("content")) for m in req.messages)
    memories = []
    if "年糕" in said:  # a paraphrase the offline rules would never write: proof the model extracted it
        memories.append({"content": "用户养了一只名叫年糕的橘猫", "kind": "fact", "importance": 0.8, "confidence": 0.9})
    return chat_json({"memories": memories})


def prefer_favourite(query: str, document: str) -> float:
    return 1.0 if FAVOURITE[0] and FAVOURITE[0] in document else 0.0


class Transcript:
    def __init__(self, name: str, tmp_path: Path) -> None:
        base = os.environ.get("JIYI_ASTRBOT_TRANSCRIPT")
        self.path = (Path(base).with_name(f"{Path(base).stem}-{name}.json") if base
                     else tmp_path / f"astrbot-e2e-{name}.json")
        self.items: list[dict[str, Any]] = []

    def add(self, **item: Any) -> None:
        self.items.append(item)
        self.path.write_text(json.dumps(self.items, ensure_ascii=False, indent=2), "utf-8")


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Bot, FakeOpenAI, FakeRerank]]:
    fake = FakeOpenAI(rule=model).start()
    streamer = FakeOpenAI(rule=stream_only_extractor).start()
    rerank = FakeRerank(score=prefer_favourite).start()
    providers = [
        chat_provider("streamer", streamer.base_url),
        {"id": "rerank", "type": "vllm_rerank", "provider": "vllm", "provider_type": "rerank", "enable": True,
         "rerank_api_key": "", "rerank_api_base": rerank.base_url.removesuffix("/v1"),
         "rerank_api_suffix": "/v1/rerank", "rerank_model": "BAAI/bge-reranker-base", "timeout": 20},
    ]
    plugin_config = {"extractor": "astrbot", "llm_provider_id": "streamer", "reranker": "astrbot",
                     "rerank_provider_id": "rerank", "reranker_timeout": 5.0, "panel_port": free_port()}
    try:
        # AstrBot's web search on: its tools join every request, as a search plugin's would (#98's setup)
        with running_bot(tmp_path_factory, fake, providers=providers, plugin_config=plugin_config,
                         settings={"web_search": True, "websearch_provider": "tavily"}) as bot:
            yield bot, streamer, rerank
    finally:
        for server in (fake, streamer, rerank):
            server.stop()


def exchange(bot: Bot, text: str, *replies: Reply) -> tuple[str, list[Recorded]]:
    """Send ``text`` (not streamed) with the model's first ``replies`` scripted; the answer and the
    chat requests the model received for it, in order."""
    PLAN.extend(replies)
    before = len(bot.chat_requests())
    answer = bot.chat.send(text, streaming=False)
    mine = [r for r in bot.chat_requests()[before:] if (r.json or {}).get("tools")]
    assert mine and last_user_text(mine[0]).startswith(text), f"the model never received {text!r}:\n{bot.log_tail()}"
    assert not PLAN, "a planned model answer was not used"
    return answer, mine


TRIP = "我下周三要去杭州出差"


def contents(search_answer: str) -> list[str]:
    """The memory texts of a ``/mem search`` answer (``[id] score text`` lines)."""
    return [line.split(" ", 2)[-1] for line in search_answer.splitlines() if line.startswith("[")]


def tool_messages(req: Recorded) -> list[str]:
    """What the tools answered in this turn (after the last user message; earlier turns stay in history)."""
    last_user = max(i for i, m in enumerate(req.messages) if m.get("role") == "user")
    return [str(m.get("content")) for m in req.messages[last_user:] if m.get("role") == "tool"]


def offered_tools(req: Recorded) -> set[str]:
    return {t.get("function", {}).get("name") for t in (req.json or {}).get("tools") or []}


def user_block(req: Recorded) -> str:
    """The memory block in the last user message (where the plugin injects it)."""
    user = [m for m in req.messages if m.get("role") == "user"][-1]
    return json.dumps(user.get("content"), ensure_ascii=False)


@pytest.mark.timeout(900)
def test_the_model_remembers_finds_and_forgets_through_tools_with_memories_injected(
        world: tuple[Bot, FakeOpenAI, FakeRerank], tmp_path: Path) -> None:
    bot = world[0]
    log = Transcript("tools", tmp_path)
    assert bot.command("/mem remember 我对花生过敏").startswith("记住了")

    # remember: the model calls the tool while the peanut memory sits in the same request
    text = "帮我记一下：我下周三要去杭州出差。对了，我能吃花生吗"
    answer, reqs = exchange(bot, text, tool_call("remember_long_term_memory", {"content": "我下周三要去杭州出差"}))
    first, after_tool = reqs[0], reqs[-1]
    log.add(step="remember", user=text, reply=answer, requests=[r.messages for r in reqs], tools=sorted(offered_tools(first)))
    assert TOOL_NAMES <= offered_tools(first) and any("search" in t and t not in TOOL_NAMES for t in offered_tools(first))
    assert MEMORY_TAG in user_block(first) and "我对花生过敏" in user_block(first)
    assert "照常调用工具" in user_block(first)  # the tools note, with the tighter budget
    assert len(reqs) == 2 and tool_messages(after_tool) and tool_messages(after_tool)[0].startswith("已记住：我下周三要去杭州出差")
    assert "工具结果：已记住" in answer  # WebChat also streams the tool call events before the answer
    wait_until_listed(bot, "我下周三要去杭州出差")

    # search: the model looks it up by itself
    text = "我哪天出差来着？"
    answer, reqs = exchange(bot, text, tool_call("search_long_term_memory", {"query": "出差"}))
    log.add(step="search", user=text, reply=answer, requests=[r.messages for r in reqs])
    assert "杭州出差" in tool_messages(reqs[-1])[0] and "杭州出差" in answer

    # forget: the model asks, then tries to confirm on its own in the same turn: nothing is deleted
    text = "把出差那条忘了吧"
    answer, reqs = exchange(bot, text, tool_call("forget_long_term_memory", {"query": "杭州出差"}),
                            tool_call("forget_long_term_memory", {"query": "杭州出差", "confirmed": True}))
    log.add(step="forget-asks", user=text, reply=answer, requests=[r.messages for r in reqs])
    said = tool_messages(reqs[-1])
    assert said[0].startswith("尚未删除") and "杭州出差" in said[0]
    assert said[1].startswith("还没有删除")
    assert TRIP in contents(bot.command("/mem search 杭州出差"))

    # the user says yes in the next message: now it is gone
    text = "是的，确认删除"
    answer, reqs = exchange(bot, text, tool_call("forget_long_term_memory", {"query": "杭州出差", "confirmed": True}))
    log.add(step="forget-confirmed", user=text, reply=answer, requests=[r.messages for r in reqs])
    done = tool_messages(reqs[-1])[0]
    assert done.startswith("已删除：") and TRIP in done
    assert TRIP not in contents(bot.command("/mem search 杭州出差"))
    assert "我对花生过敏" in contents(bot.command("/mem search 花生"))  # only what was confirmed
    print(f"transcript: {log.path}")


@pytest.mark.timeout(600)
def test_a_provider_that_only_streams_extracts_memories(world: tuple[Bot, FakeOpenAI, FakeRerank],
                                                        tmp_path: Path) -> None:
    bot, streamer, _ = world
    log = Transcript("stream-only", tmp_path)
    answer, _ = exchange(bot, "我家那只猫叫年糕，今年三岁")
    listed = wait_until_listed(bot, "用户养了一只名叫年糕的橘猫")
    asked = [{"stream": bool((r.json or {}).get("stream"))} for r in streamer.requests]
    log.add(user="我家那只猫叫年糕，今年三岁", reply=answer, extractor_requests=asked,
            extractor_answers=[r.json for r in streamer.requests if (r.json or {}).get("stream")][:1], listed=listed)
    assert asked[0] == {"stream": False} and {"stream": True} in asked  # refused plain, then streamed
    print(f"transcript: {log.path}")


@pytest.mark.timeout(600)
def test_the_astrbot_rerank_provider_reorders_and_a_failure_keeps_the_fused_order(
        world: tuple[Bot, FakeOpenAI, FakeRerank], tmp_path: Path) -> None:
    bot, _, rerank = world
    log = Transcript("rerank", tmp_path)
    for text in ("我喜欢喝咖啡", "我喜欢喝乌龙茶", "我喜欢喝鲜榨橙汁"):
        bot.command(f"/mem remember {text}")
    query = "/mem search 我喜欢喝什么饮料"

    sent = len(rerank.requests)
    rerank.push(Answer(500, {"error": "overloaded"}))
    fused = [line.split(" ", 2)[-1] for line in bot.command(query).splitlines()]
    assert len(rerank.requests) == sent + 1 and len(fused) >= 3  # it asked, failed, and the search still answered
    drinks = [line for line in fused if "喜欢喝" in line]
    FAVOURITE[0] = drinks[-1]  # the reranker now prefers what the fused order put last
    reranked = [line.split(" ", 2)[-1] for line in bot.command(query).splitlines()]
    log.add(query=query, fused_order=fused, rerank_prefers=FAVOURITE[0], reranked_order=reranked,
            rerank_request=rerank.requests[-1].json)
    assert len(rerank.requests) == sent + 2
    assert reranked[0] == FAVOURITE[0] != fused[0]
    assert set(rerank.requests[-1].json["documents"]) >= set(drinks)
    print(f"transcript: {log.path}")


@pytest.mark.timeout(600)
def test_the_memory_page_inside_the_dashboard(world: tuple[Bot, FakeOpenAI, FakeRerank], tmp_path: Path) -> None:
    import httpx

    bot = world[0]
    log = Transcript("pages", tmp_path)
    owner = bot.command("/mem stats").split("用户 ")[1].split("（")[0]
    bot.command("/mem remember 我的护照放在书房的抽屉里")
    base, headers = bot.chat.base, bot.chat.headers
    pages = httpx.get(f"{base}/api/v1/plugins/pages", params={"plugin_id": "astrbot_plugin_jiyi"}, headers=headers,
                      timeout=30)
    listing = httpx.get(f"{base}/api/plug/astrbot_plugin_jiyi/page/memories", params={"user": owner},
                        headers=headers, timeout=30).json()
    log.add(pages=pages.json(), listing=listing)
    components = pages.json()["data"]["components"]
    assert {"type": "page", "name": "memories"}.items() <= next(c for c in components if c["type"] == "page").items()
    entry = httpx.get(f"{base}/api/v1/plugins/page", params={"plugin_id": "astrbot_plugin_jiyi", "page_name": "memories"},
                      headers=headers, timeout=30).json()
    html = httpx.get(f"{base}{entry['data']['content_path']}", timeout=30).text  # what the dashboard's iframe loads
    log.add(page_entry={"name": entry["data"]["name"], "content_path": "…"}, page_html_tail=html[-300:])
    assert "jiyi 记忆" in html and "DOMContentLoaded" in html
    assert re.search(r'<script src="[^"]*bridge-sdk\.js[^"]*"></script></body>', html)  # the bridge the page waits for
    assert listing["status"] == "ok" and owner in listing["data"]["users"], listing
    mine = [m for m in listing["data"]["memories"] if m["content"] == "我的护照放在书房的抽屉里"]
    assert mine and listing["data"]["admin"] is True
    gone = httpx.post(f"{base}/api/plug/astrbot_plugin_jiyi/page/delete", json={"user": owner, "id": mine[0]["id"]},
                      headers=headers, timeout=30).json()
    log.add(delete=gone)
    assert gone["status"] == "ok"
    assert "我的护照放在书房的抽屉里" not in contents(bot.command("/mem search 护照"))
    anonymous = httpx.get(f"{base}/api/plug/astrbot_plugin_jiyi/page/memories", timeout=30)
    assert anonymous.status_code == 401  # behind the dashboard login

    # /mem panel: a signed link to the sender's own memories, served by the plugin
    bot.command("/mem remember 我的车停在B2层")
    link = bot.command("/mem panel").split("：", 1)[1].strip()
    page = httpx.get(link, timeout=30)
    own = httpx.get(link.replace("/?t=", "/api/memories?t="), timeout=30).json()
    log.add(panel_link=link.split("?t=")[0] + "?t=…", panel_listing=own)
    assert page.status_code == 200 and "jiyi 记忆" in page.text
    assert own["data"]["admin"] is False and own["data"]["users"] == [owner]
    assert "我的车停在B2层" in [m["content"] for m in own["data"]["memories"]]
    forged = httpx.get(link.replace("/?t=", "/api/memories?t=") + "x", timeout=30)
    assert forged.status_code == 401
    print(f"transcript: {log.path}")
