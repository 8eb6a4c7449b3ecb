"""jiyi (记忆) long-term memory for AstrBot, a drop-in replacement for Mnemosyne.

- recall in ``on_llm_request``, bounded by ``recall_timeout`` (a slow or failed recall never
  breaks the chat), injected as a temporary extra user content part: not saved to history,
  safe for provider prefix caching; ``injection = system_prompt`` is the alternative slot;
- the finished turn is recorded in the background as soon as the model's final answer is
  known (``on_llm_response``, which AstrBot fires for streamed replies too, while its
  streaming branch returns before ``after_message_sent``); ``after_message_sent`` records a
  turn that got no response event and handles ``/reset`` and ``/new`` (a new short-term window);
- jiyi is imported when AstrBot imports this module, so a missing jiyi makes AstrBot install
  ``requirements.txt``; when that fails too, the plugin loads after a restart and ``/mem``
  answers with the install command (``install.py``);
- every message belongs to its speaker (scope ``user`` / ``session`` / ``persona``);
- ``/mem list|search|show|remember|stats`` for everyone, ``/mem forget|delete|export|
  reembed|import_mnemosyne`` for admins.
"""

from __future__ import annotations

import asyncio
import json
import re
import time
from collections.abc import AsyncIterator, Coroutine
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from astrbot.api import AstrBotConfig, logger
from astrbot.api.event import AstrMessageEvent, filter
from astrbot.api.provider import LLMResponse, ProviderRequest
from astrbot.api.star import Context, Star
from astrbot.core.agent.message import TextPart

from .content import clean_text
from .install import forget_attempt, let_astrbot_install, missing_hint
from .mnemosyne import MigrationReport, read_jsonl_rows, read_milvus_rows, rows_to_records
from .scopes import Speaker, normalize_persona, owner_id, speaker_name
from .store import MemoryHolder, SessionEpochs, plugin_data_dir

TURN_KEY = "jiyi_turn"
REPLY_KEY = "jiyi_reply"
RESET_KEY = "_clean_group_context_session"  # set by AstrBot's builtin /reset and /new
PAGE = 10
NAMELESS_PLATFORMS = frozenset({"webchat"})  # the sender is the dashboard account, not a person's nickname

try:
    import jiyi  # noqa: F401 - importing here is what makes AstrBot install requirements.txt
except ModuleNotFoundError as exc:
    if exc.name != "jiyi" or let_astrbot_install():
        raise
    JIYI_MISSING = True
    logger.error("jiyi is not installed in AstrBot's Python; /mem answers with the command to install it")
else:
    JIYI_MISSING = False
    forget_attempt()


@dataclass(frozen=True, slots=True)
class Turn:
    """What ``on_llm_request`` learned, kept on the event until the reply is sent."""

    owner: str
    session_id: str
    text: str
    name: str
    umo: str


