"""Turns that carry nothing for a prompt: small talk and the bot's pleasantries.

The write path stores small-talk turns with importance ≤ 0.1 (and skips the plainest);
stores written before that, and the bot's courtesies ("你好！有什么可以帮你？", "很高兴认识
你，小明！", "恭喜乔迁！", "Glad to help!"), are caught here when the block is built. A turn
is noise when every clause of it is small talk (:func:`jiyi.text.smalltalk.is_smalltalk`)
or a courtesy formula; the bot's own clauses also count as noise when they are too short
to state anything (a few characters of praise, "杭州很美"). :func:`says_little` finds a
user's turns with almost no content ("饿了", "睡了 晚安", "brb dinner"), which the block
drops when nothing was made from them; :func:`asks_about_bot` tells when the bot's own
turns are wanted at all.
"""

from __future__ import annotations

import re

from jiyi.text.relations import REL_ZH_RE
from jiyi.text.script import simplified
from jiyi.text.smalltalk import is_chatter, is_relayed_greeting, is_smalltalk
from jiyi.text.wordlists import words

_CLAUSES = re.compile(r"[，,。.！!？?；;：:~～…\n]+|(?<=[\u3400-\u9fff])\s+|\s+(?=[\u3400-\u9fff])")
_COURTESY = re.compile(
    r"^(?:"
    # Chinese: greetings, offers to help, congratulations, wishes, thanks, praise
    r"(?:你好|您好|嗨|哈喽)\S{0,3}|有什么(?:可以|能|需要)?(?:帮|帮助|为)\S*|(?:请问)?(?:还)?有什么(?:事|需要|问题)\S*"
    r"|很高兴(?:认识|见到|为|帮|和)\S*|(?:恭喜|祝贺|祝你|祝您|祝)\S*|(?:谢谢|感谢|多谢)\S*|不客气\S*|不用谢\S*"
    r"|(?:加油|棒棒哒|真棒|太棒了|好厉害|真厉害|好的呢|好嘞|没问题|随时\S*|欢迎\S*|希望\S*(?:愉快|开心|顺利)\S*)"
    r"|(?:听起来|看起来)(?:不错|很棒|很好|很有意思|真好)\S{0,3}|哈+\S{0,3}|嘿嘿\S{0,3}"
    # English
    r"|(?:hi|hello|hey)\b(?:\s+\S+){0,1}|(?:how|what) can i (?:help|do)\b(?:\s+\S+){0,5}|(?:is there )?anything else\b(?:\s+\S+){0,5}"
    r"|(?:nice|glad|great|happy) to (?:meet|see|hear|help)\b(?:\s+\S+){0,5}|congrat\w*\b(?:\s+\S+){0,5}|(?:thank|thanks)\b(?:\s+\S+){0,5}"
    r"|you'?re welcome\b(?:\s+\S+){0,5}|(?:have|enjoy) (?:a|your) (?:nice|good|great|lovely)\b(?:\s+\S+){0,5}|good luck\b(?:\s+\S+){0,5}"
    r"|sounds (?:great|good|fun|lovely|nice)\b(?:\s+\S+){0,5}|that(?:'?s| is) (?:great|awesome|wonderful|nice|cool|amazing|exciting)\b(?:\s+\S+){0,5}"
    r"|(?:i'?m )?(?:always )?here (?:to help|for you)\b(?:\s+\S+){0,5}|no problem\b(?:\s+\S+){0,5}|my pleasure\b(?:\s+\S+){0,5}"
    r")$",
    re.IGNORECASE,
)
#: A clause that only points at something said to be remembered ("请记住这一点", "非常重要", "remember that!").
_POINTER_REQUEST = re.compile(
    r"^(?:(?:请|麻烦)?你?(?:一定|务必|千万)?要?(?:记住|记得|记下|记好|记牢|别忘了?|不要忘了?)(?:这|那)?(?:一点|点|个|件事|条|些|句话?|段话?|几句)?"
    r"|(?:这|那)?(?:一点|点|个|件事)?(?:真的|非常|很|特别|超级|十分|极其)?重要(?:的)?)(?:哦|啊|呀|哈|啦|了|嗷)*$"
    r"|^(?:(?:oh|and|also|btw|so|ok|okay|hey|like)\s+)*(?:please\s+|pls\s+)?(?:remember|don't\s+forget|note)\s+(?:this|that|it)"
    r"(?:\s+(?:please|pls|ok|okay|k))?$"
    r"|^(?:(?:this|that|it)(?:'s|\s+is)\s+)?(?:really\s+|very\s+|super\s+|so\s+)?important$",
    re.IGNORECASE)
