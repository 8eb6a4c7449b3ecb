"""LLM tools, identity aliases, the global scope, the astrbot reranker and the stream fallback,
inside AstrBot's own event objects and command filters (real jiyi, real SQLite)."""

from __future__ import annotations

import json
import math
import re
from collections.abc import AsyncIterator
from typing import Any

import pytest
from astrbot.core.pipeline.context_utils import call_event_hook
from astrbot.core.provider.entities import LLMResponse, RerankResult
from astrbot.core.star.star_handler import EventType
from astrbot_harness import FakeChatProvider, FakeContext, command, llm_turn, make_event
from astrbot_plugin_jiyi.main import JiyiMemory
from astrbot_plugin_jiyi.request import TOOLS_NOTE
from astrbot_plugin_jiyi.tools import says_yes
from test_plugin import memory_parts, run


async def contents(plugin: JiyiMemory, owner: str) -> set[str]:
    await plugin.wait_idle()
    return {r.content for r in await plugin.holder.run("get_all", user_id=owner, kinds=["fact", "preference", "event"])}


# ---- LLM tools -------------------------------------------------------------------------------
def test_tools_store_and_find_only_the_speakers_memories() -> None:
    async def scenario(plugin: JiyiMemory, ctx: FakeContext) -> None:
        said = await plugin.tool_remember(make_event("记住我对花生过敏"), content="我对花生过敏")
        assert said.startswith("已记住：我对花生过敏")
        await plugin.tool_remember(make_event("记住我养了橘猫", sender="B2"), content="我养了一只橘猫")
        found = await plugin.tool_search(make_event("我对什么过敏"), query="过敏 花生")
        assert "我对花生过敏" in found and "橘猫" not in found
        assert "橘猫" not in await plugin.tool_search(make_event("猫"), query="橘猫")
        assert "橘猫" in await plugin.tool_search(make_event("猫", sender="B2"), query="橘猫")

    run(scenario)


def test_forget_needs_a_spoken_yes_in_a_later_message() -> None:
    async def scenario(plugin: JiyiMemory, ctx: FakeContext) -> None:
        await command(make_event("mem remember 我下周三要去北京出差"))
        await command(make_event("mem remember 我对花生过敏"))
        await llm_turn(make_event("记一下，我下周三要去北京出差"), "好的")  # the turn that said it goes too
        await llm_turn(make_event("出差那天我要几点起床？"), "七点")  # a question about it stays
        await plugin.wait_idle()
        ask = make_event("把出差那条忘了")
        said = await plugin.tool_forget(ask, query="北京出差")
        assert said.startswith("尚未删除") and "我下周三要去北京出差" in said
        # the model "confirms" by itself in the same turn: nothing happens
        assert (await plugin.tool_forget(ask, query="北京出差", confirmed=True)).startswith("还没有删除")
        assert "我下周三要去北京出差" in await contents(plugin, "qq1:10001")
        # another person cannot confirm it
        no_request = await plugin.tool_forget(make_event("是的", sender="B2"), query="北京出差", confirmed=True)
        assert no_request.startswith("没有待确认")
        # the user refuses: cancelled, and a later yes no longer counts
        assert (await plugin.tool_forget(make_event("不要删，算了"), query="北京出差", confirmed=True)).startswith(
            "用户没有明确确认")
        assert (await plugin.tool_forget(make_event("好的"), query="北京出差", confirmed=True)).startswith("没有待确认")
        # asked again, confirmed in words in the next message: deleted, and only that one
        await plugin.tool_forget(make_event("还是忘了出差吧"), query="北京出差")
        done = await plugin.tool_forget(make_event("对，删吧"), query="北京出差", confirmed=True)
        assert done.startswith("已删除：") and "我下周三要去北京出差" in done
        assert await contents(plugin, "qq1:10001") == {"我对花生过敏"}
        turns = {r.content for r in await plugin.holder.run("get_all", user_id="qq1:10001", kinds=["episode"])}
        assert "出差那天我要几点起床？" in turns and "记一下，我下周三要去北京出差" not in turns

    run(scenario)


@pytest.mark.parametrize(("text", "yes"), [("是的", True), ("确认删除", True), ("yes please do", True),
                                           ("好，删掉吧", True), ("不是这条", False), ("别删", False),
                                           ("no, wait", False), ("今天天气不错", False)])
