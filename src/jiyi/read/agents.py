"""Search as agents see it: what a hit list must never hold or start with (recall.py calls these).

- **pleasantries go**: a raw turn that is nothing but a greeting, an offer of help, thanks
  or a courtesy ("你好！有什么可以帮你？", "Glad to help!") is never a hit
  (:func:`jiyi.read.noise.is_noise` as for a user's turn, :func:`jiyi.text.smalltalk.is_pleasantry`);
- **repeats collapse**: raw turns saying the same text (asked seven times, pasted twice)
  count as one, the newest, which carries ``scores["repeats"]`` (how many said it);
- **the bot's questions never lead**: when the best hit is the bot's own question ("您
  想什么时候出发呢？"), the best hit that is not one goes first.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence

from jiyi.read.boosts import said_at
from jiyi.read.noise import is_noise
from jiyi.records import Hit, Kind, MemoryRecord
from jiyi.text.smalltalk import is_pleasantry

_NOT_TEXT = re.compile(r"[\W_]+")
_QUESTION = re.compile(r"[？?]\s*$|[？?][^。.!！]*$|(?:吗|呢|么)[。.!！~～]*$")


def is_pleasantry_turn(rec: MemoryRecord) -> bool:
    """A raw turn that says nothing but a courtesy (never a hit)."""
    return rec.kind is Kind.EPISODE and (is_pleasantry(rec.content) or is_noise(rec.content, assistant=False))


def same_text_key(text: str) -> str:
    """The text with case, width, spaces and punctuation folded ("我的暗号是什么？" = "我的暗号是什么")."""
    return _NOT_TEXT.sub("", unicodedata.normalize("NFKC", text).lower())


def collapse_repeats(cands: Sequence[tuple[MemoryRecord, float]]) -> tuple[list[tuple[MemoryRecord, float]],
                                                                          dict[str, int]]:
    """The candidates with each group of raw turns of the same text reduced to its newest one.

    Returns the kept candidates (in their order) and, for each kept turn that stood for
    others, how many turns said it.
    """
    groups: dict[tuple[str, str], list[MemoryRecord]] = {}
    for rec, _ in cands:
        if rec.kind is Kind.EPISODE and (key := same_text_key(rec.content)):
            groups.setdefault((str(rec.metadata.get("role", "user")), key), []).append(rec)
    keep: dict[str, int] = {}
    drop: set[str] = set()
    for recs in groups.values():
        if len(recs) < 2:
            continue
        newest = max(recs, key=lambda r: (said_at(r), r.id))
        keep[newest.id] = len(recs)
        drop.update(r.id for r in recs if r.id != newest.id)
    return [(rec, r) for rec, r in cands if rec.id not in drop], keep


def is_bot_question(rec: MemoryRecord) -> bool:
    """The bot's own turn asking something ("你打算什么时候去？", "How was the trip?")."""
    return rec.kind is Kind.EPISODE and rec.metadata.get("role") == "assistant" \
        and _QUESTION.search(rec.content.strip()) is not None


def bot_questions_follow(hits: list[Hit]) -> list[Hit]:
    """``hits`` with the best hit that is not the bot's question moved to the front (if one leads)."""
    if not hits or not is_bot_question(hits[0].record):
        return hits
    first = next((i for i, h in enumerate(hits) if not is_bot_question(h.record)), None)
    if first is None:
        return hits
    lead = hits[first]
    return [Hit(lead.record, max(lead.score, hits[0].score), {**lead.scores, "ahead_of_bot_question": 1.0}),
            *hits[:first], *hits[first + 1:]]