_CJK = re.compile(r"[\u3400-\u9fff]")
_WORD = re.compile(r"[A-Za-z0-9]+")
#: Laughter and interjections inside a clause ("没有啦哈哈", "就那样吧嘿嘿") carry nothing.
_FILLER = re.compile(r"[哈嘿呵嘻啦嘛呗嗯哎唉噢喔哇呃额]+")
ZH_STOP = frozenset("我你他她它的了是在吗呢吧啊哦呀也都就和与跟要会把被着过这那个们用户说")
EN_STOP = words("""
the and for with that this have has had was were are you your user users i'm im my me mine our we its it's not
but just very really also then than there here what when from into about will would can could should been being
some any all like
""")
#: A user's turn with fewer content words than this, nothing made from it and no number, says nothing.
MIN_CONTENT = 3
#: a word for someone of the speaker's (爸, 室友, 老板…): a turn that names one is news of someone
_KIN = re.compile(REL_ZH_RE)
#: …and a Chinese turn of a group chat with fewer content characters than this: two words at most, a reaction to
#: another member ("卧槽大佬", "事儿真多", "腿已废"), whose news, if it had any, was made into a memory
MIN_GROUP_ZH = 5
#: The query asks about what the bot itself said (then its turns may fill the block).
_ASKS_BOT = re.compile(
    r"(?<![跟和对给同向])你(?:之前|上次|刚才|那天|以前)?(?:说|讲|推荐|建议|提到|答应|告诉|给我)|"  # 我跟你说过: the user said
    r"(?:后来|当时|之前|上次|那次|那天|上回)(?:是)?(?:说|讲)(?:过|的)?(?:要|是|该)?(?:怎么|咋|如何|怎样|啥|什么)|"  # 后来说要怎么查来着: the advice given
    r"\bwhat\s+(?:was|were)\s+(?:the|your)\s+(?:fix|advice|suggestion|tip|steps?)\b|"
    r"\byou (?:said|told|recommended|suggested|promised|mentioned|gave)\b|\bdid you (?:say|tell|recommend|suggest)\b",
    re.IGNORECASE)
#: A clause of the bot's shorter than this (CJK characters, or words) states nothing on its own.
SHORT_CJK, SHORT_WORDS = 6, 3


def asks_about_bot(query: str) -> bool:
    """Does ``query`` ask what the bot itself said ("你上次推荐的书", "what did you suggest")?"""
    return _ASKS_BOT.search(query) is not None


def content_units(text: str) -> int:
    """Content characters (Chinese) and words (other scripts) outside small-talk and courtesy clauses."""
    n = 0
    for clause in _CLAUSES.split(text):
        clause = clause.strip()
        if not clause or is_smalltalk(clause) or _COURTESY.match(clause):
            continue
        n += sum(1 for ch in _CJK.findall(_FILLER.sub("", clause)) if ch not in ZH_STOP)
        n += sum(1 for w in _WORD.findall(clause.lower()) if len(w) > 1 and w not in EN_STOP and not is_smalltalk(w))
    return n


def says_little(text: str, *, group: bool = False) -> bool:
    """Fewer than :data:`MIN_CONTENT` content words (in a ``group`` chat, :data:`MIN_GROUP_ZH` characters of
    Chinese) and no number ("饿了", "睡了 晚安", "works for me"; "事儿真多" in a group),
    a Chinese turn that names nothing (:func:`names_nothing`: "不知道诶", "还好有你陪我唠"), one
    that only tells the moment (:func:`momentary`: "刷抖音去了", "28 degrees in nov, mad"), or one that
    only remarks on the bot (:func:`remarks_on_bot`: "你贼逗 跟我妈一样"). Traditional characters are read as
    simplified (text/script.py)."""
    text = simplified(text)
    if momentary(text) or noncommittal(text) or remarks_on_bot(text) or _reacts_only(text):
        return True
    if re.search(r"\d", text):
        return False
    units = content_units(text)
    least = MIN_GROUP_ZH if group and _CJK.search(text) and not _WORD.search(text) and not _KIN.search(text) \
        else MIN_CONTENT  # (爸就是不听劝: a word of the family is news of someone)
    return units < least or names_nothing(text)


