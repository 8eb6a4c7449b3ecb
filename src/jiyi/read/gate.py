"""The gate: only what is active (or was valid at ``at``), unexpired and visible gets through.

And :func:`lapsed`: whether a memory's time is over (a plan past its expiry, an event past
its end). Lapsed events still pass the gate of ``search`` (they happened: "上个月去哪玩了"
needs them), but ``build_context`` never presents them as current, and ``gc`` expires them.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from datetime import datetime, timedelta, tzinfo

from jiyi.clock import UTC_OFFSET_KEY, speaker_zone
from jiyi.privacy.forget import families_in, memory_families
from jiyi.records import Kind, MemoryRecord, Status, Visibility
from jiyi.text.food import FOOD
from jiyi.text.script import simplified

#: A plan past its ``expires_at`` is still recalled this long (ranked lower, shown as past):
#: "我那个面试是哪天来着" the day after asks about it.
EXPIRY_GRACE = timedelta(days=7)
#: An event stored without an end (older stores, other extractors) is taken to last this long.
EVENT_WITHOUT_END = timedelta(days=1)


_HEALTH = re.compile(r"(?i)病|健康|药|诊断|过敏|血压|血糖|怀孕|health|medical|medicine|diagnos|allerg|condition|pregnan")
_ACCOUNT = re.compile(r"(?i)账号|账户|\baccount\b|\bbank\b")
#: a word that asks for an ID's number itself (身份证号, 多少, "passport number"), not for the card or a form
#: ("要准备咩证件", "下个月又要填表")
_NUMBER_ASK = re.compile(r"(?i)号|码|多少|是啥|啥来着|什么来着|抄|发我|发给|给我|告诉我|\bnumber|\bno\b|#|"
                         r"\bdigits\b|\b(?:send|give|tell)\s+me\b|what(?:'s|\s+is)\s+my\b")
#: conditions that decide what someone may eat or drink (shown for a food query, though sensitive)
_DIET_CONDITION = re.compile(r"(?i)痛风|糖尿病|血糖|血压|血脂|高尿酸|尿酸|乳糖不耐|胃|幽门|脂肪肝|肾结石|胆结石|麸质|stomach|gastri|"
                             r"celiac|coeliac|gluten|diabet|gout|lactose|ibs|crohn|cholesterol|hypertension|blood\s+sugar|"
                             r"high blood pressure|reflux|gerd|kidney stone|fatty liver|pcos|怀孕|孕期|pregnan")
#: a query about going out or moving (a trip, a walk, a workout, what to do this weekend, lifting something heavy) …
_OUTING = re.compile(r"(?i)去哪|哪儿玩|去玩|好玩|出去|出门|逛|旅游|旅行|出游|出差|团建|爬山|徒步|运动|健身|锻炼|跑步|晨跑|夜跑|训练|"
                     r"练腿|撸铁|打球|游泳|骑行|景点|周末|路上|坐车|大巴|长途|自驾|坐船|搬|扛|抬|重物|"
                     r"\b(?:trips?|travel(?:ling|ing)?|hikes?|hiking|walks?|workouts?|exercise|gym|run(?:ning)?|swim(?:ming)?|"
                     r"outings?|weekend|things\s+to\s+do|day\s+out|sightseeing|vacation|holiday|business\s+trip|offsite|retreat|"
                     r"road\s+trip|bus\s+ride|long\s+drive|ferry|lift(?:ing)?|carry(?:ing)?|heavy)\b")
#: … asks, too, for the conditions that limit it ("outing_health")
_OUTING_CONDITION = re.compile(r"(?i)怀孕|孕期|哮喘|心脏|支架|冠心病|癫痫|腰椎|腰间盘|腰|关节炎|恐高|高血压|糖尿病|低血糖|stent|"
                               r"pregnan|asthma|heart|epilep|arthritis|vertigo|hypertension|high blood pressure|"
                               r"diabet|hypoglyc|"  # (a long walk without sugar at hand is a diabetic's danger)
                               r"晕车|晕船|晕机|car\s*sick|motion\s+sick|sea\s*sick|"  # a journey: motion sickness
                               # an injury that limits moving: a knee, an ankle, a back
                               r"膝|半月板|韧带|脚踝|踝|扭伤|骨折|腰伤|椎|knee|ankle|ligament|\bacl\b|menisc|sprain|fractur|"
                               r"back\s+(?:pain|injury)|slipped\s+disc|herniat")
#: a query about colours or what is read by colour (a paint, an outfit, a chart, a game's map) …
_COLOURS = re.compile(r"(?i)颜色|配色|色系|色号|什么色|哪个色|红绿|图例|\b(?:colou?rs?|paint|palette|shades?|legend|"
                      r"minimap|heat\s*map|charts?|outfit)\b")
#: … asks for a condition of seeing them
_SIGHT_CONDITION = re.compile(r"(?i)色盲|色弱|红绿|colou?r[\s-]*blind|deuteranop|protanop|tritanop|red[\s/-]*green")


#: what a query the user's body decides opens (read/standing.py's care probe: "今晚恰么子好", "周末想出去耍"): the conditions
#: that decide what to eat or where to go, not every health fact (a migraine decides no dinner)
BODY_CATEGORIES = frozenset({"diet_health", "outing_health"})


def asked_categories(query: str, *, body: bool = False) -> frozenset[str]:
    """The sensitive categories a query asks for ("我的手机号是多少" → phone; "what's my password" →
    password, which opens nothing sensitive: a secret is never recalled); with ``body``, those of a query the
    user's body decides (:data:`BODY_CATEGORIES`)."""
    query = simplified(query)
    found = {name for name, _, _ in families_in(query)} | (BODY_CATEGORIES if body else set())
    if _HEALTH.search(query):
        found.add("health")
    if FOOD.search(query):
        found.add("diet_health")  # "中午想煮个汤": the gout that rules out seafood, not the rest of the file
    if _OUTING.search(query):
        found.add("outing_health")  # "周末去哪玩": the pregnancy that rules out the roller coaster
    if _COLOURS.search(query):
        found.add("sight_health")  # "which color should i paint my bedroom": the colour blindness
    if _ACCOUNT.search(query):
        found.add("bank_card")
    if "id_number" in found and not _NUMBER_ASK.search(query):
        found.discard("id_number")  # "补办身份证要带啥", "renew my passport": the card is the matter, not its number
    return frozenset(found)


