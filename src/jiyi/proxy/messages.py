"""Reading and rewriting OpenAI chat requests: who is asking, what they asked, where memory goes.

Pure functions over the JSON body; nothing here touches the network or the store.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

USER_HEADER = "x-jiyi-user"
SESSION_HEADER = "x-jiyi-session"


def pick_user(body: Mapping[str, Any], headers: Mapping[str, str]) -> str | None:
    """The memory owner: the ``X-Jiyi-User`` header, else the request's ``user`` field, else None.

    Returned as sent, never trimmed: the caller checks it with the one user-id rule
    (:func:`jiyi.userid.user_id_problem`), so ``" alice"`` is refused rather than made ``alice``.
    An empty value counts as absent.
    """
    for value in (headers.get(USER_HEADER), body.get("user")):
        if isinstance(value, str) and value != "":
            return value
    return None


def pick_session(headers: Mapping[str, str]) -> str | None:
    value = headers.get(SESSION_HEADER)
    return value.strip() if value and value.strip() else None


def text_of(content: Any) -> str:
    """The text of a message's content: a string, or the text parts of a multimodal list.

    Images, audio and files are dropped, so a base64 picture never reaches the memory store.
    """
    if isinstance(content, str):
        return content.strip()
    if isinstance(content, list):
        parts = [p.get("text", "") for p in content if isinstance(p, Mapping) and p.get("type") == "text"]
        return "\n".join(t for t in parts if isinstance(t, str) and t.strip()).strip()
    return ""


def last_user_text(messages: Any) -> str:
    """Text of the last ``user`` message ("" when there is none or it has no text)."""
    if not isinstance(messages, list):
        return ""
    for msg in reversed(messages):
        if isinstance(msg, Mapping) and msg.get("role") == "user":
            return text_of(msg.get("content"))
    return ""


def inject_context(messages: list[dict[str, Any]], block: str) -> list[dict[str, Any]]:
    """``messages`` with the memory ``block`` prepended to the first system message, or, when the
    conversation has no leading system message, inserted as a new one at the top.

    Chat templates of several open models (Mistral, Gemma) refuse a system message anywhere but
    first, so the block never goes mid-conversation. The input list is not modified.
    """
    out = copy.deepcopy(messages)
    if out and isinstance(out[0], dict) and out[0].get("role") == "system":
        first = out[0]
        content = first.get("content")
        if isinstance(content, list):
            first["content"] = [{"type": "text", "text": block}, *content]
        else:
            first["content"] = f"{block}\n\n{content}" if content else block
        return out
    return [{"role": "system", "content": block}, *out]
