"""Endings: what stops being true when the user says it stopped, however it is phrased.

A new value supersedes the old one in its slot (:mod:`jiyi.write.resolve`), but an
ending often names no new value: "我们分手了", "我辞职了", "I quit my job", "我上岸了".
Each family below turns such a sentence into a slotted fact that *is* the slot's new
current state, and lists the other slots it ends (``Draft.ends``):

=================  ==========================================  ===========================
family             said as                                     slot (and ends)
=================  ==========================================  ===========================
relationship       分手 / 离婚 / 掰了 / broke up / divorced    ``relation/girlfriend`` …
                                                               (ends every partner slot)
job                辞职 / 离职 / 被裁 / 换工作 / 跳槽 / 退休 /  ``user/employer``
                   quit my job / got laid off / retired        (辞职-like: ends ``user/job``)
pursuit            在准备考研 / 备考 / 找工作 / 减肥 /          ``status/<topic>``
                   studying for the GRE / job hunting
pursuit over       上岸 / 考上 / 被录取 / 拿到offer / 找到工作  ``status/<topic>``
                   / passed the exam / got an offer
=================  ==========================================  ===========================

Habits and preferences end through their object (戒了咖啡 / 不再喝奶茶 / "I stopped
drinking soda" → ``pref/咖啡`` in :mod:`.zh` / :mod:`.en`); the candidate also carries
the object (``Draft.ends_mention``) so a behaviour with no slot that names it
(用户每天早上喝咖啡) ends too. Moves end the old city through ``user/city``.

An ending whose slot another statement of the same message sets ("我从腾讯离职了，下个月
去阿里上班") yields to it: the new value supersedes the old one by itself.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from jiyi.extractors.rules.content import group_source, group_statement
from jiyi.extractors.rules.drafts import MAX_CHARS, Clause, Draft, fact
from jiyi.extractors.rules.en import HABIT_OBJECTS_EN
from jiyi.text import qualifiers
from jiyi.text.subjects import about_user

if TYPE_CHECKING:
    from jiyi.extractors.rules.message import MessageExtraction

_PARTNERS = ("relation/girlfriend", "relation/boyfriend", "relation/partner", "relation/fiance")
_SPOUSES = ("relation/wife", "relation/husband", "relation/spouse")
_ROLE_SLOT_ZH = (("女朋友|女友", "relation/girlfriend"), ("男朋友|男友", "relation/boyfriend"),
                 ("老婆|妻子|太太|媳妇", "relation/wife"), ("老公|丈夫", "relation/husband"),
                 ("未婚夫|未婚妻", "relation/fiance"), ("对象", "relation/partner"))
_ROLE_SLOT_EN = ((r"girlfriend|gf", "relation/girlfriend"), (r"boyfriend|bf", "relation/boyfriend"),
                 (r"wife", "relation/wife"), (r"husband", "relation/husband"),
                 (r"fianc[ée]e?", "relation/fiance"), (r"partner", "relation/partner"))

_ZH_BREAKUP = re.compile(r"分手|分了手|离婚|离了婚|掰了|分开了|散了|吹了|(?:跟|和|与)[^，,。]{1,8}分了(?![钟半一两几\d])|"
                         r"(?:我俩|我们俩?|咱俩|咱们俩?)(?:已经|还是|终于|最后|上周|昨天)?分了(?![钟半一两几\d])")
_ZH_DIVORCE = re.compile(r"离婚|离了婚")
_EN_BREAKUP = re.compile(r"(?i)\b(?:broke\s+up|break\s+up|split\s+up|splitting\s+up|divorced|divorcing|separated|"
                         r"dumped\s+me|i\s+dumped|ended\s+things|called\s+it\s+off|we're\s+done|we\s+are\s+done|"
                         r"(?:am|i'm)\s+single\s+(?:again|now))\b")
_EN_DIVORCE = re.compile(r"(?i)\bdivorc")

_ZH_JOB_END = re.compile(r"辞职|离职|裸辞|被裁|裁员了|被开除|被辞退|失业|退休了|不干了|辞了工作|辞掉了?工作|"
                         r"工作(?:给)?辞(?:了|掉)|(?:工作|班)不上了")
_ZH_JOB_CHANGE = re.compile(r"换工作|换了(?:个|份|一份)?工作|跳槽|换了家公司|换公司|新工作")
_EN_JOB_END = re.compile(r"(?i)\b(?:quit|left|lost)\s+my\s+job\b|\b(?:quit|left)\s+(?:my\s+job\s+at\s+)?(?!smoking|drinking|"
                         r"coffee|caffeine|alcohol|sugar|meat|soda|vaping|the\s+gym|gym|my\b|it\b|that\b|this\b|"
                         r"\w+ing\b)(?P<org>[A-Z][\w&-]+|[a-z][\w&-]+)(?=\s*(?:[.,;!]|$|\s+(?:and|last|yesterday|today|this)\b))|\bresigned\b|\b(?:got|was|been)\s+(?:laid\s+off|fired|"
                         r"let\s+go)\b|\bi(?:'m|\s+am)\s+(?:unemployed|between\s+jobs)\b|\bi(?:\s+just|\s+have|'ve)?\s+retired\b")
_EN_JOB_CHANGE = re.compile(r"(?i)\b(?:changed|switched|changing|switching)\s+jobs\b|\b(?:quitting|leaving)\s+my\s+job\b|\b(?:got|started|have|took)\s+a\s+new\s+job\b|"
                            r"\bnew\s+job\b")

#: (topic, zh words, en words)
_PURSUITS: tuple[tuple[str, str, str], ...] = (
    ("exam", r"考研|考公|考编|国考|省考|考博|考证|司法考试|法考|教资|注会|CPA|雅思|托福|GRE|GMAT|高考|中考|备考",
     r"GRE|GMAT|LSAT|MCAT|IELTS|TOEFL|bar\s+exam|CPA\s+exam|SAT|entrance\s+exams?|exams?"),
    ("job_search", r"找工作|求职|投简历|找实习|秋招|春招|面试",
     r"job\s+hunt(?:ing)?|job[\s-]searching|looking\s+for\s+(?:a\s+)?(?:new\s+)?(?:job|work)|applying\s+for\s+jobs"),
    ("weight_loss", r"减肥|减脂|瘦身", r"los(?:e|ing)\s+weight|on\s+a\s+diet|dieting"),
)
#: another one named as who pursues it, right before it: 让它减肥, 他在考研, 叫她们备考
_ZH_ANOTHER_PURSUES = re.compile(r"(?:[它他她](?:们)?|[它他她]俩)(?:也|还|都)?(?:在|正在|开始|准备|要|得)?$")
_BARE_PURSUITS = frozenset({"备考", "考研", "考公", "找工作", "求职", "减肥"})
_ZH_PURSUING = re.compile(r"(?:在|正在|开始|准备|打算|要|忙着|一直在)?(?:准备|备战|复习|备考|忙着|开始|在)")
_EN_PURSUING = re.compile(r"(?i)\b(?:studying\s+for|preparing\s+for|prepping\s+for|getting\s+ready\s+for|"
                          r"(?:am|i'm|been)\s+(?:still\s+)?(?:job\s+hunting|looking\s+for|trying\s+to\s+lose|on\s+a\s+diet|"
                          r"dieting|applying\s+for)|taking\s+the)\b")
#: (topic or None for "whatever the user was pursuing", pattern)
_ZH_DONE: tuple[tuple[str | None, re.Pattern[str]], ...] = (
    ("exam", re.compile(r"上岸|考上了|考上|被录取|录取了|拿到(?:了)?录取|考过了|(?:考试|雅思|托福|GRE|法考|教资)(?:也)?过了|"
                        r"落榜|没考上|不考了|放弃(?:了)?(?:考研|考公|考编|备考)|考完了|二战|"
                        # no longer needed (不用再考了), a list out with the speaker on it, a place by recommendation
                        r"不用(?:再)?(?:考|复习|备考)(?:研|公|编|试)?了|(?:名单|结果|成绩|分数)\S{0,4}出来了[^。]{0,8}?(?:我)?(?:上了|过了|进了)|"
                        r"保研(?:了|成功)|推免(?:上了|成功|了)")),
    ("job_search", re.compile(r"找到(?:了)?工作|(?:拿|收)到(?:了)?\S{0,8}?offer|offer(?:到了|来了|下来了|到手了?)|签约了|"
                              r"签了三方|入职了|不找了",
                              re.IGNORECASE)),
    ("weight_loss", re.compile(r"瘦下来了|减肥成功|瘦了\d+斤|不减了|放弃减肥")),
)
_EN_DONE: tuple[tuple[str | None, re.Pattern[str]], ...] = (
    ("exam", re.compile(r"(?i)\b(?:passed|failed|aced|finished)\s+(?:the\s+|my\s+)?(?:\w+\s+)?(?:exam|test|GRE|GMAT|LSAT|"
                        r"MCAT|IELTS|TOEFL|bar)\b|\b(?:got\s+(?:in|admitted|accepted)|was\s+(?:admitted|accepted))\b|"
                        r"\bgot\s+(?:the|an|my)\s+(?:admit|acceptance|admission)\b|"
                        r"\bdone\s+with\s+(?:\w+\s+){0,2}?(?:prep|preparation|studying|revision|applications?|apps)\b")),
    ("job_search", re.compile(r"(?i)\b(?:got|landed|found|accepted|signed)\s+(?:a|an|the)\s+(?:new\s+)?(?:job|offer|"
                              r"position)\b")),
    ("weight_loss", re.compile(r"(?i)\b(?:reached\s+my\s+goal\s+weight|lost\s+\d+\s*(?:kg|pounds|lbs))\b")),
)


def endings(work: MessageExtraction, taken: set[str]) -> list[Draft]:
    """Ending and pursuit drafts of the user's own sentences; ``taken`` are slots other drafts set."""
    out: list[Draft] = []
    zh = work.lang == "zh"
    for sentence in sorted({c.sentence for c in work.clauses}):
        own = [c for c in work.clauses if c.sentence == sentence and not c.question]
        mine = [c for c in own if c.subject == "self"]
        couple = [c for c in own if c.subject == "self" or c.subject == "rel" and _partner(c.rel, zh)]  # 我女朋友和我分手了
        if not couple:
            continue
        text = ("，" if zh else ", ").join(c.text for c in mine)
        whole = " ".join(c.text for c in couple)  # "My girlfriend and I split up"
        found = _relationship(text, whole, zh)
        if found is not None:
            mine = couple
        elif mine:
            found = _job(text, zh) or _pursuit(text, zh)
        if found is None:
            continue
        slot, ends = found
        if slot in taken:
            continue
        if slot.startswith("status/") and found is not None:
            # 在准备考驾照，科目一下周考: the pursuit is its own clause; the dated rest is an event
            alone = [c for c in mine if _pursuit(c.text, zh) == found]
            mine = alone or mine
        d = _draft(work, mine, slot, ends)
        if slot.startswith("status/") and qualifiers.goes_on(work.text, work.lang):
            continue  # 拿到了一个offer但是工资太低了，还在继续找: the search goes on (changes.py keeps the sentence)
        if not about_user(d.content, work.lang):  # 我表弟和他女朋友分了: the cousin's news, kept as said
            d.slot, d.ends = None, []
            out.append(d)
            continue
        if slot.startswith("relation/") and (partner := _partner_name(whole, zh)):
            d.ends_mention, d.ends_person = partner, True  # 我和阿强分手了: what was said about 阿强 ends too
        timed = [sp for c in mine for sp in work.qualifying(c)]
        if timed:  # 上周分手了: the old state ended then
            d.valid_from = min(sp.start for sp in timed)
        for c in mine:
            c.consumed = True  # not an event as well
        out.append(d)
    return out


