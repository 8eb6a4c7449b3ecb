"""Whose statement it is: the user's own, or a relative's, a friend's, the partner's.

A change closes the user's standing memories only when it is the user's change. The write path
reads a statement in third person (用户… / User…) and asks :func:`about_user` whether the user leads
it, or :func:`users_change` whether the user is what an ending is done to ("Brindle let User go");
:func:`someone_elses`, :func:`partner_subject` and :func:`co_subject` name the other cases.
"""

from __future__ import annotations

import re

from jiyi.text.relations import REL_ZH, alternation
from jiyi.text.topics import CLAUSE_CUT, Change, Lex, names
from jiyi.text.wordlists import words

_P = re.compile

#: someone else leading a statement: a relative or a friend (text/relations.py, its lexicon data/kin.tsv too:
#: 老爸, 阿嫲), or people at large; not a landlord or a client beside the user's own news (房东那边押金谈好了), nor
#: the partner, whose memories (用户的男朋友叫周屿) are the user's couple, which a wedding or a breakup changes
_PARTNER_KEYS = frozenset({"wife", "husband", "spouse", "girlfriend", "boyfriend", "partner", "fiance"})
_ZH_OTHER = _P(f"(?:{alternation([w for w, (key, g) in REL_ZH.items() if key not in _PARTNER_KEYS and g != 'p'])}|"
               r"表[哥姐弟妹]|堂[哥姐弟妹]|舅|姨|叔|婶|亲戚|家人|他们|她们|别人|人家)(?:家)?(?:的|和|跟|也)?")
_EN_OTHER = _P(r"(?i)^User's\s+(?:\w+\s+)?(?:friend|sister|brother|mom|mother|dad|father|parents?|cousin|colleague|"
               r"co-?worker|boss|neighbou?r|roommate|flatmate|son|daughter|aunt|uncle|grand\w+|niece|nephew|family|"
               r"classmate|manager)s?\b|^(?:His|Her|Their|They|He|She)\b")
_EN_CO_SUBJECT = _P(r"^[A-Z][\w'-]+(?:,| and| let| fired| dumped| laid off| broke up with| dropped) User\b ?")
_ZH_CO_SUBJECT = _P(r"^[\u4e00-\u9fff]{2,4}?(?:和|跟|与|把)用户")
#: words that open a message whose subject (the user) was left out: "Studying for …", "Got rid of …"
_EN_LEADS = words("got get had have went just finally still also now done back been moving starting "
                  "working living quit sold left passed broke out off over into from since mrs mr officially married "
                  "engaged single "
                  # what a diet leaves out, leading "Fish + eggs are back": food, no one's name
                  "meat fish chicken beef pork seafood dairy eggs bacon steak carbs sugar")
_ZH_VOCATIVE = _P(r"^[\u4e00-\u9fff]{1,4}[，,]")
#: "User: Tyler's sister …" / "User: the neighbour's dog …": the subject is what someone else has
_EN_OWNER = _P(r"(?i)^User:\s+(?:the\s+|my\s+|our\s+)?(?P<n>[a-z][\w-]*)['\u2019]s\s+(?:[\w-]+\s+){0,2}?"
               r"(?:sister|brother|mom|mother|dad|father|parents?|cousin|friend|wife|husband|girlfriend|boyfriend|"
               r"partner|fianc\w*|son|daughter|aunt|uncle|dog|cat|pet|car|job|boss|family|roommate|kid|kids|baby)\b")
_EN_NOT_OWNERS = words("user today it that there here what who let he she")


def about_user(content: str, lang: str, speaker: str | None = None, *, named_subject: bool = False) -> bool:
    """Is the statement the user's own (用户…/User…, or the named speaker's), not a relative's or a friend's?

    ``named_subject``: a name may lead the statement (豆豆走了 / "Clover died": the user's pet),
    else a leading name is someone else (阿峰也考上了 / "Dana got into Rice")."""
    subject = speaker or ""
    if lang == "zh":
        head = _ZH_CO_SUBJECT.sub("用户和", content.split("，", 1)[0], count=1)  # 陈实和用户离了
        if not (head.startswith("用户") or subject and head.startswith(subject)):
            return False
        rest = head.removeprefix("用户").removeprefix(subject).lstrip("：:的")
        if _ZH_VOCATIVE.match(content.removeprefix("用户").removeprefix(subject).lstrip("：:")):
            return about_user("用户" + _ZH_VOCATIVE.sub("", content.removeprefix("用户").lstrip("：:"), count=1),
                              lang, named_subject=named_subject)  # 阿青，考上了: the bot addressed, the user's news
        if _ZH_OTHER.match(rest) or re.match(r"(?:用户)?\S{1,3}(?:家|那边)的", rest):
            return False
        from jiyi.text.lexical import tagged

        words = [(w, t) for w, t in tagged(rest[:12]) if t not in ("TIME", "w", "d", "c")]
        first = words[0] if words else None
        if first is not None and first[1] == "ORG" and len(first[0]) <= 3 and len(words) > 1 and words[1][1] == "v":
            first = (first[0], "PER")  # 建华换工作了: a given name the analyser took for a firm's, doing something
        if first is not None and first[1] == "PER" and (_a_word_to_the_dictionary(first[0], rest)
                                                        or _ZH_ANIMAL.search(first[0])):
            first = (first[0], "n")  # 考公上岸了: 考公 (the civil-service exam) leads, not a person named so
        owner = re.match(r"[\u4e00-\u9fff]{1,4}?的", rest)
        if first is not None and first[1] == "PER" and rest.startswith(first[0] + "的") or (
                owner and _ZH_OTHER.match(rest[owner.end():])):
            return False  # 建国的妹妹离婚了 / 小李的狗死了: what belongs to someone else changed
        return named_subject or first is None or first[1] != "PER" or rest.startswith(first[0] + "和用户")  # 阿峰也考上了: 阿峰's
    content = _EN_CO_SUBJECT.sub("User and ", content, count=1)  # "Marcus, User separated"
    if not (content.startswith("User") or subject and content.startswith(subject)):
        return False
    owner = _EN_OWNER.match(content)
    if owner and owner.group("n").lower() not in _EN_NOT_OWNERS:
        return False  # "User: Tyler's sister broke up with her fiancé": someone else's
    lead = re.match(r"User:\s+(?P<n>[A-Z][a-z]+)\s+(?!and\s+User)(?![a-z]+\s*[,:!—-])", content)  # "Big news, …"
    if (not named_subject and lead and lead.group("n") in names(content, "en")
            and not lead.group("n").lower().endswith(("ing", "ed")) and lead.group("n").lower() not in _EN_LEADS):
        return False  # "User: Dana got into Rice": Dana's
    return not _EN_OTHER.search(content.replace(subject, "User", 1) if subject else content)


