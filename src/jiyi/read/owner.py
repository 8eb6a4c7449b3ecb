"""A memory about someone in the user's life reads with that person first.

Stored, a relative's fact names the user as its owner: "用户的妈妈有糖尿病", "User's sister Mia
is a nurse". Rendered that way, the line opens with 用户 / User, the word every other line
about the user opens with, and a reader who skims (a model, or a rule looking for what the
user has) can take the condition for the user's own. In the block the person leads and the
owner follows in brackets:

- "用户的妈妈有糖尿病" → "妈妈有糖尿病（用户的妈妈）"
- "用户的姐温苒在绍兴当护士" → "姐温苒在绍兴当护士（用户的姐）"
- "User's sister Mia is a nurse" → "Sister Mia is a nurse (the user's sister)"

Only people lead this way. A pet's line ("用户的猫叫团子") stays the user's: the user has the
cat. The stored text never changes.
"""

from __future__ import annotations

import re

from jiyi.text.relations import MORE_KIN_ZH, REL_EN, REL_ZH, alternation

_PEOPLE_ZH = alternation([*(w for w, (_, gender) in REL_ZH.items() if gender != "p"), *MORE_KIN_ZH])
_PEOPLE_EN = alternation([w for w, (_, gender) in REL_EN.items() if gender != "p" and not w.endswith("'s")])
#: 用户的 or a counter (用户那个…), a few words that describe them (大学, 新), then who they are
_OWNED_ZH = re.compile(rf"^用户(?:(?:的|家的|家)(?:(?:那|这)?(?:只|位|个))?|(?:那|这)(?:位|个))"
                       rf"(?P<desc>[\u4e00-\u9fff]{{0,4}}?)(?P<rel>{_PEOPLE_ZH})(?P<rest>.+)$")
_OWNED_EN = re.compile(rf"^(?:the )?user's (?P<rel>{_PEOPLE_EN})\b(?P<rest>.+)$", re.IGNORECASE)
#: the relation word going on into another word: 用户的朋友圈, 用户的同学会, 用户的哥们, 用户的妹子
_ZH_WORD_GOES_ON = re.compile(r"^[们子圈会娘]")


def _owned(text: str) -> re.Match[str] | None:
    """The match of ``text`` opening with the user's relative (Chinese first), or None."""
    m = _OWNED_ZH.match(text)
    if m and not _ZH_WORD_GOES_ON.match(m.group("rest")):
        return m
    return _OWNED_EN.match(text)


def owned_by(text: str) -> tuple[str, str] | None:
    """The user's relative a stored memory opens with and what it says of them ("用户的婆婆回连江了" → (婆婆,
    回连江了)), or None."""
    if (m := _owned(text)) is None:
        return None
    return (m.group("rel"), m.group("rest")) if m.re is _OWNED_ZH else (m.group("rel").lower(), m.group("rest").strip())


def person_first(text: str) -> str:
    """``text`` led by the person it is about, when it opens with the user's relative; else unchanged."""
    if (m := _owned(text)) is None:
        return text
    rel = m.group("rel")
    if m.re is _OWNED_ZH:
        return f"{m.group('desc')}{rel}{m.group('rest')}（用户的{rel}）"
    return f"{rel[:1].upper()}{rel[1:]}{m.group('rest')} (the user's {rel.lower()})"