def test_what_counts_as_a_yes(text: str, yes: bool) -> None:
    assert says_yes(text) is yes


def test_tools_can_be_switched_off() -> None:
    async def scenario(plugin: JiyiMemory, ctx: FakeContext) -> None:
        assert await plugin.tool_remember(make_event("记住"), content="我对花生过敏") == "长期记忆不可用。"
        assert await contents(plugin, "qq1:10001") == set()

    run(scenario, tools=False)


def test_a_request_with_tools_gets_a_tighter_block_and_the_tools_note() -> None:
    from astrbot.core.agent.tool import FunctionTool, ToolSet
    from astrbot.core.pipeline.context_utils import call_event_hook
    from astrbot.core.provider.entities import ProviderRequest
    from astrbot.core.star.star_handler import EventType

    facts = [f"我的第{i}个爱好是收集{thing}" for i, thing in enumerate(["邮票", "硬币", "明信片", "贝壳", "徽章", "瓶盖", "火花", "书签"])]

    async def scenario(plugin: JiyiMemory, ctx: FakeContext) -> None:
        for fact in facts:
            await command(make_event(f"mem remember {fact}"))
        plain = await llm_turn(make_event("说说我的收集爱好"), "好")
        event = make_event("说说我的收集爱好")
        tool = FunctionTool(name="web_search", description="search the web", parameters={"type": "object",
                                                                                         "properties": {}})
        req = ProviderRequest(prompt=event.message_str, func_tool=ToolSet([tool]))
        await call_event_hook(event, EventType.OnLLMRequestEvent, req)
        with_tools = memory_parts(req)[0].text
        assert TOOLS_NOTE in with_tools and TOOLS_NOTE not in memory_parts(plain)[0].text
        assert with_tools.count("\n- ") < memory_parts(plain)[0].text.count("\n- ")
        # AstrBot's always-on tools and the plugin's own do not count: the full block
        quiet = ToolSet([FunctionTool(name=n, description="", parameters={"type": "object", "properties": {}})
                         for n in ("send_message_to_user", "future_task", "search_long_term_memory")])
        req = ProviderRequest(prompt=event.message_str, func_tool=quiet)
        await call_event_hook(make_event("说说我的收集爱好"), EventType.OnLLMRequestEvent, req)
        full = memory_parts(req)[0].text
        assert TOOLS_NOTE not in full and full.count("\n- ") > with_tools.count("\n- ")

    run(scenario, budget_tokens=600, tools_budget_tokens=60)


# ---- identity aliases ------------------------------------------------------------------------
def test_link_with_a_one_time_code_from_the_other_account() -> None:
    async def scenario(plugin: JiyiMemory, ctx: FakeContext) -> None:
        await command(make_event("mem remember 我对花生过敏", sender="A1"))
        await command(make_event("mem remember 我的车是白色的", sender="tg-9", platform="tg1", adapter="telegram"))
        issued = (await command(make_event("mem link", sender="A1")))[0]
        code = re.search(r"/mem link (\d{6})", issued).group(1)  # type: ignore[union-attr]
        assert (await command(make_event("mem link 000000" if code != "000000" else "mem link 111111",
                                         sender="tg-9", platform="tg1")))[0].startswith("验证码无效")
        linked = (await command(make_event(f"mem link {code}", sender="tg-9", platform="tg1", adapter="telegram")))[0]
        assert linked.startswith("已链接：tg1:tg-9 与 qq1:A1") and "并入 1 条" in linked
        # one person now: the telegram account sees and recalls the QQ account's memories, and its own moved over
        assert await contents(plugin, "qq1:A1") == {"我对花生过敏", "我的车是白色的"}
        assert await contents(plugin, "tg1:tg-9") == set()
        listed = (await command(make_event("mem list", sender="tg-9", platform="tg1", adapter="telegram")))[0]
        assert "我对花生过敏" in listed
        req = await llm_turn(make_event("花生酱能吃吗", sender="tg-9", platform="tg1", adapter="telegram"), "不能")
        assert "我对花生过敏" in memory_parts(req)[0].text
        # a code works once
        assert (await command(make_event(f"mem link {code}", sender="C3")))[0].startswith("验证码无效")
        assert (await command(make_event("mem unlink", sender="tg-9", platform="tg1")))[0].startswith("已取消链接")
        assert "我对花生过敏" not in (await command(make_event("mem list", sender="tg-9", platform="tg1")))[0]

    run(scenario)


