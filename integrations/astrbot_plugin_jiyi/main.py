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
- every message belongs to its speaker (scope ``user`` / ``session`` / ``persona``), after
  identity aliases (``/mem link``, aliases.py); a ``global`` scope holds shared facts for the
  whole bot (admin-written, recalled for everyone);
- LLM tools (tools.py): search, remember and forget the speaker's own memories, forget only
  after the user confirms in words; with tools in the request the block gets a tighter budget
  (``tools_budget_tokens``) so small models keep calling tools;
- ``/mem list|search|show|remember|stats|delete|forget|link|unlink|panel`` for everyone (on
  their own memories); ``/mem global`` writes, ``export|reembed|import_mnemosyne|
  import_livingmemory|forget_user`` and other people's data are for admins.
"""

from __future__ import annotations

import asyncio
import hashlib
import re
from collections.abc import AsyncIterator, Coroutine
from dataclasses import dataclass
from typing import Any

from astrbot.api import AstrBotConfig, logger
from astrbot.api.event import AstrMessageEvent, filter
from astrbot.api.provider import LLMResponse, ProviderRequest
from astrbot.api.star import Context, Star

from .aliases import AliasBook
from .content import clean_text, command_rest, recent_turns
from .install import forget_attempt, let_astrbot_install, missing_hint
from .livingmemory import platform_map
from .migrate import export_jsonl, import_livingmemory, import_mnemosyne
from .panel import ALL, LinkServer, PanelData, Signer, register_pages
from .request import GLOBAL_HEAD, TOOLS_NOTE, inject, other_tools
from .scopes import GLOBAL_OWNER, Speaker, normalize_persona, owner_id, speaker_name
from .store import MemoryHolder, SessionEpochs, plugin_data_dir
from .tools import ASKED_KEY, ForgetGate, hit_lines, to_forget

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
        self.aliases = AliasBook(self.data_dir / "aliases.json")
        self.forgets = ForgetGate()
        self.panel = PanelData(self.holder.run)
        self._link_server: LinkServer | None = None
        self._personas: dict[str, str] = {}
        self._windows: dict[str, dict[str, str]] = {}  # umo → owner → jiyi session of the current window
        self._tasks: set[asyncio.Task[Any]] = set()

    async def initialize(self) -> None:
        if JIYI_MISSING:
            return
        if register_pages(self.context, self.panel):
            logger.info("jiyi: the memory page is in the dashboard (插件 → jiyi 记忆 → 页面)")
        if self.cfg.get("embedding") != "astrbot" and self.cfg.get("extractor") != "astrbot":
            self._spawn(self.holder.memory())  # offline defaults need no provider: warm up now

    async def terminate(self) -> None:
        if self._tasks:
            await asyncio.wait(list(self._tasks), timeout=30)
        for task in list(self._tasks):
            task.cancel()
        if self._link_server is not None:
            await self._link_server.stop()
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

    @staticmethod
    def _person(event: AstrMessageEvent) -> str:
        """The account that sent ``event``: ``platform_id:sender_id`` (before aliases)."""
        return f"{event.get_platform_id()}:{event.get_sender_id()}"

    def _speaker(self, event: AstrMessageEvent, persona: str | None = None) -> Speaker:
        umo = event.unified_msg_origin
        if persona is not None:
            self._personas[umo] = normalize_persona(persona)
        named = event.get_platform_name() not in NAMELESS_PLATFORMS
        platform_id, _, sender_id = self.aliases.canonical(self._person(event)).partition(":")
        return Speaker(platform_id=platform_id, sender_id=sender_id, umo=umo,
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
        self._windows.setdefault(speaker.umo, {})[owner] = session
        with_tools = bool(other_tools(getattr(req, "func_tool", None)))
        budget = int(self.cfg.get("budget_tokens", 600))
        if with_tools:  # a long block makes small (MoE) models stop calling tools (LivingMemory #98)
            budget = min(budget, int(self.cfg.get("tools_budget_tokens", 250)))
        # the conversation so far: a follow-up ("那家店叫什么来着？") names nothing, its previous turns do
        recent = recent_turns(getattr(req, "contexts", None), int(self.cfg.get("recent_turns", 6)))
        try:
            block = await asyncio.wait_for(self._recall_block(text, owner, budget, recent),
                                           timeout=float(self.cfg.get("recall_timeout", 3.0)))
        except Exception as exc:  # noqa: BLE001 - memory must never break the chat
            logger.warning(f"jiyi recall skipped: {type(exc).__name__}: {exc}")
            return
        if block:
            if with_tools:
                head, _, tail = block.rpartition("</memories>")
                block = f"{head}{TOOLS_NOTE}\n</memories>{tail}"
            inject(req, block, str(self.cfg.get("injection") or "user_message"))

    async def _recall_block(self, text: str, owner: str, budget: int, recent: list[dict[str, str]]) -> str:
        """The speaker's memories for ``text`` (read with the conversation's ``recent`` turns), then
        the bot's shared (global) facts that match."""
        block = await self.holder.run("build_context", text, user_id=owner, budget_tokens=budget,
                                      limit=int(self.cfg.get("top_k", 8)), recent=recent or None)
        if not self.cfg.get("global_memory", True):
            return str(block or "")
        shared = await self.holder.run("search", text, user_id=GLOBAL_OWNER, limit=int(self.cfg.get("global_top_k", 3)),
                                       recent=recent or None)
        if not shared:
            return str(block or "")
        from jiyi.read.sanitize import neutralise  # the block's one rule for inert memory lines

        lines = "\n".join(f"- {neutralise(h.content)}" for h in shared)
        extra = f"<memories>\n{GLOBAL_HEAD}\n{lines}\n</memories>"
        return f"{block}\n{extra}" if block else extra

    # ---- LLM tools ---------------------------------------------------------------------------
    @filter.llm_tool(name="search_long_term_memory")
    async def tool_search(self, event: AstrMessageEvent, query: str) -> str:
        """Search the long-term memory about the user you are talking to (facts, preferences, plans, past conversations). Use it when the answer may depend on something the user said before and it is not in the prompt.

        Args:
            query(string): what to look for, in the user's language
        """
        if not self._tools_on(event):
            return "长期记忆不可用。"
        hits = await self.holder.run("search", clean_text(query), user_id=self._owner(event),
                                     limit=int(self.cfg.get("top_k", 8)))
        return hit_lines(hits) or "（没有找到相关记忆）"

    @filter.llm_tool(name="remember_long_term_memory")
    async def tool_remember(self, event: AstrMessageEvent, content: str) -> str:
        """Store one lasting fact, preference or plan about the user you are talking to, in one sentence from the user's point of view (e.g. "我对花生过敏"). Only for things the user wants remembered or that will matter later; never secrets.

        Args:
            content(string): the sentence to remember
        """
        if not self._tools_on(event):
            return "长期记忆不可用。"
        text = clean_text(content)
        if not text:
            return "没有可记住的内容。"
        rec = await self.holder.run("remember", text, user_id=self._owner(event))
        return f"已记住：{rec.content} [{rec.id[:8]}]"

    @filter.llm_tool(name="forget_long_term_memory")
    async def tool_forget(self, event: AstrMessageEvent, query: str, confirmed: bool = False) -> str:
        """Delete memories about the user you are talking to. First call it with the description only: it returns what would be deleted and deletes nothing; read that back to the user and ask them to confirm. Only after the user says yes in their next message, call it again with confirmed=true.

        Args:
            query(string): which memories to forget (a description or the 8-character id)
            confirmed(boolean): true only when the user's latest message confirmed the deletion
        """
        if not self._tools_on(event):
            return "长期记忆不可用。"
        owner = self._owner(event)
        if confirmed:
            pending, why = self.forgets.take(owner, event.message_str or "", same_turn=bool(event.get_extra(ASKED_KEY)))
            if pending is None:
                return why
            deleted = []
            for memory_id, content in zip(pending.ids, pending.contents):
                if await self.holder.run("get", memory_id, user_id=owner) is not None:
                    await self.holder.run("delete", memory_id, user_id=owner)
                    deleted.append(content)
            return "已删除：" + "；".join(deleted) if deleted else "这些记忆已经不在了，什么都没有删。"
        found = await self._matching(owner, query)
        if not found:
            return "没有找到要删除的记忆，什么都没有删。"
        self.forgets.ask(owner, found)
        event.set_extra(ASKED_KEY, True)
        listed = "\n".join(f"- {r.content}" for r in found)
        return (f"尚未删除。找到以下记忆：\n{listed}\n请把它们念给用户，问用户是否确认删除；"
                "只有用户在下一条消息里明确说确认后，才用 confirmed=true 再调用一次。")

    async def _matching(self, owner: str, query: str) -> list[Any]:
        """The memories ``query`` names: an id prefix, else those its best search hits name (tools.to_forget)."""
        query = clean_text(query)
        rec = await self._resolve(owner, query) if re.fullmatch(r"[0-9a-fA-F-]{4,64}", query or "") else None
        if rec is not None:
            return [rec]
        return to_forget(await self.holder.run("search", query, user_id=owner, limit=6))

    def _tools_on(self, event: AstrMessageEvent) -> bool:
        return self._active(event) and bool(self.cfg.get("tools", True))

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
            for owner, session in self._windows.pop(event.unified_msg_origin, {}).items():
                self._spawn(self._end_window(owner, session))
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

    async def _end_window(self, owner: str, session: str) -> None:
        """The window ``/reset`` closed: what is pending is extracted and the window summarised."""
        try:
            await self.holder.run("end_session", user_id=owner, session_id=session)
        except Exception as exc:  # noqa: BLE001 - a lost summary is logged, the bot goes on
            logger.warning(f"jiyi could not close a session: {type(exc).__name__}: {exc}")

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

    @mem.command("delete")
    async def mem_delete(self, event: AstrMessageEvent, memory_id: str, user: str = "") -> AsyncIterator[Any]:
        """删除我的一条记忆：/mem delete <id>（管理员可删别人的：/mem delete <id> <用户>）"""
        if JIYI_MISSING:
            yield event.plain_result(missing_hint())
            return
        owner = self._owner(event)
        if user:
            if not event.is_admin():
                yield event.plain_result("只有管理员可以删除别人的记忆。")
                return
            owner = GLOBAL_OWNER if user == "global" else user
        rec = await self._resolve(owner, memory_id)
        if rec is None:
            yield event.plain_result(f"没有这条记忆：{memory_id}")
            return
        await self.holder.run("delete", rec.id, user_id=owner)
        yield event.plain_result(f"已删除：{rec.content}")

    @mem.command("forget")
    async def mem_forget(self, event: AstrMessageEvent, confirm: str = "") -> AsyncIterator[Any]:
        """忘记关于我的全部记忆：/mem forget confirm"""
        if JIYI_MISSING:
            yield event.plain_result(missing_hint())
            return
        if confirm != "confirm":
            yield event.plain_result("这会永久删除关于你的全部记忆。确认请发送：/mem forget confirm")
            return
        removed = await self.holder.run("delete_all", user_id=self._owner(event))
        yield event.plain_result(f"已忘记关于你的全部记忆（{removed} 条）。")

    @filter.permission_type(filter.PermissionType.ADMIN)
    @mem.command("forget_user")
    async def mem_forget_user(self, event: AstrMessageEvent, user: str, confirm: str = "") -> AsyncIterator[Any]:
        """忘记某个用户的全部记忆（管理员）：/mem forget_user <用户> confirm"""
        if JIYI_MISSING:
            yield event.plain_result(missing_hint())
            return
        if confirm != "confirm":
            yield event.plain_result(f"这会永久删除 {user} 的全部记忆。确认请发送：/mem forget_user {user} confirm")
            return
        removed = await self.holder.run("delete_all", user_id=GLOBAL_OWNER if user == "global" else user)
        yield event.plain_result(f"已忘记 {user} 的全部记忆（{removed} 条）。")

    @mem.command("global")
    async def mem_global(self, event: AstrMessageEvent) -> AsyncIterator[Any]:
        """全局记忆（对所有人生效）：/mem global 列出；/mem global <内容> 写入（管理员）"""
        if JIYI_MISSING:
            yield event.plain_result(missing_hint())
            return
        text = clean_text(command_rest(event.message_str, "global"))
        if not text:
            records = await self.holder.run("get_all", user_id=GLOBAL_OWNER, limit=50)
            lines = [f"[{r.id[:8]}] {r.content}" for r in records]
            yield event.plain_result("\n".join(["全局记忆：", *lines]) if lines else "（没有全局记忆）")
            return
        if not event.is_admin():
            yield event.plain_result("只有管理员可以写入全局记忆。")
            return
        rec = await self.holder.run("remember", text, user_id=GLOBAL_OWNER)
        yield event.plain_result(f"已写入全局记忆：{rec.content} [{rec.id[:8]}]")

    @mem.command("link")
    async def mem_link(self, event: AstrMessageEvent, code: str = "", target: str = "") -> AsyncIterator[Any]:
        """把另一个账号链接为同一个人：/mem link 取得验证码，在另一个账号发送 /mem link <验证码>"""
        if JIYI_MISSING:
            yield event.plain_result(missing_hint())
            return
        person = self._person(event)
        if target:  # /mem link <account> <target account>: an admin links two accounts directly
            if not event.is_admin():
                yield event.plain_result("只有管理员可以直接链接两个账号；请用验证码方式。")
                return
            yield event.plain_result(await self._link(code, target))
            return
        if not code:
            issued = self.aliases.issue(person)
            yield event.plain_result(f"请在 10 分钟内用你的另一个账号发送：/mem link {issued}\n"
                                     f"（那个账号的记忆会并入 {self.aliases.canonical(person)}）")
            return
        canonical = self.aliases.redeem(code, person)
        if canonical is None:
            yield event.plain_result("验证码无效或已过期。请在原账号重新发送 /mem link 获取。")
            return
        yield event.plain_result(await self._merged(person, canonical))

    async def _link(self, person: str, target: str) -> str:
        try:
            canonical = self.aliases.link(person, target)
        except ValueError as exc:
            return str(exc)
        return await self._merged(person, canonical)

    async def _merged(self, person: str, canonical: str) -> str:
        """Move ``person``'s own memories (scope user) to ``canonical``; the answer to send."""
        moved = 0
        if self.scope == "user" and person != canonical:
            mem = await self.holder.memory()
            rows = await asyncio.to_thread(lambda: list(mem.export(user_id=person)))
            for row in rows:
                row.pop("history", None)  # its events name the old id; the import writes a fresh ADD
                row["user_id"] = canonical
                digest = hashlib.sha1(f"{row['id']}|{canonical}".encode()).hexdigest()[:24]
                row["id"] = f"link-{digest}"
            if rows:
                await self.holder.run("import_", rows)
                await self.holder.run("delete_all", user_id=person)
            moved = len(rows)
        return f"已链接：{person} 与 {canonical} 现在是同一个人（并入 {moved} 条记忆）。"

    @mem.command("panel")
    async def mem_panel(self, event: AstrMessageEvent, which: str = "") -> AsyncIterator[Any]:
        """我的记忆面板链接（1 小时有效）：/mem panel；管理员 /mem panel all 管理所有人的记忆"""
        if JIYI_MISSING:
            yield event.plain_result(missing_hint())
            return
        if which == "all" and not event.is_admin():
            yield event.plain_result("只有管理员可以打开所有人的记忆面板。")
            return
        port = int(self.cfg.get("panel_port") or 0)
        if port <= 0:
            yield event.plain_result("记忆面板链接未开启：管理员可在插件配置里设置 panel_port（和对外地址 panel_url）。"
                                     "管理员也可以在 AstrBot 管理面板的插件页面里打开 jiyi 记忆。")
            return
        if self._link_server is None:
            server = LinkServer(self.panel, Signer(self.data_dir / "panel.key"),
                                str(self.cfg.get("panel_host") or "127.0.0.1"), port)
            try:
                await server.start()
            except OSError as exc:  # the port is taken, or the host is not this machine's
                yield event.plain_result(f"记忆面板无法在 {server.host}:{port} 上启动：{exc}。请管理员换一个 panel_port。")
                return
            self._link_server = server
        token = self._link_server.signer.sign(ALL if which == "all" else self._owner(event))
        base = str(self.cfg.get("panel_url") or f"http://{self._link_server.host}:{self._link_server.port}").rstrip("/")
        yield event.plain_result(f"你的记忆面板（1 小时内有效，请勿转发）：{base}/?t={token}")

    @mem.command("unlink")
    async def mem_unlink(self, event: AstrMessageEvent) -> AsyncIterator[Any]:
        """取消本账号的链接（记忆留在原来的身份下）：/mem unlink"""
        was = self.aliases.unlink(self._person(event))
        yield event.plain_result(f"已取消链接（原来链接到 {was}）。" if was else "这个账号没有链接到别的账号。")

    @filter.permission_type(filter.PermissionType.ADMIN)
    @mem.command("export")
    async def mem_export(self, event: AstrMessageEvent) -> AsyncIterator[Any]:
        """导出我的记忆为 JSONL 文件（管理员）"""
        if JIYI_MISSING:
            yield event.plain_result(missing_hint())
            return
        yield event.plain_result(await export_jsonl(self.holder, self._owner(event), self.data_dir))

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
        yield event.plain_result(await import_mnemosyne(self.holder, dict(self.cfg.get("mnemosyne") or {}),
                                                        self.scope, source))

    @filter.permission_type(filter.PermissionType.ADMIN)
    @mem.command("import_livingmemory")
    async def mem_import_livingmemory(self, event: AstrMessageEvent, source: str = "") -> AsyncIterator[Any]:
        """从 LivingMemory 迁移（管理员）：/mem import_livingmemory [livingmemory.db 路径]"""
        if JIYI_MISSING:
            yield event.plain_result(missing_hint())
            return
        platforms = platform_map(self.cfg.get("livingmemory_platform_ids"))
        yield event.plain_result(await import_livingmemory(self.holder, self.data_dir, self.scope, platforms, source))

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
