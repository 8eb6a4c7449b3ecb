"""One user message through the rules: clauses, then facts, relations, events, markers.

:class:`MessageExtraction` holds what every stage needs (the text with its markers
blanked, the time spans, the clauses); the stages live in their own modules and
take it as their first argument.
"""

from __future__ import annotations

import re
from datetime import timezone, tzinfo

from jiyi.clock import speaker_zone
from jiyi.extractors.rules.birthdays import recurring_dates
from jiyi.extractors.rules.changes import changes
from jiyi.extractors.rules.claims import en_claim, zh_claim
from jiyi.extractors.rules.clauses import (
    ZH_SELF,
    RecentRelation,
    asked_about,
    asks,
    assign_subject_en,
    assign_subject_zh,
    split_clauses,
    without_tag_questions,
)
from jiyi.extractors.rules.content import clause_content, drop_subject, mask_times
from jiyi.extractors.rules.corrections import Thread, corrected, remembered, strip_markers
from jiyi.extractors.rules.drafts import MAX_CHARS, Clause, Draft, fact, merge_slots
from jiyi.extractors.rules.en import (
    en_call_me,
    en_diet,
    en_habit,
    en_identity,
    en_preference,
    style_slots_en,
)
from jiyi.extractors.rules.endings import endings
from jiyi.extractors.rules.events import events
from jiyi.extractors.rules.hygiene import (
    as_request,
    asks_about_memory,
    hedged,
    points_elsewhere,
    told_again,
    with_objects,
    without_emphasis,
    without_pointer_lead,
)
from jiyi.extractors.rules.others import named_person
from jiyi.extractors.rules.people import Referent, recent_relation, referent_names, relations
from jiyi.extractors.rules.promotions import new_role
from jiyi.extractors.rules.recurring import one_off, told_as_coming, told_as_past
from jiyi.extractors.rules.sensitive import en_contact, en_health, zh_contact, zh_health
from jiyi.extractors.rules.standing import standing_facts
from jiyi.extractors.rules.starts import new_job
from jiyi.extractors.rules.study import en_study, zh_study
from jiyi.extractors.rules.zh import (
    brings_in_a_thing,
    style_slots_zh,
    zh_age,
    zh_call_me,
    zh_diet,
    zh_habit,
    zh_i_am_name,
    zh_like,
    zh_name,
    zh_residence,
    zh_work,
)
from jiyi.records import Kind, Message
from jiyi.text.casual import with_apostrophes, with_names, with_subject
from jiyi.text.dialect import standard_zh
from jiyi.text.person import first_person, third_person, tidy_zh
from jiyi.text.qualifiers import NOW_LEAD
from jiyi.text.topics import change_of, families_of
from jiyi.write.timeparse import TimeSpan, find_time_expressions

#: words between 我 and 对…过敏 that leave the allergy the user's (全家都 / 从小就 / 一直 / 可能): not part of
#: the allergen (a hedge among them lowers the confidence, rules/hygiene.py)
_ZH_WITH_USER = re.compile(r"^(?:全家|一家人?|家里人|俩|两个|大家|都|也|还|就|一直|从小|本来|其实|有点|有些|点|些|特别|比较|非常|很|"
                           r"严重|轻微|稍微|好像|似乎|可能|也许|或许|大概|应该|貌似|天生|一向|向来|从来|最近|现在|后来)+")


#: a clause that turns to something else (a contrast, thanks, the weather, a side remark): never glued onto
#: the statement before it ("用户喜欢吃辣，最近胃不好", "User likes tea, thanks for asking" are nonsense facts)
_NEW_THOUGHT = re.compile(r"(?i)^(?:但是?|不过|可是|然而|只是|却|另外|对了|顺便|话说|谢谢|感谢|多谢|哈哈|总之|反正|天气|"
                          r"but\b|though\b|although\b|however\b|yet\b|thanks\b|thank\s+you|anyway|btw\b|by\s+the\s+way|"
                          r"lol\b|haha|sorry\b|the\s+weather|oh\b|ok(?:ay)?\b)")