#: a condition of anyone's that decides what they may eat: an allergy or an intolerance
_ALLERGY = re.compile(r"(?i)过敏|不耐受|allerg|intoleran")
#: what decides a question of each category asked (:func:`asked_categories`), whoever it is of
_DECIDES: dict[str, tuple[re.Pattern[str], ...]] = {
    "diet_health": (_ALLERGY, _DIET_CONDITION), "outing_health": (_OUTING_CONDITION,), "health": (_HEALTH,),
    "sight_health": (_SIGHT_CONDITION,)}


def decides(rec: MemoryRecord, asked: Collection[str]) -> bool:
    """Does ``rec`` state a condition that decides a question of the categories ``asked`` ("老贺有肾结石" for
    "买点什么喝的", "Joaquin takes insulin" for a hike's first-aid kit), whoever's it is?"""
    said = f"{rec.slot or ''} {rec.content}"
    return any(p.search(said) for cat in asked for p in _DECIDES.get(cat, ()))


def _own_slot(slot: str | None) -> str:
    """A slot with its person prefix taken off (``person:老贺/health/肾结石`` → ``health/肾结石``)."""
    if slot and slot.startswith("person:"):
        return slot.split("/", 1)[1] if "/" in slot else ""
    return slot or ""


def category_of(rec: MemoryRecord) -> frozenset[str]:
    """The sensitive categories a memory holds (its slot family, else the family words and values it says);
    another person's condition (``person:老贺/health/…``) is of the categories the user's would be."""
    if _own_slot(rec.slot).split("/", 1)[0] in ("health", "allergy"):
        said = f"{rec.slot} {rec.content}"
        return frozenset({"health"} | ({"diet_health"} if _DIET_CONDITION.search(said) else set())
                         | ({"outing_health"} if _OUTING_CONDITION.search(said) else set())
                         | ({"sight_health"} if _SIGHT_CONDITION.search(said) else set()))
    found = set(memory_families(rec.content, rec.slot))
    if _HEALTH.search(rec.content) and not found - {"allergy"}:
        found.add("health")
    return frozenset(found)


