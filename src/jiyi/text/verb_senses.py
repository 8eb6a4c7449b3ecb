"""When a change verb says no change, and a move said without a verb of moving.

:func:`jiyi.text.topics.change_of` reads a change from its verb; some verbs have other senses it must
tell apart, and some moves are said by what the speaker now is or where they were sent:

* 死 after a predicate says "extremely" (累死了, 冷死了), not a death (狗死了, 病死了);
* "left" with an object that is no workplace (left my umbrella) quits nothing;
* 调岗去宁波了, 被调到合肥了, 以后就是珠海人了: a move, when the lexical analyser reads the word after as a place
  (调到销售部, 以后就是打工人了 are none).
"""

from __future__ import annotations

import re

_P = re.compile

#: posted to somewhere by one's employer: 调岗去宁波了, 被调到合肥了
_ZH_POSTED = _P(r"(?:调岗|调动|调|外派|派|借调)(?:到|去|往)(?P<x>[\u4e00-\u9fff]{2,4})")
#: one of a place's people from now on: 以后就是珠海人了, 正式成为深圳人
_ZH_NOW_OF = _P(r"(?:以后|从此|从今天起|现在|正式|终于|也)(?:就|也|算)?(?:是|成了?|成为|算)(?:一个|一名|半个|个)?"
                r"(?P<x>[\u4e00-\u9fff]{2,4}?)人(?:了|啦|咯)")


def place_moved_to(text: str) -> int | None:
    """Where the place of a posting or of a new belonging starts in ``text`` (Chinese), or None."""
    m = _ZH_POSTED.search(text) or _ZH_NOW_OF.search(text)
    if m is None:
        return None
    from jiyi.text.lexical import entities

    if not any(m.group("x").startswith(loc) for loc in entities(text[m.start("x"):]).get("LOC", ())):
        return None
    return m.start("x")


def degree_complement(text: str, m: re.Match[str]) -> bool:
    """累死了 / 冷死了 / 笑死: 死 after a predicate says "extremely", not a death (狗死了, 病死了).

    Read from the part-of-speech tags: 死 fused to a verb or adjective (累死, 饿死) or right after one
    (冷 死), other than the ways of dying (病死, 老死)."""
    if not m.group(0).startswith("死"):
        return False
    from jiyi.text.lexical import tagged

    pos, prev = 0, None
    for word, tag in tagged(text):
        start, pos = pos, pos + len(word)
        if start <= m.start() < pos:
            if word != "死":
                return word.endswith("死") and word[:-1] not in _WAYS_OF_DYING
            return prev is not None and prev[1] in ("v", "a", "ad", "vd", "an") and prev[0] not in _WAYS_OF_DYING
        prev = (word, tag)
    return False


_WAYS_OF_DYING = frozenset({"病", "老", "撞", "冻", "淹", "摔", "咬", "毒", "被"})
_EN_LEFT_OBJECT = _P(r"(?i)\s+(?:my|the|a|an|his|her|their|our|User's|some|all)\s+(?:\w+\s+)?(?P<obj>[\w-]+)")


def left_behind(text: str, m: re.Match[str], workplace: re.Pattern[str]) -> bool:
    """"left" + an object that is no workplace (left my umbrella / left the keys): nothing was quit."""
    if m.group(0).lower() != "left":
        return False
    obj = _EN_LEFT_OBJECT.match(text, m.end())
    return obj is not None and not workplace.search(obj.group(0)) and not re.match(r"\s+(?:the|my)\s+[A-Z]", text[m.end():])

#: after a verb of moving, a thing moved, not the speaker: "moved the meeting to friday", "moved it to next week",
#: "moved the stream over to YouTube" (the household or the family moved is the speaker's move)
THING_MOVED = (r"(?!\s+(?:it|them|everything|stuff|things)\b|\s+(?:the|my|our|his|her|their|its|this|that|these|those|"
               r"some|all)\s+(?!(?:whole\s+)?(?:family|fam|kids|household|life|lives)\b))")