#: a clause that says how the bot is: 你贼逗 / 你比我还细心 / 您太客气了 / "you're hilarious" / "ur the best"
_AT_BOT_ZH = re.compile(r"^(?![^吗么？?]*[吗么？?])(?:你|您)(?:也|还|真的?|太|好|贼|超|挺|蛮|可|最|有点|比我还?)*"
                        r"(?!帮|给|记|说|讲|推荐|提醒|告诉|能|可以|觉得|看|知道|还记得|会不会|要|去|在|是不是|有没有|记得|别|不要|先|再)"
                        r"[\u4e00-\u9fff]{1,4}(?:了|啊|呀|哈|啦|哦|呢|嘛|诶|耶|吧)*$")
_AT_BOT_EN = re.compile(r"(?i)^(?:lol\s+|haha\s+|omg\s+)?(?:you(?:'re|\s+are)?|ur|u\s+r)\s+(?:so\s+|such\s+a\s+|the\s+|really\s+|"
                        r"too\s+|a\s+)*(?:funny|hilarious|sweet|smart|cute|kind|the\s+best|best|great|awesome|amazing|"
                        r"lifesaver|legend|genius|goat|adorable|silly|weird|dramatic|nosy|extra)(?:\s+lol|\s+haha)?$")
#: a comparison that finishes such a remark: 跟我妈一样 / 像个老师似的
_LIKE = re.compile(r"^(?:跟|和|像)[\u4e00-\u9fff]{1,6}(?:一样|似的)(?:的)?(?:啊|呀|哈)*$")


def remarks_on_bot(text: str) -> bool:
    """Does every clause of ``text`` with content only say how the bot is ("嗯嗯 哈哈哈 你比我还细心", "lol ur the
    best")? Nothing of the user's own is in it."""
    parts = [p.strip() for p in _CLAUSES.split(text) if p.strip()]
    kept = [p for p in parts if not _only_reacts(p)]
    return bool(kept) and any(_AT_BOT_ZH.match(p) or _AT_BOT_EN.match(p) for p in kept) and all(
        _AT_BOT_ZH.match(p) or _AT_BOT_EN.match(p) or _LIKE.match(p) for p in kept)


#: A clause that only tells what the moment is like or what the speaker goes off to do now: the
#: weather ("降温了", "28 degrees in nov"), going off ("刷抖音去了", "等会 吃饭", "brb", "off to bed").
_MOMENT_ZH = re.compile(
    r"^(?:我|俺)?(?:先|这就|马上|得|要|准备)?(?:去|滚去)?(?![回到])[\u4e00-\u9fff]{1,5}去(?:了|啦|咯)?$"
    r"|^(?:我|俺)?(?:先|这就|马上)(?:去)?[\u4e00-\u9fff]{1,4}了$"
    r"|^(?:等会儿?|等下|一会儿?|待会儿?|马上)(?:去|要|得)?[\u4e00-\u9fff]{1,4}$"
    r"|^(?:今天|今儿个?|外面|这边|最近|这几天)?(?:天儿?|天气)?(?:好|太|真|巨|超|贼|老|挺|可|有点)?(?:冷|热|晒|闷|潮)"
    r"(?:死了|了|啊|爆了)?$"
    r"|^(?:[\u4e00-\u9fff]{0,4})?(?:降温|升温|下雨|下雪|刮风|起雾|出太阳)了?$|^(?:零下|零上)?[\d一二三四五六七八九十两]+度$"
    # how the speaker feels right now, and nothing else: 开心到转圈, 气死我了, 困得不行, 好无聊啊
    r"|^(?:就是|只是)?(?:刚|刚刚)?刷到(?:了)?(?:个|一个|条|一条)?(?:视频|帖子|新闻|段子)$"  # 刷到个视频: what caught the eye now
    r"|^(?:我|俺)?(?:就是|只是|今天|现在|真的|真|好|太|超|超级|巨|贼|有点|有些|蛮|挺)*(?:开心|高兴|难过|伤心|生气|郁闷|烦躁|烦|累|困|饿|"
    r"无聊|崩溃|激动|紧张|焦虑|感动|爽|难受|委屈|心累|好奇|emo|气)(?:死(?:我)?了?|坏了|极了|透了|爆了|炸了|疯了|哭了|到[\u4e00-\u9fff]{1,4}"
    r"|得[\u4e00-\u9fff]{1,4})?(?:的|了|啊|呀|哈|啦|呢)*$")
