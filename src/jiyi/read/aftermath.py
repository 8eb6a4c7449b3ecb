"""What the user said right after an ending: where a block shows that something is over, what holds now.

"那边不干了" tells the bot what no longer holds, not what does. People say that a turn or a session later, most
often answering the bot's "接下来打算做什么？" / "下一步呢？": "下礼拜一去苏州工业园报到，做车联网平台". The write path
closes the old memory on the ending; the answer is in words no template knows, and a query such as "帮我写个周报开头
介绍下我现在做的项目" is as near to every work turn the user ever wrote. So for a current line that tells an ending
(its words: :func:`jiyi.text.topics.change_of` away from something, or :func:`jiyi.text.over.says_over`), the
user's first turn after the one it was said in, within :data:`AFTER_DAYS`, is shown beside it when the bot asked a
question between the two in the same session: the answer. It is found by its place among the turns, never by its
words, so in any language; :mod:`jiyi.read.curate` still keeps chatter and instructions out, and shows it even where
its own plan is over ("下礼拜一去…报到": the job that plan started holds).

Tried and left out: the first of the next turns that tells a change, whatever was asked. It found "现在主要在抖音上播"
after "淘宝那个店不弄了", and as often a change of another matter ("打算晚上不吃主食了" after a habit given up).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from datetime import datetime, timedelta

from jiyi.read.gate import said_at
from jiyi.records import Hit, Kind, MemoryRecord, Scope, Status
from jiyi.stores.protocol import RecordFilter, Store
from jiyi.text.dialect import standard_zh
from jiyi.text.injection import instructs_the_bot
from jiyi.text.language import detect_language
from jiyi.text.over import says_over
from jiyi.text.topics import change_of

log = logging.getLogger("jiyi.read.aftermath")

#: How long after an ending the user's answer may come.
AFTER_DAYS = 14
#: Most ending lines read per block (one listing each).
ENDINGS = 3
#: Most turns listed after an ending (newest first: a window this long holds the first few).
_LISTED = 120
_KINDS = frozenset({Kind.EPISODE, Kind.FACT, Kind.EVENT, Kind.BEHAVIOR})


def tells_an_ending(text: str) -> bool:
    """Does ``text`` say that something of the user's is over (left, ended, sold, quit, lost)?"""
    lang = detect_language(text)
    read = standard_zh(text) if lang == "zh" else text
    change = change_of(read, lang)
    return (change is not None and change.direction == "from") or says_over(read, lang) is not None


def aftermaths(store: Store, scope: Scope, lines: Sequence[Hit], *, at: datetime) -> dict[str, MemoryRecord]:
    """For each of ``lines`` (the block's current lines) that tells an ending: the user's answer to the bot's question
    after it (see the module), by the line's id."""
    endings = [h.record for h in lines if h.record.kind in _KINDS and h.record.metadata.get("role") != "assistant"
               and tells_an_ending(h.record.content)][:ENDINGS]
    out: dict[str, MemoryRecord] = {}
    for rec in endings:
        if (told := _source_turn(store, scope, rec)) is None:
            continue  # (no turn, no bot's question after it to read)
        start = said_at(told)
        end = min(at, start + timedelta(days=AFTER_DAYS))
        flt = RecordFilter(kinds=(Kind.EPISODE,), statuses=(Status.ACTIVE,), include_sensitive=False,
                           created_after=start, created_before=end + timedelta(seconds=1))  # (before: exclusive)
        after = sorted((t for t in store.list(scope, flt, _LISTED) if start < said_at(t) <= end
                        and t.id != rec.id and not set(t.source_ids) & set(rec.source_ids)), key=said_at)
        if (answer := _answer(after, rec, told)) is not None:
            log.debug("ending %r: answered by %r", rec.content[:50], answer.content[:50])
            out[rec.id] = answer
    return out


def _source_turn(store: Store, scope: Scope, rec: MemoryRecord) -> MemoryRecord | None:
    """The turn ``rec`` was made of (itself, for a turn)."""
    if rec.kind is Kind.EPISODE:
        return rec
    made = store.find_by_sources(scope, list(rec.source_ids)) if rec.source_ids else {}
    return next((r for rs in made.values() for r in rs if r.kind is Kind.EPISODE), None)


def _answer(after: Sequence[MemoryRecord], rec: MemoryRecord, told: MemoryRecord) -> MemoryRecord | None:
    """The speaker's first turn in ``after`` if the bot asked a question before it, in ``told``'s session."""
    speaker = rec.speaker or None
    first = next((t for t in after if t.metadata.get("role") != "assistant" and (t.speaker or None) == speaker), None)
    if first is None or instructs_the_bot(first.content) or not _asked_between(after, told, first):
        return None
    return first


def _asked_between(after: Sequence[MemoryRecord], told: MemoryRecord, answer: MemoryRecord) -> bool:
    """Did the bot ask a question after ``told`` and before ``answer``, both in ``told``'s session?"""
    if told.session_id is None or answer.session_id != told.session_id:
        return False
    return any(t.metadata.get("role") == "assistant" and said_at(t) < said_at(answer)
               and t.content.rstrip().endswith(("?", "？")) for t in after)