#: the bot asking how old someone else is: the bare age that answers it is theirs
_ASKS_ANOTHERS_AGE = re.compile(r"(?:孩子|宝宝|宝贝|女儿|儿子|闺女|娃|狗狗?|猫咪?|它|他|她|妹妹|弟弟|哥哥|姐姐|小朋友)[^，。？?！!]{0,6}"
                                r"(?:多大|几岁)|(?i:\bhow\s+old\s+(?:is|are)\s+(?!you\b))")
#: a clause that says what "it" is, a value of the user's named just before ("it's +65 8127 4409 now")
_EN_IT_IS = re.compile(r"(?i)^(?:it|that)(?:'s|\s+is|\s+will\s+be)\b")
#: a clause naming something: 叫X / 名叫X / 名字叫X (not 叫我X, how to address the user)
_ZH_CALLED_LEAD = re.compile(r"^(?:名字)?(?:名)?叫(?!我)")
#: a thing brought in with a measure word: 一家奶茶店, 一只猫, 这个游戏
_ZH_A_THING = re.compile(r"(?:[一这那每]|[两三几])(?:家|只|条|个|款|所|间|辆|部|本|位|支|匹)[\u4e00-\u9fffA-Za-z]{1,10}$"
                         # …or a clause ending in a thing that has a name: 开烧烤店, 养了条狗, 搞了个工作室, 组了乐队
                         r"|(?:店|馆|铺|摊|档|公司|工作室|厂|餐厅|酒吧|网店|群|猫|狗|车|船|频道|账号|乐队|品牌|项目|战队|公众号)$")


def _said_something(c: Clause, lang: str) -> bool:
    """Does ``c`` say more than yes, no or a filler ("对", "嗯嗯", "yeah", "nope")?"""
    body = tidy_zh(c.text) if lang == "zh" else c.text
    return not re.fullmatch(r"(?i)[\s,，。.!！~]*(?:对|是|是的|嗯+|对的|没错|不是|yes|yeah|yep|ya|yup|nope|no|nah|right)?"
                            r"[\s,，。.!！~]*", body)


def _names_something(text: str) -> bool:
    """Does a clause (its time words masked) name what it is about: a noun, a name, a place?"""
    from jiyi.text.lexical import has_tag

    return has_tag(tidy_zh(text), ("n", "nz", "nw", "vn", "PER", "LOC", "ORG"))


#: below this, a bare age ("三岁了", "两岁半") is a child's or a pet's: people who talk to a bot are older
_YOUNGEST_USER = 12


def _a_childs_age(age: Draft, clause: str) -> bool:
    """Is ``age`` ("三岁了 天天拆家") too young to be the speaker's, the clause not saying 我 / 俺?"""
    return "我" not in clause and "俺" not in clause and bool(age.values) and age.values[0].isdigit() \
        and int(age.values[0]) < _YOUNGEST_USER


