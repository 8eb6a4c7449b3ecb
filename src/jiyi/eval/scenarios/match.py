"""Matching expectations against a block or a list of hits.

Text is compared forgivingly: Unicode NFKC (full-width ``ＡＢＣ１２３，`` becomes ``ABC123,``),
case folded, and all whitespace removed from both sides, so ``"Peanut  allergy"`` finds
``peanut allergy`` and ``"花生 过敏"`` finds ``花生过敏``. Regular expressions search the
NFKC + case-folded text with its whitespace kept. A date needle finds any common rendering
of that calendar day (``2026-12-09``, ``2026/12/9``, ``12月9日``, ``12月9号``, ``Dec 9``,
``9 December``); a year, when written, must be the right one.

"Marked past": an ``exclude`` with ``unless_marked_past`` tolerates its text on a line the
block clearly presents as no longer current: a line under a heading that names the past
(``## 已过期`` / ``## 过去的事`` / ``## Past`` / ``Outdated:``), or a line carrying such a marker in
brackets (``(已结束)``, ``[past]``, ``（已过期，2026-10-03）``). The block's general header ("past
memories that may be outdated") is not a heading and marks nothing. In hits, a hit is
marked past when its ``valid_until`` or ``expires_at`` is before the probe's moment.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, datetime

from jiyi.eval.scenarios.format import Group, Needle

PAST_MARKERS = (
    "过去", "过往", "以往", "已过去", "以前", "曾经", "已过期", "过期", "已结束", "结束了", "已失效", "失效", "已过时", "过时", "已取消",
    "不再", "历史", "已完成",
    "past", "outdated", "expired", "no longer", "former", "previous", "earlier", "ended", "superseded",
    "cancelled", "canceled", "history",
)
_WS = re.compile(r"\s+")
_BULLET = re.compile(r"^\s*(?:[-*•·]|\d+[.)、])\s")
_HEADING_MAX = 40
_MONTHS_EN = ("january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
              "november", "december")


def normalize(text: str) -> str:
    """NFKC, case folded, whitespace removed: what text needles are compared on."""
    return _WS.sub("", unicodedata.normalize("NFKC", text).casefold())


def _soft(text: str) -> str:
    """NFKC and case folded, whitespace kept: what regex and date needles search."""
    return unicodedata.normalize("NFKC", text).casefold()


def found(needle: Needle, text: str) -> bool:
    if needle.regex is not None:
        return re.search(needle.regex, _soft(text)) is not None
    if needle.date is not None:
        return date_found(needle.date, _soft(text))
    assert needle.text is not None
    return normalize(needle.text) in normalize(text)


def group_found(group: Group, text: str) -> bool:
    return any(found(n, text) for n in group)


def describe_group(group: Group) -> str:
    return " | ".join(n.describe() for n in group)


def date_found(day: date, text: str) -> bool:
    """``day`` in any common rendering; a written year must match."""
    m, d, y = day.month, day.day, day.year
    patterns = (
        rf"(?<!\d)(?:(\d{{4}})\s*[-/.]\s*)?0?{m}\s*[-/.]\s*0?{d}(?!\d)",
        rf"(?<!\d)(?:(\d{{4}})\s*年\s*)?0?{m}\s*月\s*0?{d}\s*[日号]",
        rf"\b(?:{_MONTHS_EN[m - 1]}|{_MONTHS_EN[m - 1][:3]})\.?\s*0?{d}(?:st|nd|rd|th)?(?!\d)(?:,?\s*(\d{{4}}))?",
        rf"(?<!\d)0?{d}(?:st|nd|rd|th)?\s+(?:of\s+)?(?:{_MONTHS_EN[m - 1]}|{_MONTHS_EN[m - 1][:3]})\b\.?(?:,?\s*(\d{{4}}))?",
    )
    for pat in patterns:
        for hit in re.finditer(pat, text):
            year = hit.group(1)
            if year is None or int(year) == y:
                return True
    return False


@dataclass(slots=True, frozen=True)
class BlockLine:
    text: str
    past: bool


def is_past_text(text: str, markers: Sequence[str]) -> bool:
    t = _soft(text)
    return any(m in t for m in markers)


def _is_heading(line: str) -> bool:
    s = line.strip()
    if not s or _BULLET.match(line) or len(s) > _HEADING_MAX:
        return False
    return s.startswith("#") or s.endswith((":", "：")) or (s[0] in "[【" and s[-1] in "]】")


_BRACKETED = re.compile(r"[(（\[【]([^()（）\[\]【】]*)[)）\]】]")


def block_lines(block: str, extra_markers: Sequence[str] = ()) -> list[BlockLine]:
    """The block's lines, each flagged when it is clearly presented as past (see the module notes)."""
    markers = tuple(m.casefold() for m in (*PAST_MARKERS, *extra_markers))
    out: list[BlockLine] = []
    in_past = False
    for line in block.splitlines():
        if _is_heading(line):
            in_past = is_past_text(line, markers)
            out.append(BlockLine(line, in_past))
            continue
        inline = any(is_past_text(b, markers) for b in _BRACKETED.findall(line))
        out.append(BlockLine(line, in_past or inline))
    return out


