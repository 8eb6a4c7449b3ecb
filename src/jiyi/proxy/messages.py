"""Reading and rewriting OpenAI chat requests: who is asking, what they asked, where memory goes.

Pure functions over the JSON body; nothing here touches the network or the store.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from jiyi.read.recent import MAX_RECENT_CHARS

USER_HEADER = "x-jiyi-user"
TEXT_PARTS = ("text", "input_text", "output_text")
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
    if isinstance(content, list):  # chat's "text" parts, the Responses API's "input_text" / "output_text"
        parts = [p.get("text", "") for p in content if isinstance(p, Mapping) and p.get("type") in TEXT_PARTS]
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


#: How many of the conversation's previous messages recall reads besides the question.
RECENT_TURNS = 8


def recent_turns(messages: Any, limit: int = RECENT_TURNS) -> list[dict[str, str]]:
    """The user and assistant messages before the last user message, oldest first, the last
    ``limit`` of them, as ``recent`` for recall (text parts only, each cut to recall's limit)."""
    if not isinstance(messages, list):
        return []
    last = max((i for i, m in enumerate(messages) if isinstance(m, Mapping) and m.get("role") == "user"), default=0)
    out = []
    for msg in messages[:last]:
        if isinstance(msg, Mapping) and msg.get("role") in ("user", "assistant"):
            text = text_of(msg.get("content"))
            if text:
                out.append({"role": str(msg["role"]), "content": text[:MAX_RECENT_CHARS]})
    return out[-limit:] if limit > 0 else []


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


# ---- the Responses API (POST /v1/responses) -------------------------------------------------


def input_items(body: Mapping[str, Any]) -> list[dict[str, Any]]:
    """A Responses request's ``input`` as message items (a plain string is one user message)."""
    given = body.get("input")
    if isinstance(given, str):
        return [{"role": "user", "content": given}]
    if not isinstance(given, list):
        return []
    return [item for item in given if isinstance(item, dict) and item.get("role") in ("user", "assistant", "system",
                                                                                    "developer")
            and item.get("type", "message") == "message"]


def inject_instructions(body: Mapping[str, Any], block: str) -> dict[str, Any]:
    """``body`` with the memory ``block`` in front of its ``instructions`` (the Responses API's system prompt)."""
    given = body.get("instructions")
    return {**body, "instructions": f"{block}\n\n{given}" if isinstance(given, str) and given else block}


def response_text(body: Any) -> str:
    """The assistant text of a non-streamed Responses answer (its ``output_text`` parts)."""
    if not isinstance(body, Mapping) or not isinstance(body.get("output"), list):
        return ""
    texts = [text_of(item.get("content")) for item in body["output"]
             if isinstance(item, Mapping) and item.get("type") == "message"]
    return "\n".join(t for t in texts if t).strip()
