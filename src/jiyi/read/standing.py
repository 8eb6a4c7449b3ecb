"""A standing fact the query's topic calls for ranks in the top five of ``search``.

"推荐一个零食给我" never names peanuts, and the words share nothing with "用户对花生过敏"; an
agent that searches before it answers must still see the allergy. So a query's topic is
read by similarity: its embedding against a short description of each topic
(:data:`TOPICS`, one line per topic in both languages, embedded once). When the closest
topic beats the runner-up by :data:`MARGIN` and it is one that standing facts care about
(eating and drinking: allergies and diet; health), the user's active standing memories in
those slot families (:data:`CARE`) are lifted just above the fifth hit (at most
:data:`LIFTED` of them, the most important first).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence

import numpy as np

from jiyi.read.gate import BODY_CATEGORIES, asked_categories, decides
from jiyi.read.noise import only_asks
from jiyi.read.profile import STANDING_KINDS, is_standing, profile_order
from jiyi.records import Kind, MemoryRecord, Scope, Status
from jiyi.stores.protocol import RecordFilter, Store
from jiyi.text.ended import ENDED_KEY
from jiyi.text.probe import probe_says
from jiyi.text.script import simplified
from jiyi.write.embed import CachedEmbedder

#: Topics a query can be about, each described in a line (compared by embedding, not by words).
TOPICS: dict[str, str] = {
    "food": "吃什么喝什么：推荐食物、零食、饮料、菜、餐厅、外卖、做饭 | what to eat or drink: food, snacks, drinks, "
            "dishes, restaurants, cooking",
    "health": "身体、健康、看病、吃药、运动 | body, health, doctor, medicine, exercise",
    "home": "住在哪里、搬家、城市、小区、房子 | where to live, moving, city, home",
    "work": "工作、公司、职业、上班、同事 | work, job, company, career, colleagues",
    "people": "家人、朋友、伴侣、孩子、宠物 | family, friends, partner, children, pets",
    "style": "回答的方式、长短、语气、称呼 | how to reply: length, tone, form of address",
}
#: The slot families a topic's standing facts live in (what a bot must not forget there); "body" is a query the
#: care probe reads as one the user's body decides (where to go this weekend, what to pack), whatever its topic.
CARE: dict[str, tuple[str, ...]] = {"food": ("allergy/", "diet/"), "health": ("health/", "allergy/"),
                                    "body": ("allergy/", "diet/", "health/")}
#: The categories of a question whose answer another person's condition can decide (read/gate.py): what to
#: eat or drink, where to go. A question about the user's own health ("吃什么药好") opens no one else's.
CONDITION_CATEGORIES = frozenset({"diet_health", "outing_health"})
#: The closest topic must be this much closer (cosine) than the next one.
MARGIN = 0.02
#: At most this many standing facts are lifted into the top five.
LIFTED = 2
#: The rank they are lifted above (0-based: the fifth hit).
RANK = 4
#: How many standing memories are read to find them.
SCAN = 200


#: the care probe's chance (text/probe.py: 900 queries written blind) from which the user's body decides a query: at
#: 0.8 it found 83% of such queries and 1.1% of the others in five-fold cross-validation
CARE_CHANCE = 0.8


def query_topic(qvec: np.ndarray, embedder: CachedEmbedder, body: bool | None = None) -> str | None:
    """The topic ``qvec`` is clearly about, or None; "body" when no topic the standing facts care about is clear
    and the care probe reads the query as one the user's body decides ("今晚恰么子好", "周末想出去耍"): ``body``, when
    the caller read the probe already."""
    sims = sorted(((float(np.dot(qvec, embedder.embed_query(text))), name) for name, text in TOPICS.items()),
                  reverse=True)
    (best, name), (second, _) = sims[0], sims[1]
    topic = name if best - second >= MARGIN else None
    if topic in CARE:
        return topic
    return "body" if (body_decides(qvec, embedder.model) if body is None else body) else topic


def body_decides(qvec: np.ndarray, model: str) -> bool:
    """Does the care probe read the query embedded as ``qvec`` by ``model`` as one the user's body decides?"""
    return probe_says("care", qvec, model, CARE_CHANCE)


