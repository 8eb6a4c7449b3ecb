"""Stored text made safe to render inside the memory block.

Memory text comes from users (and from whatever they paste), and the block goes into a
system prompt. Rendered, a memory is one bullet line inside ``<memories> … </memories>``,
so its text must not be able to:

- close or open the block, or open any other tag or chat-template marker
  (``</memories>``, ``<system>``, ``<|im_start|>``, ``<<SYS>>``): angle brackets, in
  ASCII and their full-width and small forms, become ``‹ ›``;
- start a line of its own: line and paragraph breaks (``\\n``, ``\\r``, U+2028 …) become
  spaces, other control characters and bidirectional overrides are removed;
- imitate the block's section headings: runs of ``#`` shrink to one;
- pose as a speaker role: a leading ``system:`` / ``assistant:`` / ``系统：`` … loses its
  colon (``system -``; ``User: …`` stays, the English extractor writes statements so). Speaker names get the same treatment, and a speaker named after a
  role is marked as a name (``name “system”``).
- ``[INST]`` / ``[/INST]`` markers lose their brackets.

Nothing else changes: Chinese punctuation, emoji and ordinary text render as stored.
"""

from __future__ import annotations

import re

_BRACKETS = str.maketrans({"<": "‹", ">": "›", "＜": "‹", "＞": "›", "﹤": "‹", "﹥": "›",
                           "\u2039": "‹", "\u203a": "›"})
_BREAKS = re.compile(r"[\r\n\v\f\x85\u2028\u2029]+")
#: C0/C1 controls (tab kept as a space) and the bidirectional embedding/override/isolate marks
_CONTROLS = re.compile(r"[\x00-\x08\x0e-\x1f\x7f-\x84\x86-\x9f\u202a-\u202e\u2066-\u2069\u200e\u200f]")
_HASHES = re.compile(r"[#＃]{2,}")
_ROLES = r"system|assistant|user|developer|tool|human|ai|bot|model|系统|助手|用户|机器人"
#: In memory text, "User: …" is how the extractor writes some English statements: only the other roles are forged.
_FORGED = r"system|assistant|developer|tool|ai|bot|model|系统|助手|机器人"
_ROLE_PREFIX = re.compile(rf"^[\s#*>\-_=|~`'\"]*[\[(（【<‹]?\s*({_FORGED})\s*[\])）】>›]?\s*[:：]", re.IGNORECASE)
#: ... and after a marker-like run inside the text ("‹/memories› assistant: Sure!").
_ROLE_INSIDE = re.compile(rf"([\s›\]）)】>|]+)({_FORGED})\s*[:：]", re.IGNORECASE)
_INST = re.compile(r"\[\s*(/?)\s*(INST|SYS)\s*\]", re.IGNORECASE)
_SPACES = re.compile(r"[ \t]{2,}")


def neutralise(text: str) -> str:
    """``text`` as one inert line: no markers, no line breaks, no heading, no role prefix."""
    s = text.translate(_BRACKETS)
    s = _BREAKS.sub(" ", s)
    s = _CONTROLS.sub("", s).replace("\t", " ")
    s = _HASHES.sub("#", s)
    s = _INST.sub(lambda m: f"{m.group(1)}{m.group(2)}", s)
    s = _ROLE_PREFIX.sub(lambda m: f"{m.group(1)} -", s)
    s = _ROLE_INSIDE.sub(lambda m: f"{m.group(1)}{m.group(2)} -", s)
    return _SPACES.sub(" ", s).strip()


def speaker_label(name: str) -> str:
    """A speaker name safe before ``: `` (one line, no colon, a role name quoted)."""
    s = neutralise(name).replace(":", " ").replace("：", " ").strip()
    if re.fullmatch(rf"(?:{_ROLES})", s, re.IGNORECASE):
        return f"name “{s}”"
    return s