def test_an_admin_links_two_accounts_directly_and_nobody_else_can() -> None:
    async def scenario(plugin: JiyiMemory, ctx: FakeContext) -> None:
        await command(make_event("mem remember 我住在成都", sender="B2"))
        refused = (await command(make_event("mem link qq1:C3 qq1:B2", sender="C3")))[0]
        assert refused.startswith("只有管理员")
        linked = (await command(make_event("mem link qq1:C3 qq1:B2", sender="adm", admin=True)))[0]
        assert linked.startswith("已链接：qq1:C3 与 qq1:B2")
        assert "我住在成都" in (await command(make_event("mem list", sender="C3")))[0]
        assert plugin.aliases.canonical("qq1:C3") == "qq1:B2"

    run(scenario)


def test_aliases_survive_a_restart() -> None:
    async def first(plugin: JiyiMemory, ctx: FakeContext) -> None:
        await command(make_event("mem link qq1:C3 qq1:B2", sender="adm", admin=True))

    async def second(plugin: JiyiMemory, ctx: FakeContext) -> None:
        assert plugin.aliases.canonical("qq1:C3") == "qq1:B2"

    run(first)
    run(second)


# ---- global scope ----------------------------------------------------------------------------
def test_global_memories_are_admin_written_and_recalled_for_everyone() -> None:
    async def scenario(plugin: JiyiMemory, ctx: FakeContext) -> None:
        refused = (await command(make_event("mem global 本群每周五晚上八点开例会", sender="B2")))[0]
        assert refused == "只有管理员可以写入全局记忆。"
        written = (await command(make_event("mem global 本群每周五晚上八点开例会", sender="adm", admin=True)))[0]
        assert written.startswith("已写入全局记忆：本群每周五晚上八点开例会")
        assert "本群每周五晚上八点开例会" in (await command(make_event("mem global", sender="B2")))[0]
        for sender in ("B2", "C3"):
            req = await llm_turn(make_event("例会是每周几开？", sender=sender, group="g1"), "周五")
            assert "本群每周五晚上八点开例会" in "\n".join(p.text for p in memory_parts(req))
        assert "例会" not in (await command(make_event("mem list", sender="B2")))[0]  # it is nobody's own memory
        short = written.split("[")[1].strip("]")
        assert (await command(make_event(f"mem delete {short} global", sender="B2")))[0].startswith("只有管理员")
        assert (await command(make_event(f"mem delete {short} global", sender="adm", admin=True)))[0].startswith("已删除")

    run(scenario)


# ---- reranker = astrbot ----------------------------------------------------------------------
class FakeRerankProvider:
    """Duck-typed AstrBot ``RerankProvider``: prefers documents containing ``favourite``."""

    def __init__(self, favourite: str, *, fail: bool = False) -> None:
        self.provider_config = {"id": "rr1"}
        self.favourite, self.fail = favourite, fail
        self.calls: list[tuple[str, list[str], int | None]] = []

    async def rerank(self, query: str, documents: list[str], top_n: int | None = None) -> list[RerankResult]:
        self.calls.append((query, documents, top_n))
        if self.fail:
            raise RuntimeError("rerank server down")
        return [RerankResult(index=i, relevance_score=1.0 if self.favourite in d else 0.0) for i, d in enumerate(documents)]


class RerankContext(FakeContext):
    def __init__(self, provider: FakeRerankProvider) -> None:
        super().__init__()
        self.provider_manager = type("PM", (), {"rerank_provider_insts": [provider]})()


@pytest.mark.parametrize("fail", [False, True])
def test_the_first_astrbot_rerank_provider_reorders_or_the_fused_order_stays(fail: bool) -> None:
    provider = FakeRerankProvider("咖啡", fail=fail)

    async def scenario(plugin: JiyiMemory, ctx: FakeContext) -> None:
        for text in ("我喜欢喝乌龙茶", "我喜欢喝鲜榨橙汁", "我喜欢喝咖啡"):
            await command(make_event(f"mem remember {text}"))
        hits = await plugin.holder.run("search", "我喜欢喝什么", user_id="qq1:10001", limit=3)
        assert provider.calls and provider.calls[0][0] == "我喜欢喝什么"
        stats = (await plugin.holder.memory()).stats()["reranker"]
        assert stats["name"] == "astrbot" and stats["failures"] == int(fail)
        if not fail:
            assert hits[0].content == "我喜欢喝咖啡" and math.isfinite(hits[0].scores["rerank_z"])
        else:
            assert len(hits) == 3 and all("rerank_failed" in h.scores for h in hits)

    run(scenario, context=RerankContext(provider), reranker="astrbot", reranker_timeout=2.0)


