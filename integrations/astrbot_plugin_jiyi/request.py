"""How the memory block enters an LLM request, and which requests count as tool calls."""

from __future__ import annotations

from typing import Any

from astrbot.api.provider import ProviderRequest
from astrbot.core.agent.message import TextPart

TOOLS_NOTE = "（以上记忆仅供参考；需要工具时照常调用工具。）"
GLOBAL_HEAD = "以下是本机器人对所有用户都适用的共享信息："


#: Tools that do not make a request "a tool call": this plugin's own memory tools and the two AstrBot
#: offers in every request (4.29: ``send_message_to_user``, ``future_task``). Only other tools (web
#: search, MCP, other plugins') get the tighter memory block, or every default setup would.
QUIET_TOOLS = frozenset({"search_long_term_memory", "remember_long_term_memory", "forget_long_term_memory",
                         "send_message_to_user", "future_task"})


def other_tools(tools: Any) -> list[str]:
    """The names of the request's tools that are neither the plugin's nor AstrBot's always-on ones."""
    names = getattr(tools, "names", None)
    if not callable(names):
        return []
    return [n for n in names() if n not in QUIET_TOOLS]


def inject(req: ProviderRequest, block: str, where: str) -> None:
    """Put the memory block in the request: a temporary user content part (default) or the system prompt."""
    if where == "system_prompt":
        req.system_prompt = f"{req.system_prompt}\n\n{block}" if req.system_prompt else block
    else:
        req.extra_user_content_parts.append(TextPart(text=block).mark_as_temp())
