"""Messages into clauses, and who each clause is about.

Chinese commas separate clauses (我叫小王，住在上海 is two statements); English
clauses split before a new subject ("…, and I work at Tencent"). A clause's subject
is the user (self), a relative (rel: 我老婆 / my wife, or 她/she right after one), the
assistant (bot) or someone else (other); a clause with no subject of its own
inherits the previous clause's within the sentence.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from jiyi.extractors.rules.drafts import Clause
from jiyi.text.person import tidy_zh
from jiyi.text.places import place_now
from jiyi.text.relations import (
    EN_NAME_DENY,
    EN_REL_ADJ,
    MORE_KIN_ZH,
    NAME_DENY,
    PRONOUN_GENDER,
    REL_EN,
    REL_ZH,
    alternation,
    looks_like_name_zh,
)
from jiyi.text.wordlists import word_list
from jiyi.write.timeparse import TimeSpan

#: who a later 她/他/she/he can refer to: (relation word, name or None)
RecentRelation = tuple[str, str | None]

_ZH_SENT = re.compile(r"[。！？!?；;\n…]+")
#: a comma, a space between Chinese words, or a colon before a relative ("先跟你讲下屋里人：阿嫲79岁 有糖尿病": what
#: follows is the grandmother's, not the speaker's; "密码：…" or "地址：…" stay one clause)
ZH_CLAUSE = re.compile(r"[，,]+|(?<=[\u4e00-\u9fff])\s+(?=[\u4e00-\u9fff])|"
                       rf"[：:]\s*(?=(?:我|俺)?(?:的|家)?(?:{alternation([*REL_ZH, *MORE_KIN_ZH])}))")
#: a sentence ends after . ! ? — not after a title or a common abbreviation (Mr. Chen, Dr. Patel, St. Louis)
_EN_SENT = re.compile(r"(?<!\bMr\.)(?<!\bMs\.)(?<!\bDr\.)(?<!\bSt\.)(?<!\bJr\.)(?<!\bSr\.)(?<!\bMrs\.)"
                      r"(?<!\bProf\.)(?<!\bvs\.)(?<!\bMt\.)(?<=[.!?])\s+|[;\n]+")
_EN_CLAUSE = re.compile(
    r",\s*(?=(?:and\s+|but\s+|so\s+)?(?:I|I'm|I've|I'll|I'd|my|My|we|We|he|she|they|He|She|They)\b)"
    r"|,\s*(?=(?:thanks|thank\s+you|anyway|btw|by\s+the\s+way|lol|haha|the\s+weather|sorry)\b)"
    # a report of what someone found ("…, turns out he's allergic to eggs"): a statement of its own
    r"|,\s*(?=(?:turns\s+out|apparently|the\s+(?:doctor|doc|vet|nurse|dentist)\s+(?:said|says))\b)"
    # a question asked of what was just told: "my dog keeps eating grass, is that normal??" (the telling stands)
    r"|,\s*(?=(?i:is|are|was|does|do|did|can|could|should|would|will|what|how|why|any|anything)\b[^,.!?]{0,60}\?)"
    r"|\s+(?:and|but|so)\s+(?=(?:I|I'm|I've|I'll|I'd|my)\b)"
)
_ZH_QUESTION = re.compile(r"[？?]$|吗[？?]?$|能不能|可不可以|是不是|有没有|怎么(?!样都)|什么(?!都)|多少|几[个点号]|咋|"
                          r"有啥|干啥|啥时候|来着$|"
                          # a question word near the end, no 都/也 after it (吃啥, 送啥好, 去哪吃比较好, 哪天考): asks;
                          # 啥都行 / 哪都不想去 / 没啥事 / 怕查出啥 tell
                          r"^(?!.*(?:怕|担心|没|不管|无论)).*(?:啥|哪(?!吒)(?:儿|里|天|家|个)?)(?![都也])\S{0,4}?"
                          r"(?:好|呢|啊|呀|比较好|合适|才好|来着)?$|"
                          # who, once, then what they would do (谁来, 谁去吃烤肉, 谁帮我答个到): asks
                          r"^[^谁]*(?<![跟和给找])谁(?:来|去|帮|有空|要|能|想|会|赢)[^谁]*$")
_EN_QUESTION = re.compile(r"\?$|^(?:what|how|why|where|when|which|who|do|does|did|can|could|would|should|will|is|are)"
                          r"\b", re.IGNORECASE)


#: a question tagged onto a statement ("I like jazz, do you?", 我喜欢爵士乐，你呢？): the statement stands
_EN_TAG = re.compile(r"(?i),\s*(?:(?:do|don't|did|didn't|are|aren't|is|isn't|have|haven't|can|can't|will|won't|"
                     r"would|wouldn't)\s+(?:you|they|we|it)(?:\s+think)?|what\s+about\s+you|how\s+about\s+you|you|"
                     r"right|you\s+know|eh|huh|ok(?:ay)?)\s*\?")
_ZH_TAG = re.compile(r"[，,]\s*(?:你呢|您呢|你觉得呢|你怎么看|对吧|是吧|对不对|是不是|你知道吗|你说呢)\s*[？?]")
#: what only a question says: it asks (…了吗？, 我是不是…, 来着, "did I…?", "what's my…"), it never tells
_ZH_ASKS = re.compile(r"(?:吗|来着|了没)$")
_ZH_RHETORICAL = re.compile(r"不是(?:跟你|和你|给你|告诉过?你)?(?:说过?|讲过?|提过?)")
_EN_ASKS = re.compile(r"(?i)^(?:(?:so|and|but|hey|oh|um|wait|btw)[,]?\s+)*(?:(?:do|does|did|have|has|had|am|is|are|was|"
                      r"were|can|could|will|would|should|shall)(?:n't)?\s+(?:i|my|we|our|you)\b|(?:what|where|when|who|"
                      r"whose|which|why|how)(?:'s|\s+(?:do|does|did|is|are|was|were|have|has|can|should|would|will|"
                      r"many|much|long|old))\b)")


def without_tag_questions(text: str, lang: str) -> str:
    """``text`` with a question tag after a statement ended as a statement, same length (offsets stay valid)."""
    tag, stop = (_ZH_TAG, "。") if lang == "zh" else (_EN_TAG, ".")
    return tag.sub(lambda m: stop + " " * (len(m.group()) - 1), text)


def asks(c: Clause, text: str, lang: str) -> bool:
    """Is clause ``c`` of ``text`` a question (a sentence that asks, which a statement never is)?

    Stricter than ``c.question`` (which also marks 什么都吃-like clauses unsure): a clause ending
    its sentence with ？/?, ending in 吗 / 来着, or opening like "did I" / "what's my". A
    rhetorical 我不是说过…吗 tells, and is not one.
    """
    body = c.text.strip().rstrip("？?")
    marked = text[c.end:c.end + 1] in ("？", "?") or c.text.rstrip().endswith(("？", "?"))
    if lang == "zh":
        return not _ZH_RHETORICAL.search(body) and (marked or bool(_ZH_ASKS.search(body)))
    return marked or bool(_EN_ASKS.match(body))


def _pieces(text: str, start: int, end: int, splitter: re.Pattern[str],
            spans: Sequence[TimeSpan]) -> list[tuple[int, int]]:
    """Split text[start:end] at ``splitter`` matches that do not cut through a time span."""
    out: list[tuple[int, int]] = []
    cur = start
    for m in splitter.finditer(text, start, end):
        if any(s.offset < m.start() < s.end_offset for s in spans):
            continue
        if m.start() > cur:
            out.append((cur, m.start()))
        cur = m.end()
    if cur < end:
        out.append((cur, end))
    return out


def split_clauses(text: str, lang: str, spans: Sequence[TimeSpan]) -> list[Clause]:
    """Sentences, then clauses, as :class:`Clause` objects with offsets into ``text``."""
    sent_re, clause_re = (_ZH_SENT, ZH_CLAUSE) if lang == "zh" else (_EN_SENT, _EN_CLAUSE)
    clauses: list[Clause] = []
    for i, (s0, s1) in enumerate(_pieces(text, 0, len(text), sent_re, spans)):
        sentence_end = text[s1:s1 + 1]
        for c0, c1 in _pieces(text, s0, s1, clause_re, spans):
            raw = text[c0:c1].strip()
            if not raw:
                continue
            lead = len(text[c0:c1]) - len(text[c0:c1].lstrip())
            own = [s for s in spans if s.offset < c1 and s.end_offset > c0]
            clauses.append(Clause(raw, c0 + lead, c0 + lead + len(raw), i, spans=own))
        if clauses and sentence_end and sentence_end in "？?":
            clauses[-1].question = True
    question = _ZH_QUESTION if lang == "zh" else _EN_QUESTION
    for c in clauses:
        c.question = c.question or bool(question.search(c.text))
    return clauses


# ---------------------------------------------------------------- Chinese subjects

_ZH_REL_START = re.compile(rf"^(?:(?:我|俺)(?:的|家)?(?P<rel>{alternation([*REL_ZH, *MORE_KIN_ZH])})"
                           rf"|(?P<bare>{alternation([w for w in REL_ZH if len(w) > 1 and w not in ('先生', '对象')])}))")
#: a relative or a pet counted and described before its word: 我家那只黑色土狗 / 我那个大学同学 / 我家这位老爷子
_ZH_COUNTED_REL = re.compile(rf"^(?:我|俺)(?:的|家的|家)?(?:那|这)?(?:只|条|头|位|个)[\u4e00-\u9fff]{{0,4}}?"
                             rf"(?P<rel>{alternation([*REL_ZH, *MORE_KIN_ZH])})")
ZH_SELF = re.compile(r"^(?:我们|咱们|我|本人|俺)")
_ZH_REPORTED = re.compile(r"^(?:医生|大夫)(?:说|讲|告诉我)(?:我)?")
_ZH_BOT = re.compile(r"^(?:你们|您|你|请你?|麻烦你?)")
_ZH_PRON = re.compile(r"^(?P<p>他们|她们|他|她|它)")


#: a clause that opens with someone's name and a statement about them: 小明住在杭州 / bob的手机号是…
_ZH_NAMED = re.compile(
    r"^(?P<n>[A-Za-z][A-Za-z.'-]{1,19}|[\u4e00-\u9fff]{2,3}?)(?=的(?!话|时候)|住|家住|家在|在|是|喜欢|爱|讨厌|今年|对|不吃|不喝|"
    r"吃素|搬|有|最近|现在|已经|也|都|每|一直|平时|从不|\d|[一二两三四五六七八九十]+岁)")
_EN_NAMED = re.compile(
    r"^(?P<n>[A-Z][a-z]+(?:\s+[A-Z][a-z]+)?)(?=['\u2019]s\s|\s+(?:is|was|has|had|lives|lived|works|worked|moved|"
    r"likes|loves|hates|enjoys|prefers|doesn't|does|can't|just|now|also|really|got|went|will|wants|plays|studies|"
    r"teaches|turned|quit|started|broke|always|never|usually|recently|still|used)\b)")
_NOT_PEOPLE_EN = frozenset({"User", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday",
                            "January", "February", "March", "April", "May", "June", "July", "August", "September",
                            "October", "November", "December", "Everyone", "Everything", "Nobody", "Someone",
                            "Something", "There", "Here", "Work", "School", "Life", "Dinner", "Lunch"})
_RECUR_THEN_SELF = re.compile(r"^((?:周末|周[一二三四五六日天]|星期[一二三四五六日天]|礼拜[一二三四五六日天]|工作日|平日|平时|"
                              r"节假日|假期|下班后|放学后)(?:的时候)?[，,]?)(我们|我|俺)")
_TIME_WORD_ZH = re.compile(r"^(?:周[一二三四五六日天末]|星期|礼拜|平时|平常|平日|每|早|晚|上午|下午|中午|今|明|昨|前天|后天|工作日|节假日)")
_NOT_PEOPLE_ASCII = re.compile(r"(?i)^(?:qq|vip|app|wifi|iphone|ipad|mac|pc|ai|gpt|chatgpt|bot|id|ok)$")


def name_ok_zh(name: str) -> bool:
    """Is ``name`` (at a Chinese clause's start) someone's name: 小明 / 王芳 / bob, not 上海 / QQ?"""
    if name.isascii():
        return not _NOT_PEOPLE_ASCII.match(name) and not (name.isupper() and len(name) <= 3)
    return (looks_like_name_zh(name) and name not in NAME_DENY and not name.startswith(("用户", "助手"))
            and not _TIME_WORD_ZH.match(name))


def _a_place(name: str, clause: str) -> bool:
    """温州的房子退了: a place opens the clause, by the lexical analyser, not a person."""
    from jiyi.text.lexical import entities

    return name in entities(clause).get("LOC", ())


def _a_loss_of_ones_own(clause: str) -> bool:
    """Does ``clause`` tell the loss or the sale of a pet or a car (它昨晚走了, 它被我送去报废了)?"""
    from jiyi.text.topics import change_of

    change = change_of(clause, "zh")
    return change is not None and change.cls in ("lose", "sell") and bool({"pet", "vehicle"} & set(change.families))


def _runs_into_a_verb(name: str, clause: str) -> bool:
    """房子租在徐汇: the 'name' 房子租 takes in the verb after a noun (by the lexical analyser), so it names no one."""
    from jiyi.text.lexical import tagged

    at = 0
    for word, tag in tagged(clause):
        if at >= len(name):
            return False
        if at > 0 and tag.startswith("v"):
            return True
        at += len(word)
    return False


def name_ok_en(name: str) -> bool:
    """Is ``name`` (at an English clause's start) a person's name rather than a day, a month or a pronoun?"""
    first = name.split()[0]
    return first not in EN_NAME_DENY and first not in _NOT_PEOPLE_EN


def without_times(c: Clause) -> str:
    """The clause with its time expressions cut out: patterns see 我搬到杭州 in 我下个月搬到杭州."""
    text = c.text
    for span in sorted(c.spans, key=lambda s: s.offset, reverse=True):
        lo, hi = max(span.offset - c.start, 0), min(span.end_offset - c.start, len(text))
        if lo < hi:
            text = text[:lo] + text[hi:]
    return text


#: the group a person is of, said before their name: 我们组老贺 / 我们宿舍的阿杰 / 咱们部门小林
_ZH_OUR_GROUP = re.compile(r"^(?:我们|咱们|俺们|我|俺)(?:这个|那个)?(?:组|小组|部门|公司|单位|科室|团队|项目组|课题组|实验室|"
                           r"办公室|工作室|班|宿舍|寝室|群|小区|楼|队)(?:里|的|里的)?")


#: a name with the address it is called by (哲哥, 薇薇姐, 李叔, 张总), not a kin word (大哥, 表姐, 二姨)
_ADDRESSED = re.compile(r"(?![大二三四五六表堂亲])[\u4e00-\u9fff]{1,2}(?:哥|姐|叔|姨|总|爷|妹|弟)")


#: a person told by where they are from, before 的 (舞蹈队的王阿姨, 隔壁的李叔叔); never the speaker's own (我的…)
_ZH_WHOSE = re.compile(r"^(?![我俺咱自])[\u4e00-\u9fffA-Za-z]{1,6}?的(?=[\u4e00-\u9fffA-Za-z])")


#: someone told by a title or a kin word after their surname or first name: 王阿姨, 李叔叔, 张老师, 老周, 阿芳
_ZH_TITLED = re.compile(r"^(?P<n>[\u4e00-\u9fff]{1,2}(?:阿姨|叔叔|伯伯|奶奶|爷爷|大爷|大妈|婆婆|阿婆|阿公|老师|师傅|医生|大夫|"
                        r"护士|教练|经理|主任|姐|哥)|[小老阿][\u4e00-\u9fff])(?=[有是对在不也都得患血身吃喝住最已一])")


def _named_first(text: str) -> tuple[str, int] | None:
    """(name, where it ends) when ``text`` opens with a person: a title or kin word after a name (王阿姨), or a name
    the lexical analyser tags as one (not 时候 of 播的时候)."""
    if (m := _ZH_TITLED.match(text)) and not _a_place(m.group("n"), text):
        return m.group("n"), m.end("n")
    return lead_person(text, text)


def lead_person(text: str, said: str) -> tuple[str, int] | None:
    """(name, where it ends in ``text``) when ``text`` opens with a person the lexical analyser names in ``said``
    (the clause as said, its time words kept: 老贺今天肾结石犯了), maybe after the group they are of
    (我们组老贺…): the clause is about them."""
    from jiyi.extractors.rules.zh import tagged_as_place
    from jiyi.text.lexical import tagged
    from jiyi.text.topics import change_of

    group, heard = _ZH_OUR_GROUP.match(text), _ZH_OUR_GROUP.match(said)
    start = group.end() if group else 0
    words = tagged(said[heard.end() if heard else 0:][:16])
    if not words or words[0][1] != "PER" or not (name_ok_zh(name := words[0][0]) or _ADDRESSED.fullmatch(name)
                                                 or _given_name(name, said)) \
            or not text.startswith(name, start):
        return None
    if tagged_as_place(name) or (len(words) > 1 and words[1][0] in _HERE_THERE):
        return None  # 郑东这边一个单间一千八: a place the analyser took for a name
    if (change := change_of(said, "zh")) is not None and change.cls in ("lose", "sell"):
        return None  # 豆豆昨晚走了: a name that is lost or given away may be a pet's; the ending logic knows whose
    return name, start + len(name)


def _given_name(name: str, said: str) -> bool:
    """Is ``name`` (the lexical analyser's PER) a given name of two characters without a surname (丽娟, 秀芬), as
    the second analyser (jieba's person tag) reads it too?"""
    from jiyi.text import zh

    if len(name) != 2 or name in NAME_DENY or not all("\u4e00" <= ch <= "\u9fff" for ch in name) \
            or zh.in_dictionary(name) or re.search(r"[我俺咱]", said):
        return False  # (布丁 is a pudding, or a pet's name; "若溪把我甩了" is the speaker's own news)
    return any(w == name and tag.startswith("nr") for w, tag in zh.pos_tags(said[:12]))


#: the bot asking about someone by name: "Is Mia your sister?", "what does Mia do?", "how's Theo doing?"
_EN_ASKED_ABOUT = re.compile(r"\b(?:is|was|does|did|has|where\s+does|what\s+does|how\s+is|how's|who's|who\s+is)\s+"
                             r"(?P<n>[A-Z][a-z]+)\b(?!\s*[,']s\b)")
_QUESTION_CUT = re.compile(r"(?<=[。！!.])\s*")


def asked_about(question: str, lang: str) -> str | None:
    """Whom the bot's last turn asks about by name ("萌萌是你朋友吗？", "what does Mia do?"), or None: the reply's
    subjectless clauses tell of them ("大学室友 现在在深圳一家游戏公司做HR" is 萌萌's job, not the user's)."""
    asking = [s for s in _QUESTION_CUT.split(question.strip()) if re.search(r"[?？]\s*$", s)]
    if not asking:
        return None
    last = asking[-1]
    if lang == "zh":  # the name opens the question or a part of it: "哇 阿蕾是你同事吗？", "小王最近怎么样？"
        if vocative := _ZH_VOCATIVE.match(last):
            last = last[vocative.end():]  # "老贺，最近烟还抽得凶不？": the bot calls the user by name
        for part in re.split(r"[\s，,]+", tidy_zh(last)):
            if part and (lead := lead_person(part, part)):
                return lead[0]
        return None
    m = _EN_ASKED_ABOUT.search(last)
    return m.group("n") if m and name_ok_en(m.group("n")) else None


#: a name alone before a comma, opening the question: whom the bot speaks to, not of ("老贺，最近还跑长途吗？")
_ZH_VOCATIVE = re.compile(r"^\s*[\u4e00-\u9fffA-Za-z]{1,6}[，,]\s*(?=[^？?]*[？?])(?![^？?]*(?:他|她|它))")
#: what follows a place, never a person: 郑东这边 / 滨江那里 / 涧西附近
_HERE_THERE = frozenset({"这边", "那边", "这里", "那里", "这儿", "那儿", "附近", "一带", "周边"})



def assign_subject_zh(c: Clause, prev: Clause | None, recent_rel: RecentRelation | None) -> None:
    """Set ``c.subject``/``rel``/``body`` from how the clause starts (after fillers and times)."""
    t = _RECUR_THEN_SELF.sub(r"\2\1", tidy_zh(without_times(c)))  # 周末我喜欢… → 我周末喜欢…
    if m := _ZH_REL_START.match(t):
        word = m.group("rel") or m.group("bare")
        c.subject, c.rel, c.body = "rel", word, t
        return
    if m := _ZH_COUNTED_REL.match(t):
        c.subject, c.rel, c.body = "rel", m.group("rel"), t
        return
    if _ZH_OUR_GROUP.match(t) and (lead := lead_person(t, tidy_zh(c.text))):
        c.subject, c.person, c.body = "other", lead[0], t[lead[1]:]
        return
    if (m := _ZH_REPORTED.match(t)) and not (_ZH_PRON.match(t[m.end():]) and recent_rel):
        c.subject, c.body = "self", t[m.end():]
        return
    if m:  # 医生说她对鸡蛋过敏: the doctor tells of the one just named
        t = t[m.end():]
    if m := ZH_SELF.match(t):
        c.subject, c.body = "self", t[m.end():]
        return
    if _ZH_BOT.match(t):
        c.subject, c.body = "bot", t
        return
    if m := _ZH_PRON.match(t):
        gender = PRONOUN_GENDER.get(m.group("p"))
        if recent_rel and not recent_rel[0] and recent_rel[1] and not m.group("p").endswith("们"):
            c.subject, c.person, c.body = "other", recent_rel[1], t[m.end():]  # 带朵朵去体检，她对鸡蛋过敏: 朵朵's
        elif recent_rel and recent_rel[0] and gender and REL_ZH.get(recent_rel[0], ("", ""))[1] in (gender, ""):  # 同学: anyone
            c.subject, c.rel, c.rel_name, c.body = "rel", recent_rel[0], recent_rel[1], t[m.end():]
        elif m.group("p") == "它" and not recent_rel and _a_loss_of_ones_own(t):
            c.subject, c.body = "self", t  # 它昨晚走了 / 它被我送去报废了: the user's pet or car, told of as "it"
        else:
            c.subject, c.body = "other", t
        return
    if m := _ZH_NAMED.match(t):
        name = m.group("n")
        if name_ok_zh(name) and not _a_place(name, t) and not _runs_into_a_verb(name, t):
            c.subject, c.person, c.body = "other", name, t[m.end("n"):]
            return
    if lead := lead_person(t, tidy_zh(c.text)):  # a name the pattern above does not know the verb after (老贺肾结石犯了)
        c.subject, c.person, c.body = "other", lead[0], t[lead[1]:]
        return
    if (whose := _ZH_WHOSE.match(t)) and (named := _named_first(t[whose.end():])):
        c.subject, c.person, c.body = "other", named[0], t[whose.end() + named[1]:]  # 舞蹈队的王阿姨有糖尿病: 王阿姨's
        return
    if prev is not None and prev.sentence == c.sentence:
        c.subject, c.rel, c.rel_name, c.person = prev.subject, prev.rel, prev.rel_name, prev.person
        c.inherited = True
    c.body = t


# ---------------------------------------------------------------- English subjects

#: people of a user's life beyond the relations lexicon: "my landlord is allergic to cats" is the landlord's
_MORE_KIN_EN = word_list("landlord landlady neighbor neighbour teacher coach cousin aunt uncle nephew niece grandson "
                         "granddaughter stepmom stepdad stepson stepdaughter mother-in-law father-in-law sister-in-law "
                         "brother-in-law manager supervisor assistant doctor therapist tutor student classmate teammate "
                         "babysitter nanny housemate flatmate ex ex-wife ex-husband ex-girlfriend ex-boyfriend twin "
                         "stepsister stepbrother godmother godfather mentor client")
_EN_REL_START = re.compile(rf"(?i)^(?:and\s+|but\s+|so\s+|also\s+)?(?:my|our)\s+{EN_REL_ADJ}"
                           rf"(?P<rel>{alternation([*REL_EN, *_MORE_KIN_EN])})\b")
_EN_SELF = re.compile(r"(?i)^(?:(?:and|but|so|also|well|oh|yeah|yes|honestly|anyway)[,!]?\s+)*(?:i|i'm|i've|i'll|i'd|"
                      r"im|we|we're|we've|my)\b")
_EN_BOT = re.compile(r"(?i)^(?:please\s+|pls\s+|can\s+you\s+|could\s+you\s+|you\s+)")
_EN_PRON = re.compile(r"(?i)^(?P<p>he|she|it|they)\b")
#: "'s" that is "is", not "has" before a participle ("he's allergic", not "she's had diabetes")
S_IS = r"['\u2019]s\b(?!\s+(?:had|been|got|gotten|gone|done|\w+ed)\b)"
#: a report of someone else's words before what it tells: "turns out", "the doctor said", "apparently"
EN_REPORTED = re.compile(r"(?i)^(?:(?:so|and|but)\s+)?(?:turns\s+out|apparently|(?:the\s+)?(?:doctor|doc|vet|nurse|"
                          r"dentist|teacher)\s+(?:said|says|told\s+(?:me|us))|(?:we|i)\s+found\s+out)\s*(?:that\s+)?,?\s*")


#: a couple's end done to the speaker, after the pronoun of the one who did it ("she dumped me", "he left me")
_EN_ENDS_IT_WITH_ME = re.compile(r"(?i)^\s+(?:just\s+|finally\s+)?(?:dumped|left|ghosted|broke\s+up\s+with|cheated\s+on|"
                                 r"walked\s+out\s+on|divorced)\s+me\b")


def assign_subject_en(c: Clause, prev: Clause | None, recent_rel: RecentRelation | None) -> None:
    """Set ``c.subject``/``rel``/``body`` from how the English clause starts."""
    t = re.sub(r"^[\s,]+", "", without_times(c))
    if recent_rel and (m := EN_REPORTED.match(t)) and _EN_PRON.match(t[m.end():]):
        t = t[m.end():]  # "turns out he's allergic to eggs": the one just named is
    c.body = t
    if m := _EN_REL_START.match(t):
        c.subject, c.rel = "rel", m.group("rel").lower()
    elif _EN_SELF.match(t):
        c.subject = "self"
    elif _EN_BOT.match(t):
        c.subject = "bot"
    elif m := _EN_PRON.match(t):
        gender = PRONOUN_GENDER.get(m.group("p").lower())
        if recent_rel and not recent_rel[0] and recent_rel[1] and m.group("p").lower() in ("he", "she"):
            rest = re.sub("^" + S_IS, " is", t[m.end():])  # "took Oliver…, he's allergic": Oliver's
            c.subject, c.person, c.body = "other", recent_rel[1], rest
        elif recent_rel and recent_rel[0] and gender and REL_EN.get(recent_rel[0], ("", ""))[1] in (gender, ""):  # a cousin
            c.subject, c.rel, c.rel_name = "rel", recent_rel[0], recent_rel[1]
        elif _EN_ENDS_IT_WITH_ME.match(t[m.end():]):
            c.subject = "self"  # "she dumped me last week": the user's breakup, told of the one who ended it
        else:
            c.subject = "other"
    elif (m := _EN_NAMED.match(t)) and name_ok_en(m.group("n")) and not place_now(t):
        c.subject, c.person, c.body = "other", m.group("n"), t[m.end("n"):]
    elif prev is not None and prev.sentence == c.sentence:
        c.subject, c.rel, c.rel_name, c.person = prev.subject, prev.rel, prev.rel_name, prev.person
        c.inherited = True