_ZH_PARTNER_NAME = re.compile(r"(?:和|跟|与)(?:(?:女朋友|男朋友|女友|男友|老婆|老公|对象|前任))?(?P<n>[\u4e00-\u9fff]{2,3}?)(?:分手|分了|离婚|离了婚|掰了|分开)")
_EN_PARTNER_NAME = re.compile(r"(?:\b(?:with|and)\s+(?P<n>[A-Z][a-z]+)\b.{0,20}?\b(?:broke\s+up|split|divorc)|\b(?P<m>[A-Z][a-z]+)\s+and\s+I\s+"
                              r"(?:just\s+)?(?:broke\s+up|split\s+up|got\s+divorced))")


def _partner_name(text: str, zh: bool) -> str | None:
    """The partner's name in a breakup sentence (我和阿强分手了 → 阿强; "Tom and I broke up" → Tom)."""
    from jiyi.text.relations import EN_NAME_DENY, looks_like_name_zh

    if zh:
        m = _ZH_PARTNER_NAME.search(text)
        return m.group("n") if m and looks_like_name_zh(m.group("n")) else None
    m = _EN_PARTNER_NAME.search(text)
    name = (m.group("n") or m.group("m")) if m else None
    return name if name and name not in EN_NAME_DENY else None


def _partner(rel: str | None, zh: bool) -> bool:
    """Is ``rel`` (女朋友 / wife) a partner of the user's, whose breakup is the user's?"""
    return bool(rel) and any(re.fullmatch(words, rel or "", re.IGNORECASE)
                             for words, _ in (_ROLE_SLOT_ZH if zh else _ROLE_SLOT_EN))