class JiyiMemory(Star):
    """长期记忆（jiyi 记忆）。/mem list | search <内容> | show <id> | remember <内容> | stats"""

    def __init__(self, context: Context, config: AstrBotConfig | None = None) -> None:
        super().__init__(context, config)
        self.cfg: dict[str, Any] = dict(config or {})
        self.data_dir = plugin_data_dir()
        self.holder = MemoryHolder(self.cfg, context, self.data_dir)
        self.epochs = SessionEpochs(self.data_dir / "sessions.json")
        self._personas: dict[str, str] = {}
        self._tasks: set[asyncio.Task[Any]] = set()

    async def initialize(self) -> None:
        if JIYI_MISSING:
            return
        if self.cfg.get("embedding") != "astrbot" and self.cfg.get("extractor") != "astrbot":
            self._spawn(self.holder.memory())  # offline defaults need no provider: warm up now

    async def terminate(self) -> None:
        if self._tasks:
            await asyncio.wait(list(self._tasks), timeout=30)
        for task in list(self._tasks):
            task.cancel()
        await self.holder.close()

    async def wait_idle(self) -> None:
        """Wait until every turn handed to the background is stored and processed."""
        while self._tasks:
            await asyncio.wait(list(self._tasks))
        await self.holder.run("flush")

    # ---- identity --------------------------------------------------------------------------
    @property
    def scope(self) -> str:
        return str(self.cfg.get("scope") or "user")

    def _speaker(self, event: AstrMessageEvent, persona: str | None = None) -> Speaker:
        umo = event.unified_msg_origin
        if persona is not None:
            self._personas[umo] = normalize_persona(persona)
        named = event.get_platform_name() not in NAMELESS_PLATFORMS
        return Speaker(platform_id=str(event.get_platform_id()), sender_id=str(event.get_sender_id()), umo=umo,
                       name=speaker_name(event.get_sender_name(), str(event.get_sender_id())) if named else "",
                       persona=self._personas.get(umo))

    def _owner(self, event: AstrMessageEvent) -> str:
        return owner_id(self._speaker(event), self.scope)

    def _active(self, event: AstrMessageEvent) -> bool:
        if JIYI_MISSING or not self.cfg.get("enabled", True) or not event.get_sender_id():
            return False
        return event.get_platform_id() not in (self.cfg.get("platform_blacklist") or [])

    # ---- recall ------------------------------------------------------------------------------
    @filter.on_llm_request()
    async def recall(self, event: AstrMessageEvent, req: ProviderRequest) -> None:
        """Inject memories for this message; never raises, never waits past ``recall_timeout``."""
        if not self._active(event):
            return
        text = clean_text(event.message_str or req.prompt or "")
        if not text:
            return
        conversation = getattr(req, "conversation", None)
        speaker = self._speaker(event, persona=getattr(conversation, "persona_id", None) or "")
        owner = owner_id(speaker, self.scope)
        session = self.epochs.session_id(event.unified_msg_origin, getattr(conversation, "cid", None))
        event.set_extra(TURN_KEY, Turn(owner, session, text, speaker.name, speaker.umo))
        try:
            block = await asyncio.wait_for(
                self.holder.run("build_context", text, user_id=owner,
                                budget_tokens=int(self.cfg.get("budget_tokens", 600)),
                                limit=int(self.cfg.get("top_k", 8))),
                timeout=float(self.cfg.get("recall_timeout", 3.0)))
        except Exception as exc:  # noqa: BLE001 - memory must never break the chat
            logger.warning(f"jiyi recall skipped: {type(exc).__name__}: {exc}")
            return
        if block:
            inject(req, block, str(self.cfg.get("injection") or "user_message"))

    # ---- record ------------------------------------------------------------------------------
    @filter.on_llm_response()
    async def capture(self, event: AstrMessageEvent, resp: LLMResponse) -> None:
        """Record the turn with the final answer (streamed or not); after_message_sent then skips it."""
        if resp is None or resp.role != "assistant" or not resp.completion_text:
            return
        reply = clean_text(resp.completion_text)
        event.set_extra(REPLY_KEY, reply)
        self._record_turn(event, reply)

    @filter.after_message_sent()
    async def record(self, event: AstrMessageEvent) -> None:
        """``/reset`` bookkeeping, and a turn no response event recorded (fires for every reply: idempotent)."""
        if event.get_extra(RESET_KEY):
            self.epochs.bump(event.unified_msg_origin)
            event.set_extra(RESET_KEY, False)
            return
        self._record_turn(event, event.get_extra(REPLY_KEY) or "")

    def _record_turn(self, event: AstrMessageEvent, reply: str) -> None:
        turn: Turn | None = event.get_extra(TURN_KEY)
        if turn is None or not self.cfg.get("record", True):
            return
        event.set_extra(TURN_KEY, None)  # once per turn, whichever hook comes first
        self._spawn(self._store_turn(turn, reply, event.get_platform_id()))

    async def _store_turn(self, turn: Turn, reply: str, platform_id: str) -> None:
        user: dict[str, Any] = {"role": "user", "content": turn.text}
        if turn.name:
            user["name"] = turn.name
        messages: list[dict[str, Any]] = [user]
        if reply:
            messages.append({"role": "assistant", "content": reply})
        try:
            await self.holder.run("add", messages, user_id=turn.owner, session_id=turn.session_id,
                                  metadata={"source": "astrbot", "umo": turn.umo, "platform": platform_id})
        except Exception as exc:  # noqa: BLE001 - a lost write is logged, the bot goes on
            logger.warning(f"jiyi could not record a turn: {type(exc).__name__}: {exc}")

    def _spawn(self, coro: Coroutine[Any, Any, Any]) -> None:
        task = asyncio.create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    # ---- commands ----------------------------------------------------------------------------
    @filter.command_group("mem")
    def mem(self) -> None:
        """长期记忆管理"""

    @mem.command("list")
    async def mem_list(self, event: AstrMessageEvent, page: int = 1) -> AsyncIterator[Any]:
        """列出我的记忆（每页 10 条）"""
        if JIYI_MISSING:
            yield event.plain_result(missing_hint())
            return
        page = max(1, page)
        records = await self.holder.run("get_all", user_id=self._owner(event), limit=PAGE, offset=(page - 1) * PAGE)
        lines = [f"[{r.id[:8]}] ({r.kind.value}) {r.content}" for r in records]
        yield event.plain_result("\n".join([f"我的记忆 第 {page} 页：", *lines]) if lines else "（没有记忆）")

    @mem.command("search")
    async def mem_search(self, event: AstrMessageEvent) -> AsyncIterator[Any]:
        """搜索我的记忆：/mem search 内容"""
        if JIYI_MISSING:
            yield event.plain_result(missing_hint())
            return
        query = command_rest(event.message_str, "search")
        if not query:
            yield event.plain_result("用法：/mem search 内容")
            return
        hits = await self.holder.run("search", query, user_id=self._owner(event), limit=5)
        lines = [f"[{h.id[:8]}] {h.score:.2f} {h.content}" for h in hits]
        yield event.plain_result("\n".join(lines) or "（没有找到）")

    @mem.command("show")
    async def mem_show(self, event: AstrMessageEvent, memory_id: str) -> AsyncIterator[Any]:
        """查看一条记忆及其历史：/mem show <id>"""
        if JIYI_MISSING:
            yield event.plain_result(missing_hint())
            return
        owner = self._owner(event)
        rec = await self._resolve(owner, memory_id)
        if rec is None:
            yield event.plain_result(f"没有这条记忆：{memory_id}")
            return
        history = await self.holder.run("history", rec.id, user_id=owner)
        lines = [f"{rec.content}", f"id: {rec.id}", f"类型: {rec.kind.value}  状态: {rec.status.value}",
                 f"记录于: {rec.created_at:%Y-%m-%d %H:%M}  置信: {rec.confidence:.1f}"]
        lines += [f"- {h.at:%Y-%m-%d %H:%M} {h.event.value} {h.new or h.old or ''}" for h in history]
        yield event.plain_result("\n".join(lines))

    @mem.command("remember")
    async def mem_remember(self, event: AstrMessageEvent) -> AsyncIterator[Any]:
        """记住一句话：/mem remember 我对花生过敏"""
        if JIYI_MISSING:
            yield event.plain_result(missing_hint())
            return
        text = clean_text(command_rest(event.message_str, "remember"))
        if not text:
            yield event.plain_result("用法：/mem remember 要记住的内容")
            return
        rec = await self.holder.run("remember", text, user_id=self._owner(event))
        yield event.plain_result(f"记住了：{rec.content} [{rec.id[:8]}]")

    @mem.command("stats")
    async def mem_stats(self, event: AstrMessageEvent) -> AsyncIterator[Any]:
        """我的记忆统计"""
        if JIYI_MISSING:
            yield event.plain_result(missing_hint())
            return
        owner = self._owner(event)
        records = await self.holder.run("get_all", user_id=owner)
        kinds: dict[str, int] = {}
        for r in records:
            kinds[r.kind.value] = kinds.get(r.kind.value, 0) + 1
        parts = "，".join(f"{k} {n}" for k, n in sorted(kinds.items())) or "无"
        yield event.plain_result(f"用户 {owner}（范围 {self.scope}）：共 {len(records)} 条记忆（{parts}）")

    @filter.permission_type(filter.PermissionType.ADMIN)
    @mem.command("delete")
    async def mem_delete(self, event: AstrMessageEvent, memory_id: str) -> AsyncIterator[Any]:
        """删除一条记忆（管理员）：/mem delete <id>"""
        if JIYI_MISSING:
            yield event.plain_result(missing_hint())
            return
        owner = self._owner(event)
        rec = await self._resolve(owner, memory_id)
        if rec is None:
            yield event.plain_result(f"没有这条记忆：{memory_id}")
            return
        await self.holder.run("delete", rec.id, user_id=owner)
        yield event.plain_result(f"已删除：{rec.content}")

    @filter.permission_type(filter.PermissionType.ADMIN)
    @mem.command("forget")
    async def mem_forget(self, event: AstrMessageEvent, confirm: str = "") -> AsyncIterator[Any]:
        """忘记我的全部记忆（管理员）：/mem forget confirm"""
        if JIYI_MISSING:
            yield event.plain_result(missing_hint())
            return
        if confirm != "confirm":
            yield event.plain_result("这会永久删除你的全部记忆。确认请发送：/mem forget confirm")
            return
        removed = await self.holder.run("delete_all", user_id=self._owner(event))
        yield event.plain_result(f"已忘记全部记忆（{removed} 条）。")

    @filter.permission_type(filter.PermissionType.ADMIN)
    @mem.command("export")
    async def mem_export(self, event: AstrMessageEvent) -> AsyncIterator[Any]:
        """导出我的记忆为 JSONL 文件（管理员）"""
        if JIYI_MISSING:
            yield event.plain_result(missing_hint())
            return
        owner = self._owner(event)
        mem = await self.holder.memory()
        rows = await asyncio.to_thread(lambda: list(mem.export(user_id=owner)))
        safe_owner = re.sub(r"[^\w.-]+", "_", owner)
        path = self.data_dir / "exports" / f"{safe_owner}-{int(time.time())}.jsonl"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), "utf-8")
        yield event.plain_result(f"已导出 {len(rows)} 条记忆到 {path}")

    @filter.permission_type(filter.PermissionType.ADMIN)
    @mem.command("reembed")
    async def mem_reembed(self, event: AstrMessageEvent, confirm: str = "") -> AsyncIterator[Any]:
        """换嵌入模型后，用当前模型重建全部记忆的向量（管理员）：/mem reembed confirm"""
        if JIYI_MISSING:
            yield event.plain_result(missing_hint())
            return
        if confirm != "confirm":
            yield event.plain_result("这会删除全部记忆的向量，并用当前配置的嵌入模型重新计算（更换 embedding 后需要；"
                                     "文字和历史不变）。确认请发送：/mem reembed confirm")
            return
        report = await self.holder.reembed()
        yield event.plain_result(f"已用 {report.model}（{report.dim} 维）重建 {report.embedded} 条记忆的向量"
                                 f"（{report.users} 个用户）。")

    @filter.permission_type(filter.PermissionType.ADMIN)
    @mem.command("import_mnemosyne")
    async def mem_import_mnemosyne(self, event: AstrMessageEvent, source: str = "") -> AsyncIterator[Any]:
        """从 Mnemosyne 迁移（管理员）：/mem import_mnemosyne [集合名 | 导出的 .jsonl 文件]"""
        if JIYI_MISSING:
            yield event.plain_result(missing_hint())
            return
        mcfg = dict(self.cfg.get("mnemosyne") or {})
        try:
            if source.endswith((".jsonl", ".json")):
                rows = await asyncio.to_thread(read_jsonl_rows, Path(source))
            else:
                collection = source or str(mcfg.get("collection_name") or "default")
                rows = await asyncio.to_thread(read_milvus_rows, mcfg, collection)
        except (OSError, ValueError, RuntimeError) as exc:
            yield event.plain_result(f"迁移失败：{exc}")
            return
        report = MigrationReport()
        records = list(rows_to_records(rows, scope=self.scope, tenant="", report=report))
        if records:
            await self.holder.run("import_", records)
        yield event.plain_result(report.summary())

    async def _resolve(self, owner: str, memory_id: str) -> Any:
        """A memory of ``owner`` by id or by the 8-character prefix that ``/mem list`` shows."""
        memory_id = memory_id.strip()
        if len(memory_id) >= 32:
            return await self.holder.run("get", memory_id, user_id=owner)
        if len(memory_id) < 4:
            return None
        records = await self.holder.run("get_all", user_id=owner, status=None)
        found = [r for r in records if r.id.startswith(memory_id)]
        return found[0] if len(found) == 1 else None


def inject(req: ProviderRequest, block: str, where: str) -> None:
    """Put the memory block in the request: a temporary user content part (default) or the system prompt."""
    if where == "system_prompt":
        req.system_prompt = f"{req.system_prompt}\n\n{block}" if req.system_prompt else block
    else:
        req.extra_user_content_parts.append(TextPart(text=block).mark_as_temp())


def command_rest(message: str, sub: str) -> str:
    """The text after ``mem <sub>`` in a command message (free text with spaces)."""
    match = re.search(rf"(?:^|[\s/])mem\s+{re.escape(sub)}(?:\s+|$)(.*)", message or "", re.DOTALL)
    return match.group(1).strip() if match else ""
