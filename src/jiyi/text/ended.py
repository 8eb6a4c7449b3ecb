"""What a turn says it is done with, by the words it names: 奶茶我戒了 → 奶茶, "cancelled my peakform membership" → peakform.

A change class (:mod:`jiyi.text.topics`) knows what a move or a breakup changes; a name
(:mod:`jiyi.text.over`) knows which memory it ends. Most endings people type give neither: "轻断食不搞了",
"德语我不学了", "the paleo thing is over", "no more coffee for me". What they do give is the
thing's own word, beside a word of stopping, quitting, cancelling, selling or ending. The speaker's
earlier turns and memories that say that word told of what no longer holds (write/endings.py marks
them; a block shows them under its past heading, never drops them: the word is a weaker sign than
a slot or a name).

Guards, each by kind:

- the word of ending is one that ends a thing the speaker had or did (stop, sell, a couple's end,
  a job left, "cancelled", 退卡, 不续了…), not one that says someone passed an exam or left a room
  ("left", "passed", "broke", "split" alone are too many things);
- it is not negated (没戒, "didn't quit"), hedged (想戒, "thinking of quitting"), asked ("quit yet?"),
  long ago (小时候, "years ago"), or said of someone else (他不喝了, "my sister quit");
- what ended is a content word of the same clause (nouns by the lexical analyser in Chinese, a word of
  four letters or more in English), not a time word, a generic noun or the ending word itself.

Handing a thing on ends it too (那台朗逸我给我侄子了, 番薯现在归我表妹了, "pickles lives with my aunt now",
a pet that "passed on tuesday"); dialect grammar characters are read as Mandarin first
(:mod:`jiyi.text.dialect`: 车卖咗, 酒唔沾). An ending that only points (那玩意儿我戒了) names nothing here:
:func:`ends_unnamed` tells write/endings.py to take the thing the bot asked back about.
"""

from __future__ import annotations

import re
from functools import lru_cache

from jiyi.text.consumption import kinds_of
from jiyi.text.dialect import standard_zh
from jiyi.text.kinds import ACTIVITIES, DRINKS
from jiyi.text.kinds import alternation as alternation_of
from jiyi.text.over import ENDING_WORDS
from jiyi.text.qualifiers import goes_on, hedged, told_long_ago
from jiyi.text.relations import REL_EN, REL_ZH, REL_ZH_RE, alternation
from jiyi.text.topics import CLAUSE_CUT, ZH_CAR_OUT, Lex
from jiyi.text.verb_senses import degree_complement
from jiyi.text.wordlists import word_list, words

_P = re.compile
#: the metadata key of a turn or memory a later turn said is over: the ending turn's id
ENDED_KEY = "ended_by"
#: the metadata key of a turn that says something is over: the words of what it ends ("轻断食不搞了" → 轻断食)
OVER_KEY = "over"

#: 不…了 / 不再 / 没再: "no longer" by the grammar (轻断食不搞了, 德语不学了, 吉他不弹了), and an ending verb
#: after its fronted object (游泳卡我退了, 那台车卖掉了); 不行了 / 不错了 / 不用了 say nothing ended
_ZH_NO_LONGER = _P(r"不再|没再|不(?![行早错好对少多大小够知懂用会能可得了然过管是在太一想敢配像算见准怕让停要舒开高习合方满清简容安正同顺爽甘耐])"
                   r"[\u4e00-\u9fff](?:了|(?=[\u4e00-\u9fff]{1,4}?了(?:$|[\s，,。！!？?~～]|啊|呀|哈|啦)))|(?:退|停|卖|戒|扔|取消|注销|退订|卸)(?:掉)?了|(?:一滴|一口|一根|一点)都?不(?:沾|碰)(?!过)|"
                   r"(?<!从)都?不(?:沾|碰)(?=[^，,。！!？?\s]{0,6}?了)|(?:以后|往后|再也|从此)(?:就|都|也)?不用了?(?=$|[\s，,。！!～~]|啦|了)|"
                   r"(?<=[\u4e00-\u9fff])(?<![我你他她它您俺咱们就都也那这还先暂可时])不用了(?=$|[\s，,。！!～~])")  # 老人机不用了; 谢谢 不用了 names nothing  # 不碰碳水 alone avoids, 不碰了 stopped
#: words of ending too wide to name what ended by a bare word (each also means something else)
_EN_WIDE = _P(r"(?i)^(?:left|broke|split|returned|passed|failed|closed|gone|dropp(?:ed|ing)|fired|aced|signed\b.*|"
              r"selling|kicked|deleted|passed\s+away|put\s+down|rehomed|gave\s+away)$")
_NEVER = _P(r"(?!x)x")
#: who a thing the speaker had can go to: family, friends, neighbours, a buyer, a shelter
_ZH_TAKER = alternation([*REL_ZH, *word_list(
    "侄子 侄女 外甥 外甥女 表哥 表姐 表弟 表妹 堂哥 堂姐 堂弟 堂妹 亲戚 邻居 舅舅 舅妈 姑姑 姨妈 小姨 阿姨 叔叔 伯伯 婶婶 "
    "嫂子 姐夫 妹夫 爸妈 父母 家里人 别人 人家 新主人 买家 收养人 领养人 同学 发小")])