_MOMENT_EN = re.compile(
    r"(?i)^(?:brb|gtg|g2g|bbl|afk|ttyl)(?:\s+\w+)?$"
    # how the speaker feels right now, and nothing else ("so tired rn", "i'm bored af")
    r"|^(?:(?:i'?m|im|i\s+am|feeling|ugh|so|sooo+|really|super|kinda|lowkey)\s+)*(?:happy|sad|tired|exhausted|bored|"
    r"stressed|angry|mad|annoyed|sleepy|hungry|starving|cranky|grumpy|dead\s+tired)(?:\s+(?:af|rn|lol|today|tonight|"
    r"now|lmao))*$"
    r"|^(?:ok(?:ay)?\s+)?(?:gotta|gonna|going\s+to|off\s+to|heading\s+(?:off\s+)?to)\s+(?:go\s+)?"
    r"(?:eat|sleep|shower|bed|cook|nap|grab\s+\w+|make\s+dinner|get\s+food)(?:\s+\w+)?$"
    r"|^(?:it'?s\s+)?\d+\s*(?:degrees|°c?|°f?)(?:\s+\w+){0,3}$"
    r"|^(?:it'?s\s+)?(?:so|too|freezing|boiling|super)\s+(?:cold|hot|humid)(?:\s+\w+){0,2}$"
    r"|^(?:it'?s\s+)?(?:raining|snowing|pouring)(?:\s+\w+){0,2}$")


def _only_reacts(part: str) -> bool:
    """Is a clause (stripped, not empty) only small talk, laughter or a reaction ("晚安", "哈哈哈", "算了")?"""
    return is_smalltalk(part) or bool(_LAUGH.match(part)) or bool(_REACTION.match(part))


_PUNCT = re.compile(r"[，,。.！!？?；;~～…\n]+")
#: a clause that only reacts ("算了", "mad", "ugh"): no content of its own
_REACTION = re.compile(r"(?i)^(?:算了|好了|行吧|唉|哎|服了|无语子?|绝了|没事|没有|没啥|没什么|不说了|不聊了|先不说了|卧槽|我靠|我去|天哪|"
                       r"(?:家人们|姐妹们|兄弟们)?谁懂啊?|救命|笑死|麻了|破防了|离谱|"
                       r"呜{2,}|嘤{2,}|5{3,}|(?:羡慕|笑|累|困|饿|热|冷|气|烦|吓|馋)死(?:我)?了?|(?<![他她它])[\u4e00-\u9fff]儿?死(?:我|俺|人)了|"
                       r"(?:哎|诶|唉)?(?:呦|哟|呀)喂?|芭比Q了?|栓Q|蚌埠住了|绷不住了|裂开了?|寄了|完犊子了?|"
                       r"哇塞|牛逼|牛|绝绝子|yyds|mad|ugh|wild|crazy|insane|nice|bruh|damn|wow|smh|rip|"
                       r"lol|lmao|ikr|ok(?:ay)?|k)$")


#: laughter closing a clause of a turn: "…the whole kitchen lol", "腿都软了 hhh", "哈哈哈哈"
_TRAILING_LAUGH = re.compile(r"(?i)(?:[\s,，]*(?:\b(?:lol+|lmao+|lmfao|rofl|ha(?:ha)+h?|he(?:he)+|hh+|xd+)\b|(?<![\u4e00-\u9fff])hh+|"
                             r"[哈嘿呵]{2,}|233+|😂+|🤣+))+(?=\s*(?:[.!?。！？~～]|$))")


_LEADING_LAUGH = re.compile(r"(?i)^(?:(?:hh+|ha(?:ha)+h?|he(?:he)+|lol+|lmao+|[哈嘿呵]{2,}|233+)[\s,，!！~～]*)+(?=\S)")


def without_laughter(text: str) -> str:
    """``text`` without the laughter that closes its clauses (a turn shown in a prompt: its content, not its mood);
    a turn that is only laughter stays as it was."""
    kept = _LEADING_LAUGH.sub("", _TRAILING_LAUGH.sub("", text)).strip()
    return kept if kept else text


def momentary(text: str) -> bool:
    """Is every clause of ``text`` with content only the moment: the weather, or going off to do something now?"""
    told = []
    for clause in _PUNCT.split(text):
        kept = [p for p in _parts(clause)  # 算了 刷抖音去了: what a space sets apart may be a reaction of its own
                if not (_only_reacts(p) or _COURTESY.match(p))]
        if kept:
            told.append(kept)
    return bool(told) and all(_moment("".join(k) if all(_CJK.search(p) for p in k) else " ".join(k))  # 等会 吃饭
                              or all(_moment(p) for p in k) for k in told)  # 今儿个天儿贼冷 零下十五度: each part


