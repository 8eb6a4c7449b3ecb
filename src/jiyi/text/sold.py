"""What a sale or a loss names, when it names one thing ("sold the civic", "sold some old tools").

A sale of "the car" names no one car; "sold the civic" names the Civic, which earlier turns may name
too; "sold some old tools out of the truck bed" names tools, not the truck. :func:`sold_what` tells
which (write/resolve.py reads it for the memories a sale closes and the turns it outdates).
"""

from __future__ import annotations

import re

from jiyi.text import kinds
from jiyi.text.topics import cue_of

_P = re.compile
_EN_SOLD_WHAT = _P(r"(?i)\b(?:sold|selling|gave\s+away|got\s+rid\s+of|lost)\s+(?:(?:some|my|the|a|an|our|all|his|her|"
                   r"those|these|two|three|\d+)\s+)*(?:(?:old|new|used|spare|extra|broken)\s+)?(?P<o>[a-z][\w-]+)")


def sold_what(text: str, family: str) -> str | None:
    """What an English sale or loss names when it is no noun of ``family`` ("sold some old tools out of the
    truck bed" → tools), else None (a car, a truck, "it")."""
    m = _EN_SOLD_WHAT.search(text)
    if m is None or _OWNED_NOUN.match(m.group("o")) or m.group("o").lower() in ("it", "him", "her", "them", "mine"):
        return None
    if cue_of(family, m.group("o"), "en") and not kinds.named_kinds(m.group("o")):
        return None
    return m.group("o").lower()  # (a make, a model or a breed names the one thing: "sold the civic")


#: the plain nouns of a thing owned, which name no one thing ("sold the car")
_OWNED_NOUN = _P(r"(?i)^(?:car|truck|suv|van|motorcycle|motorbike|vehicle|sedan|hatchback|scooter|moped|e-?bike|bike|jeep|"
                 r"cat|dog|pet|rabbit|bunny|hamster|parrot|puppy|pup|kitten|turtle|tortoise|ferret|budgie|goldfish)s?$")
