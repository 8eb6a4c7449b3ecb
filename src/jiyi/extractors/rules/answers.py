"""A short answer says what the bot's question asked: a yes to "are you moving out of Leeds?" ("yep, Bristol
from next week") is "I am moving out of Leeds, Bristol from next week"; "合肥" after "你现在住哪？" is "我住在合肥".

Chat answers a question with the least it can: 对 / 是的 / 嗯 / "yep" / "yeah", then what is new. What the
answer confirms is in the bot's words only, so the reply alone tells nothing of it ("Bristol from next
week" names no move out of Leeds; "对 刚提的车" no car sold). The question turned into the user's own
statement (you → I, 你 → 我, the question's mark and particle dropped) is put in place of the yes,
and the reply is read as that statement plus the rest.

Only a question about the user that asks yes or no: not one asking what, where, who, when, how or
why (its answer says something of its own), and not an offer of the bot's ("要我帮你记下来吗？",
"want me to set a reminder?"), whose yes tells nothing of the user. A no is left alone: what it
denies is not always the question's opposite ("还在吗？" → "不在了", read by the endings).

A bare answer to a question of where the user lives or works, what they do or where they moved
(:data:`_ASKED_FOR`) is the statement the question asks for: "杭州 滨江这边" after "你在哪个城市呀？" is
"我住在杭州"; "nurse, at St Mary's" after "what do you do for work?" is "I work as a nurse, at St Mary's".
Only a short answer without a subject of its own (a full sentence says it itself) and not a question back.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

_P = re.compile

_EN_YES = _P(r"(?i)^(?:yes|yep|yeah|yup|ya|yah|yea|correct|exactly|indeed|definitely|for\s+sure|that'?s\s+right|"
             r"mhm|uh\s+huh|sure\s+am|sure\s+did|i\s+am|i\s+did|i\s+have|i\s+do)\b[\s,.!~-]*")
_ZH_YES = _P(r"^(?:对的|对啊|对呀|对滴|对|是的|是啊|是呀|是滴|没错|可不是嘛?|可不|嗯嗯|嗯呐|嗯|恩|昂)(?![不没了])[\s，,。.!！~～]*")
#: the bot's question, as the user's statement: "are you moving…?" → "I am moving…"
_EN_ASKS = _P(r"(?i)^(?:(?:oh|ah|wow|wait|so|and|hmm|nice|really)[,!.]?\s+)*(?P<aux>are|were|did|do|have|had|will)\s+you\s+"
              r"(?P<rest>[^?]{3,120})\?")
_EN_AS_SAID = {"are": "am", "were": "was", "did": "did", "do": "do", "have": "have", "had": "had", "will": "will"}
_EN_OFFER = _P(r"(?i)\b(?:want\s+me|like\s+me|shall\s+i|should\s+i|can\s+i|may\s+i|need\s+(?:me|help|a\s+reminder)|"
               r"want\s+(?:a|some|to\s+(?:talk|chat|hear))|mind\s+if)\b")
_ZH_ASKS = _P(r"(?P<q>[^。！!？?\n]{2,60}?)(?:吗|么|嘛|了没|没有)[？?]")
_ZH_OFFER = _P(r"要我|需要我|我帮你|我给你|我来|我替你|要不要我|用不用我|帮你(?:记|设|定|查|找|安排)|需要(?:帮忙|提醒)")
#: the bot reading back what the user said ("上海市…，收件人林晓雯，对吗？", "so that's Tuesday at 3, right?"):
#: a yes confirms the user's own words, already read
_ZH_ECHO = _P(r"[，,\s](?:对吗|是吗|对吧|是吧|没错吧|对不对)[？?]\s*$")
_EN_ECHO = _P(r"(?i),\s*(?:right|correct|is\s+that\s+(?:right|correct)|yes)\s*\?\s*$")
_ZH_WH = _P(r"什么|啥|哪|谁|几|多少|怎么|为什么|为啥|咋|多久|多大|是不是|有没有|能不能|要不要")


def adopted(question: str, reply: str, lang: str) -> str | None:
    """The reply as the user's statement of what the bot asked (a yes, then the rest), or None when it is no
    yes to a yes-or-no question about the user."""
    asked = _last_question(question)
    if not asked:
        return None
    if lang == "zh":
        yes = _ZH_YES.match(reply.strip())
        m = _ZH_ASKS.search(asked)
        if not yes or not m or _ZH_OFFER.search(asked) or _ZH_WH.search(m.group("q")) or _ZH_ECHO.search(asked):
            return None
        said = re.sub(r"^[\s，,。啊哦噢哇诶欸那所以]+", "", m.group("q")).replace("您", "你").replace("你们", "我们")
        said = said.replace("你", "我")
        said = said if said.startswith(("我", "俺")) else "我" + said
        rest = reply.strip()[yes.end():]
        return f"{said}，{rest}" if rest else said
    yes = _EN_YES.match(reply.strip())
    m = _EN_ASKS.match(asked)
    if not yes or not m or _EN_OFFER.search(asked) or _EN_ECHO.search(asked):
        return None
    said = re.sub(r"(?i)\byour\b", "my", re.sub(r"(?i)\byourself\b", "myself", m.group("rest")))
    said = re.sub(r"(?i)\byou\b", "me", said)
    rest = reply.strip()[yes.end():]
    statement = f"I {_EN_AS_SAID[m.group('aux').lower()]} {said.strip()}"
    return f"{statement}, {rest}" if rest else statement


def _last_question(text: str) -> str:
    """The bot turn's last sentence that asks (a question mark ends it)."""
    asking = [s.strip() for s in re.split(r"(?<=[。！!.？?])\s*", text.strip()) if re.search(r"[?？]$", s.strip())]
    return asking[-1] if asking else ""