_EN_TAKER = alternation([*REL_EN, *word_list(
    "nephew niece cousin aunt uncle neighbor neighbour parents folks family friend friends coworker buyer "
    "shelter rescue someone somebody farm sister-in-law brother-in-law")])
#: a thing the speaker had handed on, its word before (那台朗逸我给我侄子了, 番薯现在归我表妹了, 车出了,
#: 让二手车贩子拉走的), or the verb's object after ("gave the car to my nephew")
_ZH_HANDED_ON = _P(rf"(?:送给|转给|让给|过户给|留给|交给|给)(?:了)?(?:我|俺|他|她)?(?:家)?(?:的)?(?:{_ZH_TAKER})"
                   r"(?:了|养了|养着了|那(?:儿|边|里)?了|家了)|"
                   rf"归(?:了)?(?:我|俺)?(?:的)?(?:{_ZH_TAKER})(?:了|管了)|{ZH_CAR_OUT}|过户(?:了|给)|"
                   r"(?:拉|收|骑|开|提|买|领|抱|牵|拖)走(?:了|的)|挂(?:咸鱼|闲鱼|二手)")
_EN_HANDED_ON = _P(rf"(?i)\bgave\s+(?=(?:\w+\s+){{1,3}}?to\s+(?:my|his|her|our|a|an|the|some)\s+(?:{_EN_TAKER})\b)|"
                   rf"\b(?:lives|living|stays|staying|is|'s)\s+(?:with|at)\s+(?:my|our)\s+(?:{_EN_TAKER})(?:'s)?"
                   r"(?:\s+place)?\s+now\b|"
                   rf"\b(?:went|goes|belongs)\s+to\s+(?:my|our)\s+(?:{_EN_TAKER})\b|"
                   rf"\bis\s+(?:my|our)\s+(?:{_EN_TAKER})'s\s+(?:problem\s+)?now\b|"
                   r"\bpassed\s+(?:on\s+)?(?:(?:mon|tues|wednes|thurs|fri|satur|sun)day|yesterday|last\s+(?:night|week)|"
                   r"this\s+(?:morning|week)|overnight|peacefully|in\s+(?:his|her|their)\s+sleep)\b")
#: not having touched a thing for a while is having stopped it: 十来天没碰了, 一个月没抽烟了, 好久没喝奶茶了,
#: "haven't had a drink in three weeks", "two months smoke-free" (a consumption, not a visit: 三天没去健身房 is no end)
_ZH_LAPSE = _P(r"(?:好久|很久|好长时间|好一阵子?|(?:快|差不多|将近|都)?[\d一二两三四五六七八九十几半]+(?:来|多)?个?(?:天|周|星期|礼拜|月|年))"
               r"(?:了)?(?:都|也|已经|就)?没(?:有|再)?(?:碰|抽|喝|沾|吃)过?")
_EN_LAPSE = _P(r"(?i)\b(?:haven'?t|have\s+not|hasn'?t)\s+(?:touched|smoked|vaped|drunk|drank|had|eaten)\b(?=.{0,40}?\b(?:in|for|since)"
               r"\s+(?:(?:a|an|two|three|four|five|six|\d+|few|several|couple(?:\s+of)?)\s+)?(?:days?|weeks?|months?|years?|ages"
               r"|a\s+while|forever|(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)\w*)\b)"
               r"|\b(?:\d+|two|three|four|five|six|ten)\s+(?:days?|weeks?|months?)\s+(?:sober|clean|smoke-?free|alcohol-?free)\b")
#: the last of a course done: 最后一次膝盖理疗做完了, 最后一节钢琴课上完了, "final physio session today, all done"
_ZH_LAST_DONE = _P(r"最后一(?:次|节|回|趟|期)(?=[^，。！？!?]{1,10}?(?:做完|上完|打完|结束|完成|完事)了?)")
_EN_LAST_DONE = _P(r"(?i)\b(?:last|final)\s+(?=(?:\w+\s+){0,2}(?:session|class|lesson|appointment|treatment)s?\b"
                   r"[^.!?]{0,30}\b(?:today|done|over|finished|complete)\b)")
#: fleeing a place, a job or a major (从土木成功跑路, 从大厂跑路了): what follows 从 is what was left
_ZH_FLED = _P(r"从(?=[\u4e00-\u9fffA-Za-z]{1,6}?(?:成功|终于|顺利)?跑路)")
#: an offer or a place turned down: "turned kettleby down", "turned down the offer from X", "declined the job"
_EN_TURNED_DOWN = _P(r"(?i)\bturned\s+(?=(?:the\s+|that\s+|their\s+)?[\w'-]+(?:\s+(?:offer|job|place|spot))?\s+down\b)"
                     r"|\bturned\s+down\b|\bdeclined\b")
