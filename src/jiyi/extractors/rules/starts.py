"""A new job told in parts: the word of starting in one clause, the employer named in another.

People rarely say "I work at X" on the day they get a job. They say what happened: "拾光文创 做新媒体编辑
下个月2号入职", "下个月1号去腾讯报到", "offer拿到了 下周去美团上班", "the offer from harbourline logistics.
senior analyst. official start dec 1", "got the spot at spokehaus, the bike repair co-op". The time word
makes the message an event, and no template of :mod:`.zh` / :mod:`.en` sees an employer in it, so the
old job stood in the profile, and the new one was nowhere once the day had passed.

A message that says the user starts a job (a word of starting: 入职 / 报到 / 上班 / offer / "start date" /
"first day" / "got the job"), not asked, hedged, denied or said of someone else, and names one
organisation (by the lexical analyser in Chinese; in English the name after "offer from", "start(ing)
at", "joining", "job at"…) gives the user's employer, true from the day it names when that day is to come.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING

from jiyi.extractors.rules.drafts import Draft, templated
from jiyi.extractors.rules.zh import ZH_WORKPLACE_NOUN
from jiyi.text import qualifiers
from jiyi.text.dialect import standard_zh

if TYPE_CHECKING:
    from jiyi.extractors.rules.message import MessageExtraction

_P = re.compile
#: a job begins: said of the user in a clause of its own (入职, 报到, offer, 去X上班, 录用)
_ZH_START = _P(r"入职(?!手续|体检|材料|培训)|报到|报道|上岗|录用|(?:收到|拿到|拿了|接了|签了)\S{0,6}?(?:offer|聘书|录用通知)|offer\S{0,2}?(?:拿到|到手|下来)|正式上班|"
               r"去\S{1,12}?(?:上班|工作|实习)(?!吗|么|呢)")
#: an employer the analyser tags ORG that is a school by its last word (被浙大录取 is an admission, not a job; 大疆 is no school)
_ZH_SCHOOL = _P(r"(?:大学|学院|中学|小学|高中|初中|大|研究生院|学校|附中|附小)$")
#: a workplace pointed at by where it is and its noun: 盘龙区那家医院, 滨江一家游戏公司
_ZH_POINTED_WORKPLACE = _P(rf"(?:^|(?<=[，,。！!\s]))(?P<org>[\u4e00-\u9fff]{{2,6}}?(?:那家|这家|一家)[\u4e00-\u9fff]{{0,6}}?{ZH_WORKPLACE_NOUN})")
#: what the analyser may tag ORG that names no workplace: a training, a span of days (入职培训三天)
_ZH_NO_ORG = _P(r"培训|手续|体检|[\d一二两三四五六七八九十几]+(?:天|周|个月|年)")
#: denial, doubt, another's news: 没拿到offer, 不去了, 他入职了
_ZH_NOT_MINE = _P(r"没(?:有)?(?:拿到|收到|去|入职)|不去了|黄了|挂了|拒了|(?:他|她|他们|老公|老婆|男朋友|女朋友|同事|朋友|室友)"
                  r"(?:也)?(?:入职|去\S{1,12}?上班)")
#: a day between the word of starting and its place: "Started Monday at SportsFix", "starting next week with"
_EN_WHEN = (r"(?:\s+(?:on\s+|last\s+|this\s+|next\s+)?(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|today|"
            r"yesterday|tomorrow|week|month))?")
_EN_START = _P(r"(?i)\b(?:offer|start\s+date|official(?:ly)?\s+start|first\s+day|start(?:ing|ed|s)?" + _EN_WHEN + r"\s+(?:at|with)|"
               r"got\s+the\s+(?:job|spot|position|role|gig)|hired|onboarding|new\s+(?:job|role|position|gig)|signed\s+(?:full[\s-]?time\s+|"
               r"on\s+)?with|(?:first|\d+|one|two|three|four|five|six)\s+(?:days?|weeks?|months?)\s+(?:in\s+)?at)\b")
#: the name after the word that ties a job to it: "offer from X", "starting at X", "joining X", "the spot at X"
_EN_ORG = _P(r"(?i)\b(?:offer\s+(?:from|at|with)|(?:signed|accepted|took|got)\s+the\s+offer[!.,:;~-]*(?=\s+(?-i:[A-Z])[\w&'-]*(?:\s+(?-i:[A-Z])[\w&'-]*)*\s*[,(])|"
             r"start(?:ing|ed|s)?" + _EN_WHEN + r"\s+(?:at|with)|joining|joined|(?:job|spot|position|role|"
             r"gig|place|internship)\s+(?:at|with)|hired\s+(?:at|by)|signed\s+(?:full[\s-]?time\s+|on\s+)?with|"
             r"(?:first|\d+|one|two|three|four|five|six)\s+(?:days?|weeks?|months?)\s+(?:in\s+)?at)\s+(?:the\s+)?"
             r"(?P<org>[a-z][\w&'-]*(?:\s+(?!(?:on|in|at|as|next|this|from|for|and|but|so|the|a|starting|start|now|done|"
             r"tomorrow|today|monday|tuesday|wednesday|thursday|friday|saturday|sunday|lol|haha|btw)\b)[a-z][\w&'-]*){0,3})")
#: what follows "starting at" and is no employer: a time, a place of the day, a pronoun
_EN_NOT_ORG = _P(r"(?i)^(?:\d|(?:a|an|some|any|my|his|her|their|our|your|it|this|that|these|those|last|next|first|home|work|"
                 r"school|noon|night|dawn|midnight|gym|office|bottom|beginning|end|top|front|back|door|level|zero|scratch|"
                 r"around|about|least|once|new|place|job|gig|company|firm|\w+\s*(?:am|pm)|[a-z]+day|week|month|year)\b)")
_EN_NOT_MINE = _P(r"(?i)\b(?:didn'?t|did\s+not|never|no)\s+(?:get|got|take|took|accept)\b|\b(?:turned\s+down|declined|"
                  r"rejected|withdrew|fell\s+through|rescinded)\b|\b(?:he|she|they|my\s+(?:wife|husband|partner|bf|gf|"
                  r"boyfriend|girlfriend|brother|sister|friend|roommate|son|daughter))(?:'s|\s+is|\s+was)?\s+(?:starting|"
                  r"joining|got|starts|started|joined)\b")


def new_job(work: MessageExtraction, drafts: list[Draft]) -> list[Draft]:
    """The user's employer from a message that tells a new job in parts, or nothing (see the module notes)."""
    return job_news(work, drafts, "user/employer", ("用户在{v}工作", "User works at {v}"),
                    lambda text, lang: _zh_employer(text) if lang == "zh" else _en_employer(text))


