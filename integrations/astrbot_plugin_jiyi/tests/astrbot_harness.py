"""Drive the plugin the way AstrBot does, with AstrBot's own classes.

Events are real ``AstrMessageEvent`` objects; hooks run through AstrBot's
``call_event_hook``; commands go through the registered ``CommandFilter`` /
``PermissionTypeFilter`` objects (as the waking stage applies them) and
``call_handler``. The plugin is bound to its handlers exactly as the star manager binds
a loaded plugin. Only the ``Context`` is a stand-in: building AstrBot's needs the whole
core (database, provider manager, platforms).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from typing import Any

import astrbot.api.message_components as Comp
from astrbot.core.pipeline.context_utils import call_event_hook, call_handler
from astrbot.core.platform import (
    AstrBotMessage,
    AstrMessageEvent,
    MessageMember,
    MessageType,
    PlatformMetadata,
)
from astrbot.core.provider.entities import LLMResponse, ProviderRequest
from astrbot.core.star.filter.command_group import CommandGroupFilter
from astrbot.core.star.filter.permission import PermissionTypeFilter
from astrbot.core.star.star import star_map
from astrbot.core.star.star_handler import EventType, star_handlers_registry

MODULE = "astrbot_plugin_jiyi.main"


def make_event(text: str, *, sender: str = "10001", name: str = "Alice", group: str | None = None,
               platform: str = "qq1", admin: bool = False, images: bool = False,
               adapter: str = "aiocqhttp") -> AstrMessageEvent:
    """A message as the ``adapter`` (aiocqhttp by default) would build it."""
    msg = AstrBotMessage()
    msg.type = MessageType.GROUP_MESSAGE if group else MessageType.FRIEND_MESSAGE
    msg.self_id = "bot"
    msg.session_id = group or sender
    msg.message_id = f"m-{abs(hash((text, sender))) % 10**8}"
    msg.group_id = group or ""
    msg.sender = MessageMember(sender, name)
    chain: list[Any] = [Comp.Plain(text)]
    if images:
        chain.append(Comp.Image.fromBase64("iVBORw0KGgo" * 50))
    msg.message = chain
    msg.message_str = text
    msg.raw_message = None
    event = AstrMessageEvent(text, msg, PlatformMetadata(name=adapter, description="", id=platform),
                             msg.session_id)
    event.is_at_or_wake_command = True
    if admin:
        event.role = "admin"
    return event


class FakeEmbeddingProvider:
    """Duck-typed AstrBot ``EmbeddingProvider``: bag-of-characters vectors, counts its calls."""

    def __init__(self, provider_id: str = "emb1", dim: int = 64) -> None:
        self.provider_config = {"id": provider_id, "embedding_model": "fake-embed"}
        self.dim = dim
        self.calls = 0

    def get_dim(self) -> int:
        return self.dim

    def _vec(self, text: str) -> list[float]:
        v = [0.0] * self.dim
        for ch in text:
            v[ord(ch) % self.dim] += 1.0
        return v if any(v) else [1.0] + [0.0] * (self.dim - 1)

    async def get_embedding(self, text: str) -> list[float]:
        self.calls += 1
        return self._vec(text)

    async def get_embeddings(self, texts: list[str]) -> list[list[float]]:
        self.calls += 1
        return [self._vec(t) for t in texts]


class FakeChatProvider:
    def __init__(self, provider_id: str = "chat1") -> None:
        self.provider_config = {"id": provider_id}


@dataclass
class FakeContext:
    """Stand-in for ``astrbot.core.star.context.Context`` with the provider lookups the plugin uses."""

    embedding: list[FakeEmbeddingProvider] = field(default_factory=list)
    chat: list[FakeChatProvider] = field(default_factory=list)
    replies: list[str] = field(default_factory=list)
    prompts: list[dict[str, Any]] = field(default_factory=list)

    def get_provider_by_id(self, pid: str) -> Any:
        return next((p for p in [*self.embedding, *self.chat] if p.provider_config["id"] == pid), None)

    def get_all_embedding_providers(self) -> list[Any]:
        return list(self.embedding)

    def get_all_providers(self) -> list[Any]:
        return list(self.chat)

    def get_config(self, umo: str | None = None) -> dict[str, Any]:
        return {}

    async def llm_generate(self, *, chat_provider_id: str, prompt: str | None = None, **kw: Any) -> LLMResponse:
        self.prompts.append({"provider": chat_provider_id, "prompt": prompt, **kw})
        return LLMResponse("assistant", completion_text=self.replies.pop(0) if self.replies else "{}")


def load_plugin(context: FakeContext, config: dict[str, Any]) -> Any:
    """Instantiate the plugin and bind its handlers as ``PluginManager.load`` does."""
    from astrbot_plugin_jiyi.main import JiyiMemory

    plugin = JiyiMemory(context, config)  # type: ignore[arg-type]  # AstrBotConfig is a dict subclass
    meta = star_map[MODULE]
    meta.star_cls, meta.activated, meta.name = plugin, True, "astrbot_plugin_jiyi"
    for handler in star_handlers_registry.get_handlers_by_module_name(MODULE):
        raw = handler.handler.func if isinstance(handler.handler, functools.partial) else handler.handler
        handler.handler = functools.partial(raw, plugin)
    return plugin


async def llm_turn(event: AstrMessageEvent, reply: str, *, contexts: list[dict[str, Any]] | None = None,
                   persona: str | None = None, streaming: bool = False) -> ProviderRequest:
    """One LLM round as the agent runner fires it: request hook, response hook, after-sent hook.

    ``streaming``: as AstrBot's RespondStage does for a streamed reply, which returns before
    firing ``OnAfterMessageSentEvent``.
    """
    req = ProviderRequest(prompt=event.message_str, contexts=list(contexts or []), system_prompt="你是助手。")
    if persona is not None:
        from astrbot.core.db.po import Conversation

        req.conversation = Conversation(platform_id=event.get_platform_id(), user_id=event.unified_msg_origin,
                                        cid="conv-1", persona_id=persona)
    await call_event_hook(event, EventType.OnLLMRequestEvent, req)
    await call_event_hook(event, EventType.OnLLMResponseEvent, LLMResponse("assistant", completion_text=reply))
    if not streaming:
        await call_event_hook(event, EventType.OnAfterMessageSentEvent)
    return req


async def command(event: AstrMessageEvent) -> list[str]:
    """Dispatch a command message to the plugin's handlers; the plain texts it answered.

    ``["<denied>"]`` when a permission filter refused the sender.
    """
    cfg: dict[str, Any] = {}
    out: list[str] = []
    for handler in star_handlers_registry.get_handlers_by_event_type(EventType.AdapterMessageEvent):
        if handler.handler_module_path != MODULE or not handler.event_filters:
            continue
        passed, denied = True, False
        for flt in handler.event_filters:
            if isinstance(flt, PermissionTypeFilter):
                denied = denied or not flt.filter(event, cfg)  # type: ignore[arg-type]
            elif not flt.filter(event, cfg):  # type: ignore[arg-type]
                passed = False
                break
        params = event.get_extra("parsed_params") or {}
        event._extras.pop("parsed_params", None)
        if not passed or any(isinstance(f, CommandGroupFilter) for f in handler.event_filters):
            continue
        if denied:
            return ["<denied>"]
        async for _ in call_handler(event, handler.handler, **params):
            result = event.get_result()
            if result is not None:
                out.append(result.get_plain_text())
    return out

