"""Resolve a candidate against the user's active memories (SPEC §2.8).

Decisions, in order:
- same slot, same value (or cosine ≥ merge threshold) → MERGE into the existing memory;
- same slot, another value → SUPERSEDE the old one (valid_until set, both linked);
- a statement of change (moved, left, broke up, quit, sold, lost, admitted, replaced) →
  SUPERSEDE the standing memories of the topic it changes (:func:`topic_targets`);
- an explicit correction without a slot → SUPERSEDE the most similar memory (cosine ≥ 0.80);
- cosine ≥ merge threshold with any active memory → MERGE;
- otherwise → ADD.
Pure functions: the caller fetches neighbours and commits the result.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from jiyi.extractors.protocol import Candidate
from jiyi.records import EventType, HistoryEvent, Kind, MemoryRecord, Scope, Status, new_id
from jiyi.text import over, qualifiers, subjects, topics
from jiyi.text.changed import CONDITION
from jiyi.text.consumption import consumption, drink_kinds, measured_kinds
from jiyi.text.dates import names_a_date
from jiyi.text.food import FOOD
from jiyi.text.language import detect_language
from jiyi.text.new_value import destination, origin
from jiyi.text.script import simplified
from jiyi.text.sold import sold_what
from jiyi.text.turn_topics import turn_families

log = logging.getLogger("jiyi.write.resolve")
CORRECTION_MIN_COSINE = 0.80
_DIGITS = re.compile(r"\d+")
#: what embeddings blur and a duplicate must share: numbers and email addresses
_IDENTS = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+|\d+")
_PUNCT = re.compile(r"[\s\W_]+", re.UNICODE)


@dataclass(slots=True)
class Decision:
    """What to write for one candidate."""

    event: EventType
    record: MemoryRecord  # the memory the event is about (new or updated)
    changed: list[MemoryRecord] = field(default_factory=list)  # other memories rewritten
    history: list[HistoryEvent] = field(default_factory=list)
    previous: str | None = None
    is_new: bool = False
    reason: str = ""


def to_record(cand: Candidate, *, scope: Scope, session_id: str | None, agent_id: str | None,
              now: datetime, model: str) -> MemoryRecord:
    """A fresh active record for a candidate."""
    return MemoryRecord(
        id=new_id(), tenant=scope.tenant, user_id=scope.user_id, content=cand.content, kind=cand.kind,
        created_at=now, updated_at=now, slot=cand.slot, entities=cand.entities,
        importance=cand.importance, confidence=cand.confidence, valid_from=cand.valid_from,
        valid_until=cand.valid_until, expires_at=cand.expires_at, visibility=cand.visibility,
        source_ids=cand.source_ids, session_id=session_id, agent_id=agent_id, speaker=cand.speaker,
        embedding_model=model, metadata=dict(cand.metadata),
    )


def resolve_candidate(
    cand: Candidate,
    new: MemoryRecord,
    *,
    similar: Sequence[tuple[MemoryRecord, float]],
    slot_holders: Sequence[MemoryRecord],
    now: datetime,
    merge_threshold: float,
    ended: Sequence[MemoryRecord] = (),
) -> Decision:
    """Decide ADD / MERGE / SUPERSEDE / NONE for ``new`` (built from ``cand``).

    ``ended`` are active memories the candidate ends besides its own slot's (see
    :func:`ended_slots`): "用户和女朋友分手了" ends the girlfriend's name, "用户辞职了" the
    job title, "用户戒了咖啡" a habit that names coffee. They are superseded with the
    slot's holders, unless the candidate only repeats what its slot already holds.
    """
    if cand.slot:
        same = [r for r in slot_holders if _same_value(r, new, similar, merge_threshold)]
        if same:
            return merge(same[0], new, now, reason=f"same value in slot {cand.slot}")
    olds = list({r.id: r for r in (*slot_holders, *ended) if r.id != new.id}.values())
    held = {r.id for r in slot_holders}
    if [r for r in ended if r.id not in held]:
        return supersede(olds, new, now, reason=f"ends {', '.join(ended_slots(cand)) or 'what it names'}"
                                                  + (f" and slot {cand.slot}" if cand.slot else ""))
    if cand.slot and slot_holders:
        return supersede(list(slot_holders), new, now, reason=f"new value in slot {cand.slot}")
    best = max(similar, key=lambda rs: rs[1], default=None)
    if cand.corrects and best is not None and best[1] >= CORRECTION_MIN_COSINE:
        return supersede([best[0]], new, now, reason=f"explicit correction (cosine {best[1]:.2f})")
    if best is not None and is_duplicate(best[0].content, new.content, best[1], merge_threshold):
        return merge(best[0], new, now, reason=f"near duplicate (cosine {best[1]:.3f})")
    return Decision(EventType.ADD, new, is_new=True,
                    history=[HistoryEvent(EventType.ADD, new.id, now, new=new.content, reason="new memory")])


def ended_slots(cand: Candidate) -> list[str]:
    """The other slots a candidate ends (``metadata["ends"]``: 分手 → the partner slots)."""
    ends = cand.metadata.get("ends")
    return [str(s) for s in ends if isinstance(s, str) and s and s != cand.slot] if isinstance(ends, list) else []


#: words of a statement that itself says something stopped (it is not ended by another ending)
_STOPPED = re.compile(r"^(?:用户|User)\S{0,8}?(?:戒|不再|不喝|不吃|不抽|不玩|不碰|放弃)|^User\s+(?:\w+\s+)?(?:quit|stopped|gave\s+up|"
                      r"no\s+longer|doesn't|switched\s+from)|anymore", re.IGNORECASE)


def ends_mention(cand: Candidate, rec: MemoryRecord) -> bool:
    """Does ``cand`` (戒了咖啡, ``metadata["ends_mention"]`` 咖啡) end ``rec`` (用户每天早上喝咖啡)?

    Only active preferences and behaviours that name the object and do not say it
    stopped themselves; slotted ones of another object are left to their slot.
    """
    mention = cand.metadata.get("ends_mention")
    if not isinstance(mention, str) or len(mention) < 2 or rec.status is not Status.ACTIVE:
        return False
    content = as_user(rec.content, rec.speaker, lang_of(rec)).lower()  # (a display name says nothing it names)
    if cand.metadata.get("ends_person") is True:  # 我和阿强分手了 ends 用户和男朋友阿强吵架了 / 阿强的生日…
        return (rec.kind in (Kind.EVENT, Kind.RELATION, Kind.PREFERENCE, Kind.BEHAVIOR) and rec.slot != cand.slot
                and mention.lower() in content)
    if rec.kind not in (Kind.PREFERENCE, Kind.BEHAVIOR) or rec.slot == cand.slot:
        return False
    if rec.slot is not None and not rec.slot.startswith("pref/"):
        return False
    return mention.lower() in content and not _STOPPED.search(rec.content)  # brands: see topic_targets


def _same_value(old: MemoryRecord, new: MemoryRecord, similar: Sequence[tuple[MemoryRecord, float]],
                threshold: float) -> bool:
    """The same value of a slot: the same words, or a near duplicate. Two job titles that each say something
    the other does not (调度员 / 调度主管, "junior analyst" / "senior analyst": a promotion) are two values,
    however close their vectors; "用户是护士" / "用户是一名护士" are one."""
    if _canon(old.content) == _canon(new.content):
        return True
    a, b = _value_units(old.content), _value_units(new.content)
    if new.slot in _TITLE_SLOTS and not (a <= b or b <= a):
        return False
    return any(r.id == old.id and is_duplicate(r.content, new.content, s, threshold) for r, s in similar)


#: slots whose value is a title, where a near duplicate may be a new one
_TITLE_SLOTS = frozenset({"user/job"})


def _value_units(text: str) -> set[str]:
    """The characters (Chinese) and words (other scripts) of a memory's text."""
    low = text.lower()
    return set(re.findall(r"[\u4e00-\u9fff]", low)) | set(re.findall(r"[^\W\d_]+|\d+", re.sub(r"[\u4e00-\u9fff]", " ", low)))


