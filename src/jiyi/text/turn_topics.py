"""What a raw turn of the user's states, family by family: the turns a change of state makes old.

:func:`turn_families` reads a turn clause by clause in the third person ("我在苏州做UI的 公司叫青梧科技" →
employer; "i live in penang" → residence). Besides the families' frames (:mod:`jiyi.text.topics`), a turn tells
a state in passing: a place with 这边 / "here in" is where the speaker lives, renting somewhere is living there,
a title at a workplace or a trade said alone is the job. Read only to find the turns a change outdates
(write/resolve.py ``family_turns``), never to store a memory.
"""

from __future__ import annotations

import re

from jiyi.text.places import place_at_start
from jiyi.text.script import simplified
from jiyi.text.topics import OWNED, SINGLE, standing_family, stands_in
from jiyi.text.wordlists import EN_JOB_TITLES

_P = re.compile

#: where a turn's clause ends: punctuation, or a space before Chinese ("汤圆送人了 室友对毛过敏")
TURN_CLAUSE = _P(r"[，,。.;；!！?？~～\n]+|\s{1,}(?=[\u4e00-\u9fff])")
_ZH_BARE_STATE = _P(r"^(?:就|也|还|一直)?(?:在|住在|租在|住(?=\s+\S|[A-Z]))(?!家|外面|路上|床上|这|那|哪)")  # 住 Clayton
_ZH_LIVES_SPACED = _P(r"^用户住\s+(?=\S)")
_ZH_TURN_LEAD = _P(r"^(?:对|嗯+|是的?|哈+|啊|诶|欸|哎|唉|其实|不过|然后|所以|反正|现在|目前)+[，,\s]*")


def turn_families(text: str, lang: str) -> frozenset[str]:
    """The single-valued families (:data:`SINGLE`) and those owned (:data:`OWNED`) a raw turn of the user's
    states a standing value of, clause by clause in third person: "我在苏州做UI的 公司叫青梧科技" → employer; "对 在厂里上班" → employer. A clause's
    lead (对, 嗯, 其实, 现在…) goes first; unlike :func:`jiyi.text.person.tidy_zh` it goes without punctuation
    after it, since a clause here was cut at spaces too."""
    from jiyi.text.person import third_person

    text = simplified(text)  # 我住臺中 as 我住台中 (text/script.py)
    found: set[str] = {"phone"} if _PHONE_SHAPE.search(text) else set()  # a number of the speaker's to reach them
    for clause in TURN_CLAUSE.split(text):
        clause = _ZH_TURN_LEAD.sub("", clause.strip()) if lang == "zh" else clause.strip()
        if len(clause) < 3:
            continue
        said = third_person(clause, lang)
        if lang == "zh" and _ZH_BARE_STATE.match(said):
            said = "用户" + said  # 在行政部打杂 / 住在厂边上: the user's, said without a subject
        elif lang == "en" and (bare := _EN_BARE_STATE.match(said)):
            said = "User is " + said[bare.end():]  # "still living w my parents in tampines": the user's
        if lang == "zh":
            said = _ZH_LIVES_SPACED.sub("用户住在", said)  # 住 Clayton: chat leaves out the 在
        found |= _said_in_passing(clause, said, lang)
        if not said.startswith(("用户", "User")):
            continue
        found |= {f for f in SINGLE | OWNED if stands_in(f, said, lang)}
        if (framed := standing_family(said, lang)) in SINGLE:
            found.add(framed)
        if lang == "zh" and "employer" not in found and _works_at(said, clause):
            found.add("employer")
    return frozenset(found)


#: where one rents or works odd jobs, said of a turn's speaker: 我们租在双井, 在行政部打杂
_ZH_RENTS = _P(r"^用户(?:们|俩)?(?:就|也|还|现在|目前)*租在")
_ZH_ODD_JOB = _P(r"^用户(?:们|组)?(?:就|也|还|现在|目前)*在\S{1,12}(?:打杂|打工|值班|搬砖|轮班|驻场)")
#: a trade said alone, as what one does: 做支付风控的, 跑外卖的 (the verb a word of its own: not 开玩笑的, 干嘛的)
_ZH_TRADE_ALONE = _P(r"^(?:是)?(?P<v>开|跑|做|干|搞)[\u4e00-\u9fffA-Za-z]{1,6}的$")
#: a place the speaker is in now, said as "here" beside it: 长沙这边热死了, 西溪这边
_ZH_HERE = _P(r"^(?:这边|这儿|这里)(?!的)")
#: "here in Vancouver", "QA engineer at a fintech": where one is, and a title at a workplace said alone
_EN_HERE_IN = _P(r"(?i)\bhere\s+in\s+(?P<p>[A-Z][\w'.-]*(?:\s+[A-Z][\w'.-]*){0,2})")
_EN_TITLE_AT = _P(rf"(?i)^(?:an?\s+)?(?:[\w-]+\s+){{0,2}}(?:{EN_JOB_TITLES})\s+(?:at|for|on)\s+\S")


