"""What the user's group chats said about the matter a query asks of (``build_context`` only).

In a group chat stored per sender (jiyi.write.groups), what a member announced is that member's turn:
"通知：周会改到每周二下午两点" is 曹蕾's, "下周四停一次" 老孟's, "房东说下个月起涨价 房租变2600" 韦柳's. Every
member heard it, and one who later asks "下周的周会是什么时候", "哪周停场来着" or "这个月房租我该转多少" needs
it; :mod:`jiyi.read.group` shows the others' standing facts only. So the block also carries the other members'
turns in the user's group sessions whose likeness to the query stands out among everything said there (the
z-score of their cosine within the session, :data:`Z_MIN`), each with its speaker.

A group's arrangements change by announcement ("集合点以后改到火车站东广场", "那次改了 改成15号", "launch pushed to
Dec 4"). A later turn that tells a change (something moved, swapped, put off, called off, given up) and is among
the :data:`NEAREST` turns most like a chosen one, or names a word with it that few turns of the session say
(:data:`RARE`), replaces it: the change is shown as what holds, the older turn under the past heading. So is a
turn whose plan is over (its days all behind ``at``), and an older turn of a speaker whose newer turn, found too, is
among its nearest. A query that asks what is coming up ("接下来队里有啥活动") brings the group's plans still ahead,
soonest first. Only sessions both the user and the member declared group chats are read; sensitive turns, small
talk and text that instructs the bot never are; a query that says nothing (``idle_query``) brings none.
"""

from __future__ import annotations

import logging
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime, tzinfo

import numpy as np

from jiyi.read.agenda import asks_ahead, events_ahead
from jiyi.read.context import Block
from jiyi.read.curate import idle_query
from jiyi.read.gate import known_at, said_at
from jiyi.read.group import as_member, group_chatter, group_hits, name_forms, named, shared_members
from jiyi.read.timewords import plan_passed
from jiyi.records import Hit, Kind, MemoryRecord, Scope, Status, Visibility
from jiyi.stores.protocol import RecordFilter, Store
from jiyi.text.changed import CONDITION, tells_change
from jiyi.text.injection import instructs_the_bot
from jiyi.text.script import simplified
from jiyi.text.tokens import tokenize
from jiyi.write.endings import says
from jiyi.write.timeparse import find_time_expressions

log = logging.getLogger("jiyi.read.group_said")

#: The user's most recent group sessions read.
SESSIONS = 5
#: Most turns of one member read per session (their latest).
SCAN = 200
#: How far above the session's mean likeness to the query (in standard deviations) a turn must stand.
Z_MIN = 1.0
#: Fewest turns a session needs for its likeness to have a mean and a spread worth reading.
MIN_POOL = 6
#: Most turns shown as what holds, and under the past heading.
CURRENT_LINES = 3
EARLIER_LINES = 2
#: Most of the group's plans ahead shown for a query that asks what is coming up.
AHEAD_LINES = 3
#: Most of the others' latest turns shown for a query that asks what the group said (:func:`asks_recap`).
RECAP_LINES = 4
#: A query asking what a group chat said lately, whatever about: "群里刚才说啥了", "群里最近有么子通知", "帮我总结下最近组里
#: 的事", "catch me up on the group chat", "what did the team say"
_RECAP = re.compile(
    r"(?:群|组|团|队)里[^，,。？?！!]{0,6}?(?:说|讲|港|聊|发|通知|讨论)了?(?:啥|什么|么子|乜|咩|哪些|些啥)|"
    r"(?:群|组|团|队)里(?:最近|刚才|刚刚|今天|这两天)?有(?:啥|什么|么子|乜|咩|哪些)(?:通知|事|消息|重点|要紧事|新鲜事)|"
    r"总结(?:一?下)?(?:最近|今天)?(?:的)?(?:群|组|团|队)里|(?:群|组)里(?:的)?(?:重点|要点)|"
    r"(?i:\b(?:catch\s+me\s+up|fill\s+me\s+in|summari[sz]e|recap)\b[^.?!]{0,30}\b(?:group|chat|team|channel|thread)\b|"
    r"\bwhat\s+(?:did|has)\s+(?:the|our|my)\s+(?:group|chat|team|gang|crew|channel)\s+(?:say|said|talk|been\s+saying)\b)")


#: words of a notice to a group: an announcement, an arrangement, a reminder
_NOTICE_WORDS = re.compile(r"通知|各位|大家|集合|报名|接龙|改到|改成|取消|提醒|记得|别忘|注意|截止|交|带上|地点|时间|"
                           r"(?i:\b(?:heads\s+up|reminder|everyone|all|please|pls|meet|moved|cancel+ed|bring|deadline|rsvp)\b)")