#: the partner or spouse is the subject: "用户的老公戒酒了", "User's husband started eating meat again"
_ZH_PARTNER_SUBJECT = _P(r"^用户(?:的)?(?:老公|老婆|丈夫|妻子|爱人|媳妇|男朋友|女朋友|男友|女友|对象|未婚[夫妻])(?!和用户|跟用户)")
_EN_PARTNER_SUBJECT = _P(r"(?i)^User's\s+(?:husband|wife|partner|spouse|boyfriend|girlfriend|bf|gf|fianc\w*)\b")


_EN_OTHERS_THING = _P(r"(?i)\bUser's\s+(?:\w+\s+)?(?:friend|sister|brother|mom|mother|dad|father|parents?|cousin|colleague|"
                      r"co-?worker|boss|neighbou?r|roommate|flatmate|son|daughter|aunt|uncle|grand\w+|niece|nephew|"
                      r"classmate|manager)s?\b")


#: the user as what an ending is done to: "Brindle let User go", "she dumped User", 公司把用户裁了, 小雨把用户拉黑了
_USER_AS_OBJECT = Lex(
    _P(r"把用户\S{0,4}?(?:裁|开除|辞退|优化|辞了|甩|拉黑|删|踢|赶走|劝退)|(?:裁|开除|辞退|优化|甩|拉黑)了用户"),
    _P(r"(?i)\b(?:let|laid|fired|sacked|dumped|ghosted|blocked|dropped|divorced|kicked|cut|axed|made)\s+User\b"
       r"(?:\s+(?:go|off|out|redundant))?"))


#: a kind of animal, which the analyser may take for a person's name (垂耳兔, 金毛): a pet, no one else
_ZH_ANIMAL = _P(r"(?:兔|猫|狗|犬|鼠|鸟|鹦鹉|龟|鱼|蛇|猪|羊|马|貂|蜥蜴|刺猬|柯基|泰迪|金毛|哈士奇|比熊|柴犬|布偶|英短|美短|蓝猫)$")


def _a_word_to_the_dictionary(word: str, text: str) -> bool:
    """Does jieba's dictionary read ``word`` (which the lexical analyser took for a person) as a common noun or a
    verb where ``text`` begins with it? Two analysers must agree before a statement is someone else's."""
    from jiyi.text import zh

    tags = zh.pos_tags(text[:12])
    return bool(tags) and tags[0][0] == word and tags[0][1] in ("n", "v", "vn", "vd")


def users_change(text: str, lang: str, change: Change | None, *, named_subject: bool = False) -> bool:
    """Is ``change`` (stated by ``text``) the user's own: the user its subject (:func:`about_user`), or
    what a job's or a couple's ending is done to ("Brindle let User go", 天宇把用户甩了)?"""
    if change is not None and change.cls in ("leave", "end", "over") and _USER_AS_OBJECT.search(text, lang):
        return True
    return about_user(text, lang, named_subject=named_subject)


def co_subject(text: str, lang: str) -> tuple[str, ...]:
    """The other one of a couple that opens a statement ("Rohan and User called it off", 天宇和用户分手了)."""
    m = (_ZH_CO_SUBJECT if lang == "zh" else _EN_CO_SUBJECT).match(text)
    if m is None:
        return ()
    name = re.split(r"[ ,]|和|跟|与|把", m.group(0), maxsplit=1)[0]
    return (name,) if len(name) >= 2 and name.lower() not in ("he", "she", "they", "we") else ()


def someone_elses(text: str, lang: str) -> bool:
    """Does the first clause of a subject-less statement speak of someone else ("One of User's roommates is
    moving out")? Then the statement is not the user's own, though no subject leads it."""
    first = CLAUSE_CUT.split(text, maxsplit=1)[0]
    return bool((_EN_OTHERS_THING if lang != "zh" else _ZH_OTHER).search(first))


def partner_subject(text: str, lang: str) -> bool:
    """Is the statement's subject the user's partner or spouse (their news, not the user's)?"""
    return bool((_ZH_PARTNER_SUBJECT if lang == "zh" else _EN_PARTNER_SUBJECT).search(text))
