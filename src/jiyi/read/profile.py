"""The profile tier: standing facts every reply may need, whether the query names them or not.

"推荐点零食" never mentions peanuts, yet a bot that forgets the peanut allergy there fails
its user. So ``build_context`` considers the user's standing facts for every block, with a
share of the budget of their own, before the memories the query found.

A memory is *standing* when it is about the user's lasting state, judged from what the
write path recorded, not from its words:

- its kind is a fact, preference or relation (never an event, a turn or a digest; a
  habit only when marked important);
- it is active, visible (sensitive ones only with ``include_sensitive``, or those of the categories the
  query asks for: a health question opens the health conditions, a food question those that decide
  what may be eaten, gout or celiac disease), unexpired and
  was known at the asked moment;
- and either its slot is one of the user's own single-valued attributes
  (:data:`STANDING_SLOTS`: identity ``user/…``, ``allergy/…``, ``health/…``, ``diet/…``,
  reply style ``style/…``, ``contact/…``, key relations ``relation/…``, stable likes and
  dislikes ``pref/…``, which rank after the rest by their lower importance; a slot held by a
  named speaker, ``user/city@Melanie``, is theirs: it counts only when the query names
  them, as a group chat's "Melanie: …" does), or its
  importance is at least :data:`STANDING_IMPORTANCE` (what the user asked to remember,
  what an LLM extractor rated essential).

Order: importance, then confidence, then the newest first.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta

from jiyi.read.boosts import names_in
from jiyi.read.gate import asked_categories, known_at, lapsed, passes_gate
from jiyi.records import Kind, MemoryRecord, Scope, Status, Visibility
from jiyi.stores.protocol import RecordFilter, Store
from jiyi.text.ended import ENDED_KEY
from jiyi.text.injection import instructs_the_bot
from jiyi.text.language import detect_language
from jiyi.text.new_value import destination
from jiyi.text.topics import change_of

#: Slot families that hold the user's standing attributes (the rules extractor's and the LLM prompt's).
STANDING_SLOTS = ("user/", "allergy/", "health/", "diet/", "style/", "contact/", "relation/", "pref/")
#: Slots under ``user/`` that describe a passing state rather than who the user is.
PASSING_SLOTS = ("user/rank", "user/plan", "user/membership")
#: Without a standing slot, a memory this important is standing too.
STANDING_IMPORTANCE = 0.8
STANDING_KINDS = (Kind.FACT, Kind.PREFERENCE, Kind.RELATION, Kind.BEHAVIOR)
#: Most memories a profile is chosen from (the newest of the standing kinds).
PROFILE_SCAN = 500


def is_standing(rec: MemoryRecord, query: str = "") -> bool:
    """Is ``rec`` a standing fact about the user (kind, slot, importance; not its validity)?

    A slot held by a named speaker (``user/city@Carol``) counts when ``query`` names them
    (in a group chat, "Carol: where should I go hiking?").
    """
    if rec.kind not in STANDING_KINDS:
        return False
    slot, _, who = (rec.slot or "").partition("@")
    if who and not names_in(who, query):
        return False
    standing = (rec.kind is not Kind.BEHAVIOR and slot.startswith(STANDING_SLOTS)
                and not slot.startswith(PASSING_SLOTS)) or rec.importance >= STANDING_IMPORTANCE
    # a stored "from now on you are …" stands for nothing; what the user said is over stands no more
    return standing and not instructs_the_bot(rec.content) and not rec.metadata.get(ENDED_KEY)


def profile_order(records: Sequence[MemoryRecord]) -> list[MemoryRecord]:
    """Importance first, then confidence, then the newest."""
    return sorted(records, key=lambda r: (-r.importance, -r.confidence, -(r.valid_from or r.created_at).timestamp(),
                                          r.id))


def profile_records(store: Store, scope: Scope, *, at: datetime, historical: bool, include_sensitive: bool,
                    query: str = "", body: bool = False) -> list[MemoryRecord]:
    """The user's standing memories valid at ``at``, in profile order (``body``: the query is one the user's body
    decides, read/standing.py)."""
    statuses = (Status.ACTIVE, Status.SUPERSEDED, Status.EXPIRED) if historical else (Status.ACTIVE,
                                                                                      Status.SUPERSEDED)
    asked = True if include_sensitive else asked_categories(query, body=body)  # a food query: the gout, not seafood
    flt = RecordFilter(kinds=STANDING_KINDS, statuses=statuses, include_sensitive=bool(include_sensitive or asked))
    found = [r for r in store.list(scope, flt, PROFILE_SCAN)
             if is_standing(r, query) and not lapsed(r, at)
             and passes_gate(r, at=at, historical=historical, show_sensitive=asked)]
    return profile_order(found + _lasting_changes(store, scope, at=at))


#: a change told more than this before its day was a plan ("10月13日去领证 要准备啥材料"), not its outcome
_SAID_BEFORE = timedelta(hours=12)
#: the families whose change tells who the user is now: where they live, where they work, whom they married
LASTING_FAMILIES = frozenset({"residence", "employer", "partner"})


def lasting_change(rec: MemoryRecord) -> frozenset[str]:
    """The families of :data:`LASTING_FAMILIES` an event of moving, joining or marrying changed for good
    ("小鹿下个月调岗去宁波了", "今天去民政局了 红本本到手"), or none: its outcome outlasts the day it happened."""
    if rec.kind is not Kind.EVENT or instructs_the_bot(rec.content) or rec.metadata.get(ENDED_KEY):
        return frozenset()
    lang = detect_language(rec.content)
    change = change_of(rec.content, lang)
    if change is None or change.direction != "to":
        return frozenset()
    if change.cls in ("move", "join") and not destination(rec.content, lang, change.at):
        return frozenset()  # 晚上不回家吃了: no new home named, no move
    return frozenset(change.families) & LASTING_FAMILIES


def _lasting_changes(store: Store, scope: Scope, *, at: datetime) -> list[MemoryRecord]:
    """The newest lasting change of each family that has happened by ``at`` (a move still ahead is no home yet)."""
    newest: dict[str, MemoryRecord] = {}
    events = store.list(scope, RecordFilter(kinds=(Kind.EVENT,), statuses=(Status.ACTIVE,), include_sensitive=False),
                        PROFILE_SCAN)
    for rec in sorted(events, key=lambda r: r.valid_from or r.created_at):
        day = rec.valid_from or rec.created_at
        if day > at or rec.created_at < day - _SAID_BEFORE or rec.visibility is not Visibility.NORMAL \
                or not known_at(rec, at):
            continue  # (a plan told days before its day is a plan; the day gone, the outcome stays: no expiry)
        for family in lasting_change(rec):
            newest[family] = rec
    return list({r.id: r for r in newest.values()}.values())