def _notice(text: str, said: datetime) -> bool:
    """Does a group turn tell the others something to know (a day, a time, an amount, a notice's words), not only chat
    ("阿豪你又搞什么🙄", "大兵走了以后好冷清")?"""
    return bool(_NOTICE_WORDS.search(simplified(text)) or re.search(r"\d", text)
                or find_time_expressions(text, said))


def asks_recap(query: str) -> bool:
    """Does ``query`` ask what the user's group chat said lately, whatever about?"""
    return _RECAP.search(simplified(query)) is not None


#: A change replaces a turn it is among the most like of (turns of one group are all much alike: a rank, not a cosine).
NEAREST = 3
#: How many turns of a session may name a word that ties a change to what it changed.
RARE = 3


@dataclass(slots=True)
class GroupSaid:
    """The other members' turns for a query: what holds, and what was said before or is over."""

    current: list[Hit] = field(default_factory=list)
    earlier: list[Hit] = field(default_factory=list)


def group_said(store: Store, scope: Scope, query: str, query_vec: np.ndarray, *, at: datetime,
               tz: tzinfo, model: str = "") -> GroupSaid:
    """The other members' turns in ``scope``'s group sessions that ``query`` is about (see the module)."""
    out = GroupSaid()
    if idle_query(query, query_vec, model) and not asks_recap(query):  # ("群里刚才港了么子" asks, though it chats)
        return out
    chosen: dict[str, _Turn] = {}
    pool_of: dict[str, list[_Turn]] = {}
    pools: list[list[_Turn]] = []
    for session, members in shared_members(store, scope, SESSIONS):
        pool = [t for member in (*members, scope) for t in _turns(store, member, session, at)]
        pools.append(pool)  # (a short session still has its latest turns for a recap)
        if len(pool) < MIN_POOL:
            continue
        df = Counter(w for t in pool for w in t.words)  # in how many of the session's turns each word stands
        sims = np.array([float(np.dot(query_vec, t.vec)) for t in pool])
        if (spread := float(sims.std())) <= 0:
            continue
        for t, z in zip(pool, (sims - sims.mean()) / spread):
            t.z = float(z)
        if asked_of := {t.rec.user_id for t in pool if named(t.rec, query)}:  # "Priya是干啥工作的": hers, or of her
            forms = [f for t in pool if t.rec.user_id in asked_of for f in name_forms(t.rec.speaker or "")]
            pool_asked = [t for t in pool if t.rec.user_id in asked_of or any(says(t.rec.content, f) for f in forms)]
        else:
            pool_asked = pool
        for t in sorted(pool_asked, key=lambda t: -t.z):
            if t.z < Z_MIN or len(chosen) >= CURRENT_LINES:
                break
            if t.rec.user_id == scope.user_id:
                continue  # the user's own turns are the search's
            chosen[t.rec.id] = t
            pool_of[t.rec.id] = pool
            for after in _successors(t, pool, df, model):  # what it said was changed: the change shows
                t.replaced = True
                chosen.setdefault(after.rec.id, after)
                pool_of.setdefault(after.rec.id, pool)
    if asks_recap(query):  # "群里刚才说啥了", "catch me up on the group chat": what the others said last
        latest = sorted((t for pool in pools for t in pool if t.rec.user_id != scope.user_id
                         and t.rec.id not in chosen and _notice(t.rec.content, t.said)),
                        key=lambda t: t.said, reverse=True)[:RECAP_LINES]
        for t in latest:
            t.z = max(t.z, Z_MIN)
            chosen[t.rec.id] = t
            pool_of[t.rec.id] = next(pool for pool in pools if t in pool)
    if asks_ahead(query):  # "接下来队里有啥活动": the group's plans still ahead, soonest first
        out.current += [Hit(as_member(r), 0.0, {"group_ahead": 1.0}) for r in _plans_ahead(store, scope, at)]
    picked = sorted(chosen.values(), key=lambda t: -t.z)
    for t in picked:  # two turns of one speaker the query found, about one matter: the newer holds
        near = _near_ids(t, pool_of[t.rec.id])
        t.replaced = t.replaced or any(o.said > t.said and o.rec.user_id == t.rec.user_id and o.rec.id in near
                                       for o in picked)
    for t in picked:
        if t.rec.user_id == scope.user_id:
            continue
        hit = Hit(t.rec, t.z, {"group_said": t.z})
        if t.replaced or plan_passed(t.rec.content, t.said, at, tz=tz):
            if len(out.earlier) < EARLIER_LINES:
                out.earlier.append(hit)
        else:
            out.current.append(hit)
    if log.isEnabledFor(logging.DEBUG):
        log.debug("group said: current %s earlier %s", [(h.content[:40], round(h.score, 2)) for h in out.current],
                  [(h.content[:40], round(h.score, 2)) for h in out.earlier])
    return out