#: (what the bot's question asks the user, zh pattern, en pattern, zh statement, en statement)
_ASKED_FOR: tuple[tuple[str, re.Pattern[str], re.Pattern[str], str, str], ...] = (
    ("moved", _P(r"(?:搬|迁|润)(?:家)?(?:到|去)?(?:了)?(?:哪|什么地方)"), _P(r"(?i)\bwhere\b.{0,20}\b(?:move|moving|moved|relocat)"),
     "我搬到了{a}", "I moved to {a}"),
    ("city", _P(r"住(?:在)?(?:哪|什么地方)|(?:在|是)哪(?:个城市|座城市|儿人)|在哪个城市|哪里人"),
     _P(r"(?i)\bwhere\b.{0,20}\b(?:live|living|based|staying)\b|\bwhich\s+city\b"), "我住在{a}", "I live in {a}"),
    ("employer", _P(r"在哪(?:里|儿)?(?:上班|工作)|(?:哪家|什么)公司"), _P(r"(?i)\bwhere\b.{0,20}\bwork\b|\bwhich\s+company\b"),
     "我在{a}上班", "I work at {a}"),
    ("job", _P(r"(?:做|干|搞)(?:什么|啥)(?:工作|的|行业)|(?:什么|啥)(?:工作|职业)"),
     _P(r"(?i)\bwhat\b.{0,12}\b(?:do\s+you\s+do|is\s+your\s+(?:job|work)|line\s+of\s+work)\b"),
     "我是{a}", "I work as {a}"),
)
#: a place the question already names, asking where in it ("在合肥住哪一块？", "where in Leeds do you live?")
_ZH_WITHIN = _P(r"在(?P<in>[\u4e00-\u9fff]{2,6}?)(?:住|工作|上班)?(?:哪|什么地方)")
_EN_WITHIN = _P(r"\bwhere(?:abouts)?\s+in\s+(?P<in>[A-Z][\w'-]+(?:\s+[A-Z][\w'-]+)*)")
_ZH_FILLER = _P(r"^(?:嗯+|哦+|噢|啊|就|在|是|住|现在|目前|目前在|现在在|就在)+")
_EN_FILLER = _P(r"(?i)^(?:(?:um+|uh+|oh|well|so|currently|now|just|in|at|a|an)\s+)+")
_EN_OWN_SUBJECT = _P(r"(?i)^(?:i|i'm|im|i've|my|we|we're|our)\b")


def answered(question: str, reply: str, lang: str) -> str | None:
    """The reply as the statement the bot's question of where the user lives or works, what they do or where
    they moved asks for ("你现在住哪？" → "合肥" → "我住在合肥"), or None."""
    asked = _last_question(question)
    text = reply.strip()
    if not asked or not text or re.search(r"[?？]", text):
        return None
    zh = lang == "zh"
    if (_ZH_OFFER if zh else _EN_OFFER).search(asked) or (not zh and _EN_OWN_SUBJECT.match(text)) \
            or (zh and re.match(r"^(?:我|俺|咱)", text)):
        return None  # a full sentence says it itself
    first, rest = _first_part(text, zh)
    first = (_ZH_FILLER if zh else _EN_FILLER).sub("", first).strip()
    if not first or len(first) > (10 if zh else 40) or not _names_something(first, zh):
        return None
    for _, zh_q, en_q, zh_said, en_said in _ASKED_FOR:
        if (zh_q if zh else en_q).search(asked):
            if zh and (within := _ZH_WITHIN.search(asked)):
                first = within.group("in") + first  # "在合肥住哪一块呢？" → "滨湖": 合肥滨湖, not a city of its own
            elif not zh and (within := _EN_WITHIN.search(asked)):
                first = f"{first}, {within.group('in')}"
            said = (zh_said if zh else en_said).format(a=first)
            return f"{said}，{rest}" if zh and rest else f"{said}, {rest}" if rest else said
    return None