def _parts(clause: str) -> list[str]:
    """A clause's parts: in Chinese, what a space sets apart ("算了 刷抖音去了"); otherwise the clause, stripped."""
    return [p for p in clause.split() if p] if _CJK.search(clause) else [p for p in (clause.strip(),) if p]


def _reacts_only(text: str) -> bool:
    """Is every part of ``text`` a reaction, laughter or small talk ("哎呦喂 哏儿死我了", "蚌埠住了 哈哈哈")?"""
    parts = [p for clause in _PUNCT.split(text) for p in _parts(clause)]
    return bool(parts) and all(_only_reacts(p) for p in parts)


def _moment(clause: str) -> bool:
    return bool((_MOMENT_ZH if _CJK.search(clause) else _MOMENT_EN).match(_FILLER.sub("", clause) or clause))


#: tags of words that name something or say how it is (LAC's and jieba's): nouns, names, places,
#: organisations, verbal nouns, adjectives (想吃清淡点), foreign words
_NAMING = re.compile(r"^(?:n\w*|PER|LOC|ORG|vn|a|ad|an|eng|nw|nz)$")
_LAUGH = re.compile(r"^(?:h+|(?:ha)+h*|(?:he)+|x+d+|l+o+l+|lmao|2333*|www+|qaq|orz|emm+|hmm+)$", re.IGNORECASE)


#: An answer that commits to nothing: 看心情吧 / 都行 / 到时候再说 / "depends" / "idk, whatever"
_NONCOMMITTAL = re.compile(
    r"^(?:(?:那|就|也|都|还)?(?:看心情|看情况|看缘分|都行|都可以|都好|随便|随缘|再说|无所谓|不一定|说不好|不好说|说不准|看看再说|"
    r"到时候再说|还没想好|没想好|没啥特别的?|没什么特别的?|一般般?|还行)[吧啊呗哈呀咯啦嘛呢]*"
    r"|(?i:(?:it\s+)?depends|whatever|idk|dunno|not\s+sure|no\s+idea|anything\s+(?:really|works|is\s+fine)|"
    r"either(?:\s+(?:one|is\s+fine))?|no\s+preference|up\s+to\s+you|meh))$")


def noncommittal(text: str) -> bool:
    """Is ``text`` an answer that commits to nothing ("看心情吧 hhh", "idk, depends lol"), laughter aside?"""
    parts = [p.strip() for p in _CLAUSES.split(text) if p.strip() and not _LAUGH.match(p.strip())]
    return bool(parts) and all(_NONCOMMITTAL.match(p) for p in parts)


def names_nothing(text: str) -> bool:
    """A Chinese turn without one word that names a thing, a person, a place or a number.

    What such a turn says is a feeling or a reaction ("不知道诶", "算了 忘了要说啥了", "好累"):
    without what was made from it, it gives a later prompt nothing to use. Turns without
    Chinese characters are left to :func:`content_units`.
    """
    if not _CJK.search(text) or re.search(r"\d", text):
        return False
    from jiyi.text.lexical import tagged

    words = tagged(text)
    if any(tag == "TIME" and not _NOW.match(word) for word, tag in words) and any(tag == "v" for _, tag in words):
        return False  # a plan for another day names its day: 帮我记一下 周五交房租, 明天去拔牙
    return not any(_NAMING.match(tag) and not _LAUGH.match(word.strip()) for word, tag in words)


#: time words of the moment itself: a feeling of today names no day to plan for (今天好累, 刚才吓死了)
_NOW = re.compile(r"^(?:今天|今儿个?|现在|刚才|刚刚|今晚|最近|这会儿?|这两天|早上|上午|中午|下午|晚上|半夜|凌晨|此刻|目前)$")