# ---- a provider that only streams ------------------------------------------------------------
class StreamOnlyProvider(FakeChatProvider):
    """Answers only ``text_chat_stream``: in pieces, then the whole answer (as AstrBot's providers do).
    A summary request (its prompt asks for ``{"summary": …}``) gets ``summary``."""

    def __init__(self, answer: str, summary: str = "") -> None:
        super().__init__("stream1")
        self.answer, self.summary = answer, summary
        self.streamed = 0
        self.summaries = 0

    async def text_chat_stream(self, **kw: Any) -> AsyncIterator[LLMResponse]:
        self.streamed += 1
        answer = self.answer
        if self.summary and '{"summary"' in " ".join(str(v) for v in kw.values()):
            self.summaries += 1
            answer = json.dumps({"summary": self.summary}, ensure_ascii=False)
        for i in range(0, len(answer), 5):
            yield LLMResponse("assistant", completion_text=answer[i : i + 5], is_chunk=True)
        yield LLMResponse("assistant", completion_text=answer)


class StreamOnlyContext(FakeContext):
    plain_calls = 0

    async def llm_generate(self, **kw: Any) -> LLMResponse:
        self.plain_calls += 1
        raise RuntimeError("400: this endpoint only supports stream=true")


def test_extraction_works_with_a_provider_that_only_streams() -> None:
    answer = json.dumps({"memories": [{"content": "用户养了一只名叫年糕的橘猫", "kind": "fact",
                                       "importance": 0.8, "confidence": 0.9}]}, ensure_ascii=False)
    provider = StreamOnlyProvider(answer)
    ctx = StreamOnlyContext(chat=[provider])

    async def scenario(plugin: JiyiMemory, ctx_: FakeContext) -> None:
        await llm_turn(make_event("我家那只猫叫年糕"), "好可爱")
        await llm_turn(make_event("年糕今年三岁了"), "真好")
        assert "用户养了一只名叫年糕的橘猫" in await contents(plugin, "qq1:10001")
        assert ctx.plain_calls == 1 and provider.streamed >= 1  # tried plain once, streamed from then on

    run(scenario, context=ctx, extractor="astrbot")


def test_reset_summarises_the_window_with_a_provider_that_only_streams() -> None:
    provider = StreamOnlyProvider(json.dumps({"memories": []}), summary="用户聊了家里的橘猫年糕和它的生日")
    ctx = StreamOnlyContext(chat=[provider])

    async def scenario(plugin: JiyiMemory, ctx_: FakeContext) -> None:
        await llm_turn(make_event("我家那只猫叫年糕"), "好可爱")
        await llm_turn(make_event("年糕下周过三岁生日"), "生日快乐")
        await plugin.wait_idle()
        reset = make_event("/reset")
        reset.set_extra("_clean_group_context_session", True)  # what AstrBot's builtin /reset marks
        await call_event_hook(reset, EventType.OnAfterMessageSentEvent)
        await plugin.wait_idle()
        summaries = await plugin.holder.run("get_all", user_id="qq1:10001", kinds=["summary"])
        assert [r.content for r in summaries] == ["用户聊了家里的橘猫年糕和它的生日"]
        assert provider.summaries == 1 and ctx.plain_calls == 1

    run(scenario, context=ctx, extractor="astrbot")


def test_never_streaming_keeps_the_plain_failure() -> None:
    provider = StreamOnlyProvider("{}")
    ctx = StreamOnlyContext(chat=[provider])

    async def scenario(plugin: JiyiMemory, ctx_: FakeContext) -> None:
        await llm_turn(make_event("我家那只猫叫年糕"), "好可爱")
        await llm_turn(make_event("年糕今年三岁了"), "真好")
        await plugin.wait_idle()
        assert provider.streamed == 0 and ctx.plain_calls >= 1

    run(scenario, context=ctx, extractor="astrbot", llm_streaming="never")


