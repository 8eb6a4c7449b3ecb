"""People and pets in the user's life: their names, and statements about them.

我老婆苏琳 / my wife Anna is a ``relation`` memory; single-valued relations (wife,
mother, boss…) carry a ``relation/<role>`` slot so a new name supersedes the old one,
many-valued ones (children, friends, pets) carry none. A clause whose subject is a
relative (我妈住在杭州, 她喜欢郁金香 right after 我老婆苏琳) becomes a statement about
that relative, never a fact about the user.

A name never goes to ``user/name`` when it belongs to someone the message introduced:
after 我养了一只橘猫 / 我有个女儿 / "I adopted a kitten", a following 名字叫团子 / 叫朵朵 /
"her name is Luna" names that referent (用户的橘猫叫团子). What a third party calls
the user (我朋友叫我小王, "my friends call me Wang") is kept as a statement with no
slot: it is a nickname in that relationship, and putting it in ``user/name`` would
supersede the name the user gave (大家都叫我X / "call me X", addressed to everyone,
still sets ``user/name``).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from jiyi.extractors.rules.clauses import EN_REPORTED, S_IS, RecentRelation, without_times
from jiyi.extractors.rules.drafts import Clause, Draft, fact
from jiyi.extractors.rules.others import person_facts, person_key
from jiyi.records import Kind
from jiyi.text.person import third_person, tidy_zh
from jiyi.text.relations import (
    EN_NAME_DENY,
    NAME_DENY,
    PRONOUN_GENDER,
    REL_EN,
    REL_ZH,
    SINGLE_VALUED,
    alternation,
    en_relation_names,
    name_at_start,
    zh_relation_names,
)
from jiyi.text.wordlists import word_list

if TYPE_CHECKING:
    from jiyi.extractors.rules.message import MessageExtraction

_CJK = re.compile(r"[\u4e00-\u9fff]")
#: someone a message introduced, whom a following 名字叫X / "her name is X" names: (word, key)
Referent = tuple[str, str]

_PETS_ZH = word_list("猫咪 小猫 猫 狗狗 小狗 狗 兔子 兔 仓鼠 龙猫 鹦鹉 乌龟 龟 金鱼 鱼 鸟 柯基 金毛 泰迪 哈士奇 二哈 "
                     "萨摩耶 柴犬 边牧 拉布拉多 英短 美短 布偶 暹罗 宠物 橘猫 狸花猫 狸花 三花 奶牛猫 黑猫 白猫 银渐层 金渐层 "
                     "比熊 博美 法斗 雪纳瑞 德牧 阿拉斯加 秋田 吉娃娃 腊肠 巴哥 马尔济斯 蜥蜴 刺猬 荷兰猪 豚鼠 八哥 画眉 "
                     "守宫 蛇 松鼠 貂")
_PETS_EN = word_list("cat kitten kitty dog puppy pup rabbit bunny hamster parrot bird fish turtle tortoise horse "
                     "pony snake lizard pet tabby calico ragdoll siamese persian corgi beagle husky labrador lab "
                     "retriever poodle terrier pug dachshund chihuahua schnauzer collie heeler greyhound whippet "
                     "spaniel shepherd boxer gecko ferret budgie cockatiel parakeet axolotl hedgehog chinchilla "
                     "guinea pig rat")
_ZH_NOUN = alternation([*REL_ZH, *_PETS_ZH])
_EN_NOUN = alternation([*(w for w in REL_EN if not w.endswith("'s")), *_PETS_EN])
_ZH_HAS = (r"(?:也|还|刚|刚刚|新|最近|已经)*"
           r"(?:养了|养着|养|领养了|收养了|捡了|捡到了?|买了|有了?|生了|添了|交了|认识了?)"
           rf"(?:[一两二三几]?(?:只|条|个|位|匹|头|名)(?P<desc>[^，,。！？!?\s我你他她它想要问是在和跟给]{{0,6}}?))?"
           rf"(?P<noun>{_ZH_NOUN})(?P<rest>.*)$")
_ZH_INTRO = re.compile(r"^(?:我们|我|俺)?(?:家里|家)?" + _ZH_HAS)
#: 我邻居养了一只拉布拉多 / 我同事小李有个女儿: a relative introduces someone of theirs
_ZH_OWNED = re.compile("^" + _ZH_HAS)
_ZH_NAMING = re.compile(
    r"^(?:(?:它|她|他|它们|她们|他们)(?:的)?)?(?:(?:[一另]一?|老大|老二)(?:只|个|条|位)?)?"
    r"(?:(?:名字|小名|大名|名)(?:叫做|叫|是|为)[:：]?|叫做|名叫|叫)(?P<v>[^，,。！？!?；;\s]{1,20})$"
)
#: a clause about the one just introduced: its pronoun, its name, or its age (养了只柯基，两岁: the corgi's age)
_ZH_ABOUT_REFERENT = re.compile(r"^(?:(?P<p>它|她|他)(?!们)|名字|小名|大名|名叫|叫|(?:已经|都|才|快|刚|刚刚|满)*"
                                r"[\d一二两三四五六七八九十]+(?:个)?半?(?:岁|个月|周岁))")
_EN_INTRO = re.compile(
    r"(?i:\b(?:i|we)(?:\s+(?:just\s+|recently\s+|finally\s+|also\s+|now\s+)?(?:have|had|got|adopted|rescued|bought|"
    r"own|'ve\s+got|have\s+got|'ve\s+adopted|have\s+adopted)|['\u2019]ve\s+(?:just\s+)?(?:got|adopted))"
    r"\s+(?:a|an|one|two|another|a\s+new)\s+"
    rf"(?P<desc>(?:[a-z-]+\s+){{0,2}}?)(?P<noun>{_EN_NOUN})\b)(?P<rest>[^.!?;]*)"
)
_EN_NAMING = re.compile(
    r"^(?i:[\s,]*(?:and\s+|who\s+|which\s+|that\s+)?(?:(?:her|his|its|their)\s+name(?:'s|\s+is)|(?:she|he|it)"
    r"(?:'s|\s+is)\s+(?:called|named)|(?:is\s+|was\s+)?(?:called|named)|(?:i\s+|we\s+)?(?:named|call|called)"
    r"\s+(?:her|him|it))\s+)(?P<v>[A-Z][\w'-]*)"
)


def relations(work: MessageExtraction, c: Clause) -> list[Draft]:
    """Names of people (我老婆苏琳 / my wife Anna) and statements about them."""
    out: list[Draft] = []
    if c.question:  # 我家猫咪叫什么名字好呢？
        named = []
    elif work.lang == "zh":
        named = zh_relation_names(c.text)
    else:
        named = en_relation_names(c.text)
    for word, key, name in named:
        out += _named(work.lang, (word, key), [name])
    # 我表妹下个月结婚，在苏州办: a subject-less clause after a dated one tells more of that event
    of_event = c.inherited and any(work.qualifying(x) for x in work.clauses if x.sentence == c.sentence and x.start < c.start)
    if c.subject == "rel" and not c.question and not work.qualifying(c):
        names = [n for _, _, n in named]
        statement = _relation_statement(work, c, names)
        who = c.rel_name or (names[0] if names else None) or person_key(c, work.lang)
        slotted: list[Draft] = []
        if statement and who:  # 我妈住在杭州 → person:mother/city; 我同事小李喜欢篮球 → person:小李/pref/篮球
            slotted = [d for d in person_facts(work, _after_relative(c, work.lang, names), who, None) if d.slot]
            if slotted:
                statement[0].slot = slotted[0].slot
                statement[0].values = list(dict.fromkeys([*statement[0].values, *slotted[0].values]))
        if not of_event or slotted:  # …，对海鲜过敏 stays the mother's standing fact
            out += statement
    return out


def _after_relative(c: Clause, lang: str, names: list[str]) -> str:
    """The clause after its subject: 我同事小李喜欢打篮球 → 喜欢打篮球; "my wife Anna loves tulips" → "loves tulips"."""
    who = alternation([n for n in [*names, c.rel_name or ""] if n])
    rel = re.escape(c.rel or "")
    if lang == "zh":
        lead = rf"^(?:(?:我|俺)(?:的|家)?)?(?:{rel})?(?:{who})?" if who else rf"^(?:(?:我|俺)(?:的|家)?)?(?:{rel})?"
        return re.sub(lead, "", c.body, count=1)
    lead = (rf"(?i:^(?:and\s+|but\s+|so\s+|also\s+)?(?:(?:my|our)\s+{rel}|she|he|they|it)\b)"
            + (rf"(?:,?\s*(?:{who})\b,?)?" if who else ""))
    return re.sub(lead, "", c.body, count=1).strip()


_ZH_CALLS_USER = re.compile(r"叫(?:我|俺)(?P<v>[^，,。！？!?；;\s]{1,6})")
_ONLY_NAMING = re.compile(r"(?i)[\s，,。.]*(?:['\u2019]s\s+name\s+is|is\s+called|is\s+named|named|called|"
                          r"的?(?:名字|小名|大名)(?:叫做|叫|是)|叫做|名叫|叫)[\s，,。.]*")


def _relation_statement(work: MessageExtraction, c: Clause, names: list[str]) -> list[Draft]:
    if work.lang == "zh":
        text = work.content(c)
        if not text.startswith("用户"):  # 她喜欢… resolved to the relative just mentioned; 同事说… names it itself
            body = tidy_zh(c.body).removeprefix(c.rel or "")
            text = f"用户的{c.rel}{c.rel_name or ''}" + third_person(body, "zh")
        rest = text.removeprefix(f"用户的{c.rel}")
    else:
        text = EN_REPORTED.sub("", work.content(c), count=1)  # "Turns out she's diabetic": the relative is
        text = re.sub(r"^(he|she|it)" + S_IS, r"\1 is", text, flags=re.IGNORECASE)
        if text.lower().startswith(("he ", "she ", "it ", "they ")):
            text = f"User's {c.rel}{' ' + c.rel_name if c.rel_name else ''} " + text.split(" ", 1)[1]
        rest = text.split(c.rel or "", 1)[-1]
    for name in names + ([c.rel_name] if c.rel_name else []):
        rest = rest.replace(name, "", 1)
    if len(rest.strip(" ，,。.")) < 2 or _ONLY_NAMING.fullmatch(rest):
        return []  # "my sister's name is Emma" is already the relation name
    text = text.rstrip("，, ")
    importance = 0.8 if re.search(r"过敏|allerg", text, re.IGNORECASE) else 0.6
    values = names + ([c.rel_name] if c.rel_name else [])
    if work.lang == "zh" and (nick := _ZH_CALLS_USER.search(c.text)):  # 我朋友叫我小王: 小王 is worth finding
        values.append(name_at_start(nick.group("v"), explicit=True) or nick.group("v"))
    return [Draft(Kind.RELATION, text, None, values, importance, 0.8)]


_NAMING = re.compile(r"^(?:用户的|User's ).+(?:叫\{v\}| is named \{v\})$")


def recent_relation(c: Clause, found: list[Draft], recent: RecentRelation | None) -> RecentRelation | None:
    """The relative a following 她/他/she/he most likely refers to: one named, the subject of the clause, or
    the one relative the user's own clause names (陪奶奶去复诊，她糖尿病好多年了 / "took grandma to her
    checkup, she's had diabetes for years")."""
    named = [d for d in found if d.kind is Kind.RELATION and d.template and _NAMING.search(d.template)]
    if named:  # (a template of another fact, 朵朵对{v}过敏, names no relative)
        word = re.sub(r"^(?:用户的|User's )|(?:叫\{v\}| is named \{v\})$", "", named[-1].template or "")
        return word, named[-1].values[0] if named[-1].values else None
    if c.subject == "rel" and c.rel:
        return c.rel, c.rel_name
    if c.subject == "self" and (kin := _one_relative(c.text)):
        return kin, None
    if c.subject == "other" and c.person:
        return "", c.person  # 朵朵今天打疫苗，她… / "Maya moved, she…": the one named, no relative of the lexicon
    if c.subject == "self" and (name := _one_named(c.text)):
        return "", name
    return recent


