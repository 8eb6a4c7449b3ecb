"""The values a change of state names: the new one after its verb (:func:`destination`: the place a move goes
to, the new number), and the old one it came from (:func:`origin`).

"用户从长春搬到了大连" → 大连 (and 长春 where it came from); "User moved out of the old flat, now in marsh end" →
marsh end; "用户换号了，新号码是13700001111" → 13700001111. :func:`jiyi.text.topics.change_of` finds the verb;
a change that names its new value keeps the turns that say it, and keeps the old one beside it as no longer so
(write/resolve.py, write/batch.py).
"""

from __future__ import annotations

import re

from jiyi.text.places import place_at_start

_P = re.compile

_EN_DEST = _P(r"\b(?:to|in|into)\s+(?:the\s+)?(?!User\b)(?P<v>[A-Z][\w'-]+(?:\s+[A-Z][\w'-]+)*)")
_EN_NAME_FIRST = _P(r"\s*(?:(?:the|our)\s+)?(?!User\b)(?P<v>[A-Z][\w'-]+(?:\s+[A-Z][\w'-]+)*)")
_EN_LOWER_DEST = _P(r"^\s*(?:(?:back\s+)?(?:to|in|into)\s+)?(?:(?:the|our)\s+)?(?P<v>[a-z][a-z .'-]{1,40})")
_EN_OUT_OF = _P(r"(?i)\b(?:out\s+of|from|away\s+from)\s*$")
#: where one is now, said on its own after the move: "moved out of Leeds last week, Bristol now"
_EN_NOW_AT = _P(r"[,;]\s*(?:(?:and\s+)?(?:in|to)\s+)?(?!User\b)(?P<v>[A-Z][\w'-]+(?:\s+[A-Z][\w'-]+)*)\s+(?:now|these\s+days)\b")
_DIGITS = _P(r"[\d][\d -]{4,}\d")
_ISO_DAY = _P(r"\d{4}-\d{2}-\d{2}")  # a day the extractor wrote, no number
#: a new home that is no place name: 住宿舍了, 搬进了公司宿舍, 住到单位公寓
_ZH_HOME = _P(r"(?:住|住进|住到|搬进|搬到|搬去)(?:了)?(?P<v>[\u4e00-\u9fff]{0,4}(?:宿舍|公寓|出租屋|单间|新房|小区|老家|家里))")
#: where a new home is, typed in lower case: "now in tseung kwan o", "a lease in mui wo", "studio in jing'an"
_EN_HOME_IN = _P(r"(?i)(?:^\s*(?:in|at)\s+|\b(?:now|lease|studio|flat|apartment|place|room|house|home|living|based|"
                 r"settled)\s+(?:is\s+)?(?:in|at)\s+)(?P<v>[a-z][a-z'-]*(?:\s+[a-z][a-z'-]*){0,3}?)"
                 r"(?=\s*(?:[.,!;:?)]|$|\s+(?:now|for|with|and|but|since|near|which|lol|haha|on|this|last|next|until|"
                 r"till|from|after|before|yesterday|today|tomorrow|\d)\b))")
#: what follows "now in" and is no place: an article, a time, a state ("now in a bigger flat", "now in shock")
_EN_NO_PLACE = _P(r"(?i)^(?:a|an|the|my|our|his|her|their|same|this|that|shock|love|trouble|charge|debt|pain|"
                  r"progress|town|bed|school|college|hospital|office|person|total|general|time|touch)\b")


#: a place written in Chinese right after an English change's verb ("moving to 南山", "moved into 滨江 last week")
_EN_HAN_DEST = _P(r"\s*(?:(?:to|into|in)\s+)?(?:the\s+)?(?P<v>[\u4e00-\u9fff]{2,8})")


#: words before a name that make it a comparison or a starting point, not a value: 这边的雨比厦门还烦人, 从成都搬过来,
#: "colder than Leeds", "came from Porto"
_COMPARED = _P(r"(?:比|从|离|像|跟|和|同)$|(?i:\b(?:than|from|like|unlike)\s+$)")


def compared(text: str, name: str) -> bool:
    """Does ``name`` stand in ``text`` (where it first does) as what something is compared with or comes from?"""
    at = text.find(name)
    return at > 0 and _COMPARED.search(text[:at]) is not None


#: what is done on a platform a move goes to ("搬去B站做视频", "搬到抖音直播"), or being "on" it (美团上了)
_ONLINE_DOING = _P(r"^(?P<p>[^，,。\s]{1,12}?)(?:(?:上|里)?(?:做|拍|直播|开播|带货|卖|发|更新|更|写|接单|开店|上架)|"
                   r"(?:上|平台上?)(?:了|啦|去了|面)?(?:[，,。！!\s]|$))")