def job_news(work: MessageExtraction, drafts: list[Draft], slot: str, templates: tuple[str, str],
             value_of: Callable[[str, str], str]) -> list[Draft]:
    """A draft for ``slot`` (Chinese or English template) from news of the user's work the message tells, read by
    ``value_of(text, lang)`` (a new employer here, a new title in :mod:`.promotions`): none when the message
    has one for the slot already, is hedged or told as long ago; true from the day it names when that is to come."""
    if any(d.slot == slot for d in drafts):
        return []
    text = standard_zh(work.text) if work.lang == "zh" else work.text
    if qualifiers.hedged(text, work.lang) or qualifiers.told_long_ago(text, work.lang):
        return []
    value = value_of(text, work.lang)
    if not value:
        return []
    draft = templated(templates[0] if work.lang == "zh" else templates[1], slot, value, importance=0.8)
    spans = [s for c in work.clauses for s in work.qualifying(c) if s.start > work.ref]
    if spans:  # 下个月2号入职 / 下个月生效: from that day on
        draft.valid_from = min(s.start for s in spans)
    start = next((c for c in work.clauses if value in c.text), work.clauses[0] if work.clauses else None)
    if work.lang == "en" and start is not None and start.subject == "other" and start.person:
        return []  # "Priya's got a new job at Tesco": someone else's news
    if start is not None:
        draft.source, draft.source_at = start.text, start.start
    return [draft]


def _zh_employer(text: str) -> str:
    if not _ZH_START.search(text) or _ZH_NOT_MINE.search(text) or re.search(r"[?？吗]\s*$", text):
        return ""
    from jiyi.text.lexical import entities

    orgs = [o for o in entities(text).get("ORG", ()) if len(o) >= 2 and not _ZH_SCHOOL.search(o)
            and not _ZH_NO_ORG.search(o)]
    if not orgs:  # offer拿到了，盘龙区那家医院: a workplace pointed at by its noun
        orgs = [m.group("org") for m in _ZH_POINTED_WORKPLACE.finditer(text)]
    return orgs[0] if len(set(orgs)) == 1 else ""


def _en_employer(text: str) -> str:
    if not _EN_START.search(text) or _EN_NOT_MINE.search(text) or text.rstrip().endswith("?"):
        return ""
    m = _EN_ORG.search(text)
    if m is None or _EN_NOT_ORG.match(m.group("org")):
        return ""
    return m.group("org").strip(" '-")