def _relationship(text: str, whole: str, zh: bool) -> tuple[str, tuple[str, ...]] | None:
    if not (_ZH_BREAKUP if zh else _EN_BREAKUP).search(whole if zh else text):
        return None
    divorce = bool((_ZH_DIVORCE if zh else _EN_DIVORCE).search(whole))
    named = [slot for words, slot in (_ROLE_SLOT_ZH if zh else _ROLE_SLOT_EN)
             if re.search(words if zh else rf"(?i)\b(?:{words})\b", whole)]
    family = _SPOUSES if divorce or any(s in _SPOUSES for s in named) else _PARTNERS
    own = named[0] if named else family[0] if divorce else "relation/partner"
    return own, tuple(s for s in family if s != own)


#: a wish or a plan just before a job's end or change: 想换工作了 / "thinking about quitting my job" ends nothing yet
_ZH_WISH = re.compile(r"(?:想|打算|考虑|准备|要不要|希望|琢磨着?|计划|纠结|犹豫)[^，,。]{0,4}$")
_EN_WISH = re.compile(r"(?i)\b(?:(?:want|need)(?:s|ed)?(?:\s+to)?|wanna|looking\s+for|hoping\s+for|thinking\s+(?:about|of)|considering|might|plan(?:ning)?\s+to|"
                      r"hope\s+to|going\s+to|gonna|should|would\s+like\s+to|may)\s+(?:\w+\s+){0,2}$")


