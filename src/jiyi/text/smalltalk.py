"""Is a message small talk (你好 / 谢谢 / 好的 / 嗯嗯 / ok / lol) with nothing to remember?

Used twice on the write path: episodes skip small talk, and extractors drop it. The
test is deliberately conservative, because a false positive loses a memory: a message
is small talk only if, once punctuation, emoji and chat placeholders such as
``[图片]`` are removed, nothing is left or what is left is made *entirely* of known
greetings, thanks and acknowledgements (``好的好的，谢谢啦`` yes; ``好的，明天见小雅`` no), or a wish for an
occasion beside them (``五一快乐啊``, "merry xmas all"; ``老婆生日快乐`` tells whose day it is and is kept).
Repeated characters are collapsed first so ``哈哈哈哈``, ``嗯嗯嗯`` and ``hahaha`` match.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

from jiyi.text.script import simplified
from jiyi.text.wordlists import words

#: a chat app's placeholder or sticker code: [图片], [语音], and the stickers QQ and WeChat write as a word or two
#: in brackets ([捂脸], [猫猫头], [玫瑰], [Facepalm]); never one of ours ([已隐藏:密码] has a colon) nor a link's text
_PLACEHOLDER = re.compile(
    r"\[(?:图片|表情|动画表情|语音|视频|文件|链接|红包|位置|名片|emoji|image|photo|sticker|gif|voice|video)\]"
    r"|\[[\u4e00-\u9fff]{1,4}\](?!\()|\[[A-Z][a-z]{1,11}\](?!\()",
    re.IGNORECASE,
)
#: emoji of acknowledgement and applause (👍 👏 🙏 🌹 🎉 👌 ✌️ 🤝 💪): a group's nod, no fact's words; other emoji
#: stay, some say what happened ("rip mochi 💔")
_EMOJI = re.compile(r"[\U0001F44D\U0001F44F\U0001F64F\U0001F339\U0001F389\U0001F38A\U0001F44C\u270C\U0001F91D"
                    r"\U0001F4AA\U0001F3FB-\U0001F3FF\uFE0F]+")
_REPEAT = re.compile(r"(.+?)\1+")
_WORDY = re.compile(r"[^\W_]{2}")
_NON_WORD = re.compile(r"[\W_]+")

_ZH_PHRASES = words("""
你好 您好 你好呀 哈喽 嗨 在吗 在不在 在嘛 在 早 早啊 早安 早上好 上午好 中午好 下午好 晚上好 晚安 午安
谢谢 谢了 谢啦 多谢 感谢 谢谢你 谢谢您 谢谢啦 辛苦了 辛苦啦 麻烦了 麻烦你了 不客气 不用谢 客气了
好 好的 好滴 好哒 好嘞 好吧 好呀 好啊 好哦 好么 好说 行 行吧 行啊 行行 可以 可以的 可以啊 没问题
嗯 恩 嗯呢 嗯啊 嗯哼 哦 噢 喔 哦哦 啊 哈 呵 嘿 嘻 嘿嘿 嘻嘻 呵呵 哈哈 嘎嘎 唔 呃 额 诶 欸 哎 唉 哇 哇塞 哟 呀
对 对的 对啊 对呀 是 是的 是啊 是呀 没错 确实 对对 收到 明白 明白了 知道了 知道 懂了 懂 了解 了解了 get
拜拜 再见 回见 下次见 回头见 晚点聊 先这样 就这样 那就这样 没了 没有了 没事 没事了 没关系 好的呢
我也是 我也一样 同意 一样 好主意 厉害 牛 牛逼 赞 棒 真棒 太棒了 太好了 不错 可以可以 666 233 ok okay 晕 汗 笑死 绝了 服了 无语 emmm
大家好 大家早 各位好 各位早 早上好各位 早上好大家 在吗各位 有人吗 有人在吗 扣1 1 11 111
吃了吗 吃了没 吃饭了吗 吃饭了没 吃了么 食饱未 食咗饭未 食咗未 食饭未 恭喜发财 新年好 过年好
在不 在么 在没 在不啦
兄弟 兄弟们 哥们 哥们儿 老铁 老哥 老弟 姐妹 姐妹们 家人们 朋友们 宝 宝子 宝宝 亲 亲们 各位 大家 大佬 老板 师傅 机器人 助手 小助手
草 好家伙 离谱 太离谱了 真实 太真实了 蚌埠住了 绑不住了 xswl 绝绝子 yyds 妙啊 牛啊 6 66 笑死我了 乐 乐死 哈人 确实确实 有道理 也是 也对 还行 害 嗐
""")

_EN_WORDS = words("""
hi hello hey heya hiya yo howdy morning night gn thanks thankyou thx ty tysm cheers ok okay k kk okie alright
sure yes yeah yep yup ya no nope nah lol lmao rofl haha hehe hah ha hmm hm um uh oh ah wow cool nice great
awesome perfect good fine gotcha bye goodbye later ttyl np welcome noted understood right exactly indeed same
agreed true fair lmfao ikr mood bet facts fr lowkey tbh omg yay rip oof welp dang damn gm gn gg zzz
bro bros bruh dude dudes guys man mate fam folks everyone everybody yall buddy pal bot
""")
_EN_MULTI = (
    "hello there", "hey there", "good morning", "good afternoon", "good evening", "good night", "thank you",
    "thanks a lot", "thanks so much", "thank you so much", "many thanks", "all right", "got it", "i see",
    "see you", "see ya", "bye bye", "no problem", "no worries", "you are welcome", "youre welcome",
    "sounds good", "of course", "me too", "ok thanks", "okay thanks", "fair enough", "big mood", "same here",
    "so true", "too true", "no way", "for real", "im dead", "i cant", "anyone here", "anybody here", "anyone around",
    "morning all", "morning everyone", "hi all", "hey all", "hi everyone", "hey everyone", "hey guys", "hi guys",
    "hello everyone", "night all",
)
#: a wish for an occasion, the whole clause: 五一快乐, 新婚快乐!!, "happy new year", "merry xmas all" (老婆生日快乐 tells
#: whose day it is, and is kept)
_WISH = re.compile(
    r"^(?:祝(?:你|您|大家)?)?(?:新婚|生日|新年|节日|中秋|端午|国庆|五一|元旦|春节|新春|圣诞|元宵|七夕|情人节|冬至|冬节|重阳|"
    r"母亲节|父亲节|教师节|儿童节|妇女节|开学|毕业|假期|周末|开工|乔迁|暑假|寒假)快乐[啊呀哦哈啦呢鸭]*$"
    r"|(?i:^(?:happy|merry)\s+(?:new\s+year|birthday|holidays?|christmas|xmas|easter|thanksgiving|diwali|eid|"
    r"hanukkah|halloween|anniversary|lunar\s+new\s+year|cny|[a-z]+(?:'?s)?\s+day|friday|weekend)"
    r"(?:\s+(?:all|everyone|guys|y'?all|folks|everybody|to\s+(?:you|all)))?$)")
_WISH_WORD = re.compile(r"(?i)\b(?:happy|merry)\b")
#: the parts a wish stands among: clauses, and what a space sets apart in Chinese ("哈哈 中秋快乐")
_WISH_PARTS = re.compile(r"[，,。.！!？?；;~～…\n]+|\s+(?=[\u4e00-\u9fff])|(?<=[\u4e00-\u9fff])\s+")
#: a greeting passed on from others: "Pepper and Miso say hi", "my mom says hello", "年糕向你问好"
_RELAYED = re.compile(
    r"(?i)^(?:(?:[\w'-]+\s+){0,3}[\w'-]+\s+)?(?:says?|sends?|send\s+their|sends?\s+(?:his|her|their))\s+"
    r"(?:hi|hello|hey|regards|love|greetings|hugs)(?:\s+(?:to\s+(?:you|everyone|all)|back|too|as\s+well))?$"
    r"|^[\u4e00-\u9fffA-Za-z]{0,8}(?:让我)?(?:向|跟|给|和)(?:你|您|大家|各位)(?:们)?(?:问好|问个好|问声好|打(?:个|声)?招呼|说(?:声)?你好|带好)(?:呢|呀|哦|啦)?$")
_CLAUSE = re.compile(r"[，,。.！!？?；;~～…\n]+")


def is_relayed_greeting(text: str) -> bool:
    """Is ``text`` (one clause) a greeting passed on from others ("Pepper and Miso say hi", "我妈跟你问好")?"""
    return _RELAYED.match(unicodedata.normalize("NFKC", text).strip()) is not None


def is_chatter(text: str) -> bool:
    """Every clause is small talk or a relayed greeting ("lol fair, Pepper and Miso say hi", "哈哈哈 草")."""
    clauses = [c.strip() for c in _CLAUSE.split(unicodedata.normalize("NFKC", text)) if c.strip()]
    return bool(clauses) and len(text) <= 160 and all(is_smalltalk(c) or is_relayed_greeting(c) for c in clauses)


@lru_cache(maxsize=1)
def _phrases() -> frozenset[str]:
    """Every known phrase, spaces removed and repeats collapsed like the input will be."""
    items = set(_ZH_PHRASES) | set(_EN_WORDS) | {p.replace(" ", "") for p in _EN_MULTI}
    return frozenset(_collapse(w) for w in items)


def _collapse(s: str) -> str:
    """Collapse immediate repeats: 哈哈哈 → 哈, 好的好的 → 好的, hahaha → ha."""
    prev = None
    while prev != s:
        prev = s
        s = _REPEAT.sub(r"\1", s)
    return s


def _strip(text: str) -> str:
    """Lowercase, NFKC, without placeholders, punctuation, symbols, emoji or spaces.

    Letters and digits always stay, so only the runs between them (matched by
    ``[\\W_]+`` in C) have their characters' categories looked up.
    """
    s = _PLACEHOLDER.sub("", unicodedata.normalize("NFKC", text)).lower().replace("'", "")
    return _NON_WORD.sub(_keep_marks, s)


def _keep_marks(m: re.Match[str]) -> str:
    return "".join(ch for ch in m.group() if unicodedata.category(ch)[0] not in "PSZC")


def _segmentable(s: str, phrases: frozenset[str], longest: int) -> bool:
    """True if ``s`` splits entirely into known phrases (dynamic programming)."""
    ok = [False] * (len(s) + 1)
    ok[0] = True
    for i in range(len(s)):
        if not ok[i]:
            continue
        for j in range(i + 1, min(len(s), i + longest) + 1):
            if s[i:j] in phrases:
                ok[j] = True
    return ok[len(s)]


def is_smalltalk(text: str) -> bool:
    """True when ``text`` carries nothing worth remembering (greeting, thanks, ack, emoji, a wish for a holiday;
    謝謝 as 谢谢: text/script.py)."""
    text = simplified(text)
    return _known(text) or _wished(text)


def _wished(text: str) -> bool:
    """A wish for an occasion (:data:`_WISH`), with nothing but small talk beside it ("哈哈 中秋快乐", "五一快乐啊")."""
    if "快乐" not in text and not _WISH_WORD.search(text):
        return False
    parts = [p.strip(" !！~～") for p in _WISH_PARTS.split(unicodedata.normalize("NFKC", text)) if p.strip(" !！~～")]
    return 0 < len(parts) <= 4 and any(_WISH.match(p) for p in parts) and all(_WISH.match(p) or _known(p) for p in parts)


def _known(text: str) -> bool:
    """Made of known greetings, thanks and acknowledgements only (the module notes)."""
    if len(text) > 120 and _WORDY.search(text):
        return False
    s = _strip(text)
    if not s:
        return True
    if len(s) > 40:
        return False
    if not _alphabet().issuperset(s):  # a character no phrase has (most messages): no segmentation
        return False
    s = _collapse(s)
    phrases = _phrases()
    if s in phrases:
        return True
    return _segmentable(s, phrases, _longest())


@lru_cache(maxsize=1)
def _longest() -> int:
    return max(len(p) for p in _phrases())


@lru_cache(maxsize=1)
def _alphabet() -> frozenset[str]:
    """Every character of every phrase (collapsing repeats only removes characters)."""
    return frozenset("".join(_phrases()))


# ---------------------------------------------------------------- pleasantries

#: what bots (and polite users) say that carries nothing about anyone: greetings with an offer
#: of help, nice-to-meet-you, congratulations and wishes, you're-welcome, sign-offs
_PLEASANTRY_ZH = re.compile(
    r"(?:你好|您好|嗨|哈喽)(?:呀|啊|哦)?|(?:在的|我在)(?:呀|啊|哦|呢)?(?![\u4e00-\u9fff])"  # 我在苏州住 is no "I'm here"
    r"|(?:请问)?(?:有什么|有啥|有哪些|什么)(?:事情?|问题|地方)?(?:我)?(?:可以|能|能够|需要我)?(?:帮|帮助|帮到|帮上|为)(?:你|您)(?:的|忙|服务)?(?:吗|呢|的吗)?"
    r"|(?:还)?有什么(?:需要|想)(?:我)?(?:帮忙|帮助|聊|问)?的?(?:吗|呢)?"
    r"|(?:很|非常|真)?高兴(?:认识|见到|为)(?:你|您)(?:服务)?"
    r"|(?:恭喜|祝贺)(?:你|您)?(?![我俺])[\u4e00-\u9fff]{0,6}"
    r"|祝(?:你|您|大家)[\u4e00-\u9fff]{0,10}?(?:快乐|顺利|愉快|成功|健康|开心|好运|如意|平安|大吉)"
    r"|(?<![我祝])(?:生日|新年|节日|中秋|春节|周末|圣诞|元旦)快乐|乔迁之喜|一路顺风|旅途愉快"
    r"|不客气|不用谢|客气啦|应该的|随时(?:找我|问我|欢迎|叫我)|欢迎(?:回来|再来|随时)?|加油|辛苦了|"
    r"希望(?:这些)?(?:对你|对您|能)?(?:有所?|帮到)(?:帮助|你|您)|有(?:问题|需要|事)(?:的话)?随时(?:问|找|叫)我"
    r"|我(?:一直)?都?在(?:的|呢|哦)?(?![\u4e00-\u9fff])|没问题|好的呢|好嘞|收到啦?|明白啦?|了解啦?|晚安|早安|午安|(?:早上|上午|中午|下午|晚上)好|拜拜|再见|回头聊")
_PLEASANTRY_EN = re.compile(
    r"(?i)\b(?:awesome|great|nice|cool|amazing|lovely|wonderful)\s+(?:goal|job|news|idea|choice|one|work|pick|plan)\b"
    r"|\b(?:hi|hello|hey|hiya|howdy)(?:\s+there)?\b|\bhow\s+(?:can|may)\s+i\s+(?:help|assist)(?:\s+you)?(?:\s+today)?\b"
    r"|\bwhat\s+can\s+i\s+do\s+for\s+you(?:\s+today)?\b|\b(?:(?:it's|it\s+is)\s+)?(?:so\s+)?(?:nice|great|good|lovely|"
    r"pleased|glad)\s+to\s+(?:meet|see|hear\s+from)\s+you\b|\bcongrat(?:s|ulations)\b(?:\s+on\s+(?:your\s+)?[\w\s'-]{1,25})?"
    r"|\b(?:you're|you\s+are)\s+(?:very\s+|so\s+|most\s+)?welcome\b|\bno\s+(?:problem|worries)\b|\b(?:glad|happy)\s+"
    r"(?:i\s+could|to)\s+help\b|\banytime\b|\bhave\s+a\s+(?:great|nice|good|lovely|wonderful)\s+(?:day|weekend|one|night|"
    r"time|trip)\b|\bgood\s+luck\b|\btake\s+care\b|\bsounds\s+(?:good|great)\b|\b(?:ha)+\b|\blol\b|\bok(?:ay)?\b|\bthanks?"
    r"(?:\s+(?:so|very)\s+much|\s+a\s+lot)?\b|\bthank\s+you(?:\s+(?:so|very)\s+much)?\b|\bcheers\b|\bbye\b|\bsee\s+you"
    r"(?:\s+(?:later|soon|around))?\b|\benjoy\b|\blet\s+me\s+know\s+if\s+(?:you\s+)?(?:need|have)\s+(?:anything|any\s+"
    r"(?:other\s+)?questions?)(?:\s+else)?\b|\bfeel\s+free\s+to\s+(?:ask|reach\s+out)\b|\b(?:i'm|i\s+am)\s+(?:here|happy)"
    r"\s+(?:to\s+help|for\s+you)\b|\bwelcome(?:\s+back)?\b|\bgreat\b|\bawesome\b|\bcool\b|\bnice\b|\bsure\b|\byes\b|\bno\b"
    r"|\bfingers\s+crossed\b|\bwill\s+do\b|\bgood\s+(?:night|morning|evening|afternoon|call|idea|choice|question|"
    r"point|one|job|news)\b|\b(?:sup|wassup|what'?s\s+up)\b|\bbrb\b|\bgtg\b|\bttyl\b|\bgn\b|\bnight\b|\bmorning\b"
    r"|\bhave\s+fun\b|\bgood\s+for\s+you\b|\bwell\s+done\b|\byou\s+got\s+this\b|\boh\s+no\b|\bi\s+see\b"
    r"|\bmakes\s+sense\b|\bgot\s+it\b|\bnoted\b|\bbot\b|\bhehe\b|\blmao\b|\bikr\b|\bomg\b|\bwow\b|\byay\b")
_LEFTOVER = re.compile(r"[\W_]+")
#: those greeted as a crowd ("早安打工人", "晚安家人们", "morning fam"): an address, not a name
_ADDRESSED = re.compile(r"^[\u4e00-\u9fff]{1,3}(?:们|人)$|^(?:fam|folks|people|peeps|gang|team|y'?all)$", re.IGNORECASE)
_EN_NAME = re.compile(r"^[A-Z][a-z]{1,15}$")


def is_pleasantry(text: str) -> bool:
    """A greeting, offer of help, nice-to-meet-you, congratulation or wish with nothing else in it.

    "你好！有什么可以帮你？", "很高兴认识你，小明！", "恭喜乔迁！", "haha ok", "thanks!",
    "Nice to meet you, Maya! How can I help?" yes; "你好，我叫小明", "谢谢，我对花生过敏",
    "Congrats on the new job at Google — when do you start?" no. A name left over
    (小明 / Maya) is part of the pleasantry; anything else is not.
    """
    if len(text) > 160:
        return False
    if is_smalltalk(text) or is_chatter(text):
        return True
    norm = unicodedata.normalize("NFKC", text)
    if not _PLEASANTRY_ZH.search(norm) and not (norm.isascii() and _PLEASANTRY_EN.search(norm)):
        return False  # most messages: no pleasantry at all
    rest = _PLEASANTRY_EN.sub(" ", _PLEASANTRY_ZH.sub(" ", _PLACEHOLDER.sub(" ", norm)))
    words = [w for w in _LEFTOVER.split(rest) if w and not is_smalltalk(w)]
    if not words:
        return True
    if len(words) == 1:
        w = words[0]
        from jiyi.text.relations import looks_like_name_zh

        if re.search(r"[我你您他她俺咱]", w):
            return False
        return bool(_EN_NAME.match(w) or _ADDRESSED.match(w)) or (not w.isascii() and len(w) <= 3 and looks_like_name_zh(w))
    return False


#: importance of a turn kept as an episode: small talk and pleasantries are noise a block can drop
SMALLTALK_IMPORTANCE = 0.05
TURN_IMPORTANCE = 0.3
SIGNAL_TURN_IMPORTANCE = 0.4


def turn_importance(text: str, role: str) -> float:
    """0.05 for small talk and pleasantries, 0.4 for a user turn with a memory signal, else 0.3."""
    if is_pleasantry(text):
        return SMALLTALK_IMPORTANCE
    from jiyi.text.signals import has_memory_signal

    return SIGNAL_TURN_IMPORTANCE if role == "user" and has_memory_signal(text) else TURN_IMPORTANCE


def without_decoration(text: str) -> str:
    """``text`` without chat placeholders (``[图片]``, ``[sticker]``) and nods (👍): what a memory's words keep
    ("汇演圆满成功，谢谢大家 👍👍 [图片]" → "汇演圆满成功，谢谢大家"); unchanged when nothing else is left."""
    kept = re.sub(r"\s{2,}", " ", _EMOJI.sub(" ", _PLACEHOLDER.sub(" ", text))).strip(" ，,")
    return kept if _WORDY.search(kept) else text

