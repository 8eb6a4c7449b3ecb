"""How the speaker gets to work or school, and a newer statement that says another way: "每日坐深惠城际返工" before
"而家揸车返工 二十分钟到", "每天早上骑电动车去学校" before "电动车骑不了了 改坐地铁1号线", "I cycle to the office every
day" before "switched to the train now".

A commute is a routine no slot holds, said in the words of the means (地铁, 2号线, 城际, 揸车, the tube, WFH): the
topic rules read a change of a job or a home, not of the way there. :func:`commutes_otherwise` reads both statements'
means of travel; a newer one that tells a change (以后, 现在, 改, 不再, now, switched…) and takes a means the older one
did not ends the older one's; so does a job left or a home moved from. A day's exception ("今天地铁故障 打车去的",
"took the bus today") tells no change.
Dialect grammar words are read as Mandarin first (text/dialect.py: 而家 → 现在, 唔使 → 不使).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from jiyi.text import topics
from jiyi.text.dialect import standard_zh

#: the means of getting there, by what each is called (Chinese, English)
_MEANS: dict[str, tuple[str, str]] = {
    "subway": (r"地铁|[0-9一二三四五六七八九十]+号线|捷运|港铁|轻轨",
               r"\b(?:tube|subway|metro|underground|mrt|lrt|skytrain|[a-z]+\s+line)\b"),
    "bus": (r"公交|巴士|班车|公车", r"\bbus(?:es)?\b"),
    "rail": (r"城际|高铁|(?<!电)动车|火车", r"\btrains?\b|\brail\b"),
    "car": (r"开车|揸车|自驾|驾车|(?:开|揸)[^，,。！!？?\s]{0,4}车(?!站)", r"\bdriv(?:e|es|ing)\b|\bby\s+car\b"),
    "two_wheeler": (r"电动车|电瓶车|电驴|机车|摩托|骑车|单车|自行车|骑行|骑[^，,。！!？?\s]{0,3}车",
                    r"\b(?:cycl(?:e|es|ing)|bikes?|biking|e-?bikes?|scooter|moped)\b"),
    "walk": (r"走路|步行|走过去|走着去", r"\bwalk(?:s|ing)?\b|\bon\s+foot\b"),
    "taxi": (r"打车|打的|的士|滴滴", r"\b(?:uber|taxi|cab|lyft|grab)\b"),
    "remote": (r"远程办公|远程上班|在家办公|居家办公|在家上班|线上办公|(?i:wfh)",
               r"\b(?:wfh|work(?:ing)?\s+from\s+home|remote(?:ly)?|home\s+office)\b"),
}
_ZH_MEANS = {name: re.compile(zh) for name, (zh, _) in _MEANS.items()}
_EN_MEANS = {name: re.compile(en, re.IGNORECASE) for name, (_, en) in _MEANS.items()}

#: where a commute goes, or that it is one (单程: one way)
_ZH_WORK = re.compile(r"上班|返工|通勤|上学|返学|上工|出工|单程|(?:去|到|回|克|返)(?:公司|单位|厂|学校|店|工地|办公室)")
_EN_WORK = re.compile(r"(?i)\b(?:to|into|from)\s+(?:work|the\s+office|office|school|uni|campus|(?:the\s+)?site|"
                      r"the\s+depot)\b|\bcommut\w*")
#: a routine: every day, usually
_ZH_ROUTINE = re.compile(r"每天|每日|天天|平时|平常|通常|一般|每个?工作日|每早")
_EN_ROUTINE = re.compile(r"(?i)\b(?:every\s+(?:day|morning|weekday)|daily|usually|normally)\b")
#: a change said beside the means: from now on, now, switched, no more
_ZH_CHANGE = re.compile(r"以后|现在|如今|改(?:成|为|坐|骑|开|走|搭|乘|打)|换成|换了|不再|不使再|不用再|不挤|不坐|不骑|不开|"
                        r"骑不了|开不了|买了|提了|不用[^，,。！!？?\s]{0,3}了")
_EN_CHANGE = re.compile(r"(?i)\b(?:now|switched|switching|from\s+now\s+on|these\s+days|anymore|no\s+longer|no\s+more|"
                        r"instead|bought|got\s+(?:a|an|my)\s+(?:car|bike|e-?bike|scooter))\b")
#: a day's exception, not a change of routine
_ZH_ONCE = re.compile(r"今天|今日|昨天|明天|刚才|刚刚|这次|这回|正在|快迟到")
_EN_ONCE = re.compile(r"(?i)\b(?:today|tonight|yesterday|tomorrow|this\s+morning|just\s+now|running\s+late)\b")


@dataclass(frozen=True, slots=True)
class _Reading:
    """A statement read once (the read path pairs each turn with many): as Mandarin when Chinese, its means of travel,
    and whether it tells a day's exception."""

    text: str
    zh: bool
    means: frozenset[str]
    once: bool


@lru_cache(maxsize=4096)
def _reading(text: str) -> _Reading:
    zh = bool(re.search(r"[\u4e00-\u9fff]", text))
    read = standard_zh(text) if zh else text
    means = {name for name, pattern in (_ZH_MEANS if zh else _EN_MEANS).items() if pattern.search(read)}
    if zh and _EN_MEANS["remote"].search(read):  # "work from home" typed among Chinese words
        means.add("remote")
    return _Reading(read, zh, frozenset(means), bool((_ZH_ONCE if zh else _EN_ONCE).search(read)))


def commute(text: str) -> frozenset[str]:
    """The means a statement says the speaker gets to work or school by, as a routine ("每天坐2号线去汉口 单程一个多钟头",
    "I cycle to work every day"), or none."""
    r = _reading(text)
    if not r.means or r.once:
        return frozenset()
    work, routine = (_ZH_WORK, _ZH_ROUTINE) if r.zh else (_EN_WORK, _EN_ROUTINE)
    if "remote" in r.means or work.search(r.text) or routine.search(r.text):
        return r.means
    return frozenset()


def commutes_otherwise(newer: str, older: str) -> bool:
    """Does ``newer`` tell a change to a means of getting to work or school that ``older``, a commute, did not take?"""
    was = commute(older)
    if not was:
        return False
    r = _reading(newer)
    change = topics.change_of(r.text, "zh" if r.zh else "en")
    if change is not None and change.cls in ("leave", "move"):
        return True  # 那間我辭了啦 通勤太操: the way to a job left, or from a home left, is over too
    if not r.means - was or r.once:
        return False
    return bool((_ZH_CHANGE if r.zh else _EN_CHANGE).search(r.text))