#: a relative of the lexicon the user's clause does something with or for ("陪奶奶去复诊", "带我妈", "took grandma to
#: her checkup", "called my dad"): one a following 她/他/she/he then means
_KIN_ZH_WORDS = alternation([w for w, (_, g) in REL_ZH.items() if g in ("f", "m") and len(w) > 1])
_KIN_EN_WORDS = alternation([w for w, (_, g) in REL_EN.items() if g in ("f", "m") and not w.endswith("'s")])
#: what one does with or for someone (陪 / 带 / 看望, "took", "visited", "with"), before whom
_ZH_WITH_VERBS = r"(?:陪|带|和|跟|给|帮|送|接|看望|探望|去看|照顾|照看)"
_EN_WITH_VERBS = (r"(?:took|take|taking|visited|visiting|called|calling|saw|seeing|drove|driving|helped|helping|with|"
                  r"picked\s+up|looking\s+after|caring\s+for)")
_ZH_WITH_KIN = re.compile(rf"{_ZH_WITH_VERBS}(?:我|俺)?(?:的|家)?(?P<kin>{_KIN_ZH_WORDS}"
                          rf"|(?<=[我俺])[妈爸哥姐弟妹])(?![们儿])")
_EN_WITH_KIN = re.compile(rf"(?i)\b{_EN_WITH_VERBS}\s+(?:my\s+|our\s+)?(?P<kin>{_KIN_EN_WORDS})\b")