def excluded_in_block(needles: Group, block: str, unless_marked_past: bool, extra_markers: Sequence[str] = ()) -> str:
    """The offending line, or "" when the block is clean of ``needles``."""
    if not unless_marked_past:
        return next((ln for ln in block.splitlines() if group_found(needles, ln)), "") or (
            block if group_found(needles, block) else "")
    for line in block_lines(block, extra_markers):
        if not line.past and group_found(needles, line.text):
            return line.text
    return ""


_TAG = re.compile(r"<\s*/?\s*([A-Za-z_][\w-]*)[^<>]*>")
_ROLE_TAGS = frozenset({"system", "assistant", "user", "developer", "tool", "instructions", "memories", "memory",
                        "context", "im_start", "im_end"})
_SPECIAL_TOKEN = re.compile(r"<\|[^|<>]{1,40}\|>")
#: A line of the block speaking as the system: never a memory's label, bulleted or not.
_SYSTEM_LINE = re.compile(r"^\s*(?:#+\s*)?(?:system|developer|系统)\s*[:：]", re.IGNORECASE)
#: A chat turn outside the block's bullets (a newline in stored text broke out of its line).
_TURN_LINE = re.compile(r"^\s*(?:#+\s*)?(?:assistant|user|human|ai)\s*[:：]", re.IGNORECASE)


def malformed(block: str) -> str:
    """Why the raw block is not well formed (markers forged, closed early, roles faked), or "".

    Checked on the raw text (no normalisation): an escaped ``&lt;system&gt;`` or a full-width
    ``＜system＞`` is neutralised text; a literal ``<system>`` is not. A bullet may carry a
    speaker label (``- assistant: 好的``); a line may not speak as the system (``- SYSTEM: …``,
    ``###system:``), and an unbulleted ``assistant:`` / ``user:`` line is a forged turn.
    """
    lines = [ln for ln in block.splitlines() if ln.strip()]
    if not lines:
        return ""
    first = re.fullmatch(r"\s*<([A-Za-z_][\w-]*)>\s*", lines[0])
    if not first:
        return f"the block does not open with a marker line: {lines[0][:60]!r}"
    name = first.group(1)
    if lines[-1].strip() != f"</{name}>":
        return f"the block does not end with </{name}>: {lines[-1][:60]!r}"
    for ln in lines[1:-1]:
        for tag in _TAG.finditer(ln):
            if tag.group(1).lower() in _ROLE_TAGS or tag.group(1).lower() == name.lower():
                return f"a marker inside the block: {tag.group(0)!r} in {ln[:80]!r}"
        if _SPECIAL_TOKEN.search(ln):
            return f"a chat-template token inside the block: {ln[:80]!r}"
        if _SYSTEM_LINE.match(_BULLET.sub("", ln, count=1)) or (not _BULLET.match(ln) and _TURN_LINE.match(ln)):
            return f"a line posing as a role: {ln[:80]!r}"
    return ""


def hit_is_past(valid_until: datetime | None, expires_at: datetime | None, at: datetime) -> bool:
    return any(t is not None and t < at for t in (valid_until, expires_at))