#: every word of ending a turn is read for, in order
_ENDERS: tuple[Lex, ...] = (Lex(_ZH_FLED, _NEVER), *ENDING_WORDS, Lex(_ZH_NO_LONGER, _NEVER),
                            Lex(_ZH_HANDED_ON, _EN_HANDED_ON), Lex(_ZH_LAPSE, _EN_LAPSE), Lex(_ZH_LAST_DONE, _EN_LAST_DONE),
                            Lex(_NEVER, _EN_TURNED_DOWN), Lex(_NEVER, _P(r"(?i)\bdropping\b")))
_ZH_WIDE = _P(r"^(?:算了|离开|送给|删了|没了|告别|走人|换(?:了)?(?:个|份|一份)?(?:新)?工作(?:了|啦))$")  # (换工作了 ends no thing)
#: what follows a word of ending that makes it no ending: "sold out", "stopped by", "no more than"
_EN_NOT_AN_END = _P(r"(?i)^\s*(?:out|by|at|for|than|up|away|to\s+(?!\w+ing\b))\b")
#: after a Chinese word of ending: it could not be done (戒不了, 卖不掉)
_ZH_NOT_AN_END = _P(r"^(?:不了|不掉|不成|不动)")
#: a word of ending the clause denies: 没戒 / 不想戒 / "didn't quit", "never stopped"
_ZH_DENIED = _P(r"(?:没|没有|别|未|不想|不会|不能|不要|还没)$")
_EN_DENIED = _P(r"(?i)\b(?:not|never|n't|won't|can't|cannot|couldn't|don't|didn't|doesn't|wouldn't|to)\s+(?:\w+\s+)?$")
#: someone else is the subject of the clause before the word of ending
_ZH_OTHER = _P(r"(?:(?<![吉其])他|她|(?<!其)它|他们|她们|朋友|同事|室友|闺蜜|哥们|老公|老婆|男朋友|女朋友|对象|我妈|我爸|妈妈|爸爸|"
               r"我哥|我姐|我弟|我妹|哥哥|姐姐|弟弟|妹妹|儿子|女儿|老板|领导)")
_EN_OTHER = _P(r"(?i)\b(?:he|she|they|his|her|their|my\s+(?:\w+\s+)?(?:friend|sister|brother|mom|mum|mother|dad|"
               r"father|parents?|wife|husband|partner|boyfriend|girlfriend|roommate|flatmate|colleague|coworker|"
               r"boss|son|daughter|cousin|neighbou?r)s?)\b")
#: words of no thing in particular: times, quantities, generic nouns, chat fillers
_EN_GENERIC = words(
    "today tonight yesterday tomorrow week weeks month months year years days time times morning night evening "
    "afternoon weekend ago last next this that these those then just also really totally finally officially "
    "basically literally honestly actually anyway thing things stuff lol lmao haha like kind sort pretty very "
    "whole much many more most some every each other same good great fine okay done over with from into about "
    "after before since until because cause what when where which while still even only ever again here there "
    "user user's myself yourself them they their your mine ours being having doing going getting making "
    "want wanted need needed said told think thought know knew feel felt cold turkey for good anymore "
    "been went made hard once through soon anytime awesome amazing tough changed tried trying ages "
    "first second third other another new old next two three four five six seven eight nine ten couple few several "
    "down")
_ZH_GENERIC = words("玩意 玩意儿 时候 时间 事情 东西 问题 感觉 样子 地方 今天 昨天 明天 现在 以后 以前 之前 之后 最近 一下 "
                    "这个 那个 什么 自己 大家 用户 一直 已经 彻底 完全 终于 真的 其实 反正 今年 去年 明年 本来 开头 结尾 工作 上班")
#: who takes a thing away, not what is taken (二手车贩子收走的, 让中介拉走的)
_ZH_AGENT_NOUN = _P(r"(?:贩子|车商|中介|师傅|买家|收购商|回收站)$")
#: a thing one has, counted (那台宝来, 这辆老捷达): the word after the measure, up to the clause's next part
_ZH_COUNTED = _P(r"[那这](?:台|辆|部|只|条|头|匹|架|艘)(?:老|旧|破|二手)?(?P<t>[\u4e00-\u9fffA-Za-z0-9]{2,6}?)"
                 r"(?=[我你他她它让被给也都就已又还卖送归出跟了]|$|\s)")
#: a course or an exam by its code, with what one studies it from (408的书, 4级的真题)
_CODE_OF_STUDY = _P(r"(?:\d{3}|[A-Za-z]+\d*|\d级)的(?:书|课|题|真题|资料|卷子|笔记|网课|教材)")
#: Chinese chat cuts its clauses with spaces as often as with commas (德语我不学了 准备考公)
_ZH_CUT = _P(CLAUSE_CUT.pattern + r"|(?<=[\u4e00-\u9fff])\s+(?=[\u4e00-\u9fff])")
_SENTENCE_CUT = _P(r"[。.!！?？\n]")
#: how close (characters) the word must stand before and after the word of ending, in its clause
_BEFORE = {"zh": 12, "en": 20}
_AFTER = {"zh": 3, "en": 30}


