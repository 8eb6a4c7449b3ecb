"""What of a search's hits a bot should see, and in which order (``build_context`` only).

``search`` ranks for evidence recall: a raw turn, old or new, important or not, counts if
it answers. A prompt block serves a bot, which must not act on stale, lapsed or empty
lines. So, for the block only:

- **noise goes**: memories with importance ≤ :data:`TRIVIAL` (the write path marks small
  talk so), turns that are small talk or courtesies, turns of the user's that say almost
  nothing and gave no memory (:mod:`jiyi.read.noise`, for stores written before that
  mark), and the bot's own turns unless the query asks what the bot said;
- **superseded turns go**: a turn whose statement a newer memory replaced
  (``metadata["outdated_by"]``, or a memory made from it that is now superseded), so "我住在
  上海" never sits beside "用户搬到了杭州";
- **a turn hiding a secret goes**: one that a sensitive memory was made from, unless
  sensitive memories were asked for, or its values are hidden (:mod:`jiyi.read.masked`);
- **what the user said is over is not current**: a turn or memory a later turn of theirs ended by
  its words ("奶茶我戒咯", write/endings.py, ``metadata["ended_by"]``) goes under the past heading, and so
  does one that a newer turn among the same hits tells a change of (:mod:`jiyi.read.overtaken`: "煤球走了"
  beside "煤球是只黑猫");
- **lapsed things are not current**: an event past its end (and the turn it came from) is
  listed under a *past* heading with its date, and so is a plan in the week after its
  ``expires_at`` (the search gate drops it after that);
- **covered turns go**: a turn whose every clause is restated by memories made from it
  that the block shows (its facts say it better); a turn with more to say than they do
  stays ("我对花生过敏，周五要去体检" beside only the allergy);
- **weak turns go**: a raw turn whose fused relevance is below :data:`RELEVANT`, from
  another conversation than the best matches, fills the budget with chat the query has
  nothing to do with (memories made by the write path stay: they were judged worth
  keeping; turns of the best matches' session stay: "signed up for a half marathon"
  beside "training 4 days a week");
- **the choice, then the order**: ``limit`` keeps the query's best matches by search total,
  and the block orders those, adding importance and per-kind freshness to the search total:
  ``block score = total + w_imp·(importance − ½) + w_fresh·freshness + w_time·[in the
  time the query names]`` with the weights ``block_importance`` / ``block_freshness`` /
  ``block_time`` (:data:`jiyi.read.rank.DEFAULT_WEIGHTS`) and the ``half_lives`` setting
  ("上个月我去哪玩了": last month's trip before September's).
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timezone

import numpy as np

from jiyi.read.aftermath import aftermaths
from jiyi.read.agenda import ahead, asks_ahead
from jiyi.read.context import Block
from jiyi.read.gate import category_of, lapsed, lapsed_share, said_at, zone_of
from jiyi.read.masked import MASKED_KEY
from jiyi.read.nearest_change import nearest_changes
from jiyi.read.noise import (
    EN_STOP,
    ZH_STOP,
    asks_about_bot,
    asks_what_was_asked,
    content_units,
    is_noise,
    only_asks,
    says_little,
    without_mood,
)
from jiyi.read.overtaken import overtaken
from jiyi.read.profile import lasting_change, profile_records
from jiyi.read.query import asks_past
from jiyi.read.rank import freshness
from jiyi.read.standing import body_decides
from jiyi.read.timewords import MOMENT_GRACE, moment_passed, plan_passed
from jiyi.records import Hit, Kind, MemoryRecord, Scope, Status, Visibility
from jiyi.stores.protocol import Store
from jiyi.text.dates import names_a_date
from jiyi.text.done import reports_done
from jiyi.text.ended import ENDED_KEY
from jiyi.text.injection import instructs_the_bot, shows_claim
from jiyi.text.language import detect_language
from jiyi.text.probe import probe_says
from jiyi.text.smalltalk import is_chatter, is_smalltalk, without_decoration
from jiyi.text.topics import change_of
from jiyi.write.groups import group_sessions

#: Memories at or below this importance are small talk (the write path's mark).
TRIVIAL = 0.1
#: Share of a clause's words found in the block's memories for the clause to count as restated.
COVERED_SHARE = 0.6
#: Raw turns less relevant than this (fused z-score units: a good match scores 4–10,
#: an unrelated line 0–1) only pad the block; the profile carries what is needed anyway.
RELEVANT = 1.5
#: ... unless its session's lift shows it belongs to the conversation of the best matches.
SAME_TALK = 0.5
#: A clause with fewer content words than this says nothing of its own (记住 / 对了 / btw).
MIN_CLAUSE_UNITS = 3
#: A turn with at most this many content words that gave no memory is a reply to the turns before it.
REPLY_UNITS = 8
#: How many turns back a reply looks for what it answers (the bot's question, the user's plan before it).
REPLY_HOPS = 2
#: At most this many lapsed memories are listed under the past heading.
PAST_LINES = 5
#: what a turn may have given that still holds (a dated one is a happening of its day)
_LASTING = (Kind.FACT, Kind.PREFERENCE, Kind.RELATION, Kind.BEHAVIOR)

_CLAUSES = re.compile(r"[，,。.！!？?；;\n]+")
#: a speaker's name before what they said ("Nan Gu 顾南: 无锡马完赛！3:34:12"): no colon of a clock inside it
_LABEL = re.compile(r"^[^：:\n！!？?，,。]{1,32}(?:：|:\s)\s*")
_CJK = re.compile(r"[\u3400-\u9fff]")
_WORD = re.compile(r"[a-z0-9]+")


@dataclass(slots=True)
class Selection:
    """The hits a block may show: current ones and lapsed ones, each in block order."""

    current: list[Hit] = field(default_factory=list)
    past: list[Hit] = field(default_factory=list)
    idle: bool = False  # the query says next to nothing (idle_query): no turn answers it


def block_score(hit: Hit, *, at: datetime, weights: Mapping[str, float], half_lives: Mapping[str, float]) -> float:
    """The search total plus importance and freshness, as the block orders memories."""
    rec = hit.record
    total = hit.scores.get("total", 0.0)
    total += weights.get("block_importance", 0.0) * (rec.importance - 0.5)
    w_fresh = weights.get("block_freshness", 0.0)
    if w_fresh:
        total += w_fresh * freshness(rec, at, half_lives)
    if hit.scores.get("time_match"):
        total += weights.get("block_time", 0.0)
    return total


def curate(hits: Sequence[Hit], derived: Mapping[str, Sequence[MemoryRecord]], *, at: datetime, historical: bool,
           include_sensitive: bool, weights: Mapping[str, float], half_lives: Mapping[str, float],
           shown: Iterable[MemoryRecord] = (), query: str = "",
           context: Mapping[str, Sequence[MemoryRecord]] | None = None, groups: Collection[str] = (),
           query_vec: np.ndarray | None = None, model: str = "") -> Selection:
    """The hits worth a bot's prompt, split into current and past, each ordered by :func:`block_score`.

    ``derived`` maps a message id to the memories made from it (any status), for the turns
    among ``hits``; ``shown`` are memories the block carries anyway (the profile), which
    can cover turns too. The bot's own turns come only when ``query`` asks what it said.
    ``context`` maps a turn's id to the memories made from the turns just before it (see
    :func:`context_memories`): a short reply that gave nothing itself ("一个插画展" after
    "看什么展呀？") shares the lapse of the plan it answers. ``groups`` are the user's group chats (sessions
    where several people speak among ``hits`` count too): a two-word reaction there tells nothing. ``query_vec`` is
    the query's embedding by ``model``, for the idle probe.
    """
    bot_wanted, asked_wanted = asks_about_bot(query), asks_what_was_asked(query)
    past_wanted = asks_past(query)
    idle = idle_query(query, query_vec, model) and not past_wanted
    groups = {*groups, *_many_voiced(hits)}
    current: list[Hit] = []
    past: list[Hit] = []
    made_of: dict[str, list[MemoryRecord]] = {}
    shown = list(shown)
    # a condition the block shows anyway (never a number: a turn may say the dead one beside the new)
    open_ids = frozenset(r.id for r in shown
                         if r.visibility is not Visibility.NORMAL and (cats := category_of(r)) and cats <= _CONDITIONS)
    for hit in hits:
        rec = hit.record
        if rec.importance <= TRIVIAL or (rec.kind is Kind.EPISODE and _weak(hit)) or instructs_the_bot(rec.content) \
                or not shows_claim(rec.slot, query) or (idle and rec.kind is Kind.EPISODE):
            continue  # (memory poisoning — "ignore your rules", "from now on you are …", "I'm the admin" — stays out)
        made = made_of[rec.id] = _made_from(rec, derived)
        verdict = _turn_verdict(rec, made, at=at, historical=historical, bot_wanted=bot_wanted,
                                asked_wanted=asked_wanted, group=rec.session_id in groups, opened=open_ids) \
            if rec.kind is Kind.EPISODE else "keep"
        if verdict == "keep" and rec.kind is Kind.EPISODE and not made and context and context.get(rec.id) \
                and content_units(rec.content) <= REPLY_UNITS:
            verdict = _lapse_verdict([m for m in context[rec.id] if not _a_change(m)], at)
        if verdict in ("lapsed", "outdated"):
            # "last week" / "when did I…" asks for it: lowered under the past heading, not dropped. A turn a later
            # one outdated ("今天笔试考完了" before "上岸了") is still the evidence of when it happened
            verdict = "past" if hit.scores.get("time_match") or past_wanted else "drop"
        if verdict == "drop":
            continue
        if verdict == "past" or lapsed(rec, at) or (not historical and rec.metadata.get(ENDED_KEY)) \
                or (verdict == "keep" and not historical and _done_before(rec, at)):
            past.append(hit)
            continue
        current.append(hit)
    in_block = {r.id for r in shown} | {h.id for h in current if h.record.kind is not Kind.EPISODE}
    current = [h for h in current if h.record.kind is not Kind.EPISODE
               or not covered(h.record.content, [m for m in made_of[h.id] if m.id in in_block])]
    in_past = in_block | {h.id for h in past if h.record.kind is not Kind.EPISODE}
    past = [h for h in past if h.record.kind is not Kind.EPISODE
            or not covered(h.record.content, [m for m in made_of[h.id] if m.id in in_past])]

    def order(group: list[Hit]) -> list[Hit]:
        return sorted(group, key=lambda h: -block_score(h, at=at, weights=weights, half_lives=half_lives))

    return Selection(order(current), [] if idle else order(past)[:PAST_LINES], idle)


def idle_query(query: str, vector: np.ndarray | None = None, model: str = "") -> bool:
    """Does ``query`` say next to nothing ("在吗", "唉 好累啊", "喺度？", "wakaka ok lah")? Turns and past
    memories alike to it are alike in saying nothing: a block for it carries what stands (the profile, what is
    current, what is ahead), not what its words happen to resemble. Given the query's ``vector`` by ``model``, the
    idle probe (text/probe.py, 1,193 messages written blind) also reads small talk in words no list has ("嗨呀 今朝落雨
    冻煞了", "Morning! Bit nippy out, eh?")."""
    if not query.strip() or _ASKS.search(query) is not None:
        return False
    rest = without_mood(query)  # "今天心情不错嘿嘿", "有点emo 随便聊聊", "ugh so tired today": a mood, nothing asked
    if any(said is not None and (not said or says_little(said) and not _names_something(said))
           for said in (query, rest)):
        return True
    return probe_says("idle", vector, model, IDLE_CHANCE)


#: the idle probe's chance from which a query is small talk (on blind24–26's 933 probe queries: 38 of 57 "noise"
#: queries, none of the 876 others)
IDLE_CHANCE = 0.8


def _names_something(query: str) -> bool:
    """Does ``query`` name a thing, however few its words ("签证 续签", "Zorblax", "vexholm ski")? A Latin word that is
    no small talk, laughter or particle (wakaka, lah), or a Chinese noun of two characters or more (喺度, a
    dialect's "there", is tagged an other proper noun, nz: not counted)."""
    from jiyi.text.lexical import tagged

    text = without_decoration(query)  # [玫瑰] is a sticker
    if any(not (is_smalltalk(w) or _LAUGH_OR_PARTICLE.match(w)) for w in re.findall(r"[A-Za-z][A-Za-z'-]+", text)):
        return True
    return any(len(word.strip()) >= 2 and tag in _NAMING_TAGS and _CJK_WORD.search(word) for word, tag in tagged(text))


#: laughter and particles typed in Latin letters: hahaha, wakaka, hehe, lah, leh, lor, meh
_LAUGH_OR_PARTICLE = re.compile(r"(?i)^(?:(?:ha|he|hi|ho|ka|wa|xi|ja|la|lo|ke)+h?|lah|leh|lor|meh|mah|ah|eh|oh|uh|ya|"
                                r"yah|yea|yeah|hm+|ugh|omg|lol|lmao|xd)$")
_CJK_WORD = re.compile(r"[\u4e00-\u9fff]")
#: the lexical analyser's tags of a name or a thing
_NAMING_TAGS = frozenset({"n", "nr", "ns", "nt", "nw", "ORG", "PER", "LOC"})


#: a query asking for something, however few its words ("帮我安排一下", "推荐点", "what now?")
_ASKS = re.compile(r"帮|幫|推荐|推薦|建议|建議|咩|乜|點樣|点样|边度|邊度|几时|幾時|安排|提醒|告诉|说说|讲讲|列|查|算|写|找|咋|"
                   r"怎么|如何|什么|啥|哪|几[点天号个时]|多少|谁|为什么|要不要|能不能|可以|记得|"
                   r"\b(?:help|recommend|suggest|remind|plan|what|whats|when|where|how|who|which|why|should|can|could|tell|list|"
                   r"find)\b", re.IGNORECASE)


def _weak(hit: Hit) -> bool:
    """A turn matching the query weakly, outside the conversation of the best matches and the time it names,
    and not one a reranker rated above its other candidates (its judgment outranks the first stage's), nor
    one the query's topic called for (a condition that decides it, read/standing.py), nor one that replaced or
    ended a memory the query found (it tells what is now: read/boosts.successor_lifts)."""
    return (hit.scores.get("relevance", RELEVANT) < RELEVANT and hit.scores.get("session", 0.0) <= SAME_TALK
            and not hit.scores.get("time_match") and hit.scores.get("rerank_z", 0.0) <= 0.0
            and not hit.scores.get("standing_topic") and not hit.scores.get("successor"))


def _made_from(rec: MemoryRecord, derived: Mapping[str, Sequence[MemoryRecord]]) -> list[MemoryRecord]:
    if rec.kind is not Kind.EPISODE:
        return []
    out = {r.id: r for sid in rec.source_ids for r in derived.get(sid, ())
           if r.kind not in (Kind.EPISODE, Kind.SUMMARY) and r.id != rec.id}
    return list(out.values())


def _many_voiced(hits: Sequence[Hit]) -> set[str]:
    """The sessions among ``hits`` where more than one person speaks as the user (a group chat stored under
    the group's id, each turn with its speaker's name)."""
    voices: dict[str, set[str]] = {}
    for h in hits:
        rec = h.record
        if rec.kind is Kind.EPISODE and rec.session_id and rec.speaker and rec.metadata.get("role") != "assistant":
            voices.setdefault(rec.session_id, set()).add(rec.speaker)
    return {session for session, names in voices.items() if len(names) > 1}


#: the sensitive categories of a condition of the body (read/gate.py)
_CONDITIONS = frozenset({"health", "diet_health", "outing_health", "sight_health", "allergy"})


def _turn_verdict(rec: MemoryRecord, made: Sequence[MemoryRecord], *, at: datetime, historical: bool,
                  bot_wanted: bool, asked_wanted: bool = False, group: bool = False,
                  opened: Collection[str] = frozenset()) -> str:
    """"drop", "past", "keep", "lapsed" or "outdated" (what a later turn replaced) for a raw turn, from its
    text and the memories made from it; ``opened`` are the sensitive memories the block shows anyway (a condition
    the query opened): a turn that told one says nothing more of it ("硬派那个月卡没续 改去游泳 膝盖不好跑不了步")."""
    bot = rec.metadata.get("role") == "assistant"
    if (bot and not bot_wanted) or is_noise(rec.content, assistant=bot):
        return "drop"
    if not made and (says_little(rec.content, group=group) or (not bot and not asked_wanted and only_asks(rec.content))):
        return "drop"  # "面包店关门了吗？" asked once tells the bot nothing now
    if any(m.visibility is not Visibility.NORMAL and m.id not in opened for m in made) \
            and not rec.metadata.get(MASKED_KEY):
        return "drop"  # a sensitive value, even asked for, is the memory's to show: the turn may say an old one beside it
    replaced = [m for m in made if m.status is Status.SUPERSEDED]
    until_later = bool(replaced) and all(m.valid_until is not None and m.valid_until > at for m in replaced)
    if not historical and (rec.metadata.get("outdated_by") or replaced) and not until_later:
        return "outdated"  # (a change still ahead, "moving to Austin in January", leaves it true until then)
    verdict = _lapse_verdict(made, at)
    if verdict == "keep" and not bot and not any(
            m.status is Status.ACTIVE and m.kind in _LASTING and not names_a_date(m.content) for m in made) \
            and moment_passed(rec.content, rec.valid_from or rec.created_at, at):
        return "past"  # "heading to cottesloe this arvo" said weeks ago: that afternoon is over
    return verdict


def _done_before(rec: MemoryRecord, at: datetime) -> bool:
    """Did the user's turn, or a memory of no standing state, report something done (刚从青岛回来, 面试过了,
    "just got back from Lisbon") days before ``at``? It told of its day: history now, not a plan or news."""
    if rec.kind not in (Kind.EPISODE, Kind.FACT) or rec.slot or rec.metadata.get("role") == "assistant":
        return False
    said = rec.valid_from or rec.created_at
    text = _LABEL.sub("", rec.content)  # the speaker's name before it ("丁丁今天也要加油：成都回来了") says nothing of it
    lang = detect_language(text)
    return said + MOMENT_GRACE <= at and reports_done(text, lang) and change_of(text, lang) is None


def _a_change(rec: MemoryRecord) -> bool:
    """Does ``rec`` tell a change whose outcome lasts (sold the car, moved, quit)? A reply to it ("bike +
    train") tells the state after it, which does not lapse with the day it happened."""
    return change_of(rec.content, detect_language(rec.content)) is not None


def _lapse_verdict(made: Sequence[MemoryRecord], at: datetime) -> str:
    """"keep" unless every memory of ``made`` is over: "past", or "lapsed" a week past its expiry."""
    ended = [m for m in made if m.status is Status.EXPIRED or lapsed(m, at)]
    if not ended or any(m.status is Status.ACTIVE and (not lapsed(m, at) or lasting_change(m)) for m in made):
        return "keep"  # nothing of it ended, or it still says something current (搬家了 → 住在杭州; a move at the end
        # of last month: its day is over, where it went is not)
    if any(lapsed_share(m, at) >= 1.0 for m in ended):
        return "lapsed"  # a plan a week past its expiry (lunch three months ago) is gone, unless asked for by time
    return "past"


def _units(text: str) -> set[str]:
    """Content characters (Chinese) and words (other scripts) of ``text``."""
    low = text.lower()
    return {c for c in _CJK.findall(low) if c not in ZH_STOP} | {w for w in _WORD.findall(low)
                                                                    if w not in EN_STOP and len(w) > 1}


def covered(text: str, statements: Sequence[MemoryRecord]) -> bool:
    """Does every clause of the turn ``text`` have :data:`COVERED_SHARE` of its words in ``statements``
    (memories made from it that the block shows)?"""
    units = _units(" ".join(r.content for r in statements))
    if not units:
        return False
    for clause in _CLAUSES.split(text):
        own = _units(clause)
        if len(own) < MIN_CLAUSE_UNITS or is_noise(clause, assistant=False):
            continue
        if len(own & units) < COVERED_SHARE * len(own):
            return False
    return True


#: Profile memories that may cover a turn (those likely to be shown).
PROFILE_COVERS = 10


def assemble(store: Store, scope: Scope, hits: Sequence[Hit], *, query: str, limit: int, at: datetime,
             historical: bool, include_sensitive: bool, weights: Mapping[str, float],
             half_lives: Mapping[str, float], query_vec: np.ndarray | None = None, model: str = "") -> Block:
    """The profile, the curated found memories (at most ``limit``) and the past ones for a block."""
    profile = profile_records(store, scope, at=at, historical=historical, include_sensitive=include_sensitive,
                              query=query, body=query_vec is not None and body_decides(query_vec, model))
    sources = list(dict.fromkeys(s for h in hits if h.record.kind is Kind.EPISODE for s in h.record.source_ids))
    derived = store.find_by_sources(scope, sources) if sources else {}
    context = context_memories(store, scope, hits, derived)
    sel = curate(hits, derived, at=at, historical=historical, include_sensitive=include_sensitive,
                 weights=weights, half_lives=half_lives, shown=profile[:PROFILE_COVERS], query=query,
                 context=context, groups=group_sessions(store, scope), query_vec=query_vec, model=model)
    standing = [Hit(r, 1.0, {"profile": 1.0}) for r in profile]
    shown = [*sel.current, *standing]  # (a profile line too: 用户最爱螺蛳粉)
    changes = {} if historical else nearest_changes(store, scope, shown, at=at, model=model)
    tellers: dict[str, MemoryRecord] = {}
    moved = set() if historical else overtaken(shown, hits, vectors=_turn_vectors(store, scope, hits),
                                               model=model, tellers=tellers) | set(changes)
    changes = {**tellers, **changes}  # the turn that told a change is shown in the old line's place too
    follows = {} if historical or sel.idle else aftermaths(store, scope, [h for h in shown if h.id not in moved], at=at)
    if moved or follows:
        have = {h.id for h in [*sel.current, *sel.past]} | {r.id for r in profile}
        turns = {t.id: t for t in [*changes.values(), *follows.values()]}
        sources = list(dict.fromkeys(s for t in turns.values() for s in t.source_ids))
        replaced = {t.id for t in changes.values()}
        gate = curate([Hit(t, 1.0, {"successor": 1.0, "time_match": float(t.id not in replaced)})
                       for t in turns.values()], store.find_by_sources(scope, sources) if sources else {}, at=at,
                      historical=False, include_sensitive=include_sensitive, weights=weights, half_lives=half_lives,
                      shown=profile[:PROFILE_COVERS], query=query)
        # a change shown as what holds now tells no plan that is over ("十一拉着老伴去威海耍三天 车先不跑了"); an
        # answer after an ending may ("下礼拜一去苏州工业园报到": the job it started holds)
        fit = {h.id for h in gate.current if not plan_passed(h.record.content, said_at(h.record), at,
                                                             tz=zone_of(h.record, timezone.utc))}
        told = {h.id for h in [*gate.current, *gate.past]}
        sel = _moved_past(sel, standing, moved, {line: t for line, t in changes.items() if t.id in fit}, have)
        sel = _followed(sel, standing, {line: t for line, t in follows.items() if t.id in told}, have)
        profile = [r for r in profile if r.id not in moved]
    chosen = {h.id for h in sorted(sel.current, key=lambda h: -h.scores.get("total", 0.0))[: max(0, limit)]}
    found = [h for h in sel.current if h.id in chosen]  # the query's best ``limit``, in block order
    if is_chatter(query):  # "早上好" / "morning!": turns found by a greeting are other greetings, no context
        found = [h for h in found if h.record.kind is not Kind.EPISODE]
    if not historical and asks_ahead(query):  # "最近有啥安排": the events ahead, whatever their words
        have = {h.id for h in [*found, *sel.past]} | {r.id for r in profile}
        found += [Hit(r, 1.0, {"agenda": 1.0}) for r in ahead(store, scope, at=at) if r.id not in have]
    return Block(found=found, profile=[Hit(r, 1.0, {"profile": 1.0}) for r in profile], past=sel.past)


def _turn_vectors(store: Store, scope: Scope, hits: Sequence[Hit]) -> dict[str, np.ndarray]:
    """The embeddings of the user's turns among ``hits`` (for the change probe)."""
    ids = [h.id for h in hits if h.record.kind is Kind.EPISODE and h.record.metadata.get("role") != "assistant"]
    return store.vectors(scope, ids) if ids else {}


def _moved_past(sel: Selection, standing: Sequence[Hit], moved: Collection[str], changes: Mapping[str, MemoryRecord],
                have: Collection[str]) -> Selection:
    """``sel`` with the ``moved`` lines (of its current ones and the profile, ``standing``) under the past heading,
    and the turn that changed each (``changes``: a line's id to its nearest newer change, those a block may show as
    current by :func:`curate`: no chatter, no instruction to the bot, no plan over) shown in its place."""
    total = _totals(sel, standing)
    now = {} if sel.idle else {t.id: Hit(t, 1.0, {"change": 1.0, "total": total.get(line, 0.0)})
                               for line, t in changes.items() if t.id not in have}
    gone = [h for h in [*sel.current, *standing] if h.id in moved]  # with the past ones, best answer first
    past = [] if sel.idle else sorted([*gone, *sel.past], key=lambda h: -h.scores.get("total", 0.0))[:PAST_LINES]
    return Selection([*now.values(), *(h for h in sel.current if h.id not in moved)], past, idle=sel.idle)


def _totals(sel: Selection, standing: Sequence[Hit]) -> dict[str, float]:
    """The score of each current line of ``sel`` and of the profile (``standing``), by id: a line shown in another's
    place takes that line's."""
    return {h.id: h.scores.get("total", 0.0) for h in [*sel.current, *standing]}


def _followed(sel: Selection, standing: Sequence[Hit], follows: Mapping[str, MemoryRecord],
              have: Collection[str]) -> Selection:
    """``sel`` with the user's answer after each ending line (``follows``: :mod:`jiyi.read.aftermath`) as current,
    at the ending line's score."""
    total = _totals(sel, standing)
    shown = set(have) | {h.id for h in sel.current}
    now = {t.id: Hit(t, 1.0, {"aftermath": 1.0, "total": total.get(line, 0.0)})
           for line, t in follows.items() if t.id not in shown}
    return Selection([*now.values(), *sel.current], sel.past, idle=sel.idle) if now else sel


def context_memories(store: Store, scope: Scope, hits: Sequence[Hit],
                     derived: Mapping[str, Sequence[MemoryRecord]]) -> dict[str, list[MemoryRecord]]:
    """For each short turn among ``hits`` that gave no memory: the memories made from the
    :data:`REPLY_HOPS` turns before it in its conversation (``metadata["prev_id"]``)."""
    prev: dict[str, str] = {}  # hit id -> message id of the turn before
    for h in hits:
        rec = h.record
        if rec.kind is not Kind.EPISODE or content_units(rec.content) > REPLY_UNITS:
            continue
        if any(r.kind not in (Kind.EPISODE, Kind.SUMMARY) and r.id != rec.id
               for sid in rec.source_ids for r in derived.get(sid, ())):
            continue
        p = rec.metadata.get("prev_id")
        if isinstance(p, str):
            prev[h.id] = p
    out: dict[str, list[MemoryRecord]] = {k: [] for k in prev}
    frontier = dict(prev)
    for _ in range(REPLY_HOPS):
        if not frontier:
            break
        found = store.find_by_sources(scope, list(set(frontier.values())))
        nxt: dict[str, str] = {}
        for hid, mid in frontier.items():
            for r in found.get(mid, ()):
                if r.kind is Kind.EPISODE:
                    p = r.metadata.get("prev_id")
                    if isinstance(p, str):
                        nxt[hid] = p
                elif r.kind is not Kind.SUMMARY:
                    out[hid].append(r)
        frontier = {k: v for k, v in nxt.items() if not out[k]}  # the nearest turn that gave something answers
    return {k: v for k, v in out.items() if v}
