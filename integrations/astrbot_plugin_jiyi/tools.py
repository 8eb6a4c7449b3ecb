"""What the LLM tools say, and the spoken confirmation ``forget`` needs before it deletes.

The model may search, store and forget the current speaker's memories (never anyone
else's: the owner is the speaker under the plugin's scope). Forgetting is two steps: the
first call only finds what matches and asks the model to read it back to the user; the
second call deletes only when it comes in a *later* message of the same person, that
message says yes in words (是 / 对 / 确认 / 删吧 / yes / sure …) and does not say no, and the
pending request is at most ``CONFIRM_TTL`` seconds old. A model that calls ``confirmed=true``
on its own in the same turn deletes nothing.
"""

from __future__ import annotations

import re
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

CONFIRM_TTL = 300.0
ASKED_KEY = "jiyi_forget_asked"  # set on the event of the turn that asked; a confirmation must come later

_YES = re.compile(r"(是的?|对的?|确认|确定|删吧|删掉|删除吧|删了吧|可以|好的?|行|嗯|没错|忘了吧|忘掉吧"
                  r"|\byes\b|\byep\b|\bsure\b|\bok(ay)?\b|\bconfirm(ed)?\b|\bgo ahead\b|\bdo it\b|\bplease do\b)",
                  re.IGNORECASE)
_NO = re.compile(r"(不要|不用|别删|别|不是|不对|不行|算了|取消|等等|\bno\b|\bnope\b|\bdon'?t\b|\bcancel\b|\bwait\b|\bstop\b)",
                 re.IGNORECASE)


def says_yes(text: str) -> bool:
    """The message confirms in words (and does not also refuse)."""
    return bool(_YES.search(text or "")) and not _NO.search(text or "")


@dataclass(frozen=True, slots=True)
class PendingForget:
    ids: tuple[str, ...]
    contents: tuple[str, ...]
    at: float


class ForgetGate:
    """Pending ``forget`` requests, one per owner."""

    def __init__(self) -> None:
        self._pending: dict[str, PendingForget] = {}

    def ask(self, owner: str, records: Sequence[Any]) -> PendingForget:
        pending = PendingForget(tuple(r.id for r in records), tuple(r.content for r in records), time.monotonic())
        self._pending[owner] = pending
        return pending

    def take(self, owner: str, message: str, *, same_turn: bool) -> tuple[PendingForget | None, str]:
        """The confirmed request (removed), or None and why not."""
        pending = self._pending.get(owner)
        if pending is None or time.monotonic() - pending.at > CONFIRM_TTL:
            self._pending.pop(owner, None)
            return None, "没有待确认的删除请求：先不带 confirmed 调用一次，把要删除的内容告诉用户。"
        if same_turn:
            return None, ("还没有删除：必须先把上面的内容告诉用户，等用户在下一条消息里明确说“确认删除”后，"
                          "再用 confirmed=true 调用。")
        if not says_yes(message):
            self._pending.pop(owner, None)
            return None, "用户没有明确确认，已取消删除，什么都没有删。"
        return self._pending.pop(owner), ""


def hit_lines(hits: Sequence[Any]) -> str:
    """Search results for the model: id prefix, date and content, one per line."""
    lines = []
    for h in hits:
        rec = getattr(h, "record", h)
        when = (rec.valid_from or rec.created_at).date().isoformat()
        label = "最近" if rec.id.startswith("buffer:") else rec.id[:8]  # said just now, not stored yet
        lines.append(f"- [{label}] ({rec.kind.value}, {when}) {rec.content}")
    return "\n".join(lines)


BUFFERED = "buffer:"  # search hits from the short-term buffer (read/buffered.py), not stored memories
FORGET_CLOSE = 0.9  # a second search hit is forgotten with the first only when it scores at least this share of it


def to_forget(hits: Sequence[Any]) -> list[Any]:
    """What a forget request's search ``hits`` name: stored memories first, the best one and those about as
    good (:data:`FORGET_CLOSE`), the conversation turns that said them (their sources, or a turn containing
    the sentence) and what was extracted from those turns; only when no memory matches, the best turns.
    Messages not stored yet are never offered."""
    hits = [h for h in hits if not h.id.startswith(BUFFERED)]  # a message not stored yet is no memory to delete
    memories = [h for h in hits if h.kind.value != "episode"]
    turns = [h for h in hits if h.kind.value == "episode"]
    pool = memories or turns
    if not pool:
        return []
    chosen = [h.record for h in pool if h.score >= pool[0].score * FORGET_CLOSE]
    if memories:
        sources = {s for r in chosen for s in r.source_ids}
        said = [t.record for t in turns
                if t.id in sources or set(t.source_ids) & sources or any(r.content in t.content for r in chosen)]
        # and what was extracted from those turns (the same thing, said again)
        keys = {k for t in said for k in (t.id, *t.source_ids)}
        chosen += [m.record for m in memories if m.record not in chosen and set(m.source_ids) & keys] + said
    return chosen