def is_duplicate(a: str, b: str, cosine: float, threshold: float) -> bool:
    """Near-duplicates: cosine at or above the threshold and the same numbers.

    Numbers and email addresses guard what embeddings blur: two phone numbers, two ages or
    two addresses embed almost alike.
    """
    return cosine >= threshold and _IDENTS.findall(a) == _IDENTS.findall(b)


def _canon(text: str) -> str:
    return _PUNCT.sub("", text).lower()


def merge(old: MemoryRecord, new: MemoryRecord, now: datetime, *, reason: str) -> Decision:
    """Fold ``new`` into ``old``: sources, entities and confidence accumulate; content stays."""
    if set(new.source_ids) <= set(old.source_ids) and old.content == new.content:
        return Decision(EventType.NONE, old, reason="already known")
    merged = old.replace(
        source_ids=_union(old.source_ids, new.source_ids),
        entities=_union(old.entities, new.entities),
        confidence=min(1.0, max(old.confidence, new.confidence) + 0.05),
        importance=max(old.importance, new.importance),
        updated_at=now,
    )
    hist = HistoryEvent(EventType.MERGE, old.id, now, old=old.content, new=new.content, reason=reason)
    return Decision(EventType.MERGE, merged, history=[hist], previous=old.content, reason=reason)


