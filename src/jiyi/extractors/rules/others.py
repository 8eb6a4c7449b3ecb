"""Statements about someone other than the speaker, kept with that person.

"bob的手机号是139…", "小明住在杭州", "Maya lives in Berlin", "我同事小李喜欢打篮球",
"my boss Tom moved to Paris": the same patterns that read the user's own facts read
these, on the clause rewritten as if the person said it ("bob的手机号是…" is read as
"我的手机号是…"), and every slot they give is re-keyed to the person:
``user/phone`` → ``person:bob/phone``, ``pref/篮球`` → ``person:小李/pref/篮球``. A new
value about the same person supersedes the old one; nothing lands in the speaker's
``user/…`` slots. The content names the person (小明住在杭州), the person joins the
entities, and the kind is ``relation`` (someone in the user's life).

An unnamed relative of whom there is one (我妈 / my wife) is keyed by the role
(``person:mother/city``); an unnamed one of whom there may be several (我同事, 我家猫)
gets no slot: a second colleague's city must not replace the first's.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from jiyi.extractors.rules.drafts import Clause, Draft, fact
from jiyi.extractors.rules.en import en_diet, en_habit, en_identity, en_preference
from jiyi.extractors.rules.sensitive import en_contact, en_health, zh_contact, zh_health
from jiyi.extractors.rules.zh import (
    zh_age,
    zh_diet,
    zh_habit,
    zh_like,
    zh_name,
    zh_residence,
    zh_work,
)
from jiyi.records import Kind
from jiyi.text.person import first_person, third_person, tidy_zh
from jiyi.text.relations import REL_EN, REL_ZH, SINGLE_VALUED
from jiyi.text.topics import change_of

if TYPE_CHECKING:
    from jiyi.extractors.rules.message import MessageExtraction


def person_key(c: Clause, lang: str) -> str | None:
    """Who a clause about someone else is about, as a slot key (a name, or a single-valued role)."""
    if c.person:
        return c.person
    if c.rel_name:
        return c.rel_name
    if c.rel:
        key = (REL_ZH if lang == "zh" else REL_EN).get(c.rel, ("", ""))[0]
        return key if key in SINGLE_VALUED else None
    return None


def rekey(slot: str | None, who: str) -> str | None:
    """``user/city`` → ``person:<who>/city``; reply-style and contact-channel slots are the user's alone."""
    if slot is None or slot.startswith(("style/", "contact/")):
        return None
    return f"person:{who}/{slot.removeprefix('user/')}"


def _as_if_said(rest: str, lang: str) -> str:
    """The clause after the person's name, as the person would say it: 的手机号是… → 我的手机号是…"""
    rest = rest.strip(" ,，")
    if lang == "zh":
        return "我" + rest
    if verb := _IS_OR_HAS.match(rest):  # "Priya's veggie": 's is "is" (or "has" before been / got), not an owner's
        return first_person(f"User {'has' if verb.group(1).lower() in ('been', 'got') else 'is'} {rest[verb.end():]}", "en")
    poss = re.match(r"^['\u2019]s\s+", rest)
    return first_person("User's " + rest[poss.end():] if poss else "User " + rest, "en")


#: 's before a word that says what someone is or has been, not what they own
_IS_OR_HAS = re.compile(r"(?i)^['\u2019]s\s+(?=(been|got|veggie|vegetarian|vegan|pescatarian|halal|kosher|keto|lactose|gluten|"
                        r"allergic|diabetic|coeliac|celiac|pregnant|teetotal|tee-total|sober|from|living|moving|working|"
                        r"studying|based|married|engaged|single|retired)\b)")


#: the speaker named in what is said of someone else: the two of them, not the person alone
_SPEAKER_IN = re.compile(r"[我俺咱]|(?i:\b(?:me|my|mine|us|our)\b)")


def person_facts(work: MessageExtraction, rest: str, who: str, name: str | None) -> list[Draft]:
    """The fact patterns on ``rest`` (the clause after the person), re-keyed to ``who``.

    ``name`` replaces 用户/User in the content when given (小明住在杭州); without one the
    caller keeps its own wording (用户的妈妈住在杭州).
    """
    if _SPEAKER_IN.search(rest):
        return []  # 我妈叫我小林 / 小李是我同事: about the two of them, not an attribute of the person
    said = _as_if_said(rest, work.lang)
    if work.lang == "zh":
        body = tidy_zh(said[1:])
        content = "用户" + third_person(tidy_zh(said), "zh")[2:]
        drafts = zh_contact(said) + zh_name(body) + zh_age(body) + zh_health(body, body, whose_known=True) + zh_residence(body)
        drafts += zh_work(body)
        if not drafts:
            drafts = zh_diet(body, content, False) or zh_like(body, content) or zh_habit(body, content)
    else:
        drafts = en_contact(said) + en_identity(said) + en_health(said)
        if not drafts:
            drafts = en_diet(said) or en_preference(said) or en_habit(said)
    out: list[Draft] = []
    for d in drafts:
        d.slot = rekey(d.slot, who)
        if name:
            d.content = _named(d.content, name, work.lang)
            d.template = _named(d.template, name, work.lang) if d.template else None
            d.values = list(dict.fromkeys([name, *d.values]))
        d.kind = Kind.RELATION
        out.append(d)
    return out


def _named(text: str, name: str, lang: str) -> str:
    if lang == "zh":
        return text.replace("用户", name)
    return re.sub(r"\bUser\b", name, text)


def named_person(work: MessageExtraction, c: Clause) -> list[Draft]:
    """Facts of a clause whose subject is a named someone (小明住在杭州 / "Maya lives in Berlin"), or, when no
    pattern reads it, a change in their life as said (许敏省考也上岸了, "Maya moved out"): theirs, never the user's."""
    if c.person is None or c.question:
        return []
    found = person_facts(work, c.body, c.person, c.person)
    if found or _SPEAKER_IN.search(c.body) or change_of(c.body, work.lang) is None:
        return found
    said = tidy_zh(c.person + c.body) if work.lang == "zh" else f"{c.person} {c.body.strip()}"
    return [fact(said, None, c.person, kind=Kind.RELATION, importance=0.6, confidence=0.8)]