def _first_part(text: str, zh: bool) -> tuple[str, str]:
    """The answer's first part (up to punctuation, or a space in Chinese) and the rest."""
    m = re.search(r"[，,。.！!；;~～\n]|(?<=[\u4e00-\u9fff])\s+" if zh else r"[,.!;~\n]|\s+(?:and|but|lol|haha)\b", text)
    if m is None:
        return text, ""
    return text[:m.start()], text[m.end():].strip()


_EN_NOT_A_VALUE = _P(r"(?i)^(?:it|it's|its|that|this|depends|idk|dunno|not|no|nope|nowhere|long|kinda|sort\s+of|"
                     r"why|haha|lol|yes|yeah|nah|same|here|there|around|guess)\b")
#: tags that name a thing (LAC's and jieba's): a place, an organisation, a person, a noun, a foreign word
_NAMING_TAG = _P(r"^(?:n\w*|LOC|ORG|PER|nz|nw|eng)$")


def _names_something(answer: str, zh: bool) -> bool:
    """Does the bare answer name a place, a workplace or a trade ("合肥", "一家外包公司", "护士", "Halden Labs"), not
    a manner of answering ("说来话长", "it's complicated", "depends")?"""
    if not zh:
        return len(answer.split()) <= 5 and not _EN_NOT_A_VALUE.match(answer)
    from jiyi.text.lexical import tagged

    words = tagged(answer)  # a noun phrase: it ends in a naming word, with no verb in it ("说来话长" has one)
    return bool(words) and bool(_NAMING_TAG.match(words[-1][1])) and not any(tag in ("v", "vd", "a", "d") for _, tag in words)


#: a reply that says the thing is stopped without naming it: 早不碰了 / 早就戒了 / 不抽了 / 没再喝了 /
#: "nah, quit" / "not anymore" (what stopped is in the bot's question)
_ZH_STOPPED_BARE = _P(r"^(?:早|早就|已经|都|也|现在|好久)*(?:(?:不|没)再?(?:碰|抽|喝|玩|吃|打|去|跑|练|用|弄|搞)(?:了|啦)|"
                      r"戒(?:了|掉了|啦)|不(?:碰|抽|喝|玩)(?:啦|咯|喽)|放弃了|停了|不(?:坚持|练|学|做)了|没(?:坚持|练)了)"
                      r"(?=$|[\s，,。.!！~～])")
_EN_STOPPED_BARE = _P(r"(?i)^(?:(?:nah|nope|no|naw|lol|haha)[\s,.!]*)*(?:i\s+)?(?:(?:already\s+|actually\s+)?"
                      r"(?:quit|stopped|gave\s+(?:it\s+|that\s+)?up|dropped\s+it)|not\s+any\s*more|no\s+more)\b[\s,.!]*")
#: the bot asking whether the user still does something: 烟还抽吗 / 还在喝可乐吗 / 最近还打游戏不
_ZH_STILL = _P(r"还(?:在|有)?(?:天天|每天|经常|老|常)?(?P<v>抽|喝|玩|吃|打|去|跑|练|用|碰|弄|搞|坚持|学|做)")
_EN_STILL = _P(r"(?i)\b(?:are\s+you\s+|you\s+)?still\s+(?P<ing>\w+ing)\b\s*(?P<o>[^?]{0,60}?)\s*\?|"
               r"\bdo\s+you\s+still\s+(?P<v>\w+)\s+(?P<o2>[^?]{1,60}?)\s*\?")


def denied(question: str, reply: str, lang: str) -> str | None:
    """A reply that something stopped, naming nothing ("早不碰了 俩月了" after "最近烟还抽得凶不？", "nah quit
    in march" after "still vaping?"), as the stop of what the question asked about: "烟早不碰了 俩月了", "I stopped
    vaping, in march". None unless the question asks whether the user still does it."""
    asked = _last_question(question)
    text = reply.strip()
    if not asked or not text:
        return None
    if lang == "zh":
        if not (bare := _ZH_STOPPED_BARE.match(text)) or not (still := _ZH_STILL.search(asked)):
            return None
        from jiyi.text.lexical import tagged

        things = [w for w, tag in tagged(asked) if tag in ("n", "nz", "ORG", "eng") and w not in ("最近", "现在")]
        if not things:
            return None
        near = min(things, key=lambda w: abs(asked.find(w) - still.start()))
        return f"{near}{text}"
    if not (bare := _EN_STOPPED_BARE.match(text)) or not (still := _EN_STILL.search(asked)):
        return None
    rest = text[bare.end():].strip()
    said = f"I stopped {still.group('ing')} {still.group('o')}".strip() if still.group("ing") else \
        f"I no longer {still.group('v')} {still.group('o2')}"
    said = re.sub(r"(?i)\byour\b", "my", said)
    return f"{said}, {rest}" if rest else said