def cared_for(store: Store, scope: Scope, topic: str | None, query: str, *, body: bool = False) -> list[str]:
    """Ids of the user's active standing memories in ``topic``'s slot families, most important first; then
    the conditions of other people the user told of that decide the query (:func:`others_conditions`); ``body``:
    the care probe reads the query as one a body decides (:func:`conditions_for`)."""
    families = CARE.get(topic or "")
    asked = conditions_for(query, body)
    if not families and not asked:
        return []
    listed = store.list(scope, RecordFilter(kinds=STANDING_KINDS, statuses=(Status.ACTIVE,)), SCAN)
    others = others_conditions(listed, asked)
    if asked and len(others) < LIFTED:  # told in a turn no memory was made of ("my team lead is gluten intolerant")
        turns = told_conditions(store.list(scope, RecordFilter(kinds=(Kind.EPISODE,), statuses=(Status.ACTIVE,)),
                                           SCAN), asked)
        made = store.find_by_sources(scope, [sid for t in turns for sid in t.source_ids]) if turns else {}
        bare = [t for t in turns if not any(r.kind is not Kind.EPISODE for sid in t.source_ids
                                            for r in made.get(sid, ()))]
        others += _newest_ids(bare)[:LIFTED - len(others)]
    return [*_own(listed, families, query), *others]


def conditions_asked(query: str) -> frozenset[str]:
    """The categories of :data:`CONDITION_CATEGORIES` that ``query`` asks for (read/gate.py). A question about
    what happened ("when did Joanna make the chocolate tart?") plans nothing: no condition decides it."""
    return conditions_for(query, body=False)


def conditions_for(query: str, body: bool) -> frozenset[str]:
    """The categories of people's conditions that decide ``query``: those its words ask for (:func:`conditions_asked`),
    else, when the care probe reads it as one a body decides (``body``: "元旦包饺子 二哥那份要注意啥", "上湖那天我得带
    点啥", "想给爸妈寄点特产"), what decides food and outings (:data:`BODY_CATEGORIES`). Not a question of the past."""
    from jiyi.read.query import asks_past

    query = simplified(query)
    if asks_past(query):
        return frozenset()
    return asked_categories(query) & CONDITION_CATEGORIES or (BODY_CATEGORIES if body else frozenset())


def told_conditions(turns: Sequence[MemoryRecord], asked: Collection[str]) -> list[MemoryRecord]:
    """The user's turns among ``turns`` that tell someone's condition deciding a question of the categories
    ``asked`` (the caller keeps those that gave no memory: what a rule could not read is still there)."""
    return [t for t in turns if t.metadata.get("role") != "assistant" and not t.metadata.get("smalltalk")
            and not t.metadata.get(ENDED_KEY) and not only_asks(t.content) and decides(t, asked)]


def others_conditions(records: Sequence[MemoryRecord], asked: Collection[str]) -> list[str]:
    """Ids of the memories among ``records`` that tell another person's condition deciding a question of
    the categories ``asked`` ("用户的同事老贺有肾结石", "User's boss Ravi is gluten intolerant" for a bake
    sale), newest first, at most :data:`LIFTED`."""
    return _newest_ids([r for r in records
                        if r.kind is Kind.RELATION and not r.metadata.get(ENDED_KEY) and decides(r, asked)])


def _newest_ids(records: Sequence[MemoryRecord]) -> list[str]:
    """The ids of the newest :data:`LIFTED` of ``records`` (by when each was said)."""
    newest = sorted(records, key=lambda r: (-(r.valid_from or r.created_at).timestamp(), r.id))
    return [r.id for r in newest[:LIFTED]]


def _own(records: Sequence[MemoryRecord], families: tuple[str, ...], query: str) -> list[str]:
    if not families:
        return []
    found = [r for r in records if (r.slot or "").startswith(families) and is_standing(r, query)]
    return [r.id for r in profile_order(found)[:LIFTED]]


def lifts(chosen: Sequence[MemoryRecord], totals: Mapping[str, float]) -> dict[str, float]:
    """How much to add to each of ``chosen`` (gated candidates) to rank just above the fifth total."""
    if not chosen:
        return {}
    order = sorted(totals.values(), reverse=True)
    target = order[min(RANK, len(order) - 1)] + 0.01
    return {r.id: target - totals[r.id] for r in chosen if totals[r.id] < target}