def test_tools_are_registered_with_astrbot() -> None:
    from astrbot.core.provider.register import llm_tools

    names = {t.name for t in llm_tools.func_list}
    assert {"search_long_term_memory", "remember_long_term_memory", "forget_long_term_memory"} <= names
    forget = next(t for t in llm_tools.func_list if t.name == "forget_long_term_memory")
    assert set(forget.parameters["properties"]) == {"query", "confirmed"}
    assert forget.parameters["properties"]["confirmed"]["type"] == "boolean"


# ---- the memory panel ------------------------------------------------------------------------
def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_signed_tokens_name_one_owner_and_expire(tmp_path: Any) -> None:
    from astrbot_plugin_jiyi.panel import Signer

    signer = Signer(tmp_path / "panel.key")
    token = signer.sign("qq1:10001")
    assert signer.owner(token) == "qq1:10001"
    assert Signer(tmp_path / "panel.key").owner(token) == "qq1:10001"  # the key is kept
    payload, _, mac = token.partition(".")
    forged = signer.sign("qq1:B2").partition(".")[0] + "." + mac
    assert signer.owner(forged) is None and signer.owner(payload + ".x") is None and signer.owner("") is None
    assert signer.owner(signer.sign("qq1:10001", ttl=-1)) is None
    assert Signer(tmp_path / "other.key").owner(token) is None


def test_the_panel_link_shows_and_deletes_only_the_senders_memories() -> None:
    import aiohttp

    port = free_port()

    async def scenario(plugin: JiyiMemory, ctx: FakeContext) -> None:
        await command(make_event("mem remember 我对花生过敏"))
        await command(make_event("mem remember 我养了一只橘猫", sender="B2"))
        link = (await command(make_event("mem panel")))[0]
        url = link.split("：", 1)[1]
        assert url.startswith(f"http://127.0.0.1:{port}/?t=")
        token = url.split("?t=")[1]
        base = f"http://127.0.0.1:{port}"
        async with aiohttp.ClientSession() as http:
            async with http.get(url) as r:
                assert r.status == 200 and "jiyi 记忆" in await r.text()
            async with http.get(f"{base}/api/memories", params={"t": token, "user": "qq1:B2"}) as r:
                data = (await r.json())["data"]
            assert data["admin"] is False and [m["content"] for m in data["memories"]] == ["我对花生过敏"]
            b2 = next(r.id for r in await plugin.holder.run("get_all", user_id="qq1:B2"))
            async with http.post(f"{base}/api/delete", params={"t": token}, json={"user": "qq1:B2", "id": b2}) as r:
                assert r.status == 403
            async with http.post(f"{base}/api/delete", params={"t": token}, json={"id": b2}) as r:
                assert r.status == 403  # not one of mine
            async with http.get(f"{base}/api/memories", params={"t": token + "x"}) as r:
                assert r.status == 401
            mine = data["memories"][0]["id"]
            async with http.post(f"{base}/api/delete", params={"t": token}, json={"id": mine}) as r:
                assert r.status == 200 and (await r.json())["data"]["deleted"] is True
            assert await contents(plugin, "qq1:10001") == set() and await contents(plugin, "qq1:B2") == {"我养了一只橘猫"}
            assert (await command(make_event("mem panel all")))[0].startswith("只有管理员")
            admin = (await command(make_event("mem panel all", sender="adm", admin=True)))[0].split("?t=")[1]
            async with http.get(f"{base}/api/memories", params={"t": admin, "user": "qq1:B2"}) as r:
                data = (await r.json())["data"]
            assert data["admin"] is True and "qq1:B2" in data["users"]
            assert [m["content"] for m in data["memories"]] == ["我养了一只橘猫"]
            async with http.post(f"{base}/api/delete", params={"t": admin}, json={"user": "qq1:B2", "id": b2}) as r:
                assert r.status == 200
        assert await contents(plugin, "qq1:B2") == set()

    run(scenario, panel_port=port)


def test_without_a_panel_port_the_command_says_how_to_open_one() -> None:
    async def scenario(plugin: JiyiMemory, ctx: FakeContext) -> None:
        assert "panel_port" in (await command(make_event("mem panel")))[0]

    run(scenario)