def ended_terms(text: str, lang: str) -> tuple[str, ...]:
    """The words of the things ``text`` (a turn, in the speaker's own words) says are over, or (). A turn that
    mixes its languages ("so yeah 戒了可乐 as of today") is read in the other one too, for that one's words."""
    out = _terms(text, lang)
    if lang == "en" and _CJK_RUN.search(text):
        out += [t for t in _terms(text, "zh") if _CJK_RUN.search(t) and t not in out]
    return tuple(out)


_CJK_RUN = _P(r"[\u4e00-\u9fff]{2,}")


def _terms(text: str, lang: str) -> list[str]:
    out: list[str] = []
    for clause, m in _own_endings(text, lang):
        for term in (_content_words(clause, lang, m) or _activity_in(m) or _done_earlier(text, clause, m, lang)
                     or _named_before(text, clause, m, lang) or _topic_before(text, clause, m, lang)
                     or _weekday_left(clause, m, lang)):
            out.extend(t for t in (term, *_stem(term, lang)) if t not in out)
    return out


#: a sport or pastime named inside the words that give it up (不跑步了, 不去健身房了)
_ACTIVITY = _P(f"(?:{alternation_of(ACTIVITIES, 'zh')})")


def _activity_in(m: re.Match[str]) -> list[str]:
    """The sport or pastime the ending's own words name: 不跑步了 ends 跑步 (data/kinds.tsv)."""
    found = _ACTIVITY.search(m.group(0))
    return [found.group(0)] if found else []


#: a bare "no longer V" (不学了, 不去了, 不再练了): the verb, its object left out
_ZH_BARE_END = _P(r"^(?:不再|没再|不)(?P<v>[\u4e00-\u9fff])了?$")
_ZH_THING_TAGS = frozenset({"n", "nz", "vn", "ORG", "nw"})
#: what may stand between a fronted thing and its verb (尤克里里我已经学了), and between a verb and its
#: thing (学了四节尤克里里)
_ZH_BEFORE_VERB_TAGS = frozenset({"r", "d"})
_ZH_AFTER_VERB_TAGS = frozenset({"u", "m", "q", "TIME"})


#: a stop of consuming: 没碰 / 不喝了 / 戒了 / "quit" / "haven't touched"
_CONSUMING_STOP = _P(r"(?i)碰|喝|抽|吸|戒|沾|quit|touch|drink|drunk|smok|had")
#: what is eaten, drunk or smoked, by its word (data/kinds.tsv): the thing a stop said bare may end
_CONSUMED = {"zh": _P(f"(?:{alternation_of(DRINKS | {'smoking'}, 'zh')}|烟(?![花火台雾囱]))"),
             "en": _P(f"(?i:{alternation_of(DRINKS | {'smoking'}, 'en')})")}


def _named_before(text: str, clause: str, m: re.Match[str], lang: str) -> list[str]:
    """What a stop of consuming that names nothing ends when the turn named a thing to drink or smoke just before
    it: "那烟俺掐了 一个多礼拜没碰了" ends 烟 (the last such word in the clause before); "喝了杯咖啡 然后辞职了" ends
    no coffee."""
    if not _CONSUMING_STOP.search(m.group(0)):
        return []
    before = text[:max(0, text.rfind(clause))]
    last = CLAUSE_CUT.split(before.rstrip(" ，,。.!！"))[-1] if before.strip() else ""
    found = [m.group(0) for m in _CONSUMED.get(lang, _CONSUMED["en"]).finditer(last)]
    return [found[-1]] if found else []


#: a weekday a routine no longer keeps, right before a bare "no longer": 周二不练了, 礼拜三就不去了
_ZH_WEEKDAY_LEFT = _P(r"(?:每)?(?P<d>(?:周|星期|礼拜)[一二三四五六日天])(?:晚上|早上|上午|下午)?(?:就|也|都)?$")


def _weekday_left(clause: str, m: re.Match[str], lang: str) -> list[str]:
    """The weekday a routine leaves: "周二不练了" (after "以后每周二 周六晚上练") ends the Tuesdays, not the routine."""
    if lang != "zh" or not _ZH_BARE_END.match(m.group(0)):
        return []
    day = _ZH_WEEKDAY_LEFT.search(clause[:m.start()])
    return [day.group("d")] if day else []


