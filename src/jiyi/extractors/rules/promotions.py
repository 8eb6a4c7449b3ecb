"""A promotion: the user's job is now the title it names.

People tell a promotion by the news, not by a self-introduction: "升职啦！现在是调度主管了", "升组长了",
"被提拔成店长", "guess who got promoted. senior analyst now", "promoted to team lead". No template of
:mod:`.zh` / :mod:`.en` reads a job there, so the old title stood in the profile as current. A message
that says the user was promoted (a word of promotion, not asked, hedged, denied or said of someone else)
and names the title gives ``user/job``, which replaces the old one like any other new job title.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from jiyi.extractors.rules.starts import job_news
from jiyi.extractors.rules.zh import is_job
from jiyi.text.wordlists import EN_JOB_TITLES

if TYPE_CHECKING:
    from jiyi.extractors.rules.drafts import Draft
    from jiyi.extractors.rules.message import MessageExtraction

_P = re.compile
#: a word of promotion said of the user: 升职, 晋升, 提拔, 升(成|为|到|上)…
_ZH_PROMOTED = _P(r"升职|升了职|晋升|提拔|提干|当上|升(?:成|为|到|上)|升了(?=\s*(?:做|当|成)?\s*[A-Za-z\u4e00-\u9fff])|(?<![上提])升(?=[\u4e00-\u9fff]{2,6}(?:了|啦|咯))")
#: the title after it: 现在是调度主管了, 升组长了, 提拔成店长, 当上领班, 升咗做 manager (做 a title in Latin letters)
_ZH_TITLE = _P(r"(?:现在|如今|目前|已经|正式)?(?:是|成了|(?:当上|做上|升职|晋升|提拔|升)(?:了|成|为|到|上)*(?:做|当|成)?)\s*"
               r"(?:一名|一个|个|名)?(?P<v>[A-Za-z][A-Za-z ]{1,24}?(?=\s*(?:[^A-Za-z ]|$))|[\u4e00-\u9fffA-Za-z]{2,8}?)"
               r"(?:了|啦|咯|！|!|，|,|。|\s|$)")
#: not the user's, or not yet: 他升职了, 想升主管, 没升上
_ZH_NOT_MINE = _P(r"(?:他|她|他们|老公|老婆|男朋友|女朋友|对象|同事|朋友|室友|闺蜜|哥|姐|弟|妹|爸|妈)(?:也|又|都|终于|已经)?(?:升|晋升|被提拔|当上)|"
                  r"没(?:有)?(?:升|提拔)|想升|争取|希望|要是|如果|能不能|会不会")
#: rank words a promotion names besides the job titles (data: :data:`jiyi.text.wordlists.EN_JOB_TITLES`)
_EN_RANK = r"lead|supervisor|director|head|vp|principal|chief|partner|foreman|captain|officer|associate"
_EN_TITLE = rf"(?:(?!(?:the|my|his|her|a|an|our|their|your|this|that|now|to)\b)[\w-]+\s+){{0,2}}(?:{EN_JOB_TITLES}|{_EN_RANK})"
_EN_TITLE_ALONE = _P(rf"(?i){_EN_TITLE}")
_EN_PROMOTED = _P(r"(?i)\bpromot(?:ed|ion)\b|\bmade\s+(?:a\s+|the\s+)?(?:\w+\s+)?(?:lead|supervisor|manager|director|partner)\b")
#: the title: "promoted to team lead", "senior analyst now", "I'm the shift supervisor now"
_EN_TITLE_SAID = (
    _P(rf"(?i)\bpromoted\s+to\s+(?:a\s+|an\s+|the\s+)?(?P<v>{_EN_TITLE})\b"),
    _P(rf"(?i)\bmade\s+(?:a\s+|an\s+|the\s+)?(?P<v>{_EN_TITLE})\b"),
    _P(rf"(?i)(?:^|[.!;,]\s*|\b(?:i'm|i\s+am)\s+(?:now\s+)?(?:a\s+|an\s+|the\s+)?)(?P<v>{_EN_TITLE})\s+now\b"),
)
_EN_NOT_MINE = _P(r"(?i)\b(?:he|she|they|my\s+(?:wife|husband|partner|bf|gf|boyfriend|girlfriend|brother|sister|friend|"
                  r"roommate|son|daughter|boss|coworker|colleague))(?:'s|\s+is|\s+was|\s+got)?\s+(?:promoted|made)\b|"
                  r"\b(?:didn'?t|did\s+not|never|no|not|hoping|hope|might|maybe|if)\b[^.!?]{0,20}\bpromot")


def new_role(work: MessageExtraction, drafts: list[Draft]) -> list[Draft]:
    """The user's job from a message that tells a promotion with its title, or nothing (see the module notes)."""
    return job_news(work, drafts, "user/job", ("用户是{v}", "User's job is {v}"),
                    lambda text, lang: _zh_title(text) if lang == "zh" else _en_title(text))


def _zh_title(text: str) -> str:
    m = _ZH_PROMOTED.search(text)
    if m is None or _ZH_NOT_MINE.search(text) or re.search(r"[?？吗]\s*$", text):
        return ""
    for found in _ZH_TITLE.finditer(text, max(0, m.start() - 2)):
        title = found.group("v").strip()
        if is_job(title) or _EN_TITLE_ALONE.fullmatch(title):
            return title
    return ""


def _en_title(text: str) -> str:
    if not _EN_PROMOTED.search(text) or _EN_NOT_MINE.search(text) or text.rstrip().endswith("?"):
        return ""
    for pattern in _EN_TITLE_SAID:
        if m := pattern.search(text):
            return m.group("v").strip()
    return ""
