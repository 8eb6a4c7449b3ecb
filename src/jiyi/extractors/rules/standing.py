"""A lasting state said in words no template knows: kept by its topic family.

The templates of :mod:`.zh` and :mod:`.en` catch the common frames ("我住在洛阳", "I work at
Deloitte"). People say the same states in many other ways: "我在重庆住", "我在一所小学教语文",
"I work at an Amazon warehouse", "I'm married to Grace", "我骑一辆雅迪电动车", "I'm dairy-free".
When no template caught a clause, :func:`standing_facts` asks what it is *about*: the topic
families of :mod:`jiyi.text.topics` (residence, employer, partner, pet, vehicle, diet, habit,
pursuit) recognise a statement by its family's frame, not by its sentence. A clause that
stands in one is kept as the user's fact, in the user's words turned to the third person,
so the profile shows it and a later change of that topic can close it.

What is not a lasting state is left alone: a clause with a time of its own (an event), a
question, a hedge ("我可能会搬"), something told as long ago, a change (the change rules
handle those), or one about someone else. The family's value, when the clause names one (a
place, an organisation, a person), becomes the slot's value, so a later statement of the
same single-valued family replaces it.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from jiyi.extractors.rules.drafts import Clause, Draft, fact
from jiyi.records import Kind
from jiyi.text import qualifiers, subjects, topics
from jiyi.text.new_value import compared

if TYPE_CHECKING:
    from jiyi.extractors.rules.message import MessageExtraction

#: a family's slot, and the entity tag whose value it holds (single-valued families only)
_SLOTS: dict[str, tuple[str, str]] = {
    "residence": ("user/city", "LOC"),
    "employer": ("user/employer", "ORG"),
    "partner": ("relation/partner", "PER"),
}
#: families whose memories stand in the profile (a habit is only findable)
_STANDING_IMPORTANCE = {"residence": 0.8, "employer": 0.8, "partner": 0.8, "diet": 0.8, "pet": 0.8,
                        "vehicle": 0.8, "pursuit": 0.8, "habit": 0.6}
#: a stay of days or weeks is a visit, not a state (我在北京住了三天 / "staying for two nights")
_SHORT_STAY = re.compile(r"[了过][一二两三四五六七八九十几半\d]+(?:天|晚|夜|周|个?星期|个?礼拜)|"
                         r"(?i:\bfor\s+(?:a|an|one|two|three|four|five|six|a\s+few|a\s+couple\s+(?:of\s+)?|\d+)\s*"
                         r"(?:days?|nights?|weeks?)\b)")
#: longest clause read as one lasting state (longer ones say several things)
_MAX_ZH, _MAX_EN = 40, 140


def standing_facts(work: MessageExtraction, c: Clause) -> list[Draft]:
    """The user's lasting state ``c`` states in its topic family's frame, or nothing."""
    lang = work.lang
    if c.subject != "self" or c.question or work.qualifying(c):
        return []
    content = work.content(c).rstrip("。.!！~～ ")
    if len(content) > (_MAX_ZH if lang == "zh" else _MAX_EN) or not subjects.about_user(content, lang):
        return []
    if (_SHORT_STAY.search(content) or qualifiers.hedged(content, lang) or qualifiers.told_long_ago(content, lang)
            or topics.change_of(content, lang)):
        return []  # a visit, a maybe, history, or a change (the change rules read those)
    family = topics.standing_family(content, lang)
    if family is None:
        return []
    slot, value = None, ""
    if family in _SLOTS:
        name, tag = _SLOTS[family]
        value = _entity(content, tag, lang)
        slot = name if value else None
        if family == "employer" and not value and (value := _entity(content, "LOC", lang)):
            slot = "user/city"  # 现在在西安打工: a city worked in is the city lived in
    kind = Kind.RELATION if family == "partner" else Kind.FACT
    return [fact(content, slot, value, kind=kind, importance=_STANDING_IMPORTANCE[family], confidence=0.75)]


def _entity(content: str, tag: str, lang: str) -> str:
    """The first entity of ``tag`` the statement names (LOC / ORG / PER), or ""."""
    if lang == "zh":
        from jiyi.text.lexical import entities

        found = entities(content).get(tag, ())
    else:
        found = topics.names(content, "en")  # (names() leaves out "User")
    return next((e for e in found if not compared(content, e)), "")  # (比厦门还烦人: no value)