#: a word of an outcome that turned the speaker down (its thing is over unless they try again)
_FAILED = _P(r"(?i)没过|没通过|被刷|被拒|落选|没录上|没被录取|didn'?t\s+get|rejected|turned|said\s+no")
_ZH_KIN = _P(REL_ZH_RE)
#: a clause's topic before what it says of it: "YY太卡", "健身房太远了", "那个网盘老是掉线"
_ZH_TOPIC = _P(r"^(?:那个|这个|那|这|我们的|我的)?(?P<t>[\u4e00-\u9fffA-Za-z0-9]{1,8}?)"
               r"(?:太|真|又|老是|总是|特别|有点儿?|超级?|巨|实在|越来越|也太|根本)")


def _topic_before(text: str, clause: str, m: re.Match[str], lang: str) -> list[str]:
    """What a bare Chinese ending (以后不用了, 不去了) is said of when its clause names nothing: the topic the
    clause before it is about ("YY太卡 以后不用了" ends YY; "健身房太远了 不去了" ends 健身房). A person, a
    time or a pronoun there ("老板太坑 不干了", "周末太忙 不去了") is none: only a thing or a name."""
    if lang != "zh" or not (_ZH_BARE_END.match(m.group(0)) or m.group(0).endswith(("不用", "不用了"))):
        return []
    before = text[:max(0, text.rfind(clause))].rstrip(" ，,。.!！")
    last = re.split(r"[\s，,。.!！?？；;]+", before)[-1] if before else ""
    topic = _ZH_TOPIC.match(last)
    if topic is None:
        return []
    from jiyi.text.lexical import entities

    word = topic.group("t")
    if word in _ZH_GENERIC or _ZH_OTHER.search(word) or _ZH_KIN.search(word) or (len(word) < 2 and not word.isascii()) \
            or any(word in found for tag in ("PER", "TIME") for found in entities(last).get(tag, ())):
        return []
    return [word]


def _done_earlier(text: str, clause: str, m: re.Match[str], lang: str) -> list[str]:
    """What a bare "不学了" ends, when the turn said the same verb with its thing before it: "尤克里里学了四节
    手指疼得要命 不学了" ends 尤克里里. The dropped object is the one that verb had in the same turn."""
    bare = _ZH_BARE_END.match(m.group(0)) if lang == "zh" else None
    if bare is None:
        return []
    from jiyi.text.lexical import tagged

    standard = standard_zh(text)
    tokens = list(tagged(standard[:max(0, standard.rfind(clause))]))
    verb = next((i for i in range(len(tokens) - 1, -1, -1)
                 if tokens[i][1] == "v" and tokens[i][0].startswith(bare.group("v"))), None)
    if verb is None:
        return []
    for step, between in ((-1, _ZH_BEFORE_VERB_TAGS), (1, _ZH_AFTER_VERB_TAGS)):
        j = verb + step
        while 0 <= j < len(tokens) and tokens[j][1] in between:
            j += step
        thing: list[str] = []
        while 0 <= j < len(tokens) and tokens[j][1] in _ZH_THING_TAGS:
            thing.append(tokens[j][0])
            j += step
        word = "".join(reversed(thing) if step == -1 else thing)
        if len(word) >= 2 and word not in _ZH_GENERIC:
            return [word]
    return []


#: the place, pass or class of an activity, after its name: 游泳馆 / 健身卡 / 瑜伽课 / 篮球场 / 舞蹈班
_ZH_ACTIVITY_THING = _P(r"^(?P<a>[\u4e00-\u9fff]{2,4})(?:馆|卡|课|班|场|池|房|社|队|团|店|铺)$")


def _stem(term: str, lang: str) -> tuple[str, ...]:
    """The activity a Chinese compound is of (游泳馆的年卡我转给同事了 ends 游泳 too), or ()."""
    m = _ZH_ACTIVITY_THING.match(term) if lang == "zh" else None
    return (m.group("a"),) if m and m.group("a") not in _ZH_GENERIC else ()


#: what stands for a thing already talked about: 那玩意儿我断了, "gave it up", "quit that stuff"
_ZH_POINTER = _P(r"(?:那|这)(?:种|些|样)?(?:玩意儿?|东西|个)|它")
_EN_POINTER = _P(r"(?i)\b(?:it|that(?:\s+stuff|\s+thing)?|those)\b")
#: the letters any English pointing word is made of, wherever they stand (a cheap test before the endings are read)
_EN_POINTER_LETTERS = _P(r"(?i)it|that|those")


def ends_unnamed(text: str, lang: str) -> bool:
    """Does ``text`` end something it points at without naming it (那玩意儿我断了, "i quit it last month")? What
    it is the conversation says: the bot asking back "您是说奶茶吗？" and the speaker saying yes."""
    return pointer_of_ending(text, lang) is not None