#: a named someone the user's clause does something with or for ("带朵朵去体检", "took Oliver to the doctor")
_ZH_WITH = re.compile(rf"{_ZH_WITH_VERBS}(?P<n>[\u4e00-\u9fff]{{2,3}}?)(?=去|来|到|回|做|打|看|吃|玩|"
                      r"上|下|办|买|过|[，,。！!\s]|$)")
_EN_WITH = re.compile(rf"\b(?:{_EN_WITH_VERBS}|babysat|babysitting)\s+(?P<n>[A-Z][a-z]+)\b")


def _one_named(text: str) -> str | None:
    """The one person by name (the lexical analyser's PER in Chinese, a capitalised given name in English)
    the user's clause does something with or for; a following 她/他/she/he then means them."""
    from jiyi.extractors.rules.clauses import name_ok_en, name_ok_zh

    if _CJK.search(text):
        from jiyi.text.lexical import entities

        people = set(entities(text).get("PER", ()))
        found = {m.group("n") for m in _ZH_WITH.finditer(text) if m.group("n") in people and name_ok_zh(m.group("n"))}
    else:
        found = {m.group("n") for m in _EN_WITH.finditer(text) if name_ok_en(m.group("n"))}
    return next(iter(found)) if len(found) == 1 else None


def _one_relative(text: str) -> str | None:
    """The one relative of known gender a clause does something with or for (a following pronoun then means
    them), or None."""
    kin = {m.group("kin").lower() for m in (*_ZH_WITH_KIN.finditer(text), *_EN_WITH_KIN.finditer(text))}
    return next(iter(kin)) if len(kin) == 1 else None


