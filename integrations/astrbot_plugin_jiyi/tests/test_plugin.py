"""The plugin inside AstrBot's own event objects, hook runner and command filters."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
from astrbot.core.agent.message import TextPart
from astrbot.core.pipeline.context_utils import call_event_hook
from astrbot.core.star.star_handler import EventType
from astrbot_harness import (
    FakeChatProvider,
    FakeContext,
    FakeEmbeddingProvider,
    command,
    llm_turn,
    load_plugin,
    make_event,
)
from astrbot_plugin_jiyi.content import command_rest
from astrbot_plugin_jiyi.main import JiyiMemory

Scenario = Callable[[JiyiMemory, FakeContext], Awaitable[None]]


def run(scenario: Scenario, *, context: FakeContext | None = None, **config: Any) -> None:
    """Load the plugin as AstrBot would, run ``scenario`` in an event loop, then terminate it."""
    ctx = context or FakeContext()

    async def main() -> None:
        plugin = load_plugin(ctx, config)
        await plugin.initialize()
        try:
            await scenario(plugin, ctx)
        finally:
            await plugin.terminate()

    asyncio.run(main())


def memory_parts(req: Any) -> list[TextPart]:
    return [p for p in req.extra_user_content_parts if isinstance(p, TextPart) and "<memories>" in p.text]


async def episodes(plugin: JiyiMemory, owner: str) -> list[Any]:
    await plugin.wait_idle()
    return list(await plugin.holder.run("get_all", user_id=owner, kinds=["episode"]))


def test_recall_goes_into_a_temporary_user_part(astrbot_root: Path) -> None:
    async def scenario(plugin: JiyiMemory, ctx: FakeContext) -> None:
        assert (await command(make_event("mem remember 我对花生过敏")))[0].startswith("记住了：我对花生过敏")
        req = await llm_turn(make_event("我能吃花生酱吗？"), "最好不要。")
        parts = memory_parts(req)
        assert len(parts) == 1 and "我对花生过敏" in parts[0].text
        assert parts[0]._no_save is True  # AstrBot will not persist it to the conversation history
        assert parts[0].model_dump_for_context()["_no_save"] is True
        assert req.system_prompt == "你是助手。" and req.contexts == []  # prompt-cache prefix untouched

    run(scenario)
    assert (astrbot_root / "data" / "plugin_data" / "astrbot_plugin_jiyi" / "jiyi.db").is_file()


def test_system_prompt_slot_is_an_option() -> None:
    async def scenario(plugin: JiyiMemory, ctx: FakeContext) -> None:
        await command(make_event("mem remember 我住在杭州西湖区"))
        req = await llm_turn(make_event("杭州周末去哪玩"), "去西溪湿地。")
        assert memory_parts(req) == []
        assert req.system_prompt.startswith("你是助手。\n\n<memories>") and "我住在杭州西湖区" in req.system_prompt

    run(scenario, injection="system_prompt")


def test_the_finished_turn_is_recorded_in_the_background() -> None:
    async def scenario(plugin: JiyiMemory, ctx: FakeContext) -> None:
        event = make_event("我下周三要去北京出差 data:image/png;base64," + "iVBORw0KGgo" * 40 + " [CQ:image,file=a.jpg]")
        await llm_turn(event, "好的，祝出差顺利！![img](data:image/png;base64,AAAA)")
        await call_after_sent_again(event)  # AstrBot may fire after_message_sent more than once
        eps = await episodes(plugin, "qq1:10001")
        assert sorted(e.content for e in eps) == sorted(["我下周三要去北京出差", "好的，祝出差顺利！"])
        user = next(e for e in eps if e.metadata.get("role") == "user")
        assert user.speaker == "Alice" and user.session_id == event.unified_msg_origin
        assert user.metadata["umo"] == "qq1:FriendMessage:10001" and user.metadata["platform"] == "qq1"

    run(scenario)


async def call_after_sent_again(event: Any) -> None:
    from astrbot.core.pipeline.context_utils import call_event_hook
    from astrbot.core.star.star_handler import EventType

    await call_event_hook(event, EventType.OnAfterMessageSentEvent)


def test_a_streamed_reply_is_recorded_once() -> None:
    async def scenario(plugin: JiyiMemory, ctx: FakeContext) -> None:
        event = make_event("我女儿下个月满三岁")
        await llm_turn(event, "恭喜！三岁生日可以办个小派对。", streaming=True)  # no after_message_sent
        eps = await episodes(plugin, "qq1:10001")
        assert sorted(e.content for e in eps) == sorted(["我女儿下个月满三岁", "恭喜！三岁生日可以办个小派对。"])
        await call_after_sent_again(event)  # a later after_message_sent does not record it twice
        assert len(await episodes(plugin, "qq1:10001")) == 2
        req = await llm_turn(make_event("给我女儿准备什么生日礼物"), "积木", streaming=True)
        assert "三岁" in memory_parts(req)[0].text

    run(scenario)


def test_a_turn_without_a_response_event_is_recorded_after_sending() -> None:
    async def scenario(plugin: JiyiMemory, ctx: FakeContext) -> None:
        from astrbot.core.provider.entities import ProviderRequest

        event = make_event("我的车牌号尾号是 7")
        await call_event_hook(event, EventType.OnLLMRequestEvent, ProviderRequest(prompt=event.message_str))
        await call_event_hook(event, EventType.OnAfterMessageSentEvent)
        assert [e.content for e in await episodes(plugin, "qq1:10001")] == ["我的车牌号尾号是 7"]

    run(scenario)


@pytest.mark.parametrize("streaming", [False, True])
def test_group_messages_belong_to_their_speaker(streaming: bool) -> None:
    async def scenario(plugin: JiyiMemory, ctx: FakeContext) -> None:
        await llm_turn(make_event("我对芒果过敏", sender="A1", name="Alice", group="g1"), "记下了", streaming=streaming)
        await llm_turn(make_event("我最喜欢吃芒果", sender="B2", name="Bob", group="g1"), "芒果很好吃",
                       streaming=streaming)
        await plugin.wait_idle()
        req = await llm_turn(make_event("芒果能吃吗", sender="B2", name="Bob", group="g1"), "能", streaming=streaming)
        block = memory_parts(req)[0].text
        assert "喜欢吃芒果" in block and "过敏" not in block  # Alice's allergy is not Bob's
        req = await llm_turn(make_event("芒果能吃吗", sender="A1", name="Alice", group="g1"), "不能",
                             streaming=streaming)
        block = memory_parts(req)[0].text
        assert "过敏" in block and "喜欢吃芒果" not in block  # nor Bob's taste Alice's
        alice = await episodes(plugin, "qq1:A1")
        assert "我对芒果过敏" in [e.content for e in alice] and "我最喜欢吃芒果" not in [e.content for e in alice]
        assert {e.speaker for e in alice if e.metadata.get("role") == "user"} == {"Alice"}
        bob = await episodes(plugin, "qq1:B2")
        assert {e.speaker for e in bob if e.metadata.get("role") == "user"} == {"Bob"}

    run(scenario)


def test_webchat_dashboard_account_is_not_a_speaker_name() -> None:
    async def scenario(plugin: JiyiMemory, ctx: FakeContext) -> None:
        await llm_turn(make_event("我对花生过敏", sender="astrbot", name="astrbot", platform="webchat",
                                  adapter="webchat"), "记住了")
        user = [e for e in await episodes(plugin, "webchat:astrbot") if e.metadata.get("role") == "user"]
        assert [e.content for e in user] == ["我对花生过敏"] and not user[0].speaker

    run(scenario)


def test_user_scope_follows_a_person_from_group_to_private_chat() -> None:
    async def scenario(plugin: JiyiMemory, ctx: FakeContext) -> None:
        await llm_turn(make_event("我养了一只橘猫叫团子", sender="A1", group="g1"), "好可爱")
        await plugin.wait_idle()
        req = await llm_turn(make_event("团子最近不吃饭怎么办", sender="A1"), "带去看兽医")
        assert "橘猫叫团子" in memory_parts(req)[0].text  # the turn, or the memory extracted from it

    run(scenario)


def test_session_scope_keeps_chats_apart() -> None:
    async def scenario(plugin: JiyiMemory, ctx: FakeContext) -> None:
        await llm_turn(make_event("我养了一只橘猫叫团子", sender="A1", group="g1"), "好可爱")
        await plugin.wait_idle()
        private = await llm_turn(make_event("团子最近不吃饭怎么办", sender="A1"), "带去看兽医")
        same_group = await llm_turn(make_event("团子最近不吃饭怎么办", sender="A1", group="g1"), "带去看兽医")
        assert memory_parts(private) == [] and "团子" in memory_parts(same_group)[0].text

    run(scenario, scope="session")


def test_persona_scope_keeps_personas_apart() -> None:
    async def scenario(plugin: JiyiMemory, ctx: FakeContext) -> None:
        await llm_turn(make_event("我养的猫叫团子"), "记住啦", persona="猫娘")
        await plugin.wait_idle()
        same = await llm_turn(make_event("团子是谁"), "你的猫", persona="猫娘")
        other = await llm_turn(make_event("团子是谁"), "不知道", persona="管家")
        assert "团子" in memory_parts(same)[0].text and memory_parts(other) == []
        assert await episodes(plugin, "qq1:10001@猫娘")

    run(scenario, scope="persona")


def test_reset_starts_a_new_short_term_window() -> None:
    async def scenario(plugin: JiyiMemory, ctx: FakeContext) -> None:
        before = make_event("今天的会议改到下午三点")
        await llm_turn(before, "好的")
        reset = make_event("reset")
        reset.set_extra("_clean_group_context_session", True)  # what AstrBot's builtin /reset sets
        from astrbot.core.pipeline.context_utils import call_event_hook
        from astrbot.core.star.star_handler import EventType

        await call_event_hook(reset, EventType.OnAfterMessageSentEvent)
        await llm_turn(make_event("明天的会议取消了"), "收到")
        eps = {e.content: e.session_id for e in await episodes(plugin, "qq1:10001")}
        umo = before.unified_msg_origin
        assert eps["今天的会议改到下午三点"] == umo and eps["明天的会议取消了"] == f"{umo}#1"

    run(scenario)


def test_a_slow_recall_never_holds_the_chat() -> None:
    class Slow(FakeEmbeddingProvider):
        async def get_embedding(self, text: str) -> list[float]:
            await asyncio.sleep(5)
            return await super().get_embedding(text)

    ctx = FakeContext(embedding=[Slow()])

    async def scenario(plugin: JiyiMemory, ctx: FakeContext) -> None:
        await command(make_event("mem remember 我对花生过敏"))
        started = time.monotonic()
        req = await llm_turn(make_event("花生酱能吃吗"), "不能")
        assert time.monotonic() - started < 3 and memory_parts(req) == []

    run(scenario, context=ctx, embedding="astrbot", recall_timeout=0.5)


def test_astrbot_providers_are_found_lazily_and_used() -> None:
    ctx = FakeContext()
    ctx.replies.append(json.dumps({"memories": [{"content": "用户对花生过敏", "kind": "fact",
                                                 "importance": 0.9, "confidence": 0.9}]}))

    async def scenario(plugin: JiyiMemory, ctx: FakeContext) -> None:
        req = await llm_turn(make_event("我对花生过敏，记住"), "记住了")  # no provider loaded yet
        assert memory_parts(req) == []
        ctx.embedding.append(FakeEmbeddingProvider("emb1"))  # providers appear after AstrBot's boot
        ctx.chat.append(FakeChatProvider("chat1"))
        await llm_turn(make_event("我对花生过敏，记住"), "记住了")
        await plugin.wait_idle()
        req = await llm_turn(make_event("花生酱能吃吗"), "不能")
        assert "花生" in memory_parts(req)[0].text
        assert ctx.embedding[0].calls > 0
        assert ctx.prompts and ctx.prompts[0]["provider"] == "chat1"  # extraction asked AstrBot's model
        mem = await plugin.holder.memory()
        assert mem.store.embedding_info()[0] == "astrbot:emb1:fake-embed"

    run(scenario, context=ctx, embedding="astrbot", extractor="astrbot")


def test_member_commands() -> None:
    async def scenario(plugin: JiyiMemory, ctx: FakeContext) -> None:
        await command(make_event("mem remember 我对花生过敏"))
        await command(make_event("mem remember 我住在上海浦东"))
        await command(make_event("mem remember 我喜欢爬山", sender="B2"))
        listed = (await command(make_event("mem list")))[0]
        assert "我对花生过敏" in listed and "我住在上海浦东" in listed and "爬山" not in listed
        found = (await command(make_event("mem search 花生 酱")))[0]
        assert found.splitlines()[0].endswith("我对花生过敏")
        short = found.split("]")[0].strip("[")
        shown = (await command(make_event(f"mem show {short}")))[0]
        assert shown.startswith("我对花生过敏") and "ADD" in shown
        assert (await command(make_event("mem show zzzzzzzz")))[0].startswith("没有这条记忆")
        assert "共 2 条记忆" in (await command(make_event("mem stats")))[0]
        assert (await command(make_event("mem list 2")))[0] == "（没有记忆）"

    run(scenario)


def test_other_peoples_data_and_exports_are_admin_only(astrbot_root: Path) -> None:
    async def scenario(plugin: JiyiMemory, ctx: FakeContext) -> None:
        await command(make_event("mem remember 我对花生过敏", sender="adm"))
        await command(make_event("mem remember 我住在上海浦东", sender="adm"))
        for text in ("mem export", "mem import_mnemosyne", "mem import_livingmemory", "mem forget_user qq1:adm confirm"):
            assert await command(make_event(text)) == ["<denied>"], text
        short = (await command(make_event("mem search 花生", sender="adm")))[0].split("]")[0].strip("[")
        # someone else can neither see nor delete it, not even by naming its owner
        assert (await command(make_event(f"mem delete {short}")))[0].startswith("没有这条记忆")
        assert (await command(make_event(f"mem delete {short} qq1:adm")))[0] == "只有管理员可以删除别人的记忆。"
        assert (await command(make_event(f"mem delete {short} qq1:adm", admin=True)))[0] == "已删除：我对花生过敏"
        exported = (await command(make_event("mem export", sender="adm", admin=True)))[0]
        path = Path(exported.split("到 ")[1])
        rows = [json.loads(line) for line in path.read_text("utf-8").splitlines()]
        assert {r["content"] for r in rows} == {"我对花生过敏", "我住在上海浦东"}  # a deleted one stays in its history
        assert str(path).startswith(str(astrbot_root / "data" / "plugin_data"))
        assert "确认" in (await command(make_event("mem forget_user qq1:adm", admin=True)))[0]
        assert (await command(make_event("mem forget_user qq1:adm confirm", admin=True)))[0].startswith("已忘记 qq1:adm")
        assert (await command(make_event("mem list", sender="adm")))[0] == "（没有记忆）"

    run(scenario)


def test_anyone_deletes_their_own_memory_and_forgets_themselves() -> None:
    async def scenario(plugin: JiyiMemory, ctx: FakeContext) -> None:
        await command(make_event("mem remember 我对花生过敏"))
        await command(make_event("mem remember 我住在上海浦东"))
        await command(make_event("mem remember 我养了一只橘猫", sender="B2"))
        short = (await command(make_event("mem search 花生")))[0].split("]")[0].strip("[")
        assert (await command(make_event(f"mem delete {short}")))[0] == "已删除：我对花生过敏"
        assert "确认" in (await command(make_event("mem forget")))[0]
        assert (await command(make_event("mem forget confirm")))[0].startswith("已忘记关于你的全部记忆")
        assert (await command(make_event("mem list")))[0] == "（没有记忆）"
        assert "橘猫" in (await command(make_event("mem list", sender="B2")))[0]  # nobody else's

    run(scenario)


def test_switching_the_embedding_provider_needs_an_admin_reembed(astrbot_root: Path) -> None:
    async def before(plugin: JiyiMemory, ctx: FakeContext) -> None:
        await command(make_event("mem remember 我对花生过敏"))
        await command(make_event("mem remember 我住在上海浦东"))

    async def after(plugin: JiyiMemory, ctx: FakeContext) -> None:
        try:
            await command(make_event("mem search 花生"))
        except Exception as exc:  # noqa: BLE001 - the store still holds the old model's vectors
            assert "/mem reembed confirm" in str(exc)
        else:
            raise AssertionError("a store of another model was searched")
        assert await command(make_event("mem reembed confirm")) == ["<denied>"]
        assert "确认" in (await command(make_event("mem reembed", admin=True)))[0]
        done = (await command(make_event("mem reembed confirm", admin=True)))[0]
        assert done.startswith("已用 astrbot:emb2:fake-embed（32 维）重建 2 条"), done
        assert (await command(make_event("mem search 花生")))[0].splitlines()[0].endswith("我对花生过敏")
        mem = await plugin.holder.memory()
        assert mem.store.embedding_info() == ("astrbot:emb2:fake-embed", 32)

    run(before, context=FakeContext(embedding=[FakeEmbeddingProvider("emb1", 64)]), embedding="astrbot")
    run(after, context=FakeContext(embedding=[FakeEmbeddingProvider("emb2", 32)]), embedding="astrbot")


def test_command_rest_keeps_free_text() -> None:
    assert command_rest("mem search 花生 酱 怎么办", "search") == "花生 酱 怎么办"
    assert command_rest("/mem remember 我叫小林", "remember") == "我叫小林"
    assert command_rest("mem search", "search") == ""
    assert command_rest("mem list", "search") == ""