def pointer_of_ending(text: str, lang: str) -> tuple[int, int] | None:
    """Where in ``text`` the word stands that an unnamed ending points with (那玩意儿 in 那玩意儿我断了, "it" in
    "i quit it last month"), or None when no ending of the speaker's points without naming."""
    if not (_ZH_POINTER.search(text) if lang == "zh" else _EN_POINTER_LETTERS.search(text)):
        return None  # (no pointing word anywhere: the endings need not be read, on every message of every batch)
    for clause, m in _own_endings(text, lang):
        if _content_words(clause, lang, m):
            continue
        at = max(0, text.find(clause))
        if lang == "zh":
            start = max(0, m.start() - _BEFORE["zh"])
            if p := _ZH_POINTER.search(clause[start:m.start()]):
                return at + start + p.start(), at + start + p.end()
        elif lang == "en":
            start = m.end() if not _after_the_thing(m) else 0
            if p := _EN_POINTER.search(clause[start:m.end() + 16] if not _after_the_thing(m) else clause[:m.start()]):
                return at + start + p.start(), at + start + p.end()
    return None


#: a thing named first, then the one who took it away: 芝麻糊让我表姐接走了 / 豆豆被邻居领走了
_ZH_TAKEN_BY = _P(r"^(?:那个|那只|那台|那辆|我家|我的)?(?P<t>[\u4e00-\u9fffA-Za-z0-9]{2,6}?)(?:只能|只好|已经|也|都|先|就)*"
                  r"(?:让|被|给|叫)")


def lost_names(text: str, lang: str) -> tuple[str, ...]:
    """The name of what a Chinese clause says was lost or taken away, said first ("芝麻糊只能先让我表姐接走了" →
    芝麻糊): a name no lexicon holds, so :func:`ended_terms` does not find it by the words of ending."""
    if lang != "zh":
        return ()
    from jiyi.text.topics import change_of

    out = []
    for clause in _ZH_CUT.split(standard_zh(text)):
        m = _ZH_TAKEN_BY.match(clause)  # (the cheap test first: this runs for every turn with no ending word)
        if m is None or (change := change_of(clause, lang)) is None or change.cls not in ("lose", "sell") \
                or _anothers(clause, lang):
            continue
        if m.group("t") not in _ZH_GENERIC and not re.search(r"[我你他她它们]", m.group("t")):
            out.append(m.group("t"))
    return tuple(dict.fromkeys(out))


#: a doctor's order to stop: 医生叫我别跑了 / 大夫不让我喝酒了 / 医嘱说不能再吃辣 (the habit is what is forbidden)
_ZH_FORBIDDEN = _P(r"(?:医生|大夫|医嘱)[^。！？!?\n]{0,16}?(?:让|叫|要|说)?(?:我)?(?:别|不要|不能|不许|不让|禁止)(?:我)?(?:再)?"
                   r"(?!担心|着急|紧张|害怕|焦虑|多想|乱想|慌)(?P<v>[\u4e00-\u9fff]{1,3}?)(?:了|啦)?(?=$|[，,。！!？?\s])")


def forbidden(text: str, lang: str) -> tuple[str, ...]:
    """What a doctor told the speaker to stop ("医生叫我别跑了" → 跑): the speaker's habit of it is over."""
    if lang != "zh":
        return ()
    return tuple(dict.fromkeys(m.group("v") for sentence in _SENTENCE_CUT.split(standard_zh(text))
                               if (m := _ZH_FORBIDDEN.search(sentence)) and not hedged(sentence, lang)))


#: the speaker turning a change down and keeping what they had: 那边我不去了 还是留在现在这家 / offer拒了 /
#: "turned the offer down", "decided to stay", "the move fell through"
_DECLINES = _P(r"(?:还是|继续)(?:留在|待在|呆在|在)(?:现在|原来|这|老)|不去了|不走了|不搬了|(?:offer|录取)\S{0,2}(?:拒|推)了|"
               r"拒了|推掉了|没去成|(?i:\bturned\s+(?:it|them|\w+)?\s*down\b|\bturned\s+down\b|\bdeclined\b|"
               r"\bdecided\s+to\s+stay\b|\bstaying\s+(?:put|where\s+i\s+am|at\s+my)\b|\bfell\s+through\b|"
               r"\bnot\s+(?:taking|going\s+to\s+take)\s+(?:it|the\s+(?:offer|job))\b)")


def declines(text: str) -> bool:
    """Does ``text`` turn a change down ("青檬那边我不去了 还是留在现在这家", "turned the offer down")? What
    the change replaced then holds again (write/ingest.py)."""
    return _DECLINES.search(text) is not None


def ends_something(text: str, lang: str) -> bool:
    """Does ``text`` tell the speaker's own ending of anything, named or not ("对 十来天没碰了")?"""
    return bool(_own_endings(text, lang))


def ends_bare(text: str, lang: str) -> bool:
    """Does ``text`` tell an ending of the speaker's that names nothing at all ("三个月没碰了", "quit last month"):
    the thing is what the conversation was about (write/endings.py: the bot's question just before)."""
    return any(not (_content_words(clause, lang, m) or _activity_in(m)) for clause, m in _own_endings(text, lang))