class MessageExtraction:
    """All candidates of one user message; one method per stage, in :meth:`run` order."""

    def __init__(self, msg: Message, lang: str, tz: tzinfo) -> None:
        self.ref = msg.timestamp if msg.timestamp.tzinfo else msg.timestamp.replace(tzinfo=timezone.utc)
        tz = speaker_zone(msg.utc_offset, tz, self.ref)  # a user in Vancouver: 明天 by their clock
        self.msg, self.lang, self.tz = msg, lang, tz
        # "用户住在杭州" / "User lives in Berlin" (remember(), the MCP add_memory tool) read as the user's own words
        # "im from nyc" is "i'm from nyc"; "moved to denver lol" is "i moved to denver lol"
        # 健身卡我退咗喇 is 健身卡我退了了: a dialect's grammar words read as Mandarin, as every rule is written
        said = with_names(with_subject(with_apostrophes(msg.content))) if lang == "en" else standard_zh(msg.content)
        text = told_again(without_tag_questions(first_person(said, lang), lang), lang)  # tells, not asks
        text = as_request(text, lang)  # 能不能记住我对花生过敏？/ "Could you remember that…?" asks to remember
        self.unmarked = without_emphasis(text, lang)  # as said, 记住 and 不对 kept (the same offsets as ``text``)
        self.text, self.corrects, self.remember_at = strip_markers(self.unmarked, lang)
        self.text = without_pointer_lead(self.text, self.remember_at)  # 记住这件事：明天开会 → 明天开会
        found = find_time_expressions(self.text, self.ref, tz=tz)
        spans = told_as_past(self.text, one_off(self.text, found), self.ref)  # 周末喜欢… is a habit
        self.spans = told_as_coming(self.text, spans, self.ref)  # 12月20号去看演唱会, said in March: next December
        self.clauses = split_clauses(self.text, lang, self.spans)

    # -- helpers
    def qualifying(self, c: Clause) -> list[TimeSpan]:
        """Spans that make a clause an event (今年/this year alone says nothing)."""
        ref_year = self.ref.astimezone(self.tz).year
        return [s for s in c.spans
                if not (s.granularity == "year" and s.start.astimezone(self.tz).year == ref_year)]

    def content(self, c: Clause) -> str:
        """The clause as a third-person statement with absolute times."""
        return clause_content(c, self.lang, self.tz)

    # -- stages
    def run(self, thread: Thread) -> list[Draft]:
        """Clause facts and relations, then events, then remember/correction adjustments."""
        drafts: list[Draft] = []
        prev: Clause | None = None
        recent: RecentRelation | None = thread.recent if thread.recent_lang == self.lang else None
        referent: Referent | None = None
        assign = assign_subject_zh if self.lang == "zh" else assign_subject_en
        about = asked_about(thread.assistant, self.lang) if thread.assistant else None
        if about and (change := change_of(self.text, self.lang)) is not None and change.cls in ("end", "marry"):
            about = None  # "阿杰最近怎么样？" → "别提他了 分了": a couple's end or wedding is the user's own
        for c in self.clauses:
            assign(c, prev, recent)
            if about and self._answers_about(c, prev):  # "萌萌是你朋友吗？" → "大学室友 在深圳做HR": 萌萌's
                c.subject, c.person = "other", about
            named, referent = referent_names(self, c, referent)
            asked = asks(c, self.text, self.lang)  # 我上周续签了吗？/ "did I say I like sushi?": asks, never tells
            c.question = c.question or asked
            found = named or recurring_dates(self, c) or ([] if asked else self.facts(c))
            if not found and self._continues(c, prev, drafts):
                prev = c
                continue
            c.consumed = bool(found) and not (named and self.qualifying(c))  # 去年养了只猫叫团子: an event too
            found += relations(self, c)
            if any(d.kind is Kind.RELATION and not d.template and (d.slot is None or "/" in d.slot.partition(":")[2])
                   for d in found):  # 她对海鲜过敏 (person:mother/allergy/海鲜) is said: no part of an event beside it
                c.consumed = True
            for d in found:
                d.source, d.source_at = d.source or mask_times(c.text, c.start, c.spans), c.start
            drafts += found
            recent = recent_relation(c, found, recent)
            prev = c
        thread.recent, thread.recent_lang = recent, self.lang
        ended = endings(self, {d.slot for d in drafts if d.slot})  # before events: 上周分手了 is an ending
        covered = {c.start for d in ended for c in self.clauses if c.sentence == self._sentence_at(d.source_at)}
        drafts = [d for d in drafts if d.slot is not None or d.kind is Kind.RELATION or d.source_at not in covered]
        drafts += ended
        drafts += events(self)
        told = {d.source_at for d in drafts if d.kind is Kind.EVENT}  # a change an event tells from its clause on
        drafts += [d for d in changes(self) if d.slot is not None or d.kind is not Kind.FACT or d.source_at not in told]
        drafts += new_job(self, drafts)
        drafts += new_role(self, drafts)
        self._now_after_change(drafts)
        self._habit_of_the_thing_before(drafts)
        drafts += self._standing(drafts)
        drafts = [d for d in remembered(self, merge_slots(drafts, self.lang))
                  if not points_elsewhere(d) and not asks_about_memory(d, self.text, self.remember_at)]
        if _ASKS_ANOTHERS_AGE.search(thread.assistant or ""):  # "孩子多大啦？" → "七岁": the child's age, not the user's
            drafts = [d for d in drafts if d.slot != "user/age"]
        return corrected(self, hedged(with_objects(drafts, self.lang), self.lang), thread)

    def _standing(self, drafts: list[Draft]) -> list[Draft]:
        """A lasting state no template knew (我在重庆住 / "I'm married to Grace"), in a sentence nothing came from."""
        told = {self._sentence_at(d.source_at) for d in drafts}
        out: list[Draft] = []
        for c in self.clauses:
            if c.sentence in told or c.consumed:
                continue
            for d in standing_facts(self, c):
                d.source, d.source_at = mask_times(c.text, c.start, c.spans), c.start
                out.append(d)
        return out

    def _now_after_change(self, drafts: list[Draft]) -> None:
        """A sentence opening with "now" (or an English one whose first clause ends with it: "valorant main now,
        silver 2") right after the user's change is its new state, kept with it: "我从一隅辞职了！现在自己在网上卖干花"
        → 用户从一隅辞职了，现在自己在网上卖干花 (nothing else is told of it)."""
        told = {self._sentence_at(d.source_at) for d in drafts}
        for d in drafts:
            at = self._sentence_at(d.source_at)
            if at < 0 or d.kind is Kind.EVENT or change_of(d.content, self.lang) is None:
                continue
            after = [c for c in self.clauses if c.sentence == at + 1]
            if (not after or at + 1 in told or after[0].subject != "self" or any(c.question for c in after)
                    or not (_NOW_LEAD.match(after[0].text.strip()) or _NOW_TAIL.search(re.split(r"[,;，]", after[0].text)[0]))):
                continue
            addition = third_person(" ".join(c.text.strip() for c in after).rstrip("。.!！~～"), self.lang)
            addition = addition[:1].lower() + addition[1:] if self.lang == "en" else addition
            if len(d.content) + len(addition) > MAX_CHARS:
                continue
            d.content += ("，" if self.lang == "zh" else ", ") + addition
            for c in after:
                c.consumed = True
            told.add(at + 1)

    def _habit_of_the_thing_before(self, drafts: list[Draft]) -> None:
        """A habit with nothing it is done with ("每周六上午上课", "每周日下午排练") right after the user's clause that
        brought in a thing and made no memory of it (我报了个日语班, 我加入了一个合唱团) is that thing's:
        用户报了个日语班，每周六上午上课."""
        if self.lang != "zh":
            return
        made = {d.source_at for d in drafts}
        for d in drafts:
            c = self._clause_at(d.source_at) if d.kind is Kind.BEHAVIOR else None
            if c is None or _names_something(mask_times(c.text, c.start, c.spans)):
                continue
            before = [x for x in self.clauses if x.sentence == c.sentence and x.end <= c.start]
            if (not before or before[-1].start in made or before[-1].subject != "self" or before[-1].consumed
                    or not brings_in_a_thing(before[-1].text) or before[-1].question):
                continue
            lead = third_person(tidy_zh(before[-1].text), "zh")
            lead = lead if lead.startswith("用户") else "用户" + lead  # 最近报了个游泳班: the user's, as its subject says
            if d.content.startswith("用户") and len(lead) + len(d.content) <= MAX_CHARS:
                d.content = lead + "，" + d.content[2:]
                before[-1].consumed = True

    def _clause_at(self, start: int) -> Clause | None:
        return next((c for c in self.clauses if c.start == start), None)

    def _sentence_at(self, start: int) -> int:
        return c.sentence if (c := self._clause_at(start)) is not None else -1

    def facts(self, c: Clause) -> list[Draft]:
        """What a clause says about the user: contacts, identity, reply style, preferences."""
        if c.subject == "other":
            if self.lang == "en" and _EN_IT_IS.match(c.body) and (mine := en_contact(c.text, self.text)):
                return mine  # "new number, ditched the old sim. it's +65 8127 4409 now": it is the user's number
            return named_person(self, c)  # 小明住在杭州: 小明's, never the user's
        if c.subject == "rel":
            return []
        drafts = (zh_contact(c.text) if self.lang == "zh" else en_contact(c.text, self.text))
        if c.subject == "self":
            drafts += self._identity(c)
        elif c.subject == "bot":  # 你以后叫我小王 / "please call me Ben"
            drafts += zh_call_me(c.text) if self.lang == "zh" else en_call_me(c.text)
        if not drafts:
            drafts += self._style(c)
        if c.subject == "self" and all((d.slot or "").startswith(("allergy/", "health/")) for d in drafts):
            # "i'm vegan, 2 yrs now, and allergic to sesame": a condition beside a preference, each kept
            said = {d.content for d in drafts}
            drafts += [d for d in self._preference(c) if d.content not in said
                       and not (drafts and re.search(r"(?i)allerg|过敏|intoleran|不耐", d.content))]
        return drafts

    def _answers_about(self, c: Clause, prev: Clause | None) -> bool:
        """Is ``c`` the first clause of a reply, with no subject of its own (not 我 / "I"), nor a yes or a no
        alone: then it answers the bot's question about someone, and is about them."""
        if c.subject != "self" or (prev is not None and (prev.subject != "self" or _said_something(prev, self.lang))):
            return False
        if self.lang == "zh":
            body = tidy_zh(c.text)
            return bool(body) and not ZH_SELF.match(body) and not body.startswith(("你", "您"))
        return not re.match(r"(?i)\s*(?:i|i'm|im|i've|ive|i'd|my|me|we|our|us|you)\b", c.text)

    def _age_of_what_came_before(self, c: Clause) -> bool:
        """Is ``c`` a bare age ("十四岁了") after a clause about someone or something else, whose age it is
        ("旺财昨天走了 十四岁", "我家那只黑色土狗 十二岁了")? "今年本命年 二十四岁了" stays the speaker's."""
        if "我" in c.text or "俺" in c.text:
            return False
        from jiyi.text.lexical import tagged

        for x in (x for x in self.clauses if x.sentence == c.sentence and x.start < c.start):
            words = tagged(tidy_zh(x.text)[:8])
            if (x.subject in ("rel", "other") or (words and words[0][1] == "PER") or "pet" in families_of(x.text, None, "zh")
                    or "它" in x.text):
                return True  # …or a pet's: "柴犬 两岁", "豆沙今早发现它一动不动了 两岁多"
        return False

    def _identity(self, c: Clause) -> list[Draft]:
        if self.lang != "zh":
            out = en_claim(c.text) or en_identity(c.text) + en_health(c.text) + en_study(c.text)
            if (m := _EN_NAME_THEN_TITLE.search(c.text)) and all(d.slot == "user/name" for d in out):
                rest = m.group("rest") if re.match(r"(?i)(?:an?|the)\s", m.group("rest")) else "a " + m.group("rest")
                out += en_identity("I'm " + rest)  # "I'm Mira, product designer at Brightleaf": her job too
        else:
            body = c.body
            sentence = "".join(x.text for x in self.clauses if x.sentence == c.sentence)
            out = zh_claim(body)  # 我是管理员: a statement by the speaker, never a role
            if not out and self._names_the_thing_before(c):
                return []  # 在一家奶茶店兼职 叫Tea Lagoon: the shop's name, not the user's
            if not out:
                age = zh_age(body)
                age = [] if age and (_a_childs_age(age[0], c.text) or self._age_of_what_came_before(c)) else age
                out = (zh_name(body) + age + zh_health(_before_to(body), sentence) + zh_residence(body) + zh_work(body)
                       + zh_study(body))
                out = out or zh_i_am_name(body)
        out = [theirs(d, c.text) if (d.slot or "").startswith("allergy/") and "对" in (d.slot or "") else d for d in out]
        timed = self.qualifying(c)
        for d in out:
            if timed and d.slot == "user/city":  # 下个月搬到杭州: true from then on
                d.valid_from = min(s.start for s in timed)
        return out

    def _names_the_thing_before(self, c: Clause) -> bool:
        """A subject-less 叫X after a clause that brought in a thing (一家店, 一只猫): X is that thing's name."""
        if not (c.inherited and _ZH_CALLED_LEAD.match(c.text.strip())):
            return False
        before = [x for x in self.clauses if x.sentence == c.sentence and x.end <= c.start]
        return bool(before) and (_ZH_A_THING.search(before[-1].text) is not None or brings_in_a_thing(before[-1].text))

    def _style(self, c: Clause) -> list[Draft]:
        if self.lang == "zh":
            slots = style_slots_zh(c.text)
            body = re.sub(r"^(?:你们|您|你|请你?|麻烦你?|以后|今后)+", "", tidy_zh(c.text))
            content = "用户要求助手" + third_person(body, "zh")
            return [fact(content, slot, "", kind=Kind.PREFERENCE, importance=0.7) for slot in slots]
        return [fact(text, slot, "", kind=Kind.PREFERENCE, importance=0.7) for slot, text in style_slots_en(c.text)]

    def _preference(self, c: Clause) -> list[Draft]:
        timed = self.qualifying(c)
        # 明天中午要去体检，不能吃早饭: a clause of a sentence about a near day is for that day too
        sentence = [x for x in self.clauses if x.sentence == c.sentence and x.start <= c.start]
        near = any(s.granularity in ("day", "daypart", "hour", "minute") for x in sentence for s in self.qualifying(x))
        if self.lang != "zh":
            diet = en_diet(c.text)
        else:
            diet = zh_diet(c.body, self.content(c), near)
        if diet and timed:  # 从今天开始戒咖啡 / I quit smoking 3 months ago
            diet[0].valid_from = min(s.start for s in timed)
        if diet:
            return diet
        if self.lang != "zh":
            return en_preference(c.text) or en_habit(c.text)
        content = self.content(c)
        return zh_like(c.body, content) or zh_habit(c.body, content)

    def _continues(self, c: Clause, prev: Clause | None, drafts: list[Draft]) -> bool:
        """Append a subject-less clause to the statement it continues (一般7点起，8点到图书馆…)."""
        last = drafts[-1] if drafts else None
        if (prev is None or last is None or not c.inherited or c.question or self.qualifying(c)
                or last.source_at != prev.start or last.template is not None
                or last.kind not in (Kind.PREFERENCE, Kind.BEHAVIOR, Kind.RELATION)
                or last.slot is not None and last.slot.startswith(("style/", "contact/"))):
            return False
        if len(last.content) > MAX_CHARS - 20 or _NEW_THOUGHT.match(c.text):  # 但是最近胃不好 is not more of 喜欢吃辣
            return False
        joiner = "，" if self.lang == "zh" else ", "
        addition = drop_subject(self.content(c)) if self.lang == "zh" else c.text.strip().rstrip(".!")
        last.content += joiner + addition
        last.source += " " + mask_times(c.text, c.start, c.spans)
        last.source_at = c.start
        c.consumed = True
        return True


