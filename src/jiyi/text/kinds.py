"""What kind of thing a word names: 百事 is a soda, 思域 a car, 柯基 a dog, "elf bar" a vape.

People name what they have and consume by brand, model, breed and slang ("每天两瓶百事", "我那台二手思域",
"my corgi"), and tell its end by the category ("可乐我戒了", "车卖了", "狗送人了"), or the other way
round. ``data/kinds.tsv`` holds, for fifteen kinds, the words that name something of that kind in
Chinese and English (1,600 of them), written by a writer who saw neither the code nor any test file,
then curated. :mod:`jiyi.text.consumption` reads the drinks and smoking from it, :mod:`jiyi.text.topics`
the vehicles and pets.

Chinese words are found as substrings (none is one character: 烟台 and 酒店 are no smoking or drink);
English words whole, case aside, with a plural "s".
"""

from __future__ import annotations

import re
from functools import lru_cache

from jiyi.text.wordlists import data_rows

DRINKS = frozenset({"coffee", "tea", "soda", "alcohol", "energy"})
VEHICLES = frozenset({"car", "two_wheeler"})
PETS = frozenset({"dog", "cat", "small_pet"})
#: what one does for sport or pastime, whose ending ends what was told of it by another word (跑步 → 夜跑)
ACTIVITIES = frozenset({"running", "gym", "gaming"})


@lru_cache(maxsize=1)
def _lexicon() -> dict[tuple[str, str], tuple[str, ...]]:
    """(kind, lang) → its words, longest first."""
    words: dict[tuple[str, str], list[str]] = {}
    for kind, lang, word in data_rows("kinds.tsv"):
        words.setdefault((kind, lang), []).append(word.casefold())
    return {key: tuple(sorted(set(ws), key=len, reverse=True)) for key, ws in words.items()}


def alternation(kinds: frozenset[str], lang: str) -> str:
    """A regular expression (no flags, no groups) matching a word of any of ``kinds`` in ``lang``."""
    words = [w for (kind, lg), ws in _lexicon().items() if kind in kinds and lg == lang for w in ws]
    if not words:
        return "(?!)"
    body = "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True))
    return f"(?:{body})" if lang == "zh" else rf"(?<![\w-])(?:{body})(?:e?s)?(?![\w-])"


@lru_cache(maxsize=1)
def _patterns() -> tuple[tuple[str, re.Pattern[str], re.Pattern[str]], ...]:
    kinds = sorted({kind for kind, _ in _lexicon()})
    return tuple((k, re.compile(alternation(frozenset({k}), "zh")), re.compile(alternation(frozenset({k}), "en"), re.IGNORECASE))
                 for k in kinds)


def named_kinds(text: str, among: frozenset[str] | None = None) -> frozenset[str]:
    """The kinds of thing ``text`` names a word of (both languages are read: chat mixes them), of ``among`` only
    when given (the others are not looked for)."""
    folded = text.casefold()
    return frozenset(kind for kind, zh, en in _patterns()
                     if (among is None or kind in among) and (zh.search(folded) or en.search(folded)))


__all__ = ["ACTIVITIES", "DRINKS", "PETS", "VEHICLES", "alternation", "named_kinds"]
