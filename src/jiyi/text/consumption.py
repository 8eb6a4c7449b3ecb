"""What a habit consumes, by kind: a drink's category covers its brands, a measure what it counts.

戒咖啡 ends "每天两杯美式" and "no more coffee" ends "two flat whites before noon", but 戒了咖啡 does not
end 喜欢早起, nor 每天吃一片药. A habit statement says what it consumes or does (:func:`consumption`:
drink, smoke, eat, play); a drink names its kind through one word list per kind in both languages
(:func:`drink_kinds`); a measure word says what it can count (:func:`measured_kinds`: 一包 is smoked or
eaten, 一杯 drunk); :func:`kinds_of` joins the drinks and a strict reading of smoking, for the words of a
thing the speaker says is over (:mod:`jiyi.text.ended`). The change rules (:mod:`jiyi.text.topics`,
:mod:`jiyi.write.resolve`) read habits through these.
"""

from __future__ import annotations

import re

from jiyi.text.kinds import ACTIVITIES, DRINKS, named_kinds

_P = re.compile


#: what a habit consumes or does, from its verb or its category noun: a category covers its brands
#: only within one of these (戒了咖啡 does not end 喜欢早起, nor 每天吃一片药)
_CONSUMPTION: tuple[tuple[str, re.Pattern[str], re.Pattern[str]], ...] = (  # (what, Chinese, English)
    ("drink", _P(r"喝|饮料|饮品|咖啡|奶茶|可乐|汽水|果汁|酒|茶|[一两几\d]\s*(?:杯|罐|瓶|听|壶)"),
     _P(r"(?i)\b(?:drink\w*|sip\w*|(?:soda|pop|coffee|espresso|latte|tea|beer|wine|juice|cola|smoothie)s?|booze|"
        r"alcohol|caffeine|(?:cups?|cans?|bottles?|glass(?:es)?|mugs?|pints?|shots?)\s+of)\b")),
    ("smoke", _P(r"抽|烟|吸"), _P(r"(?i)\b(?:smok\w*|cigarettes?|cigars?|vap\w*|tobacco|nicotine)\b")),
    ("eat", _P(r"吃|零食|甜食|宵夜|外卖|快餐"), _P(r"(?i)\b(?:eat\w*|snack\w*|sweets|candy|junk\s+food|fast\s+food)\b")),
    ("play", _P(r"玩|游戏|打游戏|刷"), _P(r"(?i)\b(?:play\w*|gaming|games?|scroll\w*)\b")),
)


#: kinds of drink a habit names, one word list each for both languages (茶 covers 奶茶 and 霸王茶姬's 茶)
_DRINK_KINDS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("coffee", _P(r"(?i)咖啡|美式|拿铁|卡布|摩卡|澳白|星巴克|瑞幸|\b(?:coffee|latte|espresso|americano|cappuccino|mocha|"
                  r"flat\s+white|starbucks)(?:e?s)?\b")),  # (plurals: "flat whites", "espressos")
    ("tea", _P(r"(?i)茶|\b(?:tea|boba|matcha|chai)s?\b")),
    ("soda", _P(r"(?i)可乐|汽水|雪碧|芬达|\b(?:soda|cola|coke|pepsi|sprite|pop)s?\b")),
    ("alcohol", _P(r"(?i)酒|\b(?:beer|wine|alcohol|booze|whisk(?:e)?y|vodka|cocktail)s?\b")),
    ("energy", _P(r"(?i)红牛|功能饮料|魔爪|东鹏|\b(?:energy\s+drinks?|red\s+bull|monster)\b")),
    ("juice", _P(r"(?i)果汁|\b(?:juice|smoothies?)\b")),
)


#: what a measure word can count: 一包 / 一根 is smoked or eaten, 一杯 / 一罐 drunk (一天一包红塔山 is no drink)
_MEASURES: tuple[tuple[frozenset[str], re.Pattern[str]], ...] = (
    (frozenset({"smoke", "eat"}), _P(r"[一两半几\d]+\s*(?:包|根|支|条)(?![子裹括装])")),
    (frozenset({"drink"}), _P(r"[一两半几\d]+\s*(?:杯|瓶|罐|听|壶)")),
)


def measured_kinds(text: str) -> frozenset[str]:
    """What the measure words of ``text`` can count (empty when it has none)."""
    return frozenset(k for kinds, pattern in _MEASURES if pattern.search(text) for k in kinds)


def drink_kinds(text: str) -> frozenset[str]:
    """The kinds of drink ``text`` names (美式 → coffee; "taro milk tea" → tea; 百事 → soda, by the lexicon of
    :mod:`jiyi.text.kinds`); empty for none."""
    return frozenset(kind for kind, pattern in _DRINK_KINDS if pattern.search(text)) | named_kinds(text, DRINKS)


def consumed_words(text: str) -> tuple[str, ...]:
    """The words ``text`` names drinks or smoking by, as it writes them ("医生说少喝功能饮料" → 功能饮料)."""
    found = [m.group() for _, pattern in _DRINK_KINDS for m in pattern.finditer(text)]
    found += [m.group() for m in _SMOKE.finditer(text)]
    return tuple(dict.fromkeys(w.strip() for w in found if w.strip()))


def consumption(text: str, lang: str) -> str | None:
    """``drink`` / ``smoke`` / ``eat`` / ``play`` for what a habit statement consumes or does, if said."""
    return next((name for name, zh, en in _CONSUMPTION if (zh if lang == "zh" else en).search(text)), None)


#: smoking by what is smoked or how much, strictly (烟台, 抽空, 吸引 and 两根香肠 are none of it)
_SMOKE = _P(r"(?i)(?:抽|吸)烟|香烟|烟瘾|烟味|电子烟|[一两半几\d]+\s*(?:包|根|支|条)(?:烟|的量)|^烟$|烟(?=[也还就都别要得少]{0,2}(?:抽|吸|戒))|"
            r"\b(?:smok(?:e|es|ed|ing)|cigarettes?|cigs?|vap(?:e|es|ed|ing)|nicotine|tobacco)\b")


_SMOKING = frozenset({"smoking"})


def kinds_of(text: str) -> frozenset[str]:
    """The kinds of thing consumed that ``text`` names, a category covering its brands and measures:
    coffee (咖啡, 美式, "flat white"), tea, soda, alcohol, energy drinks, juice, smoking (烟瘾, 一天一包), and what one
    does for sport or pastime (running, the gym, gaming: 跑步 and "沿着江边跑5公里" are one thing)."""
    kinds = set(drink_kinds(text)) | named_kinds(text, ACTIVITIES)  # (跑步 and 夜跑 are one thing to give up)
    if _SMOKE.search(text) or named_kinds(text, _SMOKING):  # (红塔山, "elf bar": by the lexicon)
        kinds.add("smoke")
    if _RUN_DISTANCE.search(text):
        kinds.add("running")
    return frozenset(kinds)


#: a run told by its distance: 沿着江边跑5公里, 每天跑个三公里, "ran 5k", "run 10km"
_RUN_DISTANCE = _P(r"(?i)跑(?:了|个)?\s*[\d一二两三四五六七八九十半]+\s*(?:公里|km|k\b)|\b(?:ran|run|running|jog|jogged)\s+(?:a\s+)?"
                   r"\d+(?:\.\d)?\s*(?:k|km|miles?)\b")


__all__ = ["consumption", "drink_kinds", "kinds_of", "measured_kinds"]