def _said_in_passing(clause: str, said: str, lang: str) -> frozenset[str]:
    """Families a turn's clause tells by the way it talks, not in a statement of the state: a place with
    这边 / "here in" is where the speaker lives; renting somewhere is living there; a title at a workplace, or odd
    jobs done in a unit, tell the job. Read only to find the turns a change of state makes old, never to store."""
    found: set[str] = set()
    if lang == "zh":
        if _ZH_RENTS.match(said):
            found.add("residence")
        if _ZH_ODD_JOB.match(said) or ((m := _ZH_TRADE_ALONE.match(clause)) and _verb_alone(clause, m.start("v"))):
            found.add("employer")
        if _ZH_HERE.match(clause[(place := _place_first(clause)):]) and place:
            found.add("residence")
        return frozenset(found)
    if (m := _EN_HERE_IN.search(clause)) and place_at_start(m.group("p")):
        found.add("residence")
    if _EN_TITLE_AT.match(clause):
        found.add("employer")
    return frozenset(found)


def _verb_alone(clause: str, at: int) -> bool:
    """Is the one-character verb at ``at`` a word of its own to the lexical analyser (做|支付风控, not 开玩笑)?"""
    from jiyi.text.lexical import tagged

    return any(word == clause[at] for word, _tag in tagged(clause)[:2])


def _place_first(clause: str) -> int:
    """How long the place the clause begins with is (by the lexical analyser's LOC tag), or 0."""
    from jiyi.text.lexical import tagged

    words = tagged(clause[:24])
    return len(words[0][0]) if words and words[0][1] == "LOC" else 0


#: a phone number as people type it: +86 139 8012 5567, 138-5920-7741, 13905713628 (ten digits or more)
_PHONE_SHAPE = _P(r"(?<![\d.:/-])\+?\d(?:[\s-]?\d){9,13}(?![\d.:/-])")
#: a state said without a subject, as chat does: "still living w my parents", "currently based in leeds"
_EN_BARE_STATE = _P(r"(?i)^(?:(?:still|currently|now|just|tbh)\s+)*(?=(?:living|staying|based|working|renting)\b)")
#: a clause that is a job title alone, the answer to what one does (工艺工程师 / 我是车间主任)
_ZH_TITLE_ONLY = _P(r"^用户(?:是|当)?(?:个|一名|一个)?[\u4e00-\u9fff]{0,6}(?:工程师|设计师|程序员|经理|主管|总监|主任|会计|老师|"
                    r"教师|医生|护士|司机|销售|客服|运营|策划|编辑|记者|律师|文员|专员|助理|店长|厨师|技术员|调度)$")
_ZH_AT = _P(r"^用户(?:现在|目前|一直|还|也)*在(?P<o>\S{2,16})")
#: work of one's own, for no employer: freelancing, taking orders, one's own shop
_ZH_OWN_WORK = _P(r"^用户(?!的|[\u4e00-\u9fff]{0,2}(?:哥|姐|弟|妹|爸|妈|朋友|同事|同学|室友|老公|老婆|舅|姑|叔|姨|婶|嫂))"
                  r"\S{0,8}?(?:自由职业|自由撰稿|自己接单|接单做|个体户|"
                  r"(?:自己)?开(?:了)?(?:个|一家|一间|家|间)\S{0,4}(?:店|馆|铺|工作室|公司|厂))")
#: what may follow the organisation in such a clause: a unit of it, a verb of working, nothing else (在星巴克等朋友 is no job)
_ZH_AT_WORK = _P(r"^(?:[\u4e00-\u9fff]{0,6}(?:车间|部门|部|厂|公司|门店|总部|分部|项目组|团队|实验室|工作室|科室|分行|支行|网点|店))?"
                 r"(?:工作|上班|任职|实习|干活|(?:当|做|干)[\u4e00-\u9fffA-Za-z]{0,8})?$")


def _works_at(said: str, clause: str) -> bool:
    """用户在柳岸汽车总装车间 (an organisation by the lexical analyser, after 在) or 用户工艺工程师 (a title alone):
    a clause of a turn that tells the employer or the role."""
    if _ZH_TITLE_ONLY.match(said) or _ZH_OWN_WORK.search(said):
        return True
    if not (m := _ZH_AT.match(said)):
        return False
    from jiyi.text.lexical import entities

    place = m.group("o")
    for org in entities(clause).get("ORG", ()):
        if org in place and _ZH_AT_WORK.match(said[m.start("o") + place.index(org) + len(org):]):
            return True
    return False
