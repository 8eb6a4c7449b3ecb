"""What the rules build: :class:`Clause` (a piece of a message) and :class:`Draft` (a memory in the making).

A draft becomes one or more :class:`~jiyi.extractors.protocol.Candidate` objects at the
end (:mod:`.extractor`); until then stages may still edit it (a correction swaps its
value through ``template``, 记住 raises its importance).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from jiyi.records import Kind, Visibility
from jiyi.write.timeparse import TimeSpan

#: longest content of one candidate; longer drafts are split on sentence boundaries
MAX_CHARS = 200
N, S = Visibility.NORMAL, Visibility.SENSITIVE


@dataclass(slots=True)
class Draft:
    """A candidate being built; ``template`` (with ``{v}``) lets a correction reuse it."""

    kind: Kind
    content: str
    slot: str | None = None
    values: list[str] = field(default_factory=list)
    importance: float = 0.5
    confidence: float = 0.85
    visibility: Visibility = N
    valid_from: datetime | None = None
    valid_until: datetime | None = None
    expires_at: datetime | None = None
    template: str | None = None
    source: str = ""
    source_at: int = 0
    ends: list[str] = field(default_factory=list)  # other slots this statement ends (分手 → the partner slots)
    ends_mention: str | None = None  # 戒了咖啡: also ends slot-less habits that name 咖啡
    ends_person: bool = False  # the mention is a person (我和阿强分手了): their events and relations end too


@dataclass(slots=True)
class Clause:
    """One clause of a message, with its subject and the time spans inside it."""

    text: str
    start: int
    end: int
    sentence: int
    subject: str = "self"  # self | rel | bot | other
    rel: str | None = None
    rel_name: str | None = None
    body: str = ""
    spans: list[TimeSpan] = field(default_factory=list)
    consumed: bool = False
    question: bool = False
    inherited: bool = False  # no subject of its own: continues the previous clause
    person: str | None = None  # subject "other" named at the clause's start (小明住在杭州 / "Maya lives in Berlin")


def fact(content: str, slot: str | None, value: str, *, kind: Kind = Kind.FACT, importance: float = 0.6,
         confidence: float = 0.9, visibility: Visibility = N, template: str | None = None) -> Draft:
    """A draft whose ``value`` (if any) is kept as an entity."""
    return Draft(kind, content, slot, [value] if value else [], importance, confidence, visibility,
                 template=template)


def templated(template: str, slot: str, value: str, *, kind: Kind = Kind.FACT, importance: float = 0.6,
              visibility: Visibility = N) -> Draft:
    """A single-valued fact whose ``template`` can restate it with a corrected value."""
    return fact(template.format(v=value), slot, value, kind=kind, importance=importance, visibility=visibility,
                template=template)


def drop_lead(content: str, lang: str) -> str:
    """A statement without its subject, to follow another about the same one (用户住在滨江 → 住在滨江)."""
    if lang == "zh":
        return content.removeprefix("用户")
    return content.removeprefix("User ")


def merge_slots(drafts: list[Draft], lang: str) -> list[Draft]:
    """One draft per slot per message: style requests are joined, facts keep the last value."""
    out: list[Draft] = []
    by_slot: dict[str, Draft] = {}
    for d in drafts:
        if d.slot is None:
            if all(d.content != o.content for o in out):
                out.append(d)
            continue
        if d.slot not in by_slot:
            by_slot[d.slot] = d
            out.append(d)
            continue
        first = by_slot[d.slot]
        if d.slot.startswith(("style/", "contact/")) and d.content != first.content:
            prefix = "用户要求助手" if lang == "zh" else ""
            addition = d.content.removeprefix(prefix) if prefix else d.content
            first.content = first.content + ("；" if lang == "zh" else "; ") + addition
        elif d.slot.startswith("user/city") and d.values and d.values[0] not in first.content and first.values:
            first.content += ("，" if lang == "zh" else ", ") + drop_lead(d.content, lang)  # 搬到杭州了，住在滨江
            first.values = [*first.values, *d.values]
        elif d.content != first.content:
            out[out.index(first)] = d
            by_slot[d.slot] = d
    return out