def named_in(text: str, lang: str) -> tuple[str, ...]:
    """The things a short sentence names (您是说奶茶吗？ → 奶茶; "you mean the gym?" → gym): nouns by the lexical
    analyser in Chinese, words of four letters or more in English, neither a generic word."""
    if lang == "zh":
        from jiyi.text.lexical import tagged

        return tuple(dict.fromkeys(w for w, t in tagged(text) if t in ("n", "nz", "ORG", "vn", "nw")
                                   and (len(w) >= 2 or t == "n")  # 您是说烟吗: asked back, one character names it
                                   and w not in _ZH_GENERIC and "用户" not in w))
    return tuple(dict.fromkeys(w.lower() for w in re.findall(r"[A-Za-z][A-Za-z']{3,}", text)
                               if w.lower() not in _EN_GENERIC and w.lower() not in _EN_ASKING))


#: the words of asking back, no thing asked about
_EN_ASKING = words("mean meaning talking saying about sure quite exactly")


@lru_cache(maxsize=1024)
def _own_endings(text: str, lang: str) -> tuple[tuple[str, re.Match[str]], ...]:
    """(clause, the word of ending in it) for each clause of ``text`` that tells the speaker's own ending:
    not denied, hedged, long ago, nor said of someone else. Cached: write/endings.py asks a turn what it ends,
    whether it ends something, something unnamed or nothing named (four reads of one text)."""
    out = []
    if lang == "zh":
        text = standard_zh(text)  # 车卖咗, 酒我唔沾: the dialect's grammar words as Mandarin
    for clause, start, m in _endings(text, lang):
        sentence = _SENTENCE_CUT.split(text[:start])[-1] + clause[:m.start()]
        if _denied(clause[:m.start()], lang) or _anothers(sentence, lang) or (
                lang == "en" and _named_subject(clause[:m.start()], m)):
            continue
        if hedged(clause, lang) or told_long_ago(clause, lang) or (_FAILED.search(m.group(0)) and goes_on(text, lang)):
            continue  # (雅思没过 还得再考: one attempt failed, the preparation goes on)
        out.append((clause, m))
    return tuple(out)


#: a word too wide alone that ends what it is said of when that is a diet or a thing consumed ("dropping keto",
#: "dropped the energy drinks"; "dropped my phone" ends nothing)
_EN_DROPS = _P(r"(?i)^dropp")
#: how far after the word the diet or the thing consumed is looked for, and where its object ends
_DROPPED_SPAN = 30
_OBJECT_END = _P(r"(?i)\b(?:at|to|off|then|and|for|in|on|with|from)\b|[,.;!?]")


def _drops_a_habit(clause: str, m: re.Match[str], lang: str) -> bool:
    if lang != "en" or not _EN_DROPS.match(m.group(0).strip()):
        return False
    after = _OBJECT_END.split(clause[m.end():m.end() + _DROPPED_SPAN], maxsplit=1)[0]  # its object, not the errand
    from jiyi.text.topics import cue_of

    return cue_of("diet", after, lang) or bool(kinds_of(after))


def _endings(text: str, lang: str) -> list[tuple[str, int, re.Match[str]]]:
    """(clause, its start, the word of ending in it) for each clause of ``text`` that has one."""
    found = []
    start = 0
    for cut in [*(CLAUSE_CUT if lang == "en" else _ZH_CUT).finditer(text), None]:
        end = cut.start() if cut else len(text)
        clause = text[start:end]
        for lex in _ENDERS:
            m = lex.search(clause, lang)
            if m is None or ((_EN_WIDE if lang == "en" else _ZH_WIDE).match(m.group(0).strip())
                             and not _drops_a_habit(clause, m, lang)):
                continue
            if (_EN_NOT_AN_END if lang == "en" else _ZH_NOT_AN_END).match(clause[m.end():]):
                continue
            if cut is not None and cut.group(0) in "?？":
                break  # asked, not told
            if lang == "zh" and degree_complement(clause, m):
                continue  # 累死了: very tired, nothing ended
            found.append((clause, start, m))
            break
        start = cut.end() if cut else len(text)
    return found


#: English words of ending that follow what ended ("the keto thing is over", "not doing that anymore");
#: the others have their object after them, and what stands before them is their subject
_EN_AFTER_THE_THING = _P(r"(?i)^(?:(?:is|was|'s)\s+(?:over|finished|done)|\w+\s+(?:is|was|'s)\s+dead|anymore|didn'?t\s+last|ended|passed\b.*|"
                         r"(?:lives|living|stays|staying|is|'s)\s+(?:with|at)\b.*|(?:went|goes|belongs)\s+to\b.*|"
                         r"is\s+\w+\s+\w+'s\b.*|(?:'s|has)\s+(?:gotta|got\s+to)\s+go|(?:was|is)n'?t\s+(?:really\s+)?for\s+me)$")
#: where the object of an English word of ending is over: a time, a reason, another clause
_EN_OBJECT_ENDS = _P(r"(?i)\b(?:after|before|because|since|cause|cuz|until|till|when|while|so|but|to|and\s+(?:then|now)|"
                     r"due\s+to|thanks\s+to)\b")
