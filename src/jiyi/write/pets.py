"""A pet's death told by its name: "芝麻昨天早上没动了", "Mochi passed away last night".

A death is often said of the pet by its name with a soft word (走了, 没了, 没动了, 不在了, 去喵星了,
"passed", "crossed the rainbow bridge") that names no animal, so no lexicon of changes reads it: 走了 is
as often "left". What makes it a loss is whose name it is. When the clause opens with the name the
user gave a pet in an active memory of theirs (用户的垂耳兔叫芝麻, "User's cat is named Mochi"), the
statement is a loss of that pet: the write path closes the memory and the turns that name it, as it
does for "狗没了".
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from jiyi.records import MemoryRecord, Status
from jiyi.text import topics
from jiyi.text.language import detect_language

_P = re.compile
#: the soft words of a death, said after a pet's name (走了 is as often "left": only a pet's name makes it a death)
_ZH_DEATH = (r"走了|没了|没动了|不动了|不在了|去世了|过世了|死了|离开了|离开我们了|去了?(?:喵星|汪星|天堂)|"
             r"回(?:喵星|汪星)|过了?彩虹桥|没挺过[去来]|没熬过[去来]|没救过来|睡过去了")
_EN_DEATH = (r"passed\s+away|passed(?!\s+(?:the|a|an|his|her|its|my|our|their)\b)|died|didn'?t\s+make\s+it|is\s+gone|"
             r"'s\s+gone|crossed\s+the\s+rainbow\s+bridge|went\s+over\s+the\s+rainbow\s+bridge|is\s+no\s+longer\s+with\s+us")
#: the name, time words between, then the death: 芝麻昨天早上没动了, 豆豆今天凌晨走了
_ZH_GONE = _P(r"^(?:[今昨前]天|[今昨]晚|早上|早晨|凌晨|晚上|上午|下午|中午|半夜|夜里|上周\S?|周[一二三四五六日天]|"
              r"\d{4}年|\d{1,2}月|\d{1,2}[日号]|\d{1,2}[点:：]\d{0,2}|还是|终于|已经|最后|刚刚|刚|也|就|在\S{1,6}?[里上])*"
              rf"(?:{_ZH_DEATH})")
_EN_GONE = _P(rf"(?i)^\W*(?:\w+\W+){{0,3}}?(?:{_EN_DEATH})\b")
#: any of those words anywhere (the cheap test before a store is read for pet names)
_ANY_GONE = _P(rf"(?i){_ZH_DEATH}|(?:{_EN_DEATH})\b")
#: what in the user's words precedes a clause of their own ("用户：", "User: ")
_LEAD = _P(r"^(?:用户|User)\s*[:：]\s*")


def mentions_a_death(text: str) -> bool:
    """Does ``text`` say any soft word of a death that :func:`pet_gone` reads (the test before pet names are looked up)?"""
    return _ANY_GONE.search(text) is not None


def pet_gone(text: str, pets: Iterable[str]) -> str | None:
    """The name among ``pets`` whose death ``text`` tells with the name first, or None."""
    said = _LEAD.sub("", text.strip())
    lang = detect_language(said)
    for name in sorted({p for p in pets if len(p) >= 2}, key=len, reverse=True):
        at = said.lower().find(name.lower())
        if at < 0 or at > 2:  # the name opens the clause (那只芝麻 / "our Mochi" at most)
            continue
        rest = said[at + len(name):]
        if (_ZH_GONE if lang == "zh" else _EN_GONE).match(rest):
            return name
    return None


def pet_names(memories: Iterable[MemoryRecord]) -> dict[str, MemoryRecord]:
    """The names the user gave their pets in active memories of the pet family (用户的垂耳兔叫芝麻 → 芝麻)."""
    out: dict[str, MemoryRecord] = {}
    for rec in memories:
        if rec.status is not Status.ACTIVE:
            continue
        lang = detect_language(rec.content)
        if "pet" in topics.families_of(rec.content, rec.slot, lang):
            out.update((n, rec) for n in topics.called(rec.content, lang) if len(n) >= 2)
    return out
