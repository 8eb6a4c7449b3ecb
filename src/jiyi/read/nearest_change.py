"""A line the block would show as current whose nearest turn of the user's is a newer one that tells a change.

:func:`jiyi.read.overtaken.overtaken` ends a line when a newer turn *among the search's hits* tells a change of it;
the write path, when a change names what it ends or its vector stands out among all the user's turns. Often the
turn that tells it is neither: asked "帮我看看我家附近有没有好的菜市场", the search finds "我住包河区望湖小区 老房子
六楼没电梯", not "我搬去跟女儿住了 老房子租出去了". Yet of everything the user said, that turn is the one most like it,
as "以前那家健身房太远了 卡转给我表妹了" is to "平时下班去一兆韦德练" and "機車被偷了" to "我平常騎 Gogoro 去捷運站":
people come back to a thing in its own words. So a line of the user's (a turn or a memory) whose single nearest
turn among all the user's turns, its own source aside, is newer and tells a change
(:func:`jiyi.text.changed.tells_change`, its words or, given its vector, the change probe) and is the same speaker's
is no longer shown as current, and that turn is shown in its place: what holds now ("found a place in Marlow Green,
£1,040" for "I live in Fenwick, £870 a month"). A condition of the body, a diet, a pet is ended only by words about
it (an allergy is not over because the user moved).
"""

from __future__ import annotations

import logging
import re
from collections.abc import Sequence
from datetime import datetime, timedelta

from jiyi.read.gate import said_at
from jiyi.records import Hit, Kind, MemoryRecord, Scope, Status
from jiyi.stores.protocol import RecordFilter, Store
from jiyi.text.changed import CONDITION, tells_change
from jiyi.text.injection import instructs_the_bot
from jiyi.text.script import simplified

log = logging.getLogger("jiyi.read.nearest_change")

#: How much later than a line its nearest turn is said to tell a change of it: what follows in the same talk
#: ("俺是干工地的…" then "现在在金水湾二期带班") goes on with it.
LATER = timedelta(hours=1)
#: Most lines looked at per block (one vector search each).
LINES = 12
#: How many turns are read to find the nearest one of the user's that is not the line's own (the bot's replies
#: echo what the user said, and stand between).
NEAREST = 6
_KINDS = frozenset({Kind.EPISODE, Kind.FACT, Kind.PREFERENCE, Kind.BEHAVIOR})
#: a pet, who the user is (a name, an age, where they are from, a self-introduction say more than the change beside
#: them): like a condition (:data:`jiyi.text.changed.CONDITION`), ended by words about it, never by a change beside it
_KEPT = re.compile(r"(?i)药|猫|狗|仓鼠|兔|鹦鹉|宠物|基督|我叫|名字|[\d一二三四五六七八九十]+岁|"
                   r"今年[\d一二三四五六七八九十]+(?![\d一二三四五六七八九十月号日])|退休|"  # (今年十二月到期: a month)
                   r"自我介绍|老家|籍贯|^用户是[\u4e00-\u9fff]{1,6}人$|years\s+old|my\s+name|\bname\s+is\b|\bis\s+from\b|"
                   r"\bintro\b|\bfaith\b|medic|\bcat\b|\bdog\b|hamster|rabbit|\bpet\b|puppy|kitten")


def nearest_changes(store: Store, scope: Scope, lines: Sequence[Hit], *, at: datetime,
                    model: str = "") -> dict[str, MemoryRecord]:
    """For each of ``lines`` (the block's current lines) whose nearest turn of the user's is a newer change: its id,
    mapped to that turn (what holds now, which the block shows in its place)."""
    looked = [h.record for h in lines if h.record.kind in _KINDS and h.record.metadata.get("role") != "assistant"
              and not CONDITION.search(simplified(h.record.content))
              and not _KEPT.search(h.record.content)][:LINES]
    if not looked:
        return {}
    vecs = store.vectors(scope, [r.id for r in looked])
    flt = RecordFilter(kinds=(Kind.EPISODE,), statuses=(Status.ACTIVE,), include_sensitive=False)
    newer: dict[str, tuple[MemoryRecord, MemoryRecord]] = {}  # a line's id: (the line, its nearest turn, newer)
    for rec in looked:
        if (vec := vecs.get(rec.id)) is None:
            continue
        ids = [i for i, _ in store.vector_search(scope, vec, NEAREST, flt)]
        turns = {t.id: t for t in store.get_many(scope, ids)}
        near = next((turns[i] for i in ids if i in turns and _not_its_own(turns[i], rec)
                     and turns[i].metadata.get("role") != "assistant"), None)  # the bot's echo ("好的，下午五点接乐乐") aside
        if near is not None and said_at(rec) + LATER <= said_at(near) <= at \
                and not instructs_the_bot(near.content) and (near.speaker or None) == (rec.speaker or None):
            newer[rec.id] = (rec, near)
    near_vecs = store.vectors(scope, list({near.id for _, near in newer.values()})) if newer else {}
    out: dict[str, MemoryRecord] = {}
    for line_id, (rec, near) in newer.items():
        if tells_change(near.content, near_vecs.get(near.id), model):
            log.debug("line %r: its nearest turn %r tells a change", rec.content[:50], near.content[:50])
            out[line_id] = near
    return out


def _not_its_own(turn: MemoryRecord, rec: MemoryRecord) -> bool:
    """Is ``turn`` another turn than ``rec`` or the one ``rec`` was made of?"""
    return turn.id != rec.id and not set(turn.source_ids) & {rec.id, *rec.source_ids}

