"""English typed the way people chat: contractions without their apostrophe.

"im moving to austin", "ive been vegan since june", "i dont eat pork" read like the
careful forms to a reader, and must read so to the rules: :func:`with_apostrophes`
puts the apostrophe back in the contractions that are never words of their own
("its", "were", "ill", "id", "lets", "well" and "shell" stay as they are).
"""

from __future__ import annotations

import re

from jiyi.text.relations import EN_REL_ADJ, REL_EN, alternation
from jiyi.text.wordlists import word_list

#: typed form → the contraction; only spellings that are no other English word
_CONTRACTIONS = {w.replace("'", ""): w for w in word_list(
    "i'm i've don't doesn't didn't can't couldn't won't wouldn't shouldn't isn't aren't wasn't weren't "
    "haven't hasn't hadn't mustn't you're you've they're they've we've that's what's there's who's "
    "he's she's it'll you'll they'll")}
_TYPED = re.compile(r"(?i)\b(?:" + "|".join(sorted(_CONTRACTIONS, key=len, reverse=True)) + r")\b")


def with_apostrophes(text: str) -> str:
    """``text`` with apostrophe-less contractions restored: "im from nyc" → "i'm from nyc"."""
    def fix(m: re.Match[str]) -> str:
        word = _CONTRACTIONS[m.group(0).lower()]
        return word.capitalize() if m.group(0)[0].isupper() else word

    return _TYPED.sub(fix, text)


#: verbs that start a sentence whose "I" was dropped ("moved to denver last month", "quit my job lol")
_PAST = frozenset(word_list(
    "moved relocated quit left started began joined got broke sold bought adopted lost found finished graduated passed "
    "failed dropped stopped switched gave went became turned married divorced split retired signed accepted landed "
    "took made had met tried decided visited ran rehomed given transferred enrolled applied"))
_ADVERB_LEAD = frozenset(word_list("just finally recently officially already"))
_GERUND_LEAD = frozenset(word_list("living working moving starting studying staying trying planning heading flying "
                                   "going thinking getting"))
_DISCOURSE = r"(?:(?:so|and|also|lol|lmao|haha|yeah|ya|yep|ok|okay|welp|well|oh|anyway|btw|update|fyi|ngl|tbh)[,:!]?\s+)*"
_SENTENCE_LEAD = re.compile(rf"(?i)(?:^|(?<=[.!?;\n])\s*){_DISCOURSE}(?P<w>[a-z]+(?:[- ]free)?)\b")


def with_subject(text: str) -> str:
    """``text`` with a dropped "I" put back where a sentence starts with the user's own verb.

    "moved to denver last month lol" → "i moved to denver last month lol"; "been vegan for a
    year" → "i've been vegan for a year"; "living in austin now" → "i'm living in austin now";
    "vape free for 5 weeks" → "i'm vape free for 5 weeks". A sentence with a subject is left alone.
    """
    def fix(m: re.Match[str]) -> str:
        word = m.group("w").lower()
        after = m.string[m.end():].split(maxsplit=1)
        if word in _PAST or (word in _ADVERB_LEAD and after and after[0].lower() in _PAST):
            subject = "i "
        elif word == "been":
            subject = "i've "
        elif word in _GERUND_LEAD or word.endswith(("-free", " free")):
            subject = "i'm "
        else:
            return m.group(0)
        lead, said = m.group(0)[: m.start("w") - m.start()], m.group("w")
        if said[0].isupper():  # "Finally quit vaping" → "I finally quit vaping"
            subject, said = subject[0].upper() + subject[1:], said[0].lower() + said[1:]
        return lead + subject + said

    return _SENTENCE_LEAD.sub(fix, text)


_NAMING = re.compile(r"(?i)\b(?:named|name\s+is|name's|(?:is|was|'s)\s+called|(?:a|an|my|our|the|this|that)\s+[a-z]+\s+called)\s+"
                     r"(?P<n>[a-z][a-z'-]+)\b")
#: "my wife anna is…", "my bf jake works…": a word between a relation and its verb is the relation's name
_REL_THEN_NAME = re.compile(rf"\bmy\s+{EN_REL_ADJ}(?:{alternation([r for r in REL_EN if r.isalpha()])})\s+(?P<n>[a-z][a-z'-]+)"
                            r"(?=\s+(?:is|was|works|worked|lives|lived|has|had|just|said|says|got|gets|loves|likes|"
                            r"wants|moved|started|quit|and|who|will|can|also|still|finally)\b|\s*[,!?]|\s*$)")
_NOT_A_NAME = frozenset(word_list(
    "a an the my our your his her their its it him them me us this that after for by in on at so like something "
    "someone nothing back out off up and or but because too lol lmao haha though tho again now today yesterday "
    "tomorrow here there is was are were has had have just also still really always never finally actually said "
    "says got gets loves likes hates wants works lives moved started quit called named lost sick ok okay well "
    "again"))


def with_names(text: str) -> str:
    """In text typed without capitals, the word after "named" / "called" / "name is" capitalised as the name it is.

    "i have a dog named biscuit" → "i have a dog named Biscuit", "my gf sarah and i" →
    "my gf Sarah and i"; text that capitalises
    anything is left as written (its writer capitalises names themselves).
    """
    if any(ch.isupper() for ch in text.replace("I'", "").replace("I ", "")):
        return text

    def fix(m: re.Match[str]) -> str:
        name = m.group("n")
        if name in _NOT_A_NAME or name in _PAST or name.endswith(("ed", "ing")):
            return m.group(0)
        return m.group(0)[: m.start("n") - m.start()] + name[0].upper() + name[1:]

    return _REL_THEN_NAME.sub(fix, _NAMING.sub(fix, text))