#: the speaker as what an ending is done to, right after its word ("dumped me", "fired me")
_EN_TO_ME = _P(r"(?i)^\s+me\b")
#: what may stand right before a word of ending whose subject is the speaker, said or left out
_EN_OWN_LEAD = words("i we i've we've i'm we're i'd just finally also officially totally already so and then have "
                     "has had basically pretty completely fully now today yesterday recently lol ok okay well yeah "
                     "btw anyway actually honestly literally kinda sorta")


def _after_the_thing(m: re.Match[str]) -> bool:
    """Does what ended stand before the word of ending: "the paleo thing is over", or the agent of an ending
    done to the speaker ("brindle let me go", "the gym kicked me out")?"""
    return bool(_EN_AFTER_THE_THING.match(m.group(0).strip()) or _EN_TO_ME.match(m.string[m.end():])
                or re.search(r"(?i)\bme\b", m.group(0)))


def _named_subject(before: str, m: re.Match[str]) -> bool:
    """Does a word other than the speaker stand as the subject right before the word of ending ("nate dumped
    all his old clothes", "tyler's sister broke up")? Not for a word that follows what ended."""
    if _after_the_thing(m):
        return False
    last = re.findall(r"[A-Za-z][A-Za-z']*", before)
    return bool(last) and last[-1].lower() not in _EN_OWN_LEAD


def _denied(before: str, lang: str) -> bool:
    return bool((_ZH_DENIED if lang == "zh" else _EN_DENIED).search(before))


def _anothers(before: str, lang: str) -> bool:
    return bool((_ZH_OTHER if lang == "zh" else _EN_OTHER).search(before))


def _content_words(clause: str, lang: str, m: re.Match[str]) -> list[str]:
    """The content words of ``clause`` near its word of ending ``m``, not inside it."""
    after = 0 if lang == "zh" and m.group(0).endswith("了") else _AFTER[lang]  # 不聊了去背政治: 政治 is another verb's
    lo, hi = max(0, m.start() - _BEFORE[lang]), m.end() + after
    if lang == "zh":
        from jiyi.text.lexical import tagged

        out, at = [], 0
        for counted in _ZH_COUNTED.finditer(clause):  # 那台宝来, 那辆解放: a thing counted, however it is tagged
            if lo <= counted.start("t") < hi and not (m.start() <= counted.start("t") < m.end()):
                out.append(counted.group("t"))
        for word, tag in tagged(clause):
            begin = clause.find(word, at)
            at = begin + len(word) if begin >= 0 else at
            if m.start() <= begin < m.end() < begin + len(word):  # 戒咖啡 as one word: 咖啡
                word, begin, tag = word[m.end() - begin:], m.end(), "n"
            topic = (tag == "v" and m.group(0)[0] in "不没" and 0 <= m.start() - (begin + len(word)) <= 2)  # 断食不搞了
            topic = topic or (tag == "m" and _CODE_OF_STUDY.match(clause, begin) is not None)  # 408的书: a course's code
            topic = topic or (m.group(0).startswith(("这事", "这个事", "的事")) and begin + len(word) == m.start())  # 夜跑这事拉倒
            if ((tag in ("n", "nz", "ORG", "LOC", "PER", "vn", "nw") or topic) and (len(word) >= 2 or kinds_of(word))
                    and not _ZH_AGENT_NOUN.search(word) and word not in out
                    and word not in _ZH_GENERIC and "用户" not in word and lo <= begin < hi
                    and not (m.start() <= begin < m.end())):
                out.append(word)
        return out
    out = []
    if not _after_the_thing(m):
        lo = m.end()  # "quit my job at brindle": the object follows the verb
        if cut := _EN_OBJECT_ENDS.search(clause, m.end()):
            hi = min(hi, cut.start())  # "gave up climbing after the shoulder thing": why, not what
    first = True
    # "the fish-only thing": fish; a name of letters and digits too ("my F45 membership": F45)
    for w in re.finditer(r"[A-Za-z][A-Za-z']{3,}|\b(?=[A-Za-z]*\d)(?=\d*[A-Za-z])[A-Za-z\d]{2,8}\b", clause):
        if not lo <= w.start() < hi or m.start() <= w.start() < m.end():
            continue
        word = w.group(0)[:max(0, m.start() - w.start())] if w.start() < m.start() < w.end() else w.group(0)
        word = word.lower()  # ("the soda's gotta go": the word before the ending's own 's)
        gerund = first and lo == m.end() and word.endswith("ing")  # "gave up climbing": the activity
        first = False
        if word.endswith("'s") or (len(word) < 4 and word.isalpha()):
            continue  # "tyler's sister": whose, not what
        if (word not in _EN_GENERIC and (not word.endswith(("ly", "ing")) or gerund or kinds_of(word))
                and not _EN_WIDE.match(word)):
            out.append(word)
    return out


__all__ = ["ENDED_KEY", "OVER_KEY", "ended_terms", "ends_unnamed", "named_in"]