_SENTENCES = re.compile(r"(?<=[。！!？?…\n，,；;])")
_ASKED = re.compile(r"(?:[?？]|(?<=[\u3400-\u9fff])(?:[吗嘛呢]|(?<![什怎那这多要])么)(?:你|您)?[~～…]*)\s*$"
                    # an English question typed without its mark: a question word and an auxiliary, or the auxiliary
                    # first ("what do u think of the new agent", "is the gym open sundays")
                    r"|(?i:^(?:(?:what|how|why|where|when|who|which)(?:'s|\s+(?:do|does|did|is|are|was|were|can|could|"
                    r"should|would|will))|(?:do|does|did|is|are|can|could|should|would|will)\s+(?:u|you|ya|we|they|it|"
                    r"he|she|this|that|there|the)\b)(?!.*[.!。！]\s*\S))"
                    r"|(?<=[\u3400-\u9fff])(?:在|好|行|对|是|要|去|能|会|可以|有)[不没][~～…]*\s*$"  # 小橘在不: 在不 asks
                    # 你觉得我该不该剪短发 / 要不要换个颜色: a choice put to the bot, asked without a mark
                    r"|^(?:你(?:觉得|说|看|认为)|(?:帮我|给我)?(?:看看|想想))?[^，。！？]{0,12}?([\u4e00-\u9fff])[不没]\1(?!\1)")
#: A Chinese question asked by its question word, without a mark: the word ends the sentence ("珠峰多高来着",
#: "1+1等于几", "他叫啥"), or "which/what … is best" is put to the bot ("你觉得哪个牌子好", "买什么好呢").
_ZH_WH = (r"(?:什么|啥|哪(?:儿|里|个|家|位|天|些|种|款|年)?|谁|几(?:[个点号岁天年月次种位件本]|点钟)?|多少(?:钱|个|次)?"
          r"|多[大高长久远重深贵宽]|怎么(?:样|办|弄|回事)?|咋(?:样|办|整|弄|回事)?|怎样|为什么|为啥|如何)")
_ZH_ASKED_BY_WORD = re.compile(
    rf"(?<![没点些])(?<!没有){_ZH_WH}(?:来着|呢|呀|啊|啦|嘞|捏|哇|哈|嘛)*[~～…]*$"
    rf"|^(?:请问|你(?:觉得|说|看|认为|知道)|问一下|问下)[^，。]*?{_ZH_WH}"
    rf"|{_ZH_WH}[^，。]{{0,6}}?(?:好|合适|划算|靠谱)(?:呢|啊|呀|些)?$")
#: …unless the speaker says they do not know it, or the question word is an indefinite ("什么都行", "哪儿都不想去")
_ZH_NOT_ASKED = re.compile(rf"不知道|不晓得|不清楚|不记得|忘了|想不起|搞不懂|说不(?:出|清)|没想好|{_ZH_WH}[都也]")
#: the speaker's name before a group chat's turn
_SPEAKER = re.compile(r"^[\w .'-]{1,24}[:：]\s+")
#: The query asks what the user asked before ("我之前问过什么", "what did I ask you about").
_ASKS_ASKED = re.compile(r"我(?:之前|上次|刚才|那天|以前)?(?:问|咨询)|\bi\s+(?:asked|was\s+asking)\b|\bdid\s+i\s+ask\b",
                         re.IGNORECASE)


def only_asks(text: str) -> bool:
    """Is every sentence of ``text`` with content a question ("面包店关门了吗？", "is the gym open on sundays?")?

    A question states nothing a bot can act on later; a turn that also tells something
    ("我下周去杭州，那边冷吗？") is no mere question. A sentence that only points at being remembered
    ("is it weird to ask you to remember stuff? like please remember this") tells nothing either.
    """
    text = simplified(_SPEAKER.sub("", text.strip()))  # "kaizen: what do u think of …": a group member's turn, said by name
    sentences = [s.strip() for s in _SENTENCES.split(text)
                 if s.strip() and not is_smalltalk(s.strip()) and not _empty_clause(s.strip(" .。!！,，"), False)]
    return bool(sentences) and all(_ASKED.search(s) or _asked_by_word(s) for s in sentences)


def _asked_by_word(sentence: str) -> bool:
    """A Chinese sentence asked by its question word alone (:data:`_ZH_ASKED_BY_WORD`)."""
    sentence = sentence.strip(" .。!！,，~～")
    return bool(_CJK.search(sentence)) and _ZH_ASKED_BY_WORD.search(sentence) is not None \
        and _ZH_NOT_ASKED.search(sentence) is None


def asks_what_was_asked(query: str) -> bool:
    """Does ``query`` ask what the user asked before (then the user's questions may fill the block)?"""
    return _ASKS_ASKED.search(query) is not None


