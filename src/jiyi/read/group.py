"""Others in the user's group chats: their standing facts, for a reply that involves them.

A group chat stored per sender (each member under their own user id, one session id for the
group, added with ``group=True``: jiyi.write.groups) keeps 阿豪's "我猫毛过敏" under 阿豪. When
糖糖 later asks "周末大家来我家玩，我想养只猫，会有问题吗", her reply needs that allergy, and it
must stay 阿豪's. So the block of a user who took part in group sessions carries a short section
of the other members' standing facts (:data:`LINES` at most), chosen the way the user's own
profile is, by kind, slot and importance, and ranked by similarity to the query.

Only what a member said *in a group session both declared* is shown: a member's private chats
stay theirs, and users who merely share a session id ("default") see nothing of each other.
Sensitive memories (unless a condition that decides the query, told to the group), lapsed ones and
text that instructs the bot are never shown; erasing a
member's memories removes them here too, since nothing is copied.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from datetime import datetime
from functools import cache, partial

import numpy as np

from jiyi.read.gate import asked_categories, decides, known_at, lapsed, passes_gate
from jiyi.read.noise import is_noise, says_little
from jiyi.read.profile import PASSING_SLOTS, STANDING_IMPORTANCE, STANDING_SLOTS, lasting_change
from jiyi.read.standing import body_decides, conditions_for
from jiyi.records import Hit, Kind, MemoryRecord, Scope, Status, Visibility
from jiyi.stores.protocol import RecordFilter, Store
from jiyi.text.injection import instructs_the_bot
from jiyi.text.relations import REL_ZH, REL_ZH_RE
from jiyi.write.endings import says
from jiyi.write.groups import group_sessions

#: The user's most recent group sessions whose other speakers are looked at.
SESSIONS = 20
#: Most members read per session (a large group's first ones, by id).
MEMBERS = 12
#: Most of a member's memories of one session that are read.
SCAN = 200
#: Most lines the section shows.
LINES = 3
#: What a member named in the query adds to the cosine of their memories: theirs come first.
NAMED = 0.5
_KINDS = (Kind.FACT, Kind.PREFERENCE, Kind.RELATION)
#: a kinship word of the query, after 我 / 咱 / 俺 (我妈, 咱爸, 我老公)
_KIN_WORD = re.compile(r"(?<=[我咱俺])(?:" + REL_ZH_RE + r")")
#: What a member's other memories (:func:`_tells_of_member`) rank below their standing facts and lasting changes.
EXTRA = 0.15
#: the sensitive categories a member gives the group to be reached by
CONTACT_CATEGORIES = frozenset({"phone", "email"})
#: what else of a member a query that names them may be shown (:func:`_tells_of_member`)
_NAMED_KINDS = (Kind.EVENT, Kind.BEHAVIOR, Kind.EPISODE)
_SUBJECT = re.compile(r"^(?:用户|User)(?=\W|的|是|在|对|不|有|喜|讨|住|叫|养|s\b|'s\b)")


def member_standing(rec: MemoryRecord) -> bool:
    """Is ``rec`` (a member's own memory) one of their standing facts? The profile's rule, where a
    slot held by the member's name (``pref/坚果@阿豪``) is their own, and whom they have (a baby, a
    tabby called Pickle) counts: others plan around a member's people and pets."""
    if rec.kind not in _KINDS or instructs_the_bot(rec.content):
        return False
    slot = (rec.slot or "").partition("@")[0]
    return (slot.startswith(STANDING_SLOTS) and not slot.startswith(PASSING_SLOTS)) or (
        rec.importance >= STANDING_IMPORTANCE) or rec.kind is Kind.RELATION


