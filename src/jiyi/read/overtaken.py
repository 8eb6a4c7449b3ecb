"""A turn the block would show as current that a newer turn beside it changed (``build_context`` only).

The write path ends an old turn when a change names it or its vector stands out among all the speaker's turns
(write/like_turns.py, write/rearranged.py). Often neither holds: "我在顺丰当快递员" before "快递不干了 辞了",
"12 hours on the cardiac ward at Leeds General" before "handed in my notice at Leeds General", "在果趣直播上卖货"
before "果趣那边流量越来越差 我搬到村播宝去了". The query that finds both ties them to one topic, which no single
turn could: when a turn of the speaker's the block shows as current states something standing, and a newer turn
of theirs among the same search's hits tells a change (:func:`jiyi.text.topics.change_of`, or a routine moved or
swapped) of the family that turn stands in, or names a thing both say (not a person, a word of time, or a noun
any two turns share), the older turn goes under the past heading, with the memories made of it that have no
slot (a slotted one is its slot's to end); so does an unslotted memory the change speaks of. A newer memory of the
speaker's tells a change too: one the write path read as a change ("Kite搬到了Brightwater", "老大跟她分了（不再是
伴侣）"), or the value of a single-valued slot ("Tomasz W. works at Pulsewell") that the older turn, standing in
the slot's family, does not say.

A change no topic rule reads ends what it names too, when the broad reading (:func:`jiyi.text.changed.tells_change`,
given the turns' vectors the change probe) finds one: "健身房也換了 原本那間太遠 現在去家附近的鐵山健身" ends
"健身房是去北屯那間動力圈". Of a relative the user has one of (a husband, a mother-in-law), a newer memory that tells
their change ends an older one in that family: "用户的婆婆回连江了" ends "用户的婆婆从连江过来帮忙带".

A question, a hedge, an instruction, someone else's change ("他也搬了", "my labmate Josh is moving") is no change;
a move ends a home, not what it names after its verb (the pet that moves along), but what it names before it
(果趣那边流量越来越差 我搬到村播宝去了; not a place, which stays what it was); a turn that says where the change
goes is no old state. With ``historical`` (a query about the past at a moment) nothing moves.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime

import numpy as np

from jiyi.read.noise import EN_STOP
from jiyi.read.owner import owned_by
from jiyi.records import Hit, Kind, MemoryRecord
from jiyi.text import liking, qualifiers, subjects, topics, zh
from jiyi.text.changed import CONDITION, tells_change
from jiyi.text.commute import commutes_otherwise
from jiyi.text.consumption import kinds_of
from jiyi.text.entities import find_entities
from jiyi.text.injection import instructs_the_bot
from jiyi.text.language import detect_language
from jiyi.text.person import of_speaker
from jiyi.text.renumbered import renumbers
from jiyi.text.script import simplified
from jiyi.text.turn_topics import TURN_CLAUSE, turn_families
from jiyi.text.wordlists import words
from jiyi.write.like_turns import states_any
from jiyi.write.rearranged import COMMON_NAMES, WHEN, change_cue
from jiyi.write.resolve import as_user, lang_of, topic_change

log = logging.getLogger("jiyi.read.overtaken")

#: changes that say their family without naming its thing: a move is of a home, a breakup or a wedding of a
#: partner, a job taken or left of a job
_OWN_FAMILY = frozenset({"move", "end", "marry", "join", "leave"})


def overtaken(current: Sequence[Hit], found: Sequence[Hit], *, vectors: Mapping[str, np.ndarray] | None = None,
              model: str = "", tellers: dict[str, MemoryRecord] | None = None) -> set[str]:
    """The ids of turns and unslotted memories in ``current`` (the block's current hits) that a newer turn or
    memory of the same speaker among ``found`` (the search's hits) tells a change of, and of the unslotted memories
    in ``current`` made of such a turn. ``vectors`` (the turns' embeddings by ``model``) let the change probe read
    a change no rule knows. ``tellers``, when given, gets each such line's id mapped to the turn of the speaker's
    that told its change (what holds now, for the block to show in its place)."""
    vectors = vectors or {}
    by_rule: set[str] = set()  # the turns a rule reads as a change (the probe's broad reading may be a plain statement)
    changes = []
    for rec in _user_turns(found):
        if (told := _told(rec)) is not None:
            by_rule.add(rec.id)
        if told := told or _told_by_feeling(rec) or _told_broadly(rec, vectors.get(rec.id), model):
            changes.append(_feeling_of(told))
    changes += [told for rec in _user_memories(found) if (told := _told_by_memory(rec)) is not None]
    if log.isEnabledFor(logging.DEBUG):  # (the list is built only for the debug switch: this runs per block)
        log.debug("tellers: %s", [(c.rec.content[:40], c.rec.speaker, sorted(c.families), c.goes_to) for c in changes])
    out: set[str] = _of_others(current, found) | _corrected(current, found) | _of_relatives(current) \
        | _said_again(current, found, tellers)
    if not changes:
        return out
    for old in [*_user_turns(current), *_statements(current, slotted=any(c.feeling for c in changes))]:
        newer = [c for c in changes if _may_end(c.rec, old)]
        if not newer:
            continue
        state, stands = _State.of(old), states_any(old)
        if not stands and not state.feeling:  # ("ramen is my love language" states a feeling)
            continue
        if (by := next((c for c in newer if (state.turned(c) or stands and not old.slot and state.spoken_of(c))
                        and not state.says(c.goes_to)), None)) is not None:
            log.debug("turn %r overtaken by %r", old.content[:60], by.rec.content[:60])
            out.add(old.id)
            if tellers is not None and by.rec.id in by_rule:
                tellers[old.id] = by.rec
    told = {s for h in current if h.id in out for s in h.record.source_ids}
    # what was made of such a turn without a slot of its own says the same old state ("用户：天天被甲方虐")
    return out | {h.id for h in current if h.record.kind is not Kind.EPISODE and not h.record.slot
                  and h.record.source_ids and set(h.record.source_ids) <= told
                  and not _BODY.search(h.record.content)}  # (the ulcer a trucker's turn told outlasts the job)


@dataclass(frozen=True, slots=True)
class _Told:
    """A change a newer turn or memory tells, read once: the families it changes, its names (not its people), where
    it goes (the words after a "to" change's verb, or a slot's value) and what a move leaves."""

    rec: MemoryRecord
    families: frozenset[str]
    names: frozenset[str]
    goes_to: tuple[str, ...]
    left: frozenset[str] = frozenset()  # what a change "to" leaves, named before its verb (果趣那边…我搬到…)
    to: bool = False  # a change to somewhere (a move, a job taken, a wedding): what it names after its verb is new
    feeling: int = 0  # a feeling said of what it names (text/liking.py): the opposite one before it is over
    felt_of: frozenset[str] = frozenset()  # what that feeling may be about

    @classmethod
    def of(cls, rec: MemoryRecord, text: str, change: topics.Change | None, families: frozenset[str],
           lang: str) -> _Told:
        if change is None:
            return cls(rec, families, _things(text), ())
        to = change.direction == "to"
        goes_to = topics.object_words(text[change.at:], lang, 0) if to else ()
        left = _things(_left_behind(text[:change.start])) if to else frozenset()
        names = _things(text) | (_consumed(text) if change.cls == "stop" else frozenset())  # (戒了 Sampoerna: smoking)
        return cls(rec, families, names, goes_to, left - _places(text) if change.cls == "move" else left, to)


def _told(rec: MemoryRecord) -> _Told | None:
    if (families := _change_families(rec)) is None:
        return None
    lang = detect_language(rec.content)
    return _Told.of(rec, rec.content, topics.change_of(rec.content, lang), families, lang)


def _told_by_feeling(rec: MemoryRecord) -> _Told | None:
    """A feeling of the speaker's about what the turn names ("螺蛳粉吃伤了 现在闻到就想吐", "so sick of ramen now"):
    an older turn that felt the other way about a thing both name no longer holds."""
    if (stated := _stated(rec)) is None or _someone_elses(*stated) or not liking.feeling(*stated):
        return None
    return _Told(rec, frozenset(), frozenset(), ())  # (no names: it ends nothing but a feeling turned over)


def _told_broadly(rec: MemoryRecord, vector: np.ndarray | None, model: str) -> _Told | None:
    """A change of the speaker's that no topic rule reads but the broad reading does (:func:`tells_change`: its
    words, or given its vector the change probe: "健身房也換了 原本那間太遠 現在去家附近的鐵山健身"). It names no
    family, so it ends an older turn that names a thing it names (健身房), as a change of a routine does."""
    if (stated := _stated(rec)) is None or _someone_elses(*stated) \
            or topics.change_of(*stated) is not None:  # (a change the rules read, and found not the speaker's)
        return None
    if not tells_change(rec.content, vector, model):
        return None
    return _Told(rec, frozenset(), _things(stated[0]), ())


def _feeling_of(told: _Told) -> _Told:
    """``told`` with the feeling its turn says, and what that feeling may be about."""
    text = simplified(told.rec.content.strip())
    lang = detect_language(text)
    if not (felt := liking.feeling(text, lang)):
        return told
    return replace(told, feeling=felt, felt_of=_things(text) | liking.liked_objects(text, lang, EN_STOP))


def _told_by_memory(rec: MemoryRecord) -> _Told | None:
    """A change a memory of the speaker's tells: one the write path read ("Kite搬到了Brightwater", "老大跟她分了
    （不再是伴侣）"), or a single-valued slot's value ("Tomasz W. works at Pulsewell"): a turn before it that stands
    in the slot's family and does not say the value told an old one."""
    lang = lang_of(rec)
    if (change := topic_change(rec)) is not None:
        text = simplified(as_user(rec.content, rec.speaker, lang))
        return _Told.of(rec, text, change, _of_its_families(change, text, lang), lang)
    if not rec.slot or not (families := topics.families_of(rec.content, rec.slot, lang) & topics.SINGLE):
        return None
    value = tuple(n for n in _naming(as_user(rec.content, rec.speaker, lang)) if n not in _VALUELESS)
    return _Told(rec, families, frozenset(), value) if value else None


def _may_end(new: MemoryRecord, old: MemoryRecord) -> bool:
    """Is ``new`` said after ``old``, of other messages, and by the same speaker? An old memory ended by a turn
    names whom it is of in its words ("用户…", "阿强…"); a memory that tells a change is said when it was recorded
    (an event's valid_from is its day)."""
    told = new.created_at if new.kind is not Kind.EPISODE else _said(new)
    same_speaker = (new.speaker or None) == (old.speaker or None)
    return new.id != old.id and told > _said(old) and old.id not in new.source_ids \
        and not set(new.source_ids) & set(old.source_ids) \
        and ((old.kind is not Kind.EPISODE and new.kind is Kind.EPISODE) or same_speaker)


@dataclass(frozen=True, slots=True)
class _State:
    """An older turn or memory, read once: the families it stands in, its names, whether it tells of the body."""

    low: str
    families: frozenset[str]
    names: frozenset[str]
    body: bool
    feeling: int = 0
    liked: frozenset[str] = frozenset()  # what its feeling may be about beyond its names

    @classmethod
    def of(cls, rec: MemoryRecord) -> _State:
        lang = detect_language(rec.content)
        when = WHEN.get(lang, WHEN["en"])
        said = as_user(rec.content, rec.speaker, lang)  # (a memory's subject, 用户 or the speaker's name, is no topic)
        names = {n for n in _naming(said) if n not in COMMON_NAMES and n not in _GENERIC and not when.search(n)}
        felt = liking.feeling(simplified(said), lang)
        liked = liking.liked_objects(simplified(said), lang, EN_STOP) if felt else set()
        return cls(rec.content.lower(), turn_families(rec.content, lang),
                   frozenset(names - _people(rec.content)) | _consumed(said),
                   _BODY.search(rec.content) is not None, felt, frozenset(liked - {(rec.speaker or "").lower()}))

    def spoken_of(self, change: _Told) -> bool:
        """Does ``change`` speak of this state: the changed family's word in it, or a name both say (not a person:
        跟小棠商量过了)?"""
        if change.families & self.families:
            return True
        if change.to or "residence" in change.families:  # what a change to somewhere names after its verb is new or
            return bool(self.names & change.left)  # goes along (糯米也带走, 12月1日入职 房子还得去南宁找); before it,
            # what it leaves (果趣那边…)
        if self.body:
            return False  # an allergy or a condition is ended by words about it, never by a name shared with a change
        return bool(self.names & change.names)

    def turned(self, change: _Told) -> bool:
        """Does ``change`` feel the other way about a thing this state feels about (超爱螺蛳粉 → 螺蛳粉吃伤了)?"""
        return bool(change.feeling) and self.feeling == -change.feeling \
            and bool((self.names | self.liked) & change.felt_of)

    def says(self, words: Sequence[str]) -> bool:
        """Does it already say where the change goes (it is the plan of it, or the same news)?"""
        return any(len(w) >= 2 and w.lower() in self.low for w in words)


def _user_turns(hits: Sequence[Hit]) -> list[MemoryRecord]:
    return [h.record for h in hits if h.record.kind is Kind.EPISODE and h.record.metadata.get("role") != "assistant"]


def _user_memories(hits: Sequence[Hit]) -> list[MemoryRecord]:
    """The memories of ``hits`` made of what the speaker said (not a raw turn, not a summary)."""
    return [h.record for h in hits if h.record.kind in _TELLING and h.record.metadata.get("role") != "assistant"]


_TELLING = frozenset({Kind.FACT, Kind.BEHAVIOR, Kind.PREFERENCE, Kind.EVENT, Kind.RELATION})


def _statements(hits: Sequence[Hit], *, slotted: bool = False) -> list[MemoryRecord]:
    """The memories of ``hits`` that state something without a slot (a slotted one is its slot's to end, but for a
    feeling turned over: no slot holds one thing liked and then disliked), or with one too (``slotted``)."""
    return [h.record for h in hits if h.record.kind in _STATEMENTS and (slotted or not h.record.slot)]


_STATEMENTS = frozenset({Kind.FACT, Kind.BEHAVIOR, Kind.PREFERENCE})


def _said(rec: MemoryRecord) -> datetime:
    return rec.valid_from or rec.created_at


def _stated(rec: MemoryRecord) -> tuple[str, str] | None:
    """``rec``'s words (simplified) and their language when they state something: None for a question, a hedge or
    an instruction to the bot, which tell no change."""
    text = simplified(rec.content.strip())
    lang = detect_language(text)
    if text.endswith(("?", "？", "吗")) or qualifiers.hedged(text, lang) or instructs_the_bot(text):
        return None
    return text, lang


def _change_families(rec: MemoryRecord) -> frozenset[str] | None:
    """The families a turn of the speaker's tells a change of (empty: a change of a routine, found by the names
    it shares), or None when it tells none: a question, a hedge, an instruction, someone else's."""
    if (stated := _stated(rec)) is None:
        return None
    text, lang = stated
    if (change := topics.change_of(text, lang)) is not None:
        if not _the_speakers(text[:change.start], lang):
            return None  # "我表哥把他那半挂卖了", "my labmate Josh is moving" (not "汤圆送给楼下阿姨养了")
        return _of_its_families(change, text, lang)
    cue = change_cue(rec)  # a routine moved or swapped; a contrast ("现在只喝柠檬水") is too weak a word here
    return frozenset() if cue is not None and not cue[1] and not _someone_elses(text, lang) else None


def _of_its_families(change: topics.Change, text: str, lang: str) -> frozenset[str]:
    """The families ``change`` names in ``text``, or its own (a move is of a home, a job left of a job)."""
    return frozenset(f for f in change.families if change.cls in _OWN_FAMILY or topics.cue_of(f, text, lang))


def _someone_elses(text: str, lang: str) -> bool:
    return subjects.someone_elses(of_speaker(text, lang), lang)


def _the_speakers(before: str, lang: str) -> bool:
    """Is the change whose verb follows ``before`` (the turn up to it) the speaker's? The nearest clause naming
    someone tells: another person ("他也搬了 搬去双流了", "我最好的朋友 Nadia 下个月搬去…"), or the speaker; no one
    named at all is the speaker too."""
    from jiyi.text.lexical import entities

    for clause in reversed(TURN_CLAUSE.split(before)):
        said = of_speaker(clause, lang)
        if subjects.someone_elses(said, lang) or _OTHER.search(said):
            return False
        if _SELF.search(said):
            return True
        if entities(clause).get("PER") if lang == "zh" else _NAMED_SUBJECT.search(clause):
            return False  # 晓雯换工作了, "Kelvin just got transferred": a person named, not the speaker
    return True


#: another person, or the speaker, as a clause says them in third person
_OTHER = re.compile(r"[他她]|\b(?i:he|she|they|his|her|their)\b|\bUser's\s+(?:\w+\s+)?(?i:\w*mates?|friends?|[bg]f|"
                    r"boyfriend|girlfriend|partner|wife|husband|mum|mom|dad|sister|brother|cousin|colleague|"
                    r"co-?worker|boss|neighbou?r|kids?|son|daughter)\b")
_SELF = re.compile(r"用户|\bUser\b")


def _people(text: str) -> set[str]:
    """The people ``text`` names (the lexical analyser's PER, 小棠, 王秀兰) and the words for family (老伴)."""
    from jiyi.text.lexical import entities

    return {w.lower() for w in entities(text).get("PER", ())} | {w for w in _KIN if w in text}


def _consumed(text: str) -> frozenset[str]:
    """What ``text`` consumes, by kind (text/consumption.py: a category covers its brands, "一天一包红旗渠" and "Rokok
    sehari setengah bungkus" are smoking), as names a habit given up shares with it."""
    return frozenset(f"kind:{k}" for k in kinds_of(text))


def _things(text: str) -> frozenset[str]:
    """The names and nouns of ``text`` that are not people."""
    return frozenset(_naming(text) - _people(text))


def _left_behind(before: str) -> str:
    """Of the words before a change's verb, those of what it leaves: the clauses before its own, and in its own
    what follows 从 / 离开 / from (带着糯米搬去… names what goes along)."""
    *earlier, own = TURN_CLAUSE.split(before)
    if (start := _FROM.search(own)) is not None:
        earlier.append(own[start.end():])
    return " ".join(earlier)


_FROM = re.compile(r"从|离开|(?i:\bfrom\b)")


def _places(text: str) -> frozenset[str]:
    """The places ``text`` names: a move leaves a city, but what is said of the city stays (成都的火锅)."""
    from jiyi.text.lexical import entities

    return frozenset(w.lower() for w in entities(text).get("LOC", ()))


def _naming(text: str) -> set[str]:
    """The names and nouns of ``text`` (北京, 实习, 汤圆, Moonbeet, N2), lower-cased: what two turns about one thing
    share, unlike two characters that happen to stand side by side in both (去医, 吃顿)."""
    found = {e.lower() for e in find_entities(text, detect_language(text))
             if not e.isdigit() and len(e) >= 2 and e.lower() not in EN_STOP}
    if _HAN.search(text):  # (a Latin word among Chinese is a name when the entity finder says so: N2, Pixel)
        found |= {w for w, tag in zh.pos_tags(text) if len(w) >= 2 and tag[:1] == "n"}
    return found | compact_names(text)


#: Latin words written apart that make one name ("VS Code", "Wi-Fi", "Post-it")
_PARTS = re.compile(r"(?<![A-Za-z0-9])[A-Za-z][A-Za-z0-9]*(?:[ \-_.][A-Za-z0-9]+)+(?![A-Za-z0-9])")


def compact_names(text: str) -> set[str]:
    """Names of ``text`` written in parts, run together and lower-cased: "VS Code" is the "vscode" another turn
    types, "Wi-Fi" its "wifi" (words apart only when both are capitalised)."""
    out: set[str] = set()
    for run in _PARTS.finditer(text):
        parts = re.split(r"([ \-_.])", run.group(0))  # words and what stands between them
        for a, sep, b in zip(parts[::2], parts[1::2], parts[2::2]):
            if len(a + b) >= 4 and (sep != " " or (a[:1].isupper() and b[:1].isupper())):
                out.add((a + b).lower())  # (words apart are one name when both are capitalised: "New York")
    return out


_HAN = re.compile(r"[\u4e00-\u9fff]")
#: nouns any two turns may share (东西都寄走了 / 给我推东西)
_GENERIC = words("东西 事情 事儿 地方 感觉 问题 情况 样子 意思 时间 办法 生活 客户 用户 user")
#: what the body has (过敏, 哮喘, allergic) and what a doctor said of it: no change of another thing ends it
_BODY = re.compile(r"(?i)过敏|不耐受|哮喘|糖尿病|高血压|溃疡|医生|大夫|医嘱|allerg|intoleran|asthma|diabet|ulcer|doctor")
#: the words of a slotted memory that are not its value (用户, 工作)
_VALUELESS = words("用户 工作 公司 user")
#: words for the people of anyone's family: shared, they are no topic
_KIN = words("老伴 老婆 老公 媳妇 对象 孩子 儿子 女儿 闺女 爸 妈 哥 姐 弟 妹 室友 家人")


def _of_others(current: Sequence[Hit], found: Sequence[Hit]) -> set[str]:
    """The turns and memories in ``current`` about someone whom a newer turn of the speaker's among ``found`` tells a
    change of, in a family the older one stands in: "闺女晓雯在南京一家银行上班" before "晓雯换工作了 不在银行干了 去了…
    设计院"; "my bro Kelvin is an engineer in Penang" before "Kelvin just got transferred to Singapore" (a move ends
    what names a place)."""
    changes = [told for rec in _user_turns(found) if (told := _others_change(rec)) is not None]
    out: set[str] = set()
    relations = [h.record for h in current if h.record.kind is Kind.RELATION]  # (老板是瑞典人 Henrik)
    for old in [*_user_turns(current), *_statements(current, slotted=True), *relations]:
        for rec, who, change, goes_to in changes:
            if not _may_end(rec, old) or not _about(old, who) or old.slot and not old.slot.startswith("person:"):
                continue
            if _ends(old.content, change, goes_to, detect_language(old.content)):
                log.debug("%r overtaken by %r (of %s)", old.content[:60], rec.content[:60], who)
                out.add(old.id)
                break
    return out


def _of_relatives(current: Sequence[Hit]) -> set[str]:
    """The memories in ``current`` about one of the user's relatives (of whom there is one: a husband, a mother-in-
    law) that a newer memory of the same relative tells a change of, in a family the older one stands in: "用户的
    婆婆从连江过来帮忙带" before "用户的婆婆回连江了，腰不好，带不动了"; "用户的老公在马尾开发区上班，每天晚上回来"
    before "用户的老公调到厦门了" (a move ends what names a place). A condition of theirs is ended by words about it."""
    told: dict[str, list[tuple[MemoryRecord, str]]] = {}
    for h in current:
        if h.record.kind in _TELLING and h.record.metadata.get("role") != "assistant" \
                and (owned := owned_by(h.record.content)) is not None and owned[0] in _ONE_OF:
            told.setdefault(owned[0], []).append((h.record, owned[1]))
    out: set[str] = set()
    for rel, said in told.items():
        for new, rest in said:
            lang = detect_language(rest)
            if _stated(new) is None or (change := topics.change_of(simplified(rest), lang)) is None \
                    or not change.families:
                continue
            goes_to = topics.object_words(rest[change.at:], lang, 0) if change.direction == "to" else ()
            for old, was in said:
                if old.id in out or not _may_end(new, old) or _BODY.search(was) or CONDITION.search(simplified(was)):
                    continue
                if _ends(was, change, goes_to, lang):
                    log.debug("%r overtaken by %r (of the user's %s)", old.content[:60], new.content[:60], rel)
                    out.add(old.id)
    return out


def _ends(old: str, change: topics.Change, goes_to: Sequence[str], lang: str) -> bool:
    """Does ``change`` (going to ``goes_to``) end the older state ``old`` of the same person: a state in a family it
    changes, or for a move one that names a place; not one that already says where it goes (the same news), though
    it may say that as where they came from?"""
    if any(len(w) >= 2 and w.lower() in old.lower() and not _came_from(w, old) for w in goes_to):
        return False
    return any(topics.cue_of(f, old, lang) for f in change.families) or change.cls == "move" and (
        bool(_places(old)) or _EN_IN_PLACE.search(old) is not None)


def _came_from(place: str, text: str) -> bool:
    """Does ``text`` name ``place`` as where someone came from (婆婆从连江过来, "came over from Cork")?"""
    return re.search(rf"(?i)(?:从|from\s+){re.escape(place)}", text) is not None


#: the relatives a user has one of: what is said of 婆婆 is of the same person (not of 同事 or 朋友, who are many)
_ONE_OF = frozenset({*words("老公 丈夫 先生 爱人 老婆 妻子 太太 媳妇 媳妇儿 男朋友 女朋友 男友 女友 对象 未婚妻 未婚夫 "
                            "婆婆 公公 岳父 岳母 丈母娘 爸 爸爸 老爸 父亲 妈 妈妈 老妈 母亲 爷爷 奶奶 外公 外婆 姥姥 姥爷"),
                     *words("husband wife partner boyfriend girlfriend fiance fiancé fiancée fiancee mum mom mother "
                            "dad father")})


def _others_change(rec: MemoryRecord) -> tuple[MemoryRecord, str, topics.Change, tuple[str, ...]] | None:
    """The turn, whom it tells a change of other than its speaker, the change and where it goes (晓雯换工作了 → 晓雯;
    "她说她跳槽了" after "去天津看闺女" → 闺女), or None."""
    if (stated := _stated(rec)) is None:
        return None
    text, lang = stated
    change = topics.change_of(text, lang)
    if change is None or not change.families or _the_speakers(text[:change.start], lang):
        return None
    who = _whom(text[:change.start], lang)
    if not who:
        return None
    return rec, who, change, topics.object_words(rec.content[change.at:], lang, 0) if change.direction == "to" else ()


def _whom(before: str, lang: str) -> str | None:
    """The person the clauses before a change's verb name last (a name, a word for family or a friend), passing over
    a pronoun to the clause before it; None when the nearest clause naming someone names the speaker."""
    from jiyi.text.lexical import entities

    for clause in reversed(TURN_CLAUSE.split(before)):
        if lang == "zh":
            found = [*entities(clause).get("PER", ()), *(w for w in _OTHERS_ZH.findall(clause))]
            if found:
                return max(found, key=clause.rfind)
            if "我" in clause.replace("我们", "") and not re.search(r"[他她]", clause):
                return None
        else:
            m = [n.group("n") for n in _NAMED_SUBJECT.finditer(clause)] or _MY_OTHERS_EN.findall(clause)
            if m:
                return m[-1]
            if re.search(r"(?i)\b(?:i|i'm|i've|me)\b", clause) and not _OTHER.search(clause):
                return None
    return None


def _about(old: MemoryRecord, who: str) -> bool:
    """Is ``old`` about ``who``: named at its front (闺女晓雯在…, "my bro Kelvin is…", "用户的闺女…")?"""
    front = re.sub(r"^(?:用户的?|我的?|User'?s?\s+|my\s+)", "", old.content.strip(), flags=re.IGNORECASE)
    return who.lower() in front[:16 if detect_language(front) == "zh" else 40].lower()


#: the people a Chinese clause may name besides by their name
_OTHERS_ZH = re.compile(r"闺女|女儿|儿子|老公|老婆|媳妇|对象|室友|男朋友|女朋友|男友|女友|哥哥|姐姐|弟弟|妹妹|爸爸|妈妈|老爸|老妈|"
                        r"同事|朋友|老板|表哥|表姐|表弟|表妹|堂哥|堂姐|儿媳|女婿|孙子|孙女|外孙")
#: … and an English one: a capitalised name as the subject of a verb ("Kelvin just got…", "Sarah moved…"), or
#: "my sister"
_NAMED_SUBJECT = re.compile(r"\b(?!(?:I|The|My|He|She|They|We|It|This|That|There)\b)(?P<n>[A-Z][a-z]{2,})\s+"
                            r"(?:just\s+|finally\s+|also\s+|has\s+|had\s+)?(?:got|gets|is|was|has|had|moved|moves|"
                            r"moving|quit|left|started|joined|changed|switched|took|sold|broke|became|transferred)\b")
_MY_OTHERS_EN = re.compile(r"(?i:\bmy\s+(?:bro|brother|sis|sister|mum|mom|dad|wife|husband|bf|gf|boyfriend|girlfriend|"
                           r"roommate|flatmate|housemate|friend|colleague|boss|son|daughter|cousin)\b)")
_EN_IN_PLACE = re.compile(r"\b(?:in|at)\s+[A-Z][a-z]+")


def _corrected(current: Sequence[Hit], found: Sequence[Hit]) -> set[str]:
    """The turns in ``current`` that a newer turn of the same speaker among ``found`` corrects by the words it said
    wrong: "下个月去人民医院复查 十二月八号上午" before "不对 我记错了 是九号 不是八号"; "dinner's on friday" before "sorry I
    meant thursday, not friday"."""
    wrong = [(rec, said) for rec in _user_turns(found) if _CORRECTS.search(rec.content)
             for m in _NOT_THAT.finditer(simplified(rec.content)) if len(said := (m.group(1) or m.group(2))) >= 2]
    return {old.id for old in _user_turns(current) for rec, said in wrong
            if _may_end(rec, old) and said.lower() in simplified(old.content).lower()}


def _said_again(current: Sequence[Hit], found: Sequence[Hit], tellers: dict[str, MemoryRecord] | None) -> set[str]:
    """The turns in ``current`` (and unslotted memories) that a newer turn of the same speaker among ``found`` says
    again otherwise: with new numbers (:func:`jiyi.text.renumbered.renumbers`: "二两15块" before "粉涨了一块 二两16"),
    or with another way to work (:func:`jiyi.text.commute.commutes_otherwise`: "每日坐深惠城际返工" before "而家揸车返工");
    that turn tells what holds now."""
    out: set[str] = set()
    newer = [rec for rec in _user_turns(found) if _stated(rec) is not None]
    olds = [*_user_turns(current), *(h.record for h in current if h.record.kind in _NUMBERED and not h.record.slot)]
    for old in olds:
        by = max((rec for rec in newer if _may_end(rec, old) and (renumbers(rec.content, old.content)
                                                                     or commutes_otherwise(rec.content, old.content))),
                 key=_said, default=None)
        if by is not None:
            log.debug("turn %r said again otherwise by %r", old.content[:60], by.content[:60])
            out.add(old.id)
            if tellers is not None:
                tellers[old.id] = by
    return out


#: the memories whose numbers a newer turn may say again (a price, an hour: "…在西街卖面线糊，一碗八箍")
_NUMBERED = frozenset({Kind.FACT, Kind.BEHAVIOR, Kind.PREFERENCE, Kind.RELATION})


#: a correction of what the speaker said before
_CORRECTS = re.compile(r"不对|记错了?|说错了?|搞错了?|打错了?|写错了?|更正|纠正|口误|(?i:\bcorrection\b|\bi\s+meant\b|"
                       r"\bmy\s+bad\b|\bmistake\b|\bwrong\b|\btypo\b)")
#: … and what it says was wrong: 不是八号, "not friday"
_NOT_THAT = re.compile(r"不是([^\s，,。.!！?？]{2,6})|(?i:\bnot\s+(?:on\s+|the\s+|at\s+)?([a-z0-9:]{3,12}))")