def is_noise(text: str, *, assistant: bool) -> bool:
    """True when every clause of ``text`` is small talk or a courtesy (``assistant``: or too short)."""
    text = simplified(text)
    if is_smalltalk(text) or is_chatter(text):
        return True
    clauses = [c.strip() for c in _CLAUSES.split(text) if c.strip()]
    return bool(clauses) and all(_empty_clause(c, assistant) for c in clauses)


def _empty_clause(clause: str, assistant: bool) -> bool:
    if is_smalltalk(clause) or _COURTESY.match(clause) or is_relayed_greeting(clause) or _POINTER_REQUEST.match(clause):
        return True
    if not assistant:
        return False
    return len(_CJK.findall(clause)) < SHORT_CJK and len(_WORD.findall(clause)) < SHORT_WORDS \
        and not re.search(r"\d", clause)


#: where a memory's clauses part: punctuation, and spaces beside Chinese
_EDGE_CUT = re.compile(r"(?:[，。！!？?；;~～…\n]|[,.](?!\d))+\s*|(?<=[\u3400-\u9fff])\s+|\s+(?=[\u3400-\u9fff])")  # (£1,040)
#: a speaker's label before a memory's words ("小满：", "Dana: ")
_LABEL = re.compile(r"^[^\s：:]{1,32}[：:]\s*")


def without_chatter(text: str) -> str:
    """``text`` without the small talk at its ends: laughter leading its words, a goodnight or a "yeah yeah" opening
    or closing them ("小满：哈哈哈哈店里来了个大爷" → "小满：店里来了个大爷"; "摇到手抽筋，好累，晚安" → "摇到手抽筋，好累").
    What is left of a memory that is all chatter is the memory as it was."""
    label = m.group(0) if (m := _LABEL.match(text)) else ""
    body = without_laughter(text[len(label):])
    parts = _EDGE_CUT.split(body)
    cuts = [c.group(0) for c in _EDGE_CUT.finditer(body)]

    bare = [p.strip() for p in parts]
    first, last = 0, len(parts) - 1
    while first < last and (not bare[first] or _only_reacts(bare[first])):
        first += 1
    while last > first and (not bare[last] or _only_reacts(bare[last])):
        last -= 1
    if first == last and bare[first] and _only_reacts(bare[first]):
        return text
    kept = "".join(p + (cuts[i] if i < last else "") for i, p in enumerate(parts) if first <= i <= last)
    tail = cuts[last] if last < len(cuts) and _KEEP_END.match(cuts[last].strip() or " ") else ""
    return label + kept.strip() + tail.strip()


#: end punctuation a memory keeps when a chatter clause after it is dropped
_KEEP_END = re.compile(r"^[。.！!？?]+$")


#: words that tell how the speaker feels, invite a chat or remark on the day, and name no topic: what a query made
#: only of them ("今天心情不错嘿嘿", "有点emo，随便聊聊", "i'm so tired today", "wassup") asks nothing of memory
_MOOD = re.compile(
    r"心情|情绪|心态|状态|心累|开心|高兴|快乐|难过|伤心|郁闷|无聊|烦|丧|累|困|饿|冷|热|爽|emo|焦虑|紧张|孤独|寂寞|想哭|"
    r"随便聊聊?|聊聊天?|聊会儿?天?|唠唠嗑?|唠会儿?嗑?|陪我(?:说说话|说会儿?话|聊聊?|待会儿?)?|说说话|"
    r"早安|午安|晚安|早上好|中午好|下午好|晚上好|天气|周末了|周一了|周五了|下班了|放学了|回来了?|"
    r"(?i:\b(?:bored|boring|tired|sleepy|exhausted|hungry|sad|happy|upset|lonely|stressed|anxious|meh|ugh|sup|wassup|"
    r"what'?s\s+up|i'?m\s+back|im\s+back|good\s+(?:morning|night|evening|afternoon)|morning|night|monday|"
    r"mondays|friday|vibes?|mood|today|tonight|rn|so|feeling|feel|kinda|bit|a|just|i'?m|i\s+am|am|is|it'?s)\b)")


def without_mood(text: str) -> str | None:
    """``text`` without the words that tell a mood, invite a chat or remark on the day ("今天心情不错嘿嘿" → "今天 不错嘿嘿"),
    or None when it has none of them (or a number)."""
    text = simplified(text)
    if not _MOOD.search(text) or re.search(r"\d", text):
        return None
    return _MOOD.sub(" ", text).strip(" ，,。.!！~～…?？")
