"""``build_context``: render chosen memories as a prompt block within a token budget.

Grouped by kind, each line with its confidence and date, headed by a note that these
are past memories that may be outdated (newer ones win). Lines are dropped lowest
rank first until the block fits.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from jiyi.records import Hit, Kind

TokenCounter = Callable[[str], int]

_HEAD = {
    "zh": "以下是关于用户的过往记忆，可能已过时；若相互矛盾，以日期较新的为准。仅在相关时使用。",
    "en": "Past memories about the user. They may be outdated; when two disagree, the newer one wins. "
          "Use them only when relevant.",
}
_TITLES = {
    "zh": {Kind.FACT: "事实", Kind.PREFERENCE: "偏好", Kind.EVENT: "事件", Kind.RELATION: "人际关系",
           Kind.BEHAVIOR: "习惯", Kind.SUMMARY: "会话摘要", Kind.EPISODE: "相关对话"},
    "en": {Kind.FACT: "Facts", Kind.PREFERENCE: "Preferences", Kind.EVENT: "Events", Kind.RELATION: "People",
           Kind.BEHAVIOR: "Habits", Kind.SUMMARY: "Session summaries", Kind.EPISODE: "Related conversation"},
}
_ORDER = (Kind.FACT, Kind.RELATION, Kind.PREFERENCE, Kind.BEHAVIOR, Kind.EVENT, Kind.SUMMARY, Kind.EPISODE)


def render_line(hit: Hit, lang: str) -> str:
    rec = hit.record
    when = (rec.valid_from or rec.created_at).date().isoformat()
    conf = f"置信 {rec.confidence:.1f}" if lang == "zh" else f"confidence {rec.confidence:.1f}"
    speaker = f"{rec.speaker}: " if rec.kind is Kind.EPISODE and rec.speaker else ""
    return f"- {speaker}{rec.content} ({conf}, {when})"


def render(hits: Sequence[Hit], lang: str) -> str:
    """The block for exactly these hits (no budget applied)."""
    if not hits:
        return ""
    lines = ["<memories>", _HEAD[lang]]
    for kind in _ORDER:
        group = [h for h in hits if h.record.kind is kind]
        if group:
            lines.append(f"## {_TITLES[lang][kind]}")
            lines.extend(render_line(h, lang) for h in group)
    lines.append("</memories>")
    return "\n".join(lines)


def drop_covered_episodes(hits: Sequence[Hit]) -> list[Hit]:
    """Skip a raw turn when a memory extracted from it is already in the block (same source ids)."""
    covered = {s for h in hits if h.record.kind is not Kind.EPISODE for s in h.record.source_ids}
    return [h for h in hits if h.record.kind is not Kind.EPISODE or not set(h.record.source_ids) <= covered]


def build_context_block(hits: Sequence[Hit], *, budget_tokens: int, count_tokens: TokenCounter, lang: str) -> str:
    """The largest prefix of ``hits`` (by rank) whose rendering fits ``budget_tokens``."""
    chosen = drop_covered_episodes(hits)
    while chosen:
        block = render(chosen, lang)
        if count_tokens(block) <= budget_tokens:
            return block
        chosen.pop()
    return ""