@dataclass(slots=True, eq=False)
class _Turn:
    rec: MemoryRecord
    vec: np.ndarray
    z: float = 0.0
    replaced: bool = False
    words: frozenset[str] = frozenset()  # its words of two characters or more, numbers aside

    @property
    def said(self) -> datetime:
        return said_at(self.rec)


def _successors(old: _Turn, pool: Sequence[_Turn], df: Counter[str], model: str) -> list[_Turn]:
    """The newer turns of ``pool`` that changed what ``old`` said: those that tell a change (something moved,
    swapped, put off or called off) and name a word with it few turns say, or are the same speaker's and among the
    :data:`NEAREST` turns most like ``old`` ("集合点北国商城门口 每人80" before "集合点以后改到火车站东广场"). A
    condition (an allergy, a pregnancy, a diet) is changed only by a turn that names it."""
    near = _near_ids(old, pool)
    return [t for t in pool if t.said > old.said
            and (t.rec.id in near and t.rec.user_id == old.rec.user_id or _names_alike(old, t, df))
            and tells_change(t.rec.content, t.vec, model)]


def _names_alike(old: _Turn, new: _Turn, df: Counter[str]) -> bool:
    """Do ``old`` and ``new`` name a thing few turns of their session name (``df``, :data:`RARE` at most: "launch",
    提测, 周会)?"""
    return any(df[w] <= RARE for w in old.words & new.words)


def _words(text: str) -> frozenset[str]:
    return frozenset(w for w in tokenize(text) if len(w) >= 2 and not w.isdigit())


def _near_ids(turn: _Turn, pool: Sequence[_Turn]) -> set[str]:
    """The ids of the :data:`NEAREST` turns of ``pool`` most like ``turn``; none for a condition (an allergy, a
    pregnancy, a diet), which only a turn naming it changes."""
    if CONDITION.search(simplified(turn.rec.content)):
        return set()
    near = sorted((t for t in pool if t.rec.id != turn.rec.id), key=lambda t: -float(np.dot(turn.vec, t.vec)))
    return {t.rec.id for t in near[:NEAREST]}


def _plans_ahead(store: Store, scope: Scope, at: datetime) -> list[MemoryRecord]:
    """The other members' plans told in ``scope``'s group sessions that are ahead at ``at`` (within the agenda's
    horizon), soonest first, :data:`AHEAD_LINES` at most."""
    plans = [r for session, members in shared_members(store, scope, SESSIONS) for member in members
             for r in events_ahead(store, member, at=at, session_id=session)
             if r.valid_from is not None and r.valid_from > at and not instructs_the_bot(r.content)]
    return sorted(plans, key=lambda r: (r.valid_from or at, r.id))[:AHEAD_LINES]


def _turns(store: Store, member: Scope, session: str, at: datetime) -> list[_Turn]:
    """``member``'s own turns in ``session`` said by ``at`` that a block may show and that say something."""
    flt = RecordFilter(kinds=(Kind.EPISODE,), statuses=(Status.ACTIVE,), session_id=session)
    turns = [t for t in store.list(member, flt, SCAN)
             if t.metadata.get("role") != "assistant" and t.visibility is Visibility.NORMAL and known_at(t, at)
             and not instructs_the_bot(t.content) and not group_chatter(t.content)]
    vecs = store.vectors(member, [t.id for t in turns])
    return [_Turn(t, vecs[t.id], words=_words(t.content)) for t in turns if t.id in vecs]


def with_group(block: Block, store: Store, scope: Scope, query: str, query_vec: np.ndarray, *, at: datetime,
               tz: tzinfo, model: str = "") -> None:
    """Add to ``block`` what the user's group chats hold for ``query``: the other members' standing facts
    (:func:`jiyi.read.group.group_hits`) and what they said of its matter (:func:`group_said`), the latter first
    among the found lines and, when replaced or over, after the past ones."""
    said = group_said(store, scope, query, query_vec, at=at, tz=tz, model=model)
    shown = {i for h in (*said.current, *said.earlier) for i in (h.id, *h.record.source_ids)}
    block.group = [h for h in group_hits(store, scope, query_vec, at=at, query=query, model=model)
                   if h.id not in shown and not shown & set(h.record.source_ids)]  # (what a shown turn made, it says)
    block.found = [*said.current, *block.found]
    block.past = [*block.past, *said.earlier]