#: "I'm Mira, product designer at Brightleaf": a title and its place set after the name
_EN_NAME_THEN_TITLE = re.compile(
    r"(?i:\bi'?m|\bi\s+am)\s+[A-Z][\w'-]+\s*,\s*(?P<rest>(?i:an?\s+|the\s+)?(?:[a-z]+\s+){0,2}?[a-z]+\s+(?i:at|for|with)\s+"
    r"[^.!?,;]+)")
#: the words that open a statement of how things stand now
_NOW_LEAD = re.compile(rf"{NOW_LEAD}|这会儿|(?i:i'?m\s+now\b)")
#: an English clause that ends with its "now": "valorant main now", "Bristol now", "fully remote now lol"
_NOW_TAIL = re.compile(r"(?i)\b(?:now|these\s+days|nowadays)(?:\s+(?:lol|lmao|haha|tho|though))?[\s.!~]*$")


def _before_to(body: str) -> str:
    """``body`` without the adverbs before its 对 (从小就对花生过敏 → 对花生过敏)."""
    m = _ZH_WITH_USER.match(body)
    return body[m.end():] if m and body[m.end():].startswith("对") else body


def theirs(d: Draft, clause: str) -> Draft:
    """``allergy/隔壁老王对花生`` (记住：隔壁老王对花生过敏) is 隔壁老王's allergy to 花生, never the user's."""
    who, allergen = (d.slot or "").removeprefix("allergy/").split("对", 1)
    owner = ("用户的" if ZH_SELF.match(tidy_zh(clause)) else "") + who
    return fact(f"{owner}对{allergen}过敏", f"person:{who}/allergy/{allergen}", allergen, kind=Kind.RELATION,
                importance=d.importance, confidence=d.confidence, visibility=d.visibility)