_PLACE_SUFFIX = _P(r"(?:市|省|区|县|镇|乡|村|州|岛|路|街|小区|公寓|宿舍)$")


def online(after: str) -> bool:
    """Is what a Chinese move goes to (the words after its verb) a platform, not a place: a name the lexical analyser
    reads as no place, with something done on it after or "on" it (搬去B站做视频了, 搬到抖音直播, 店搬到美团上了)?
    "搬到杭州做电商" and "搬去阿里巴巴附近了" go to a place."""
    from jiyi.text.lexical import entities

    m = _ONLINE_DOING.match(after.lstrip("了去到 "))
    return m is not None and not entities(m.group("p")).get("LOC") and not _PLACE_SUFFIX.search(m.group("p"))


def places_named(text: str, lang: str) -> tuple[str, ...]:
    """The places ``text`` names: what the lexical analyser tags LOC in Chinese, known place names in English."""
    if lang == "zh":
        from jiyi.text.lexical import entities

        return tuple(p for p in entities(text).get("LOC", ()) if len(p) > 1)
    from jiyi.text.entities import find_entities

    return tuple(e for e in find_entities(text, "en") if (known := place_at_start(e)) and known[1] == len(e.split()))


def destination(text: str, lang: str, at: int) -> tuple[str, ...]:
    """The new value a "to" change names after its verb: a place, a number, a diet word."""
    rest = text[at:]
    out: list[str] = [re.sub(r"\D", "", d) for d in _DIGITS.findall(rest) if not _ISO_DAY.fullmatch(d.strip())]
    if lang == "zh":
        from jiyi.text.lexical import entities

        after = {tag: [w for w in found if not compared(rest, w)] for tag, found in entities(rest).items()}
        before = {w for w in entities(text[:at]).get("LOC", ())
                  if not re.search(f"(?:从|离开){re.escape(w)}", text) and not compared(text, w)}
        out += (list(after.get("LOC", ()))[:1] or sorted(before, key=text.find)[-1:]) + list(after.get("ORG", ()))[:1]
        if not out and (home := _ZH_HOME.search(text)):
            out.append(home.group("v"))  # 现在住宿舍了 / 搬进公司宿舍: a home no gazetteer names
    else:  # "moved out of Birchwood": the name after the verb is where from, not where to
        m = _EN_DEST.search(rest) or (None if _EN_OUT_OF.search(text[:at]) else _EN_NAME_FIRST.match(rest)) \
            or _EN_NOW_AT.search(rest)
        if m:
            out.append(m.group("v"))
        elif (low := _EN_LOWER_DEST.match(rest)) and (place := place_at_start(low.group("v"))):
            out.append(place[0])  # "moved to denver": a known place typed without capitals
        elif home := next((h.group("v") for h in _EN_HOME_IN.finditer(rest) if not _EN_NO_PLACE.match(h.group("v"))),
                          None):
            out.append(home)  # "out of ssp, now in tseung kwan o": a place no gazetteer knows
        elif han := _EN_HAN_DEST.match(rest):
            out.append(han.group("v"))  # "moving to 南山": the place in Chinese
    return tuple(dict.fromkeys(x for x in out if x))


#: the old value a change names as where it came from: 从建行跳到…, 从杭州搬到…, "moved from Reno to…",
#: "moved out of Birchwood", "left Initech for…"
_ZH_ORIGIN = _P(r"从(?P<v>[^，。,！!？?\s从]{2,10}?)(?:跳槽|跳|换|转|调|搬)(?:到|去|回)")
_EN_ORIGIN = _P(r"(?i)\b(?:moved|switched|transferred|changed|jumped|went)\s+(?:over\s+)?from\s+(?:the\s+)?"
                r"(?P<v>[\w'-]+(?:\s+[\w'-]+){0,2}?)\s+(?:to|into)\b|\b(?:moved|got|finally)\s+out\s+of\s+(?:the\s+)?"
                r"(?P<o>(?-i:[A-Z][\w'-]+(?:\s+[A-Z][\w'-]+)*))|\bleft\s+(?P<l>(?-i:[A-Z][\w'-]+(?:\s+[A-Z][\w'-]+)*))\s+for\b")
#: what stands after 从 and is no value: a time (从明天, 从下周), a person (从我妈那)
_ZH_NO_ORIGIN = _P(r"^(?:今天|明天|下周|下个月|这周|本周|现在|上周|那时|那以后|小|此)|^[我你他她]")


def origin(text: str, lang: str) -> tuple[str, ...]:
    """The old value a change names as where it came from ("从建行跳到一家露营公司" → 建行)."""
    if lang == "zh":
        return tuple(m.group("v") for m in _ZH_ORIGIN.finditer(text) if not _ZH_NO_ORIGIN.match(m.group("v")))
    return tuple(next(g for g in m.groups() if g) for m in _EN_ORIGIN.finditer(text))