#: smoking as a stop names it, whatever words it was told by (烟味, 一天一包, "cigs")
_SMOKING_SAID = {True: "烟", False: "smoking"}


def pointed(asked: str, reply: str, following: Sequence[str], lang: str) -> str | None:
    """A reply that ends what it only points at ("那玩意儿我早不碰了" after "烟也少抽点哈", "quit that stuff for good"
    before "no more vape clouds") with the thing put in its place: the drink or the smoking that the bot's turn
    before it names, else the speaker's next turns, when it is of one kind only ("烟我早不碰了"). None otherwise."""
    from jiyi.text.consumption import consumed_words, kinds_of
    from jiyi.text.ended import pointer_of_ending

    span = pointer_of_ending(reply, lang)
    if span is None or reply[span[0]:span[1]] == "它":  # (它 is a pet or a car as often as a habit)
        return None
    for source in (asked, *following):
        if named := consumed_words(source):
            kinds = {kind for word in named for kind in kinds_of(word)}
            if len(kinds) != 1:
                return None
            thing = _SMOKING_SAID[lang == "zh"] if kinds == {"smoke"} else named[0]  # (烟味, 半包: 烟)
            return reply[:span[0]] + thing + reply[span[1]:]
    return None


#: the speaker telling of a new love: 又恋爱了 / 脱单了 / 有对象了 / "seeing someone" / "got a girlfriend"
_ZH_NEW_LOVE = _P(r"恋爱了|脱单|有(?:对象|男朋友|女朋友|男票|女票)了|在一起了|交了(?:个|一个)?(?:男|女)朋友|谈(?:了个|上)?(?:恋爱|对象)了?")
_EN_NEW_LOVE = _P(r"(?i)\b(?:seeing|dating)\s+someone\b|\bgot\s+(?:a|myself\s+a)\s+(?:bf|gf|boyfriend|girlfriend|partner)\b|"
                  r"\bin\s+a\s+relationship\b|\bi'?m\s+taken\b|\bwe'?re\s+(?:official|together|dating)\b")
#: the bot asking who it is: 是谁是谁 / 谁呀 / 哪位 / "who is it?" / "who's the lucky guy?"
_ZH_WHO = _P(r"是谁|谁呀|谁啊|哪位|什么人|谁这么")
_EN_WHO = _P(r"(?i)\bwho(?:'s|\s+is)?\b[^?]{0,30}\?")
#: the name the answer gives: 叫林晚 / "her name's Ana", "it's Ana", "Ana!"
_ZH_CALLED = _P(r"叫(?P<n>[\u4e00-\u9fff]{2,3}?)(?=[\s，,。！!~～]|$|的|是|在|，)")
_EN_CALLED = _P(r"(?:(?i:name(?:'s|\s+is)|called|named|it'?s)\s+|^)(?P<n>[A-Z][a-z]+)\b")
_EN_NOT_A_NAME = _P(r"^(?:I|Im|The|A|An|He|She|They|Oh|Ok|Okay|So|Well|His|Her|My|Just|Lol|Haha|Omg|Yes|Yeah|No|Nah)$")


def introduced(before: str, asked: str, reply: str, lang: str) -> str | None:
    """The name of the partner a reply gives when the speaker told of a new love and the bot asked who
    ("姐又恋爱了" → "是谁是谁" → "一个做咖啡的 叫林晚" is "我对象叫林晚，…"; "seeing someone new!" → "who's the
    lucky guy?" → "his name's Theo, a nurse" is "My partner is Theo, …"), or None."""
    asked = _last_question(asked) or asked  # (！！是谁是谁: asked without a mark)
    if not before or not asked or not reply.strip():
        return None
    if lang == "zh":
        if not _ZH_NEW_LOVE.search(before) or not _ZH_WHO.search(asked) or not (m := _ZH_CALLED.search(reply)):
            return None
        rest = re.sub(r"^[\s，,]+|[\s，,]+$", "", reply[:m.start()] + " " + reply[m.end():])
        return f"我对象叫{m.group('n')}，{rest}" if rest else f"我对象叫{m.group('n')}"
    if not _EN_NEW_LOVE.search(before) or not _EN_WHO.search(asked) or not (m := _EN_CALLED.search(reply.strip())) \
            or _EN_NOT_A_NAME.match(m.group("n")):
        return None
    rest = reply.strip()[m.end():].strip(" ,.!")
    return f"My partner is {m.group('n')}, {rest}" if rest else f"My partner is {m.group('n')}"