def _member_records(store: Store, member: Scope, session: str, query: str, *, at: datetime,
                    asked: frozenset[str], me: Callable[[], Sequence[str]] = tuple,
                    contact: frozenset[str] = frozenset()) -> tuple[list[MemoryRecord], list[MemoryRecord]]:
    """What of ``member``'s, said in ``session``, may be shown: their standing facts and lasting changes, their
    plans still ahead that name the user (``me()``, the names the user goes by there: "这周五下午三点跟客户开评审会
    小米跟我一起" is 小米's meeting too), and when ``query`` names them, the rest of :func:`_tells_of_member` (a
    memory is of one session: listed once). Turns and names are read only for a member with a plan ahead.
    ``contact`` (a phone, an email) is asked for: a number the member gave in the group opens for a query that
    names them ("茜茜电话多少"), as they gave it for others to reach them."""
    if contact:
        first = store.list(member, RecordFilter(kinds=(Kind.EPISODE,), session_id=session), 1)
        asked = asked | contact if first and named(first[0], query) else asked
    flt = RecordFilter(kinds=(*_KINDS, Kind.EVENT), statuses=(Status.ACTIVE,), session_id=session,
                       include_sensitive=bool(asked))
    listed = store.list(member, flt, SCAN)
    ahead = {r.id for r in listed if _a_plan_ahead(r, at)}
    with_me = _plans_naming(store, member, session, [r for r in listed if r.id in ahead], me()) if ahead else set()
    recs = [r for r in listed if (member_standing(r) and not lapsed(r, at) or bool(lasting_change(r))
                                  or r.id in with_me)
            and passes_gate(r, at=at, historical=False, show_sensitive=asked)]
    said = listed or store.list(member, RecordFilter(kinds=(Kind.EPISODE,), session_id=session), 1)
    if not said or not named(said[0], query):
        return recs, []
    more = store.list(member, RecordFilter(kinds=_NAMED_KINDS, statuses=(Status.ACTIVE,), session_id=session), SCAN)
    seen = {r.id for r in recs}
    made = {sid for r in listed for sid in r.source_ids}  # a turn a memory was made from: the memory tells it
    return recs, [r for r in more if r.id not in seen and _tells_of_member(r, at)
                  and not (r.kind is Kind.EPISODE and made & {r.id, *r.source_ids})]


def _a_plan_ahead(rec: MemoryRecord, at: datetime) -> bool:
    """Is ``rec`` a member's event, not sensitive, known and still ahead at ``at``?"""
    return (rec.kind is Kind.EVENT and rec.visibility is Visibility.NORMAL and not lapsed(rec, at)
            and (rec.valid_until or rec.valid_from or rec.created_at) > at and known_at(rec, at)
            and not instructs_the_bot(rec.content))


def _plans_naming(store: Store, member: Scope, session: str, plans: Sequence[MemoryRecord],
                  me: Sequence[str]) -> set[str]:
    """The ids of ``plans`` that name the user (by a name of ``me``), themselves or in the turn they came from
    ("下周三上午十点 跟供应商开会 阿豪跟我一起" made "林姐…跟供应商开会")."""
    if not me:
        return set()
    turns = store.list(member, RecordFilter(kinds=(Kind.EPISODE,), session_id=session), SCAN)
    naming = {sid for t in turns if any(says(t.content, name) for name in me) for sid in t.source_ids}
    return {r.id for r in plans if any(says(r.content, name) for name in me) or naming & set(r.source_ids)}


def my_names(store: Store, scope: Scope, session: str) -> tuple[str, ...]:
    """The display names the user spoke under in ``session`` (their turns there), two characters or more."""
    turns = store.list(scope, RecordFilter(kinds=(Kind.EPISODE,), session_id=session), SCAN)
    return tuple(dict.fromkeys(t.speaker for t in turns if t.speaker and len(t.speaker) >= 2))


def _tells_of_member(rec: MemoryRecord, at: datetime) -> bool:
    """For a query that names the member, what else of theirs may be shown: their habits, what happened to
    them (a plan gone by still tells where they went: "老周10月11日去南宁报到"), and their own turns that say
    something ("sorry lag, manila internet moment"). Never sensitive, never what instructs the bot."""
    if rec.kind not in _NAMED_KINDS or rec.visibility is not Visibility.NORMAL or instructs_the_bot(rec.content):
        return False
    if rec.kind is Kind.EPISODE and group_chatter(rec.content):
        return False
    return known_at(rec, at)


def group_chatter(text: str) -> bool:
    """Does a member's turn say nothing a reply could use: small talk, a courtesy, or too little for a group chat?"""
    return says_little(text, group=True) or is_noise(text, assistant=False)


def _extra_cost(rec: MemoryRecord) -> float:
    """:data:`EXTRA`, and as much again for a raw turn: what was made of a turn says it better than the turn."""
    return EXTRA * (2 if rec.kind is Kind.EPISODE else 1)


def named(rec: MemoryRecord, query: str) -> bool:
    """Does ``query`` name the member ``rec`` is of ("小鹿现在在哪个城市"), or call them what their name calls
    them (妈妈 in a family group, "我妈复查是哪天" — 妈 / 老妈 / 母亲 are the same relation)?"""
    who = rec.speaker or rec.user_id
    if any(says(query.lower(), form.lower()) for form in name_forms(who)):  # (a Latin name as a whole word)
        return True
    kin = REL_ZH.get(who)
    return kin is not None and any(REL_ZH[word][0] == kin[0] for word in _KIN_WORD.findall(query) if word in REL_ZH)


