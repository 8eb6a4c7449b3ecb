"""What a follow-up refers to: the conversation before the query, as extra routes.

"那家店叫什么来着？", "他后来怎么样了", "what was that place called again?" name nothing;
the turns before them do. Given ``recent`` (read/recent.py), recall adds two routes:

- ``recent_vector``: the store's vector ranking for a mix of the recent turns'
  embeddings (:func:`usable`): the turn just before the query weighs most, each step
  further back :data:`DECAY` of the one after it, the bot's turns :data:`BOT_SHARE` of a
  user's, a turn with few words of its own ("是啊，快一年了") less, pleasantries and
  system messages nothing;
- ``recent_keyword``: BM25 for the recent turns' words the query does not hold (the
  newest turns' words first, at most :data:`MAX_TOKENS`): names said a few turns back.

Their weights (``recent_vector`` / ``recent_keyword`` in
:data:`jiyi.read.rank.DEFAULT_WEIGHTS`) stay below the query's own routes (vector and
context, 1 each), so the query weighs most.

Both are scaled by how much the query leans on the conversation (:func:`lean`): fully for
a query that refers back (a pronoun or demonstrative, 来着 / again, or almost no words of
its own), :data:`SELF_LEAN` for a query that names its own topic ("林夕的生日是几号？"), so
the conversation refines it but cannot pull it away.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from jiyi.read.noise import content_units
from jiyi.read.recent import RecentTurn
from jiyi.text.smalltalk import is_pleasantry
from jiyi.text.tokens import tokenize
from jiyi.write.embed import CachedEmbedder

#: How many of the latest turns are read.
MAX_TURNS = 4
#: A turn with fewer content words than this weighs that share of a full one.
FULL_UNITS = 6
#: Each turn further back weighs this much of the one after it.
DECAY = 0.6
#: The bot's turns weigh this share of a user's turn (its questions echo the topic, its answers may wander).
BOT_SHARE = 0.7
#: At most this many words from the recent turns go to the keyword route.
MAX_TOKENS = 16
#: A query naming its own topic uses the conversation at this share.
SELF_LEAN = 0.3
#: A query with at most this many content words has too few to stand alone.
FEW_UNITS = 3
#: A query with a referring word and at most this many content words refers back.
REFERRING_UNITS = 10

_REFERS = re.compile(
    r"[那这哪](?:家|个|位|次|天|回|本|部|只|条|件|款|首|种|里|边|儿|所|间|座|辆|些|张|道|份|场|趟|位)|"
    r"他|她|它|后来|来着|刚才|刚刚|上面|前面|之前(?:说|提)|你说的|我说的|同一|那时|当时|还是那|"
    r"\b(?:it|that|this|there|then|he|she|they|him|her|them|his|hers|their|those|these|again|one|same|"
    r"the (?:place|guy|girl|one|name|thing|shop|restaurant|book|movie|show|trip))\b",
    re.IGNORECASE,
)


@dataclass(slots=True, frozen=True)
class Cue:
    """The recent conversation as a search cue: a vector, words, and how much the query leans on them."""

    vector: np.ndarray | None
    tokens: tuple[str, ...]
    lean: float


def lean(query: str) -> float:
    """1.0 when ``query`` refers back to the conversation, :data:`SELF_LEAN` when it names its own topic."""
    units = content_units(query)
    if units <= FEW_UNITS or (units <= REFERRING_UNITS and _REFERS.search(query)):
        return 1.0
    return SELF_LEAN


def usable(turns: Sequence[RecentTurn]) -> list[tuple[RecentTurn, float]]:
    """The latest :data:`MAX_TURNS` turns that say something, each with its weight (the newest up to 1)."""
    out: list[tuple[RecentTurn, float]] = []
    w = 1.0
    for t in reversed(turns):
        if len(out) >= MAX_TURNS:
            break
        if t.role == "system" or is_pleasantry(t.content):
            continue
        said = min(1.0, max(content_units(t.content), 1) / FULL_UNITS)
        out.append((t, w * said * (BOT_SHARE if t.role == "assistant" else 1.0)))
        w *= DECAY
    return out


def conversation_cue(query: str, query_tokens: Sequence[str], turns: Sequence[RecentTurn],
                     embedder: CachedEmbedder) -> Cue | None:
    """The cue of ``turns`` for ``query``; None when no turn says anything."""
    used = usable(turns)
    if not used:
        return None
    mix = np.sum([w * np.asarray(embedder.embed_query(t.content), dtype=np.float64) for t, w in used], axis=0)
    norm = float(np.linalg.norm(mix))
    vector = (mix / norm).astype(np.float32) if norm > 0 else None
    own = set(query_tokens)
    words: dict[str, None] = {}
    for t, _ in used:  # newest first
        for tok in tokenize(t.content):
            if tok not in own and len(words) < MAX_TOKENS:
                words[tok] = None
    return Cue(vector, tuple(words), lean(query))
