"""Does a string look like a key or a token someone generated, though nothing names it as one?

Chat pastes bot tokens, session cookies and keys of services no pattern knows
("…test stuff: MTE5ODc2NTQzMjEwOTg3NjU0.GhX2kP.q8Zr3vLmN0pWcYtBf7sJdKe1uAo"). What gives them away is
their shape: a long run of key characters that mixes upper case, lower case and digits the way a
random string does. Words, CamelCase names, versions, hex hashes and UUIDs (one case), links and
paths do not.
"""

from __future__ import annotations

import re
from itertools import pairwise

#: a run of key characters, at least 24 long, standing alone (not inside a longer word, a link's query or an address)
LONE_TOKEN = re.compile(r"(?<![A-Za-z0-9_\-./+=%@])[A-Za-z0-9_\-.+/=]{24,}(?![A-Za-z0-9_\-+/=@])")
_TOKEN_PART = re.compile(r"[A-Za-z0-9]+")
_DIGIT_RUN = re.compile(r"\d+")


def looks_random(value: str) -> bool:
    """Upper and lower case letters and digits spread through ``value``, as no word, name, path or version is."""
    if "://" in value or value.count("/") > 1:
        return False  # a link or a path
    upper, lower, digits = (sum(map(f, value)) for f in (str.isupper, str.islower, str.isdigit))
    if upper < 3 or lower < 3 or digits < 3:
        return False
    # case flips between neighbouring letters: a random string flips often, CamelCase words rarely
    letters = [c for c in value if c.isascii() and c.isalpha()]
    flips = sum(a.isupper() != b.isupper() for a, b in pairwise(letters))
    longest = max((len(p) for p in _TOKEN_PART.findall(value)), default=0)
    return (longest >= 16 and flips >= len(letters) // 3 and len(_DIGIT_RUN.findall(value)) >= 2
            and len(set(value)) >= 12)