def supersede(olds: list[MemoryRecord], new: MemoryRecord, now: datetime, *, reason: str) -> Decision:
    """``new`` replaces ``olds``: they end where it starts and point to it."""
    ends = new.valid_from or new.created_at  # when the new statement was said (created_at: its message time)
    changed = [
        o.replace(status=Status.SUPERSEDED, valid_until=min(o.valid_until or ends, ends) if o.valid_until else ends,
                  superseded_by=new.id, updated_at=now)
        for o in olds
    ]
    linked = new.replace(links=_union(new.links, tuple(o.id for o in olds)))
    history = [HistoryEvent(EventType.ADD, new.id, now, new=new.content, reason=reason)]
    history += [HistoryEvent(EventType.SUPERSEDE, o.id, now, old=o.content, new=new.content, reason=reason)
                for o in olds]
    return Decision(EventType.SUPERSEDE, linked, changed=changed, history=history,
                    previous=olds[0].content, is_new=True, reason=reason)


def resolvable_kinds() -> tuple[Kind, ...]:
    """Kinds that take part in merge/supersede (episodes and summaries never do)."""
    return tuple(k for k in Kind if k not in (Kind.EPISODE, Kind.SUMMARY))


def _union(a: tuple[str, ...], b: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(dict.fromkeys((*a, *b)))


# ---------------------------------------------------------------- topics: a change closes what it changes

#: kinds that can stand for a topic (a plan or a told event is not a standing state)
_STANDING_KINDS = (Kind.FACT, Kind.PREFERENCE, Kind.BEHAVIOR, Kind.RELATION)
#: changes whose statement may lead with a name that is not a person's (豆豆走了: the pet)
_NAMED_SUBJECT = frozenset({"lose", "sell", "over"})
#: changes that close only what they name, by its name or its family's noun (奶奶去世了 is no pet's end)
_NAMES_ITS_OBJECT = frozenset({"lose"})
#: changes that end the thing they name: the memory that gave it that name closes, whatever its family
#: when the memory is of these families (or of none: a beagle is in no pet list), whoever did it —
#: "凯文把我的耳机弄丢了" names the boyfriend but loses earphones
_ENDS_WHAT_IT_NAMES: dict[str, frozenset[str]] = {
    "lose": frozenset({"pet", "vehicle"}), "sell": frozenset({"pet", "vehicle"}), "end": frozenset({"partner"})}
#: a many-valued family (pets, habits…) closes its nearest memory, and those this close to it
NEAREST_MARGIN = 0.01
#: a change dated this long before a memory's own start (moved in 2019; lives there since 2021) is older
_PREDATES_DAYS = 2


def lang_of(rec_or_cand: MemoryRecord | Candidate) -> str:
    """The language a statement was written in (the extractor's note, else detected)."""
    lang = rec_or_cand.metadata.get("lang")
    return lang if lang in ("zh", "en") else detect_language(rec_or_cand.content)


def as_user(text: str, speaker: str | None, lang: str) -> str:
    """A speaker-named statement (Ines moved to …) back with the user as its subject."""
    return text.replace(speaker, "用户" if lang == "zh" else "User") if speaker else text


def topic_change(cand: Candidate) -> topics.Change | None:
    """The change ``cand`` states about the user now, or None (no change, another's, hedged, long ago)."""
    if cand.kind in (Kind.EPISODE, Kind.SUMMARY):
        return None
    lang = lang_of(cand)
    text = simplified(as_user(cand.content, cand.speaker, lang))  # (辭職了 read as 辞职了: text/script.py)
    change = topics.change_of(text, lang)
    if change is None and (at := over.says_over(text, lang)) is not None:
        change = topics.Change("over", (), "from", at)  # 和佳怡彻底断了: ends only what it names (topic_targets)
    if (change is not None and not text.startswith(("用户", "User", cand.speaker or "User"))
            and not subjects.someone_elses(text, lang)):
        text = ("用户：" if lang == "zh" else "User: ") + text  # "No more northwind for User": subject left out
    if change is None or qualifiers.hedged(text, lang) or qualifiers.told_long_ago(text, lang):
        return None
    if change.cls != "end" and subjects.partner_subject(text, lang):
        return None  # 用户的老公戒酒了: the husband's habit, not the user's
    if change.cls == "move" and qualifiers.on_a_trip(text, lang):
        return None  # 人在成都出差: a trip, no move
    if change.cls == "done" and qualifiers.goes_on(text, lang):
        return None  # "passed FAR! 3 more to go": a step, the preparation goes on
    if change.cls == "stop" and qualifiers.paused(text, lang):
        return None  # 停了一天酒，明天体检: a pause, the habit stands
    if change.cls in ("lose", "over") and qualifiers.recovered(text, lang):
        return None  # lost for twenty minutes, then found
    return change if subjects.users_change(text, lang, change, named_subject=change.cls in _NAMED_SUBJECT) else None


def topic_targets(cand: Candidate, change: topics.Change, pool: Sequence[tuple[MemoryRecord, float]],
                  made: Collection[str] = ()) -> list[MemoryRecord]:
    """The user's active standing memories ``change`` (stated by ``cand``) closes.

    ``pool`` holds the candidate's neighbours with their cosines (the store's embedder)
    and the holders of its families' slots; ``made``, the ids this write made, tells what the same message
    made (never closed: "offer定了 下周一入职 做视频剪辑" keeps the new role). Per family the change may close:

    * a memory of another family, another speaker's, or one that itself says something
      ended (用户戒了可乐) is never closed; nor one established after the change was told;
    * a change that names the new value (moved **to** 厦门, a new number) keeps the
      memories that already hold it ("moved from Ohio to Leeds" leaves "lives in Leeds");
      a move or a new number that names no value closes nothing;
    * a change that names what ends (left Brightline, 豆豆 died) closes the memories that
      name it; when none does, a single-valued family (residence, employer, partner,
      phone, email, diet) closes all its memories, a many-valued one (pet, vehicle, habit,
      pursuit) the one nearest to the statement — if the statement names the family's
      noun, or the family has only that one memory.
    """
    lang = lang_of(cand)
    text = as_user(cand.content, cand.speaker, lang)
    told = cand.valid_from
    groups: dict[str, list[tuple[MemoryRecord, float]]] = {}
    given: list[MemoryRecord] = []
    standing: dict[str, tuple[MemoryRecord, frozenset[str]]] = {}  # the user's standing memories, with their families
    seen: set[str] = set()
    for rec, cos in sorted(pool, key=lambda rc: -rc[1]):
        if rec.id in seen or rec.status is not Status.ACTIVE or rec.kind not in _STANDING_KINDS:
            continue
        seen.add(rec.id)
        if (rec.speaker or None) != (cand.speaker or None) or _same_message(rec, cand, made):
            continue  # another's; or said in the same message ("offer定了 下周一入职 做视频剪辑": the new role)
        rlang = lang_of(rec)
        content = as_user(rec.content, rec.speaker, rlang)
        if not subjects.about_user(content, rlang):
            continue
        own = topics.change_of(content, rlang)
        if (own is not None and own.direction == "from" or topics.completed(content, rlang)) and not (
                rec.slot or "").startswith(("user/", "relation/")):
            continue  # 用户戒了可乐 / 用户考完了 is itself an ending
        if rec.valid_from is not None and rec.valid_until is not None or names_a_date(rec.content):
            continue  # an appointment or a dated happening is no standing state
        if told is not None and rec.valid_from is not None and rec.valid_from - told > timedelta(days=_PREDATES_DAYS):
            continue
        families = topics.families_of(content, rec.slot, rlang)
        standing[rec.id] = (rec, families)
        for fam in families & set(change.families):
            groups.setdefault(fam, []).append((rec, cos))
        if (change.cls in _ENDS_WHAT_IT_NAMES and _gives_a_name_said(content, rlang, text)
                and families <= _ENDS_WHAT_IT_NAMES[change.cls]):
            given.append(rec)  # "a beagle named Biscuit" … "had to put biscuit down": whatever its family
        elif change.direction == "from" and not (change.cls in ("lose", "sell") and CONDITION.search(simplified(
                rec.content))) and any(over.ends_named(text, lang, n) for n in _names_given(rec, rlang)):
            given.append(rec)  # 瑞幸那份工作结束了 / "no more pinecone for me": what it names is over (a thing given
            # away or lost ends no allergy: "花生酱都送给邻居了")
    out: dict[str, MemoryRecord] = {r.id: r for r in given}
    said = topics.names(text, lang)
    value = destination(text, lang, change.at) if change.direction == "to" else ()
    for fam, group in groups.items():
        for rec in _closed(fam, change, group, text, lang, said, value):
            out[rec.id] = rec
    if change.cls in ("sell", "lose"):  # the car sold: driving to work every day goes with it
        gone = {f for r in out for f in standing[r][1] & set(_USES)}
        if not out and not groups and set(change.families) & set(_USES) and topics.cue_of(change.families[0], text, lang):
            gone = set(change.families) & set(_USES)  # 车卖了 with no memory of the car: only its use was told
        for rec, _ in standing.values():
            if rec.id not in out and any(_USES[f].search(rec.content) for f in gone):
                out[rec.id] = rec
    if out:
        log.debug("topic %s %s %r closes %s", change.cls, "/".join(change.families), cand.content,
                  [r.content for r in out.values()])
    return list(out.values())


def earlier_turn(ep: MemoryRecord, cand: Candidate, now: datetime) -> bool:
    """Is ``ep`` a turn of ``cand``'s speaker (not the bot's), of another message, said before ``cand``?"""
    return (ep.metadata.get("role") != "assistant" and (ep.speaker or None) == (cand.speaker or None)
            and not set(ep.source_ids) & set(cand.source_ids)
            and (ep.valid_from or ep.created_at) < (cand.valid_from or now))


def family_turns(cand: Candidate, change: topics.Change, turns: Sequence[MemoryRecord],
                 now: datetime) -> list[MemoryRecord]:
    """Earlier turns of the speaker that state what a change of a single-valued family replaces.

    "我在苏州做UI的 公司叫青梧科技" gave no employer memory for "进了鹭拾设计做视觉" to close, yet it tells
    the old employer as current; so do "i live in penang" before "moving to ipoh". A turn stands in a
    family when one of its clauses, in third person, says a standing value of it (:func:`jiyi.text.turn_topics.turn_families`);
    a car sold ends the turns that tell of driving or owning one, unless the sale names another thing ("sold
    some old tools out of the truck bed"). A change that names its new value keeps the turns that say it; a
    move or a new number naming none outdates nothing (the value is unknown)."""
    families = set(change.families) & (topics.SINGLE | (topics.OWNED if change.cls in ("sell", "lose") else set()))
    if not families:
        return []
    lang = lang_of(cand)
    text = as_user(cand.content, cand.speaker, lang)
    value = destination(text, lang, change.at) if change.direction == "to" else ()
    if change.direction == "to" and not value and change.cls == "replace":
        families = {f for f in families if topics.cue_of(f, text, lang)}  # 号码换了: the old number's turns, not the email's
    elif change.direction == "to" and not value and change.cls == "move":
        return []
    sold = next((w for f in families & topics.OWNED if (w := _thing_sold(change, text, f, lang))), None)
    out = []
    for ep in turns:
        if not earlier_turn(ep, cand, now):
            continue
        if sold and sold not in ep.content.lower() and not families & topics.SINGLE:
            continue  # the sale names what was sold: a turn of the truck is not over with the tools
        if value and (any(v.lower() in ep.content.lower() for v in value if len(v) >= 2)
                      or (change.cls == "move" and _names_part_of(ep.content, value))):
            continue  # it says the new value: "厦门那边的房子看好了" (or the city of 青岛崂山区: "青岛这边办了张卡")
        if families & turn_families(ep.content, lang_of(ep)) or (
                change.cls == "marry" and _courting(ep.content, lang_of(ep))):
            out.append(ep)
    return out


def _names_part_of(text: str, places: Sequence[str]) -> bool:
    """Does ``text`` name a place (the lexical analyser's) that is part of one of ``places`` (青岛 of 青岛崂山区)?"""
    if not _HAN_RE.search(text):
        return False
    from jiyi.text.lexical import entities

    return any(len(loc) >= 2 and loc in v for loc in entities(text).get("LOC", ()) for v in places)


_HAN_RE = re.compile(r"[\u4e00-\u9fff]")
#: a turn's clauses: cut at punctuation, and at spaces before Chinese (chat cuts its clauses with them)
_TURN_CLAUSE = re.compile(r"[，,。.;；!！?？~～\n]+|\s+(?=[\u4e00-\u9fff])")


def _courting(text: str, lang: str) -> bool:
    """Does a turn of the speaker's tell of their courtship, which a wedding ends ("阿泽好像要求婚了", "my bf wants
    to cook for me")? A clause says a word before marriage (:func:`topics.before_marriage`) of the speaker's own."""
    from jiyi.text.person import third_person

    for clause in _TURN_CLAUSE.split(text):
        if not topics.before_marriage(clause, lang):
            continue
        said = third_person(clause.strip(), lang)
        if not subjects.someone_elses(said, lang) and not _ANOTHERS_COUPLE.search(said):
            return True
    return False


#: a relative's or a friend's courtship: "用户的姐订婚了", "User's sister got engaged"
_ANOTHERS_COUPLE = re.compile(r"(?:用户|User)(?:'s|的)?\s*(?:姐|妹|哥|弟|朋友|同事|闺蜜|室友|表|堂|sister|brother|friend|"
                              r"cousin|colleague|coworker|roommate)")


def told_with(cand: Candidate, change: topics.Change, rec: MemoryRecord, made: Collection[str] = ()) -> bool:
    """Is ``rec``, made from a turn that names what ``change`` ends, a standing memory of the change's families,
    the speaker's, told before it (so over with it)?"""
    if rec.kind not in _STANDING_KINDS or rec.status is not Status.ACTIVE or _same_message(rec, cand, made) \
            or (rec.speaker or None) != (cand.speaker or None):
        return False
    if cand.valid_from is not None and (rec.valid_from or rec.created_at) >= cand.valid_from:
        return False
    lang = lang_of(rec)
    return bool(topics.families_of(as_user(rec.content, rec.speaker, lang), rec.slot, lang) & set(change.families))


def _same_message(rec: MemoryRecord, cand: Candidate, made: Collection[str]) -> bool:
    """Was ``rec`` made from the message ``cand`` comes from: its id, in this very write (clients may reuse
    a message id in another session)?"""
    return rec.id in made and bool(set(rec.source_ids) & set(cand.source_ids))


def over_names(cand: Candidate, change: topics.Change | None, closed: Sequence[MemoryRecord]) -> tuple[str, ...]:
    """The names ``cand`` (stating ``change``) says are over ("called it off with Rohan" → Rohan): those it
    says itself, and those of the memories it closed. Earlier turns that name them told of what no longer holds."""
    if change is None or change.direction != "from":
        return ()
    lang = lang_of(cand)
    text = as_user(cand.content, cand.speaker, lang)
    also = [n for rec in closed for n in _names_given(rec, lang_of(rec))]
    if change.cls == "end":  # "Rohan and User called it off": a name at the start, not found as one
        also += subjects.co_subject(text, lang)
    # "sold the civic": the thing sold, said in lower case
    also += [w for f in change.families if (w := _thing_sold(change, text, f, lang)) and len(w) >= 4]
    left = over.workplace_left(text, lang) if change.cls == "leave" else ()
    return tuple(dict.fromkeys([*over.named_over(text, lang, also), *left]))


def old_names_said(cand: Candidate, change: topics.Change, closed: Sequence[MemoryRecord]) -> tuple[str, ...]:
    """The old values a change statement names itself: what it says is over (:func:`over_names`), and the names
    of the memories and turns it ``closed`` that it says too, never its new value nor its speaker
    ("从建行跳到一家露营公司" closing "我在建行柜台上班" → 建行; "moved out of Birchwood, renting on Pine Rd" → Birchwood)."""
    lang = lang_of(cand)
    text = as_user(cand.content, cand.speaker, lang)
    if change.cls == "done" and not _FELL_SHORT.search(text):
        return ()  # "浙大计算机拟录取" after "目标浙大计算机": what was worked for is reached, not over
    low = text.lower()
    new_value = [v.lower() for v in destination(text, lang, change.at)] if change.direction == "to" else []
    said = [n for rec in closed for n in _names_given(rec, lang_of(rec)) if n.lower() in low]
    speaker = (cand.speaker or "").lower()

    def old(name: str) -> bool:
        key = name.lower()
        return not (speaker and (key in speaker or speaker in key)) and not any(
            key in v or v in key for v in new_value)

    return tuple(n for n in dict.fromkeys([*over_names(cand, change, closed), *origin(text, lang), *said]) if old(n))


#: an outcome that missed what was worked for: its names are over ("没考上浙大", "failed the bar")
_FELL_SHORT = re.compile(r"(?i)落榜|没考上|没上岸|没过|挂了|被拒|\bfailed\b|\brejected\b|\bdidn'?t\s+(?:get|make|pass)\b")


def _thing_sold(change: topics.Change, text: str, fam: str, lang: str) -> str | None:
    """The one thing an English sale or loss of ``fam`` names (:func:`jiyi.text.sold.sold_what`: "sold the civic",
    "sold some old tools"), or None."""
    return sold_what(text, fam) if lang == "en" and change.cls in ("sell", "lose") else None


def _names_given(rec: MemoryRecord, lang: str) -> tuple[str, ...]:
    """The names a standing memory holds: what it calls something (叫豆包), its places, organisations, people.
    Never its speaker's display name nor a word of it ("洛阳老韩是语文老师" holds no 洛阳: that is who speaks)."""
    content = as_user(rec.content, rec.speaker, lang)
    speaker = rec.speaker or ""
    found = [*topics.called(content, lang), *(e for e in rec.entities if not (speaker and e in speaker)),
             *over.regimen_words(content, lang)]
    if lang == "zh":
        from jiyi.text.lexical import entities

        found += [w for tag in ("PER", "LOC", "ORG") for w in entities(content).get(tag, ())]
    # "Northwind Traders" is said "northwind" (in a memory of either language: "…the Alliance Française, the 静安 branch")
    found += [n.split()[0] for n in found if " " in n and len(n.split()[0]) >= 4 and n.split()[0][:1].isupper()]
    return tuple(dict.fromkeys(n for n in found if len(n) >= 2 and not n.isdigit() and n not in ("User", "用户")))


def _gives_a_name_said(content: str, lang: str, text: str) -> bool:
    """Does the memory give a name (…named Biscuit / 叫豆包) that the change statement says?"""
    low = text.lower()
    return any(len(n) >= 2 and n.lower() in low for n in topics.called(content, lang))


def _mentions(rec: MemoryRecord, words: Sequence[str]) -> bool:
    hay = (rec.content + " " + " ".join(rec.entities)).lower()
    digits = re.sub(r"\D", "", rec.content)
    held = [e.lower() for e in rec.entities if len(e) >= 2]
    return any(w.lower() in hay or (w.isdigit() and len(w) >= 5 and w in digits)
               or any(e in w.lower() for e in held) for w in words if len(w) >= 2)  # 大连安家 (cut too long) holds 大连


def _closed(fam: str, change: topics.Change, group: list[tuple[MemoryRecord, float]], text: str, lang: str,
            said: Sequence[str], value: Sequence[str]) -> list[MemoryRecord]:
    if change.cls == "marry":  # the same partner, now a spouse: what called them boyfriend or fiancée ends
        return [r for r, _ in group if topics.before_marriage(r.content, lang_of(r))]
    if change.direction == "to":
        if not value and change.cls == "replace" and topics.cue_of(fam, text, lang):
            return [r for r, _ in group]  # 号码换了, "that 312 number is gone": the old one is dead, whatever the new
        if not value and change.cls in ("move", "replace"):
            return []  # 我搬家了: where to is unknown, and a move in the same town leaves it
        return [r for r, _ in group if not _mentions(r, value)]
    if (what := _thing_sold(change, text, fam, lang)) and not any(what in r.content.lower() for r, _ in group):
        return []  # "sold some old tools out of the truck bed": the truck stays
    if fam == "habit":
        group = _same_consumption(group, text, lang)
        eaten = consumption(text, lang)
        if not group or not (topics.object_words(text, lang, change.at) or eaten):
            return []  # 想想还是戒了: what was given up was said before, not here (烟…半个月没碰 says it)
        if eaten is None and not FOOD.search(text):  # no food, no drink: 不吃香菜 stays
            group = [(r, cos) for r, cos in group if not _AVOIDS.search(r.content)]
        if not group:
            return []
    named = [r for r, _ in group if said and _mentions(r, said)
             or _gives_a_name_said(r.content, lang_of(r), text)]
    if not named and lang == "zh" and change.cls in ("lose", "sell"):  # 年糕也送我妹那去了: the word the cat was called
        said_here = [w for w in topics.object_words(text, lang, change.at) if len(w) >= 2]
        named = [r for r, _ in group if any(w in r.content for w in said_here)]
    if named:
        return named
    if fam in topics.SINGLE:
        return [r for r, _ in group]
    cued = topics.cue_of(fam, text, lang)
    if (len(group) > 1 or change.cls in _NAMES_ITS_OBJECT) and not cued:
        return []  # "I quit" with two habits: which one is not said; 奶奶去世了 names no pet
    if fam == "pet" and len({n for r, _ in group for n in _names_given(r, lang_of(r))}) == 1:
        return [r for r, _ in group]  # 它走了 with one pet: its name, its age, its breed all end with it
    best = group[0][1]
    return [r for r, cos in group if cos >= best - NEAREST_MARGIN]


#: what one does with a thing one has: it ends when the thing is sold or lost
_USES = {"vehicle": re.compile(r"(?i)开车|驾车|自驾|开着|开\S{0,4}车|\bdriv(?:e|es|ing)\b"),
         "pet": re.compile(r"(?i)遛(?!弯|达|街|娃)|喂(?:猫|狗)|铲屎|\bwalk(?:s|ing)?\s+(?:the\s+|my\s+|\w+\s+)?dog\b")}

#: a standing "never": what the user does not eat or drink is no habit a stop of something else could end
#: (不吃香菜, "doesn't eat mushrooms"); a stop of food or drink may (戒糖失败 ends 不吃甜食)
_AVOIDS = re.compile(r"(?i)^(?:用户|User)?[：:\s]*(?:从不|从来不|一点都不|完全不|不)(?:吃|喝|碰|抽|沾)|忌口|过敏|\b(?:doesn'?t|does\s+not|don'?t|never|"
                     r"won'?t|can'?t|cannot)\s+(?:eat|drink|touch|smoke|have)\b|\ballergic\b|\bavoids?\b")


def _same_consumption(group: list[tuple[MemoryRecord, float]], text: str,
                      lang: str) -> list[tuple[MemoryRecord, float]]:
    """The habits a stop may end: those that consume what it names (功能饮料 → 喝一罐…), or, when one of
    them says no kind, names a brand the category may cover ("grab a Red Bull")."""
    kind = consumption(text, lang)
    stopped = drink_kinds(text)
    out = []
    for rec, cos in group:
        rlang = lang_of(rec)
        content = as_user(rec.content, rec.speaker, rlang).removeprefix("用户").removeprefix("User")
        own = consumption(content, rlang)
        drinks = drink_kinds(content)
        if stopped and drinks and not stopped & drinks:
            continue  # 没喝奶茶了 does not end 每天一杯美式: another kind of drink
        if own is None and kind is not None and (measured := measured_kinds(content)) and kind not in measured:
            continue  # 戒了奶茶 does not end 每天一包红塔山: a pack is not drunk
        if (own is not None and (kind is None or own == kind)) or (own is None and topics.names(content, rlang)):
            out.append((rec, cos))
    return out