def _job(text: str, zh: bool) -> tuple[str, tuple[str, ...]] | None:
    wish = _ZH_WISH if zh else _EN_WISH
    m = (_ZH_JOB_END if zh else _EN_JOB_END).search(text)
    if m and not (not zh and m.group("org") and HABIT_OBJECTS_EN.match(m.group("org"))):  # "I quit tennis"
        return ("status/job_search", ()) if wish.search(text[:m.start()]) else ("user/employer", ("user/job",))
    if m := (_ZH_JOB_CHANGE if zh else _EN_JOB_CHANGE).search(text):
        return ("status/job_search", ()) if wish.search(text[:m.start()]) else ("user/employer", ())
    return None


def _pursuit(text: str, zh: bool) -> tuple[str, tuple[str, ...]] | None:
    for topic, pattern in (_ZH_DONE if zh else _EN_DONE):
        if pattern.search(text):
            return f"status/{topic}", ()
    for topic, zh_words, en_words in _PURSUITS:
        m = re.search(zh_words, text, re.IGNORECASE) if zh else None
        if m and _ZH_ANOTHER_PURSUES.search(text[:m.start()]):
            continue  # 兽医让它减肥, 他在考研: the pet's or another's pursuit, not the speaker's
        if m and (_ZH_PURSUING.search(text[:m.start()]) or m.group() in _BARE_PURSUITS) and not re.search(
                r"^的|过|了(?!解)|完|^[那这]?[堆些本套摞]?(?:书|资料|笔记|教材|真题|卷子)", text[m.end():m.end() + 4]):
            # 考研过了 / 面试完了: done; 考研的书, 考研那堆书: a thing of it
            return f"status/{topic}", ()
        if not zh and re.search(rf"(?i)\b(?:{en_words})\b", text) and _EN_PURSUING.search(text):
            return f"status/{topic}", ()
    return None


def _draft(work: MessageExtraction, group: list[Clause], slot: str, ends: tuple[str, ...]) -> Draft:
    parts = [p for p in (work.content(c) for c in group) if p.removeprefix("用户").strip("：:，, ")]  # 跟你说 → nothing
    d = fact(group_statement(parts, work.lang, MAX_CHARS), slot, "", importance=0.7, confidence=0.85)
    d.ends = list(ends)
    d.source = group_source(group)
    d.source_at = group[0].start
    return d