def _named(lang: str, referent: Referent, names: list[str]) -> list[Draft]:
    """用户的橘猫叫团子 / User's wife is named Anna, one draft per name."""
    word, key = referent
    if key == "thing":  # a place, a firm, a course the user mentioned: not the user's relation
        template = f"用户提到的{word}叫{{v}}"
        return [fact(template.format(v=name), None, name, importance=0.6, confidence=0.8, template=template)
                for name in names]
    slot = f"relation/{key}" if key in SINGLE_VALUED else None
    template = f"用户的{word}叫{{v}}" if lang == "zh" else f"User's {word} is named {{v}}"
    return [fact(template.format(v=name), slot, name, kind=Kind.RELATION, importance=0.7, confidence=0.85,
                 template=template) for name in names]


def referent_names(work: MessageExtraction, c: Clause, referent: Referent | None
                   ) -> tuple[list[Draft], Referent | None]:
    """Names of someone introduced earlier in the message (or in this clause), and who is introduced now.

    Runs before the user's own facts, so that 名字叫团子 after 我养了一只橘猫 never
    reaches the ``user/name`` patterns.
    """
    zh = work.lang == "zh"
    text = tidy_zh(without_times(c)) if zh else without_times(c).strip()
    intro = (_ZH_INTRO if zh else _EN_INTRO).search(text)
    owner, owned = "", _zh_owned(text, c) if zh and intro is None else None
    if owned is not None:
        owner, intro = owned
    thing = _zh_thing(text) if zh and intro is None else None
    if thing is not None:  # 我在一家公司上班，叫星河科技: the name is the company's
        referent, text = (thing[0], "thing"), thing[1]
    elif intro is not None:
        noun = intro.group("noun") if zh else intro.group("noun").lower()
        desc = (intro.group("desc") or "").rsplit("的", 1)[-1] if zh else ""
        table = REL_ZH if zh else REL_EN
        key = table[noun][0] if noun in table else "pet"
        # someone of a relative's is never one of the user's single-valued relations (用户的邻居的老婆)
        referent = (f"{owner}的{desc}{noun}", "pet" if key == "pet" else f"{key}-of-other") if owner else \
            (desc + noun, key)
        text = intro.group("rest")
    elif c.subject == "rel" and c.rel and not (c.inherited and referent is not None):  # (…，叫煤球: still the dog)
        referent = (c.rel, (REL_ZH if zh else REL_EN).get(c.rel, ("", ""))[0] or "pet")
    elif zh and (said := zh_relation_names(text)):  # 我家的猫叫年糕，三岁了: the age is the cat's
        word, key, _ = said[-1]
        return [], (word, key)
    if referent is None or c.question:
        return [], referent
    if referent[1] == "thing":
        things = _zh_thing_names(text.lstrip("，, "))
        if things and c.inherited:
            c.subject, c.rel = "other", None  # …，叫老张面馆: about the shop, not the friend who opened it
        return _named(work.lang, referent, things), referent
    names = _zh_names(text.lstrip("，, ")) if zh else _en_names(text)
    if not names and zh and _about_referent(c, text, referent):
        c.subject, c.rel = "rel", referent[0]  # 养了只猫，叫起来很大声 / 它很黏人: about the cat
        c.body = re.sub(r"^[它她他]", "", text)
    return _named(work.lang, referent, names), referent