def name_forms(who: str) -> tuple[str, ...]:
    """How a member's display name is said in a question: whole, by its first word ("Ivy" for "Ivy Chen"),
    or, for a Chinese name of two or three characters, as people call one another: the given name (晓雯 for
    林晓雯), 老 / 小 and the surname (老沈, 小沈 for 沈阿林), the surname and a title (哥, 姐, 总, 老师, 师傅, 工长, 经理, 队长…), 阿 and the last
    character (阿林)."""
    forms = [who] if len(who) >= 2 else []
    words = who.split()
    if len(words) > 1 and len(words[0]) >= 3 and words[0].isalpha():
        forms.append(words[0])
    if len(who) in (2, 3) and all("\u4e00" <= ch <= "\u9fff" for ch in who) and who[0] not in _NO_SURNAME:
        surname = who[0]
        forms += [who[1:]] if len(who) == 3 and who[1:] not in _CALLED else []  # (徐老师's 老师 is no name)
        forms += [f"{lead}{surname}" for lead in "老小"] + [f"{surname}{title}" for title in _TITLES]
        forms += [f"阿{who[-1]}"] if who[-1] != "阿" and who[1:] not in _CALLED else []
    return tuple(dict.fromkeys(forms))


#: what follows a surname to call someone by it
_TITLES = ("哥", "姐", "总", "老师", "师傅", "叔", "姨", "工长", "经理", "主任", "医生", "大夫", "队长", "老板", "书记",
           "律师", "教练", "组长", "班长", "站长", "科长", "处长", "局长", "校长", "院长", "部长", "所长", "村长", "主管",
           "会计", "老板娘", "阿姨", "大爷", "师父")
#: what a display name may end with that calls, not names (徐老师, 王经理)
_CALLED = frozenset(("老师", "师傅", "阿姨", "哥哥", "姐姐", "经理", "医生", "同学", "大哥", "大姐", "老板", "主任", "教练"))
#: the first characters of a display name that is a nickname, not a surname and a given name (阿豪, 小美, 老王)
_NO_SURNAME = frozenset("阿小老大")


def as_member(rec: MemoryRecord) -> MemoryRecord:
    """``rec`` with its subject named: "用户不吃坚果" said by 阿豪 reads "阿豪不吃坚果" in another's block."""
    who = rec.speaker or rec.user_id
    content = _SUBJECT.sub(lambda _: who, rec.content, count=1)
    if who.lower() not in content.lower() and rec.kind is not Kind.EPISODE:  # (a turn is shown with its speaker)
        content = f"{who}: {content}"
    return rec.replace(content=content)


def shared_members(store: Store, scope: Scope, sessions: int) -> list[tuple[str, list[Scope]]]:
    """``scope``'s most recent ``sessions`` group sessions, each with the other members (:data:`MEMBERS` at most)
    who declared it a group chat too: a session id two users merely share is no group of theirs."""
    declared: dict[str, list[str]] = {}
    out = []
    for session, users in store.session_members(scope, group_sessions(store, scope)[:sessions]).items():
        members = []
        for user in users[:MEMBERS]:
            if user not in declared:
                declared[user] = group_sessions(store, Scope(scope.tenant, user))
            if session in declared[user]:
                members.append(Scope(scope.tenant, user))
        out.append((session, members))
    return out


def group_hits(store: Store, scope: Scope, query_vec: np.ndarray, *, at: datetime, query: str = "",
               model: str = "") -> list[Hit]:
    """The other members' standing facts from the sessions ``scope``'s user shared with them, best first.

    A member's condition that decides the query (their shellfish allergy for "what snacks should i get",
    a pregnancy for "周末去哪爬山", a bad knee for "上湖那天我得带点啥" as the care probe reads it by ``model``'s
    embedding) comes first, sensitive or not: they told it to the group for this."""
    asked = conditions_for(query, bool(model) and body_decides(query_vec, model))
    contact = asked_categories(query) & CONTACT_CATEGORIES
    found: list[tuple[float, MemoryRecord]] = []
    for session, members in shared_members(store, scope, SESSIONS):
        me = cache(partial(my_names, store, scope, session))  # (read once, and only for a member's plan ahead)
        for member in members:
            recs, extras = _member_records(store, member, session, query, at=at, asked=asked, me=me, contact=contact)
            if not recs and not extras:
                continue
            vecs = store.vectors(member, [r.id for r in (*recs, *extras)])
            found += [(float(np.dot(query_vec, vec)) + (1.0 if asked and decides(rec, asked) else 0.0)
                       + (NAMED if named(rec, query) else 0.0) - (_extra_cost(rec) if extra else 0.0), rec)
                      for extra, part in ((False, recs), (True, extras)) for rec in part
                      if (vec := vecs.get(rec.id)) is not None]
    found.sort(key=lambda sr: (-sr[0], sr[1].id))
    return [Hit(as_member(rec), score, {"group": score}) for score, rec in found[:LINES]]
