"""The patterns of the literal ways of saying a change (data/changes.tsv), as :mod:`jiyi.text.topics` reads them."""

from __future__ import annotations

import re

from jiyi.text.verb_senses import THING_MOVED

#: what a contraction without its apostrophe reads as
_OTHER_WORDS = frozenset({"were", "well", "shell", "hell", "ill", "its", "wed", "shed", "hed", "id", "whos", "lets"})
#: what before a two-character phrase makes it a score or an amount: 查分了, 扣分了, 几分了
_NOT_A_SCORE = r"(?<![查打评给扣加得积学计满高低考几多少均总拿出算\d])"
#: the speaker's words as a memory retells them in the third person ("got my own place" → "got User's own place")
_AS_TOLD = {"my": r"(?:my|User['\u2019]s)", "i": r"(?:i|User)", "me": r"(?:me|User)", "i'm": r"(?:i['\u2019]?m|User\s+is)"}


def en_phrase(phrase: str) -> str:
    """An English phrase as chat types it: apostrophes dropped (dont, havent) unless that makes another word (we're,
    it's), the speaker's words as a memory retells them too, and "moved" not of a thing ("we moved the meeting")."""
    words = [_AS_TOLD.get(w.lower()) or
             re.escape(w).replace("'", "['\u2019]" if w.replace("'", "") in _OTHER_WORDS else "['\u2019]?")
             for w in phrase.split()]
    tail = THING_MOVED if phrase.endswith(("moved", "relocated")) else ""
    return r"\b" + r"\s+".join(words) + (r"\b" if phrase[-1].isalnum() else "") + tail


def zh_phrase(phrase: str) -> str:
    """A Chinese phrase: one of two characters (分咗 → 分了) is no score's (查分了, 扣分了, 考了几分了); an English word in
    it ("cancel 了") may have a space beside it or none, in any case."""
    if re.search(r"[A-Za-z]", phrase) and " " in phrase:
        return r"(?i:(?<![A-Za-z])" + r"\s*".join(re.escape(w) for w in phrase.split()) + ")"
    return (_NOT_A_SCORE if len(phrase) <= 2 else "") + re.escape(phrase)