def _zh_owned(text: str, c: Clause) -> tuple[str, re.Match[str]] | None:
    """(owner, match) for 我邻居养了一只拉布拉多 / 我同事小李有个女儿; None when a relative introduces no one."""
    if c.subject != "rel" or not c.rel or c.inherited:
        return None
    m = re.match(rf"^(?:我|俺)(?:家的|的|家)?{re.escape(c.rel)}", text)
    if m is None:
        return None
    after = text[m.end():]
    name = name_at_start(after, explicit=False) or ""
    owned = _ZH_OWNED.match(after[len(name):])
    return (c.rel + name, owned) if owned is not None else None


#: part-of-speech tags of an object noun after a measure word (jieba's n, nz, nt, ns, nr…)
_NOUN_TAGS = ("n", "nz", "nt", "ns", "nr", "nrt", "nrfg")
_MEASURES = "家个只门所间部本款条座辆首支位套台张份项"


def _zh_thing(text: str) -> tuple[str, str] | None:
    """(noun, rest) for the object a clause introduces with a measure word: 一家公司 / 家店 / 一门课.

    People and pets are left to the patterns above; only the last object of the clause counts.
    """
    from jiyi.text import zh

    tags = zh.pos_tags(text)
    found: tuple[str, int] | None = None
    pos = 0
    for i, (tok, tag) in enumerate(tags):
        start = text.find(tok, pos)
        pos = start + len(tok) if start >= 0 else pos
        measured = (tag in ("m", "q") and tok[-1] in _MEASURES) or (tag == "n" and len(tok) > 1 and tok[0] in "家个门")
        if not measured or start < 0:
            continue
        if tag == "n":  # 家店: the measure word and its noun as one token
            noun, end = tok[1:], start + len(tok)
        elif i + 1 < len(tags) and tags[i + 1][1] in _NOUN_TAGS:
            nxt = text.find(tags[i + 1][0], pos)
            noun, end = tags[i + 1][0], nxt + len(tags[i + 1][0])
        else:
            continue
        if noun not in REL_ZH and noun not in _PETS_ZH and noun[-1] not in "人们":
            found = (noun, end)
    return (found[0], text[found[1]:]) if found else None


def _zh_thing_names(text: str) -> list[str]:
    """小满咖啡 after 叫 / 名叫 / 名字叫, about a thing: any words, not a verb (叫外卖, 叫起来)."""
    from jiyi.text import zh

    m = re.match(r"^(?P<sep>名字叫做?|名叫|叫做|叫)(?P<v>[^，,。！？!?；;\s]{2,20}?)(?:了|呢|啊|哦|吧)?$", text)
    if m is None or m.group("v")[0] in "我你您他她它俺咱了过着":
        return []
    tags = zh.pos_tags(m.group("v"))
    if m.group("sep") == "叫" and (tags[0][1] in ("v", "vn", "d", "r") or tags[0][0] in ("起来", "过", "着")):
        return []
    return [m.group("v")]


def _about_referent(c: Clause, text: str, referent: Referent) -> bool:
    """Is a subject-less (or 它/她/他) clause about the referent just introduced?"""
    m = _ZH_ABOUT_REFERENT.match(text)
    if referent[1] == "thing" or m is None or not (c.inherited or c.subject == "other"):
        return False
    pronoun = PRONOUN_GENDER.get(m.group("p") or "")
    if pronoun is None:
        return c.inherited
    gender = "p" if referent[1] == "pet" else REL_ZH.get(referent[0], ("", ""))[1]
    return gender == pronoun or (not gender and pronoun in "fm")


def _zh_names(text: str) -> list[str]:
    """团子 / 团子和饺子 after 名字叫 / 叫; nothing unless the whole remainder is names."""
    m = _ZH_NAMING.match(text)
    if m is None:
        return []
    names: list[str] = []
    for part in re.split(r"[和跟与、]", m.group("v")):
        name = name_at_start(part, explicit=True)
        if name is None or name != part or name[0] in "我你您他她它俺咱" or name in NAME_DENY:
            return []  # 叫起来很大声 / 叫我铲屎官
        names.append(name)
    return names


def _en_names(text: str) -> list[str]:
    m = _EN_NAMING.match(text)
    return [m.group("v")] if m and m.group("v") not in EN_NAME_DENY else []
