"""What a message says about how sure it is, and what is talk about memory rather than a fact.

- **emphasis** ("非常重要", "这个很关键", "it matters", "this is important") is said about a
  statement, never part of it: a clause of it alone is blanked before clauses are split, so
  "remember that I hate cilantro, it matters" stores "User hates cilantro".
- **a request to remember that points elsewhere** ("请记住这一点", "remember this") is no
  fact of its own: nothing of it is stored (what it points to was stored when it was said).
- **a hedge** (可能 / 也许 / 打算看看 / maybe / might / thinking about) makes a statement less
  sure: its confidence is scaled by :data:`HEDGED`, and a hedged value takes no slot (a
  maybe-move does not replace where the user lives), except a health or allergy one, which
  is kept (a maybe-allergy still matters) at the lower confidence.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from jiyi.extractors.rules.drafts import Draft
from jiyi.text import qualifiers

#: the confidence of a hedged statement relative to a certain one
HEDGED = 0.6

_EMPHASIS_ZH = re.compile(
    r"(?:(?<=^)|(?<=[，,。！!；;\s]))(?:这(?:一点|点|个|件事)?|那(?:一点|个)?|它)?(?:真的|确实)?(?:非常|很|特别|超级|十分|极其|相当)?"
    r"(?:重要|关键|要紧)(?:的)?(?:哦|啊|呀|哈|啦)?(?=$|[，,。！!；;\s])")
_EMPHASIS_EN = re.compile(
    r"(?i)(?:(?<=^)|(?<=[,.;!]\s)|(?<=[,.;!]))\s*(?:(?:it|this|that)(?:'s|\s+is|\s+really)?\s+(?:really\s+|very\s+|super\s+)?"
    r"(?:matters?|important|crucial|key)(?:\s+(?:to\s+me|a\s+lot))?|important)\s*(?=$|[.!,;])")
#: words that only point at what was said, or name a whole kind of it (这一点 / 刚才那句话 / 用户的喜好 / "this")
_POINTERS_ZH = (r"(?:刚才|刚刚|之前|上面|前面|以上)?(?:说的)?(?:这|那)?(?:一点|点|个|件事|些|句话|些话|番话)?(?:的话|的)?|"
                r"(?:用户)(?:刚才|之前|刚刚)?(?:说过|说|讲过|讲)的(?:话|事|那些|这些)?|"
                r"用户的(?:喜好|偏好|习惯|信息|情况|要求|话|事)")
_POINTERS_EN = (r"this|that|it|these|those|everything|all\s+(?:of\s+)?(?:this|that|it)|the\s+above|"
                r"what\s+(?:User|I)\s+(?:just\s+)?(?:told|tell|said\s+to)\s+(?:the\s+assistant|you)|"
                r"what\s+(?:User|I)\s+(?:just\s+)?said|User's\s+(?:preferences|info|information|details)")
#: what may follow a pointer without telling anything: a tag asking for agreement, or emphasis ("this ok?? super important")
_AFTER_POINTER_ZH = r"(?:[\s，,。！!？?~～]*(?:好吗|好不好|行吗|行不行|可以吗|听到没|知道吗|记住没|(?:真的|非常|很|特别|超级|十分)?重要(?:的)?))*"
_AFTER_POINTER_EN = (r"(?:[\s,.!?]*(?<![\w'])(?:ok(?:ay)?|k|pls|please|plz|alright|right|yeah|yes|got\s+it|thanks|thx|"
                     r"(?:it'?s\s+|this\s+is\s+)?(?:really\s+|very\s+|super\s+|so\s+)?(?:important|crucial)))*")
_POINTER_ONLY = re.compile(rf"(?i)^(?:用户要求记住：[\s，,。！!：:]*(?:{_POINTERS_ZH})(?:吧|哦|啊|了)?{_AFTER_POINTER_ZH}|"
                           rf"User asked to remember:\s*(?:{_POINTERS_EN})?{_AFTER_POINTER_EN})[\s，,。.!！?？]*$")
_HEDGE_ZH = re.compile(r"(?<!不)可能|不知道(?:是不是|会不会|能不能)|也许|或许|大概|说不定|不一定|不确定|不太确定|打算看看|考虑|犹豫|看情况|想试试|试试看|好像|似乎|八成|没准")
_HEDGE_EN = re.compile(r"(?i)\b(?:maybe|perhaps|might|possibly|probably|thinking\s+(?:about|of)|considering|not\s+sure|"
                       r"wonder(?:ing)?\s+(?:if|whether)|"
                       r"i\s+guess|may\s+(?:be|have|go|move|try|start|take|need|get|switch)|could\s+be|if\s+i\s+can)\b")
#: a reminder tells again what it reports: 我之前跟你说过我喜欢猫 / 我不是跟你说过我对花生过敏吗？/ "Didn't I tell you I'm vegan?"
_TOLD_AGAIN_ZH = re.compile(
    r"(?:^|(?<=[，,。！!？?；;\s]))(?P<lead>(?:我)?(?:记得(?:我)?)?(?:不是|没|之前|以前|上次|早就|已经|刚才|刚刚|都)*(?:跟你|和你|给你|对你)?"
    r"(?:说过|讲过|提过|告诉过你|告诉你)(?:了)?[，,:：]?)(?P<rest>(?:我|俺)[^。！!？?；;]+?)(?P<end>吗|嘛|吧|么)?(?P<q>[？?])?"
    r"(?=[。！!；;]|$)")
_TOLD_AGAIN_EN = re.compile(
    r"(?i)(?:^|(?<=[.!?;]\s))(?P<lead>(?:didn't|did\s+not|haven't|have\s+not)\s+i\s+(?:tell|told|mention(?:ed)?|say|said)"
    r"(?:\s+(?:to\s+)?you)?(?:\s+(?:before|already))?(?:\s+that)?[,:]?\s+)(?P<rest>[^?.!;]+?)(?P<end>)(?P<q>\?)")
#: where an English clause's main statement ends (what follows may hedge something else)
_EN_MAIN = re.compile(r"(?i),\s*|\s+(?:so|but|because|although|though|and\s+(?:that|it|this))\s+")
_KEEPS_SLOT = ("allergy/", "health/", "person:")


#: a reminder after a statement (…，千万别忘了 / …, don't forget) asks to keep it: it is not part of it
_NUDGE_ZH = re.compile(
    r"(?<=[，,。！!；;\s])(?:你)?(?:千万|一定|务必|可)?(?:要)?(?:(?:别|不要|莫)忘(?:了|记了?|掉)?|记(?:住|好|牢|得|着)(?:了|哈)?)"
    r"(?:哦|啊|呀|哈|啦|喔|嗷|噢|哟)?(?=$|[，,。！!；;\s])")
_NUDGE_EN = re.compile(
    r"(?i)(?<=[,.;!])\s*(?:(?:so\s+|and\s+)?(?:please\s+)?(?:(?:don't|do\s+not)\s+forget(?:\s+(?:it|that|this))?|"
    r"remember\s+(?:that|this|it)|keep\s+(?:that|this|it)\s+in\s+mind|(?:make\s+sure\s+(?:to|you)\s+)?note\s+(?:that|this|it)"
    r"(?:\s+down)?))\s*(?=$|[.!,;])")


def without_emphasis(text: str, lang: str) -> str:
    """``text`` with its emphasis and reminder clauses blanked by spaces (offsets stay valid)."""
    for pattern in (_EMPHASIS_ZH, _NUDGE_ZH) if lang == "zh" else (_EMPHASIS_EN, _NUDGE_EN):
        text = pattern.sub(lambda m: " " * len(m.group()), text)
    return text


def told_again(text: str, lang: str) -> str:
    """``text`` with a rhetorical reminder made the statement it repeats, same length (offsets stay valid)."""
    def statement(m: re.Match[str]) -> str:
        tail = " " * len(m.group("end") or "") + ("。" if lang == "zh" else ".") * len(m.group("q") or "")
        return " " * len(m.group("lead")) + m.group("rest") + tail

    return (_TOLD_AGAIN_ZH if lang == "zh" else _TOLD_AGAIN_EN).sub(statement, text)


#: a request put as a question: 能不能记住我对花生过敏？/ "Could you remember that I'm vegan?" asks for nothing but that
_ZH_POLITE_REMEMBER = re.compile(
    r"(?P<ask>(?:能不能|可不可以|能否|可以|能|麻烦)(?:你|您)?(?:帮我|帮忙|给我)?)(?P<verb>记住|记一下|记下来?|记着|记好)"
    r"(?P<rest>[^？?。！!]*?)"
    r"(?P<end>(?:好|行|可以)?(?:吗|嘛|么))?(?P<q>[？?])")
_EN_POLITE_REMEMBER = re.compile(r"(?i)(?:^|(?<=[.!?;]\s))(?P<ask>(?:can|could|would|will)\s+you\s+(?:please\s+)?)"
                                 r"(?=(?:remember|note|keep\s+in\s+mind|make\s+a\s+note)\b)(?P<rest>[^?]*)\?")


def as_request(text: str, lang: str) -> str:
    """A request to remember put as a question, as a request (same length: offsets stay valid).

    "Could you remember that X?" → "Please remember that X."; 能不能帮我记一下X吗？ → …记一下X。
    """
    if lang == "zh":
        def ask_zh(m: re.Match[str]) -> str:  # 麻烦帮我记住X好吗？ → "     请记住X  。"
            tail = " " * len(m.group("end") or "") + "。"
            return " " * (len(m.group("ask")) - 1) + "请" + m.group("verb") + m.group("rest") + tail

        return _ZH_POLITE_REMEMBER.sub(ask_zh, text)

    def ask_en(m: re.Match[str]) -> str:
        ask = m.group("ask")
        return ("Please" + " " * (len(ask) - 6) if len(ask) >= 7 else " " * len(ask)) + m.group("rest") + "."

    return _EN_POLITE_REMEMBER.sub(ask_en, text)


def asks_about_memory(d: Draft, text: str, remember_at: int) -> bool:
    """Is ``d`` what 记得 / remember introduced in a question (你记得我喜欢什么吗？): a question, not a request?"""
    return (remember_at >= 0 and d.content.startswith(("用户要求记住：", "User asked to remember:"))
            and bool(re.search(r"(?:[？?]|吗|来着)\s*$", text[remember_at:].strip())))


_POINTER_LEAD = re.compile(r"(?i)\s*(?:这|那)(?:一点|点|件事|个|些)\s*[：:，,]|\s*(?:this|that|the\s+following)\s*:")


def without_pointer_lead(text: str, at: int) -> str:
    """``text`` without a pointer that opens what a 记住 at ``at`` introduces (记住这件事：明天开会 → 明天开会)."""
    if at < 0:
        return text
    m = _POINTER_LEAD.match(text, at)  # the marker before it is blanked: spaces, then the pointer
    return text if m is None else text[:m.start()] + " " * (m.end() - m.start()) + text[m.end():]


def points_elsewhere(d: Draft) -> bool:
    """Is ``d`` a request to remember whose only words point to something said before?"""
    return bool(_POINTER_ONLY.match(d.content))


def is_hedged(text: str, lang: str) -> bool:
    """Does ``text`` hedge (可能 / 也许 / maybe / might / thinking about)?"""
    return bool((_HEDGE_ZH if lang == "zh" else _HEDGE_EN).search(text))


def _say_unsure(content: str, lang: str) -> str:
    if lang == "zh":
        return "用户可能" + content[2:] if content.startswith("用户") else "可能" + content
    for lead, unsure in (("User is ", "User is possibly "), ("User has ", "User possibly has "), ("User ", "User possibly ")):
        if content.startswith(lead):
            return unsure + content[len(lead):]
    return "Possibly: " + content


def hedged(drafts: Sequence[Draft], lang: str) -> list[Draft]:
    """``drafts`` with each hedged one less sure (and, outside health and allergies, slotless)."""
    for d in drafts:
        said = d.source or d.content
        if lang != "zh":  # "User does like nature, so that might be fun": the hedge is the plan's, not the liking's
            said = _EN_MAIN.split(said, maxsplit=1)[0]
        if is_hedged(said, lang):
            d.confidence = round(d.confidence * HEDGED, 3)
            if not is_hedged(d.content, lang):  # the statement keeps its hedge (用户对青霉素过敏 → 用户可能…)
                d.content = _say_unsure(d.content, lang)
            if d.slot and not d.slot.startswith(_KEEPS_SLOT):
                d.slot, d.template = None, None
        if (d.ends or d.ends_mention) and qualifiers.hedged(d.source or d.content, lang):
            d.ends, d.ends_mention = [], None  # 想戒烟，但是每次都失败 / 真想分手: a wish ends nothing
    return list(drafts)


_DANGLING_EN = re.compile(r"(?i)\b(?:it|them|that\s+too|it\s+too)$")
_DANGLING_ZH = re.compile(r"(?:很|也|特别|超|最|挺|却|倒是|就)?(?:爱|喜欢|讨厌|不喜欢|爱吃|喜欢吃|不吃|不爱吃|受不了)(?:吃|喝)?$")


def with_objects(drafts: Sequence[Draft], lang: str) -> list[Draft]:
    """A statement about someone that ends on "it" / a bare 很爱 takes the object of the preference before it.

    "I don't really like cilantro but my wife loves it" → "User's wife loves cilantro";
    我不太喜欢吃香菜，但是我老婆很爱 → 用户的老婆很爱香菜.
    """
    last_value: str | None = None
    for d in drafts:
        if d.slot and d.slot.startswith("pref/") and d.values:
            last_value = d.values[0]
            continue
        if last_value is None or d.slot is not None or not d.content.startswith(("用户的", "User's")):
            continue
        if lang == "zh" and _DANGLING_ZH.search(d.content):
            d.content += last_value
        elif lang != "zh" and (m := _DANGLING_EN.search(d.content)):
            d.content = d.content[:m.start()] + last_value + (" too" if "too" in m.group().lower() else "")
    return list(drafts)