def test_the_dashboard_page_routes_are_registered() -> None:
    routes: list[tuple[str, list[str]]] = []

    class PagesContext(FakeContext):
        def register_web_api(self, route: str, handler: Any, methods: list[str], desc: str) -> None:
            routes.append((route, methods))

    async def scenario(plugin: JiyiMemory, ctx: FakeContext) -> None:
        assert ("/astrbot_plugin_jiyi/page/memories", ["GET"]) in routes
        assert ("/astrbot_plugin_jiyi/page/delete", ["POST"]) in routes

    run(scenario, context=PagesContext())


# ---- conversation-aware recall ---------------------------------------------------------------
def test_recent_turns_are_the_conversations_text() -> None:
    from astrbot_plugin_jiyi.content import recent_turns

    contexts = [
        {"role": "system", "content": "你是助手"},
        {"role": "user", "content": "第一句"},
        {"role": "assistant", "content": None, "tool_calls": [{"id": "c1"}]},
        {"role": "tool", "tool_call_id": "c1", "content": "工具结果"},
        {"role": "user", "content": [{"type": "text", "text": "公司楼下那家咖啡店"},
                                     {"type": "image_url", "image_url": {"url": "data:image/png;base64,AAAA"}},
                                     {"type": "text", "text": "<memories>\n- 旧的记忆\n</memories>"}]},
        {"role": "assistant", "content": "是吗？"},
    ]
    assert recent_turns(contexts, 6) == [{"role": "user", "content": "第一句"},
                                         {"role": "user", "content": "公司楼下那家咖啡店"},
                                         {"role": "assistant", "content": "是吗？"}]
    assert recent_turns(contexts, 2) == [{"role": "user", "content": "公司楼下那家咖啡店"},
                                         {"role": "assistant", "content": "是吗？"}]
    assert recent_turns(contexts, 0) == [] and recent_turns(None, 6) == []



def test_a_taken_panel_port_is_an_answer() -> None:
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = int(taken.getsockname()[1])

        async def scenario(plugin: JiyiMemory, ctx: FakeContext) -> None:
            answer = (await command(make_event("mem panel")))[0]
            assert answer.startswith(f"记忆面板无法在 127.0.0.1:{port} 上启动")

        run(scenario, panel_port=port)


def test_a_follow_up_recalls_what_its_previous_turn_named() -> None:
    async def scenario(plugin: JiyiMemory, ctx: FakeContext) -> None:
        await llm_turn(make_event("小区门口新开了一家面馆，叫老陈面馆"), "听起来不错")
        await llm_turn(make_event("公司楼下的咖啡店叫拾光咖啡，拿铁很好喝"), "下次试试")
        await plugin.wait_idle()
        history = [{"role": "user", "content": "我今天又去公司楼下那家咖啡店了"},
                   {"role": "assistant", "content": "还是点的拿铁吗？"}]
        req = await llm_turn(make_event("对了，那家店叫什么来着？"), "拾光咖啡", contexts=history)
        block = memory_parts(req)[0].text
        assert "拾光咖啡" in block
        assert "老陈面馆" not in block or block.index("拾光咖啡") < block.index("老陈面馆")

    run(scenario, top_k=1)


def test_gc_runs_on_jiyis_schedule_with_the_memory_and_stops_with_the_plugin(monkeypatch: pytest.MonkeyPatch) -> None:
    """The documented 7-day erasure needs gc: the plugin runs it on jiyi's schedule, no cron job."""
    seen: dict[str, Any] = {}

    async def scenario(plugin: JiyiMemory, ctx: FakeContext) -> None:
        await command(make_event("mem remember 我喜欢喝乌龙茶"))
        schedule = plugin.holder.gc_schedule
        assert schedule is not None and schedule._thread is not None and schedule._thread.is_alive()
        assert schedule.run_if_due() is None  # the first run comes a minute after start
        schedule.run_now()
        assert schedule.next_run() > schedule._clock.now()  # the run was recorded: the next one is ahead
        assert schedule.run_if_due() is None  # not again within the interval
        seen["schedule"] = schedule

    run(scenario)
    assert seen["schedule"]._thread is None  # terminate stopped it before closing the Memory


def test_gc_schedule_is_off_when_configured_off(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("JIYI_GC_INTERVAL_HOURS", "0")

    async def scenario(plugin: JiyiMemory, ctx: FakeContext) -> None:
        await command(make_event("mem remember 我喜欢喝乌龙茶"))
        assert plugin.holder.gc_schedule is None

    run(scenario)