def passes_gate(rec: MemoryRecord, *, at: datetime, historical: bool,
                show_sensitive: bool | Collection[str]) -> bool:
    """True when ``rec`` may be recalled at time ``at`` (a plan until :data:`EXPIRY_GRACE` after it expired).

    ``historical`` (an explicit ``at``) sees the store as it was then: only what was known
    by ``at`` (:func:`known_at`), and also superseded or expired memories whose validity
    window covers ``at`` ("where did I live last year" sees the old city, not the new one).
    A memory superseded by a change that has not happened yet ("moving to Austin in
    January") is still true until then, historical or not.

    ``show_sensitive``: True lets every sensitive memory through (the caller asked for them),
    a set of categories (:func:`asked_categories` of the query) only those of the categories
    asked for: asking for the phone does not open the address, asking for a password opens nothing.
    A secret never passes.
    """
    return level_opens(rec, show_sensitive) and time_opens(rec, at=at, historical=historical)


def level_opens(rec: MemoryRecord, show_sensitive: bool | Collection[str]) -> bool:
    """Does ``rec``'s level let its values be shown: a normal memory, or a sensitive one of the categories asked
    for (``show_sensitive``, as for :func:`passes_gate`)? A secret's value never is (read/masked.py may still show
    its line with the value hidden)."""
    if rec.visibility is Visibility.SECRET:
        return False
    return rec.visibility is not Visibility.SENSITIVE or show_sensitive is True or (
        not isinstance(show_sensitive, bool) and bool(category_of(rec) & set(show_sensitive)))


def time_opens(rec: MemoryRecord, *, at: datetime, historical: bool) -> bool:
    """:func:`passes_gate` without the level: unexpired (with the grace), known by ``at`` when historical, and
    active, or superseded or expired with a window that covers ``at``."""
    if rec.expires_at is not None and rec.expires_at + EXPIRY_GRACE <= at:
        return False
    if historical and not known_at(rec, at):
        return False
    if rec.status is Status.ACTIVE:
        return rec.valid_from is None or rec.valid_from <= at or rec.kind is Kind.EVENT
    if rec.status is Status.SUPERSEDED and rec.valid_until is not None and at < rec.valid_until:
        return rec.valid_from is None or rec.valid_from <= at  # replaced by a change still ahead (moving in January)
    if historical and rec.status in (Status.SUPERSEDED, Status.EXPIRED):
        started = rec.valid_from is None or rec.valid_from <= at or rec.kind is Kind.EVENT
        return started and (rec.valid_until is None or at < rec.valid_until)
    return False


def said_at(rec: MemoryRecord) -> datetime:
    """When ``rec`` was said: a turn at its message time, anything else when it was recorded."""
    return rec.valid_from if rec.kind is Kind.EPISODE and rec.valid_from is not None else rec.created_at


def zone_of(rec: MemoryRecord, configured: tzinfo) -> tzinfo:
    """The zone ``rec``'s own time words are read in: its speaker's clock when its message was written with
    another offset than ``configured`` (jiyi.clock.speaker_zone)."""
    offset = rec.metadata.get(UTC_OFFSET_KEY)
    return speaker_zone(offset if isinstance(offset, int) else None, configured, said_at(rec))


def known_at(rec: MemoryRecord, at: datetime) -> bool:
    """Was ``rec`` said by ``at`` (:func:`said_at`)?"""
    return said_at(rec) <= at


def event_end(rec: MemoryRecord) -> datetime | None:
    """When an event is over: its ``valid_until``, else a day after it began (None for other kinds)."""
    if rec.kind is not Kind.EVENT:
        return None
    if rec.valid_until is not None:
        return rec.valid_until
    return (rec.valid_from or rec.created_at) + EVENT_WITHOUT_END


def lapsed(rec: MemoryRecord, at: datetime) -> bool:
    """Is ``rec``'s time over at ``at``: past ``expires_at``, or an event past its end?"""
    if rec.expires_at is not None and rec.expires_at <= at:
        return True
    end = event_end(rec)
    return end is not None and end <= at


def lapsed_share(rec: MemoryRecord, at: datetime) -> float:
    """0 before ``expires_at``, rising to 1 over :data:`EXPIRY_GRACE` after it (how over a plan is)."""
    if rec.expires_at is None or rec.expires_at > at:
        return 0.0
    return min(1.0, (at - rec.expires_at) / EXPIRY_GRACE)
