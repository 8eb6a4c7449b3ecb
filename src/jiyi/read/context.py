"""``build_context``: render chosen memories as a prompt block within a token budget.

The block, in order: a note that these are past memories that may be outdated (newer ones
win); the **profile** (standing facts, :mod:`jiyi.read.profile`) within its own share of
the budget; the memories the query found, grouped by kind; then, under a heading that says
so, lapsed ones (:mod:`jiyi.read.curate`). Each line carries its confidence and its date
in the user's time zone. Lines are added in priority order (profile, found, past) while
the block fits; a budget too small for the note gets a compact one, so that the most
important line still gets through.

Every piece of stored text goes through :func:`jiyi.read.sanitize.neutralise`: a memory
is always exactly one bullet line and cannot close or open the block or fake a role.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timezone, tzinfo

from jiyi.read.gate import zone_of
from jiyi.read.noise import without_chatter
from jiyi.read.owner import person_first
from jiyi.read.sanitize import neutralise, speaker_label
from jiyi.read.timewords import plan_passed, resolve_time_words
from jiyi.records import Hit, Kind, MemoryRecord
from jiyi.text.ended import OVER_KEY
from jiyi.text.language import detect_language
from jiyi.text.smalltalk import without_decoration

TokenCounter = Callable[[str], int]

#: The profile's share of the budget (its best line gets in whatever the share).
PROFILE_SHARE = 0.3

_HEAD = {
    "zh": "以下是关于用户的过往记忆，可能已过时；若相互矛盾，以日期较新的为准。仅在相关时使用。",
    "en": "Past memories about the user. They may be outdated; when two disagree, the newer one wins. "
          "Use them only when relevant.",
}
_SHORT_HEAD = {"zh": "过往记忆（可能过时，新的为准）", "en": "Past memories (may be outdated; newer wins)"}
_TITLES = {
    "zh": {Kind.FACT: "事实", Kind.PREFERENCE: "偏好", Kind.EVENT: "事件", Kind.RELATION: "人际关系",
           Kind.BEHAVIOR: "习惯", Kind.SUMMARY: "会话摘要", Kind.EPISODE: "相关对话"},
    "en": {Kind.FACT: "Facts", Kind.PREFERENCE: "Preferences", Kind.EVENT: "Events", Kind.RELATION: "People",
           Kind.BEHAVIOR: "Habits", Kind.SUMMARY: "Session summaries", Kind.EPISODE: "Related conversation"},
}
_PROFILE_TITLE = {"zh": "用户档案（长期有效）", "en": "Profile (standing facts)"}
_PAST_TITLE = {"zh": "已经过去（不是当前情况）", "en": "Past (no longer current)"}
_GROUP_TITLE = {"zh": "群聊里的其他人（不是用户本人）", "en": "Others in the user's group chats (not the user)"}
_ORDER = (Kind.FACT, Kind.RELATION, Kind.PREFERENCE, Kind.BEHAVIOR, Kind.EVENT, Kind.SUMMARY, Kind.EPISODE)


@dataclass(slots=True)
class Block:
    """What a block may show, each part in priority order."""

    found: list[Hit] = field(default_factory=list)
    profile: list[Hit] = field(default_factory=list)
    past: list[Hit] = field(default_factory=list)
    group: list[Hit] = field(default_factory=list)  # other members' standing facts (jiyi.read.group)

    def __bool__(self) -> bool:
        return bool(self.found or self.profile or self.past or self.group)


def render_line(hit: Hit, lang: str, tz: tzinfo = timezone.utc, at: datetime | None = None) -> str:
    """``- [speaker: ]content (confidence, local date)``, one inert line (a turn's relative days resolved, and,
    when ``at`` is given, a plan it told for days now over said to be past)."""
    rec = hit.record
    said = rec.valid_from or rec.created_at
    tz = zone_of(rec, tz)  # a turn typed in Vancouver: its 明天 and its date by the speaker's clock
    when = said.astimezone(tz).date().isoformat()
    conf = f"置信 {rec.confidence:.1f}" if lang == "zh" else f"confidence {rec.confidence:.1f}"
    speaker = f"{speaker_label(rec.speaker)}: " if rec.kind is Kind.EPISODE and rec.speaker else ""
    text, over = rec.content, ""
    if rec.kind is Kind.EPISODE:  # a turn's 明天 / tomorrow meant the day after it was said, not after today
        text = resolve_time_words(without_chatter(without_decoration(text)), said, lang=detect_language(text), tz=tz,
                                  at=at)
        if at is not None and plan_passed(rec.content, said, at, tz=tz):
            over = _PLAN_PAST[lang]  # "下个月中旬还要带全家去阳江", read in November: that trip is behind the user
    else:  # small talk the extractor kept at a memory's ends ("…好累，晚安") is no part of it
        text = without_chatter(person_first(text))
    return f"- {speaker}{neutralise(text)} ({conf}, {when}{_no_longer(rec, lang)}{over})"


_PLAN_PAST = {"zh": "；其中的安排已过去", "en": "; the plan it tells is past"}


def _no_longer(rec: MemoryRecord, lang: str) -> str:
    """What a turn or a memory of a change says is over, as a bot should read it (奶茶铺那份不做了 → "；已不再：奶茶铺",
    "从银行跳到…" → "；已不再：银行"): it tells the change, and the old thing in its words is not current."""
    over = [neutralise(t) for t in rec.metadata.get(OVER_KEY) or () if isinstance(t, str)]
    if not over:
        return ""
    return f"；已不再：{'、'.join(over)}" if lang == "zh" else f"; no longer: {', '.join(over)}"


def render(hits: Sequence[Hit], lang: str, *, tz: tzinfo = timezone.utc, profile: Sequence[Hit] = (),
           past: Sequence[Hit] = (), group: Sequence[Hit] = (), compact: bool = False, at: datetime | None = None) -> str:
    """The block for exactly these memories (no budget applied)."""
    if not (hits or profile or past or group):
        return ""
    lines = ["<memories>", (_SHORT_HEAD if compact else _HEAD)[lang]]
    if compact:  # a tiny budget: one list, most important first, no section titles
        lines.extend(render_line(h, lang, tz, at) for h in [*profile, *hits])
    else:
        if profile:
            lines.append(f"## {_PROFILE_TITLE[lang]}")
            lines.extend(render_line(h, lang, tz, at) for h in profile)
        for kind in _ORDER:
            of_kind = [h for h in hits if h.record.kind is kind]
            if of_kind:
                lines.append(f"## {_TITLES[lang][kind]}")
                lines.extend(render_line(h, lang, tz, at) for h in of_kind)
    if past:
        lines.append(f"## {_PAST_TITLE[lang]}")
        lines.extend(render_line(h, lang, tz, at) for h in past)
    if group:
        lines.append(f"## {_GROUP_TITLE[lang]}")
        lines.extend(render_line(h, lang, tz, at) for h in group)
    lines.append("</memories>")
    return "\n".join(lines)


def drop_covered_episodes(hits: Sequence[Hit]) -> list[Hit]:
    """Skip a raw turn when a memory extracted from it is already in the block (same source ids).

    The plain rule for callers that have no store at hand; ``Memory.build_context`` uses
    :func:`jiyi.read.curate.curate`, which keeps a turn's content its memories do not restate.
    """
    covered = {s for h in hits if h.record.kind is not Kind.EPISODE for s in h.record.source_ids}
    return [h for h in hits if h.record.kind is not Kind.EPISODE or not set(h.record.source_ids) <= covered]


def build_context_block(hits: Sequence[Hit] | Block, *, budget_tokens: int, count_tokens: TokenCounter, lang: str,
                        tz: tzinfo = timezone.utc, profile_share: float = PROFILE_SHARE,
                        at: datetime | None = None) -> str:
    """The block of the most important lines that fit ``budget_tokens``.

    ``hits`` is a :class:`Block`, or a ranked list of hits (then turns restated by a memory
    among them are skipped, :func:`drop_covered_episodes`). Lines are taken in priority
    order: profile lines while they fit the profile's share (the first always may), then
    the found ones, then the past ones, each only if the whole block still fits.
    """
    block = hits if isinstance(hits, Block) else Block(found=drop_covered_episodes(hits))
    if not block:
        return ""
    first = (block.profile or block.found or block.past or block.group)[:1]
    compact = count_tokens(render(first, lang, tz=tz, at=at)) > budget_tokens
    chosen = Block()

    def fits() -> bool:
        text = render(chosen.found, lang, tz=tz, profile=chosen.profile, past=chosen.past, group=chosen.group,
                      compact=compact, at=at)
        return count_tokens(text) <= budget_tokens

    share = profile_share * budget_tokens
    used = 0
    for hit in block.profile:
        cost = count_tokens(render_line(hit, lang, tz, at))
        if chosen.profile and used + cost > share:
            continue
        chosen.profile.append(hit)
        if fits():
            used += cost
        else:
            chosen.profile.pop()
    shown = {h.id for h in chosen.profile}
    for part in ("found", "past", "group"):
        for hit in getattr(block, part):
            if hit.id in shown:  # already in the profile
                continue
            getattr(chosen, part).append(hit)
            if not fits():
                getattr(chosen, part).pop()
    if not chosen:
        return ""
    return render(chosen.found, lang, tz=tz, profile=chosen.profile, past=chosen.past, group=chosen.group,
                  compact=compact, at=at)
