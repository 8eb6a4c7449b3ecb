"""Changes of a single-valued attribute, and the states they change, as slotted facts.

"医生给我换药了……换成缬沙坦" or "I switched to metformin" rarely names the attribute
in a pattern the fact modules know, so without help the new value gets no slot and
nothing supersedes the old one. Here a sentence is read as a whole:

* a **change** — 换成 / 改成 / 改用 / 换了 / 改为 / 改报 / 现在改… / 不再…而是… / 升到 /
  降到 / 升级为; "switched to" / "changed to" / "now use|take" / "moved up|down to" /
  "upgraded|downgraded to" — or a **state** (a dose: 5毫克 / 500 mg; a rank: 排第12 /
  第3名 / "ranked 5th") is found in a clause whose subject is the user;
* the attribute is named by the sentence's topic words (:data:`_TOPICS`): 药 / 毫克 /
  medication → ``health/medication``; 排名 / 排第 / rank → ``user/rank``; 改报 / 报考 →
  ``user/school``; 会员 / membership → ``user/membership``; 套餐 / plan →
  ``user/plan``. A change with no known topic gives nothing ("我换了个发型"): a slot
  guessed wrong would supersede an unrelated fact.

The result is one fact per slot: the sentence in third person, so the pipeline's slot
supersession marks the previous value (and its source turns) outdated. Medication is
``normal`` visibility, like allergies: a bot that hides what the user takes cannot warn
about interactions. Questions (要不要换成…？) and other people's changes (我妈换成了…)
are skipped.

A sentence of the user's that no other stage took is kept when it states a change of a
topic (:func:`jiyi.text.topics.change_of`: 落脚在厦门了, "we parted ways", 那辆车卖掉了) or
a standing state of a topic the fact patterns do not know (a vehicle, a pet, a habit, a
diet, a pursuit: "I drive a Mazda", 每天下午一罐…). Without it the change would stay a raw
turn and nothing would close what it changes (write/resolve.py ``topic_targets``).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from jiyi.extractors.rules.content import group_source, group_statement
from jiyi.extractors.rules.drafts import MAX_CHARS, Clause, Draft, fact
from jiyi.records import Kind
from jiyi.text import over, qualifiers, subjects, topics
from jiyi.text.consumption import consumption
from jiyi.text.new_value import destination, online
from jiyi.text.person import third_person, tidy_zh

if TYPE_CHECKING:
    from jiyi.extractors.rules.message import MessageExtraction

_CN_NUM = r"[\d一二两三四五六七八九十百]+"

#: endings of drug names (class stems: 氨氯地平, 缬沙坦, 卡托普利, 美托洛尔, 二甲双胍, 阿托伐他汀 …)
_ZH_DRUG = r"[\u4e00-\u9fff]{1,6}(?:地平|沙坦|普利|洛尔|双胍|他汀|霉素|西林|拉唑|胰岛素|胶囊|缓释片|口服液)"

_ZH_CHANGE = re.compile(
    r"(?:换成|改成|改用|改为|改吃|改报|换了|换药|换到|升到|降到|升至|降至|升级为|升级成|降级为|降为|调到|调成|调整为|"
    r"现在改|不再.{1,12}?而是)(?!不|没)")
_EN_CHANGE = re.compile(
    r"(?i)\b(?:switch(?:ed)?|chang(?:ed|e)|mov(?:ed|e)\s+(?:up|down)|upgrad(?:ed|e)|downgrad(?:ed|e)|"
    r"went\s+(?:up|down)|dropped|climbed)\s+(?:over\s+)?to\b|\b(?:switched|changed)\s+my\s+\w+(?:\s+\w+)?\s+to\b|\bnow\s+(?:use|using|take|taking|on)\b|"
    r"\bno\s+longer\b.{1,40}?\b(?:but|instead)\b")
_ZH_SELF = re.compile(r"我(?!们|妈|爸|老婆|老公|儿子|女儿|哥|姐|弟|妹|朋友|同事|家)|^(?!.*[他她])")
_EN_SELF = re.compile(r"(?i)\b(?:I|I'm|I've|my|me)\b")

#: (slot, zh topic words, en topic words, state pattern zh, state pattern en)
_TOPICS: tuple[tuple[str, re.Pattern[str], re.Pattern[str], re.Pattern[str] | None, re.Pattern[str] | None], ...] = (
    ("health/medication",
     re.compile(r"药(?!店|房|妆)|毫克|微克|处方|剂量|\d\s*mg|" + _ZH_DRUG, re.IGNORECASE),
     re.compile(r"(?i)\b(?:medication|medicine|meds|pills?|prescription|dosage|dose|\d+\s*(?:mg|mcg)|"
                r"insulin|\w{3,}(?:pril|sartan|olol|statin|formin|mycin|cillin|prazole|dipine|oxetine|azepam))\b"),
     re.compile(rf"{_CN_NUM}\s*(?:毫克|微克|mg)", re.IGNORECASE),
     re.compile(r"(?i)\b(?:tak(?:e|ing)|on|prescribed)\b.{0,30}\b\d+\s*(?:mg|mcg)\b")),
    ("user/rank",
     re.compile(r"排名|名次|排第|排到第|第\s*" + _CN_NUM + r"\s*名"),
     re.compile(r"(?i)\b(?:rank(?:ed|ing)?|\d+(?:st|nd|rd|th)\s+place)\b"),
     re.compile(rf"排(?:名)?(?:到了?)?第\s*{_CN_NUM}(?!个|位|天|次|排)|第\s*{_CN_NUM}\s*名|名次(?:是|为)?\s*{_CN_NUM}"),
     re.compile(r"(?i)\b(?:(?:am|was|got|is|now)\s+)?ranked\s+(?:#|number\s+)?\d+|\b\d+(?:st|nd|rd|th)\s+place\b")),
    ("user/weight",  # the user's own body weight: 体重86公斤 → 体重到82了; "I weigh 80kg" → "down to 76kg"
     re.compile(r"体重|(?:我|俺)\S{0,4}?(?:瘦|胖|减|掉)(?:了|到)"),
     re.compile(r"(?i)\b(?:i\s+weigh|my\s+weight|weigh-?in|i'?m\s+(?:down|up)\s+to|lost\s+\d+\s*(?:kg|kgs|lbs?|pounds))\b"),
     re.compile(rf"{_CN_NUM}(?:\.\d)?\s*(?:公斤|斤|kg|KG)|体重\S{{0,4}}?{_CN_NUM}(?!\s*(?:岁|天|次|个|号|年|月))"),
     re.compile(r"(?i)\b\d+(?:\.\d)?\s*(?:kg|kgs|kilos?|lbs?|pounds)\b")),
    ("user/school",
     re.compile(r"改报|报考|院校|学校|大学"),
     re.compile(r"(?i)\b(?:school|college|university|program(?:me)?)\b"),
     None, None),
    ("user/membership",
     re.compile(r"会员|卡会员|VIP|等级", re.IGNORECASE),
     re.compile(r"(?i)\b(?:membership|member|tier|vip)\b"),
     None, None),
    ("user/plan",
     re.compile(r"套餐"),
     re.compile(r"(?i)\b(?:plan|subscription)\b"),
     None, None),
)


def changes(work: MessageExtraction) -> list[Draft]:
    """One slotted fact per sentence that changes (or states) a known single-valued attribute."""
    out: list[Draft] = []
    zh = work.lang == "zh"
    for sentence in sorted({c.sentence for c in work.clauses}):
        clauses = [c for c in work.clauses if c.sentence == sentence]
        mine = [c for c in clauses if c.subject == "self" and not c.question]
        if not mine or any(c.question for c in clauses):
            continue
        text = ("，" if zh else ", ").join(c.text for c in mine)
        if not (_ZH_SELF if zh else _EN_SELF).search(text):
            out += _topical(work, clauses, mine)  # "We rehomed the rabbit"
            continue
        change = next((m for m in (_ZH_CHANGE if zh else _EN_CHANGE).finditer(text)
                       if not _looks_back(text, m, zh)), None)
        for slot, zh_topic, en_topic, zh_state, en_state in _TOPICS:
            if not (zh_topic if zh else en_topic).search(text):
                continue
            state = zh_state if zh else en_state
            stated = [c for c in mine if state is not None and state.search(c.text)]
            if change is None and not stated:
                continue
            # a weight is told by its own clauses: "体重91公斤 目标年底减到80" keeps the goal out of it
            out.append(_draft(work, stated if change is None and slot == "user/weight" else mine, slot))
            break
        else:
            out += _topical(work, clauses, mine)
    return out


#: what belongs to a phone or a mailbox without being its number or address
_A_PART_OF_IT = re.compile(r"(?i)\b(?:email|e-mail|phone|mail)\s+(?:signature|case|screen|wallpaper|charger|cover|plan|"
                           r"settings|ringtone|theme|template)\b|手机(?:壳|膜|屏|套|套餐|铃声|壁纸)|邮件签名|邮箱签名")
#: families a standing statement is kept for when no fact pattern took it
_UNTAKEN_FAMILIES = frozenset({"vehicle", "pet", "habit", "diet", "pursuit"})


def _topical(work: MessageExtraction, clauses: list[Clause], mine: list[Clause]) -> list[Draft]:
    """A change of a topic, or a topic's standing state, that nothing else in the sentence took."""
    if any(c.consumed or work.qualifying(c) for c in clauses) or len(mine) < len(clauses):
        if any(work.qualifying(c) for c in clauses):  # an event (events.py): the write side reads the change from it,
            # unless the day is another clause's (超市那份工我辞了 周末终于能睡懒觉): then the change is told on its own
            dated = [c for c in mine if work.qualifying(c)]
            if any(_users_change(_said_by_user(work.content(c), work.lang), work.lang) for c in dated):
                return _dated_outcome(work, mine)  # (那家公司我不待了，上周递了辞呈: one change, of that day)
            return _dated_outcome(work, mine) or _changed_clauses(work, [c for c in mine if not work.qualifying(c)],
                                                                  ending=True)
        return _changed_clauses(work, mine)  # partly taken: only a clause of change is left
    text = _said_by_user(_couple(work, mine) or group_statement([work.content(c) for c in mine], work.lang, MAX_CHARS),
                         work.lang)
    change = topics.change_of(text, work.lang)
    if change is not None and change.cls == "replace" and _A_PART_OF_IT.search(text):
        change = None  # "changed my email signature", 换了个手机壳: a part of the thing, not its number
    if change is not None and (qualifiers.hedged(text, work.lang) or qualifiers.told_long_ago(text, work.lang)):
        change = None  # "I might sell the car" changes nothing, nor is it a car of the user's
        standing: frozenset[str] = frozenset()
    else:
        standing = topics.families_of(text, None, work.lang) & _UNTAKEN_FAMILIES
        if "habit" in standing and consumption(text, work.lang) is None and not topics.names(text, work.lang):
            standing -= {"habit"}  # 一直有人咳嗽: a frequency word alone is no habit ("grab a Red Bull" names one)
    over = change is None and not standing and _over_named(text, work.lang)
    named = over or change is not None and change.cls in ("lose", "sell")
    if change is None and not standing and not over or not subjects.users_change(text, work.lang, change,
                                                                                named_subject=named):
        return []
    d = _draft(work, mine, _slot_of(change, text, work.lang))
    d.kind = Kind.BEHAVIOR if change is None and standing == {"habit"} else Kind.FACT
    d.importance, d.confidence = (0.7, 0.8) if change is not None or over else (0.55, 0.75)
    d.content = text
    for c in mine:
        c.consumed = True
    return [d]


def _dated_outcome(work: MessageExtraction, mine: list[Clause]) -> list[Draft]:
    """The standing value a change told with its day leaves (上个月从杭州搬走了，现在在成都 → the city; "moved out of
    Leeds last week, Bristol now"): the change is an event of that day (events.py), what it changed to lasts. A
    change still ahead ("moving to Austin in January") leaves it to the event until then."""
    spans = [s for c in mine for s in work.qualifying(c)]
    if not spans or any(s.start > work.ref for s in spans) or any(c.consumed and c.subject == "self" for c in mine):
        return []  # (a fact pattern took it: "I moved to Seattle last month" is the city from its day already)
    text = _said_by_user(group_statement([work.content(c) for c in mine], work.lang, MAX_CHARS), work.lang)
    change = _users_change(text, work.lang)
    slot = _slot_of(change, text, work.lang)  # (a loss or a sale fills none)
    return [] if slot is None else [_change_fact(work, mine, text, slot)]


def _users_change(text: str, lang: str) -> topics.Change | None:
    """The change ``text`` states of the user's own life, or None: none, hedged, told as long ago, or someone
    else's (what was lost or sold may stand as the subject: 年糕也送我妹那去了)."""
    change = topics.change_of(text, lang)
    if (change is None or qualifiers.hedged(text, lang) or qualifiers.told_long_ago(text, lang)
            or not subjects.users_change(text, lang, change, named_subject=change.cls in ("lose", "sell"))):
        return None
    return change


def _change_fact(work: MessageExtraction, clauses: list[Clause], text: str, slot: str | None) -> Draft:
    """The fact of a change, ``text`` (the user's words in third person), filling ``slot``."""
    d = _draft(work, clauses, slot)
    d.kind, d.content, (d.importance, d.confidence) = Kind.FACT, text, (0.7, 0.8)
    return d


#: the slot a change to a new value of a single-valued family fills: the new job, the new city
_NEW_VALUE_SLOTS = {"employer": "user/employer", "residence": "user/city"}


def _slot_of(change: topics.Change | None, text: str, lang: str) -> str | None:
    """The standing slot a change states the new value of: a new job (进了青柚互娱做UI, "started at Hallow
    Labs") is the employer, a move naming where to (落脚在厦门了) the city, a wedding the spouse; a move
    naming no place fills none."""
    if change is None or change.direction != "to" or not change.families:
        return None
    if change.cls == "marry":
        return "relation/spouse"  # "WE'RE MARRIED": who the partner is now stands in the profile
    slot = _NEW_VALUE_SLOTS.get(change.families[0])
    if change.cls == "move" and (qualifiers.on_a_trip(text, lang) or lang == "zh" and online(text[change.at:])):
        return None  # 人已经到昆明了，出差三天: a trip, the city stays; 店搬到美团上了: a platform
    if slot and (change.cls == "join" or destination(text, lang, change.at)):
        return slot
    return None


def _said_by_user(text: str, lang: str) -> str:
    """``text`` with the user as its subject when it has none ("Got rid of my car" → "User: Got rid of…")."""
    text = text.lstrip("，,、；;：: ")
    return text if text.startswith(("用户", "User")) else ("用户：" if lang == "zh" else "User: ") + text


def _changed_clauses(work: MessageExtraction, mine: list[Clause], *, ending: bool = False) -> list[Draft]:
    """In a sentence other stages took part of, the user's clauses that state a change, kept on their own
    (祸不单行 年糕也送我妹那去了 我老婆最近查出来对猫毛过敏: the cat is given away, whatever the allergy); with
    ``ending``, only a change away from something (a new job or home beside a day is that day's event)."""
    out: list[Draft] = []
    for c in mine:
        if c.consumed:
            continue
        text = _said_by_user(work.content(c), work.lang)
        if (change := _users_change(text, work.lang)) is None or ending and change.direction != "from":
            continue
        c.consumed = True
        out.append(_change_fact(work, [c], text, _slot_of(change, text, work.lang)))
    return out


def _over_named(text: str, lang: str) -> bool:
    """洛阳那套房子退租了 / 和佳怡彻底断了: something named is over (write/resolve.py closes what gave that name)."""
    if over.says_over(text, lang) is None or qualifiers.hedged(text, lang) or qualifiers.told_long_ago(text, lang):
        return False
    return bool(over.named_over(text, lang))


_EN_COUPLE = re.compile(r"^\s*(?P<n>[A-Z][\w'-]+)\s+and\s+I\b(?P<rest>.*)$", re.DOTALL)
_ZH_COUPLE = re.compile(r"^\s*(?P<n>[\u4e00-\u9fff]{1,4}?)(?:和|跟|与)我(?P<rest>.*)$", re.DOTALL)


def _couple(work: MessageExtraction, mine: list[Clause]) -> str | None:
    """"Priya and I aren't together anymore" / 周航和我分开了: the user first, the other beside."""
    source = work.text[mine[0].start:mine[-1].end]
    m = (_ZH_COUPLE if work.lang == "zh" else _EN_COUPLE).match(source)
    if m is None or m.group("n").lower() in ("he", "she", "they", "we", "you", "他", "她", "你", "他们"):
        return None
    lead = f"我和{m.group('n')}" if work.lang == "zh" else f"I and {m.group('n')}"
    body = third_person(lead + m.group("rest").rstrip(" .!。！"), work.lang)
    return body if work.lang != "zh" else tidy_zh(body)


_ZH_AFTER = re.compile(r"^.{0,4}?(?:之后|以后|后(?![面边头来])|的时候)")
_EN_AFTER = re.compile(r"(?i)\b(?:since|after|when|before)\s+(?:\w+\s+){0,2}$")


def _looks_back(text: str, m: re.Match[str], zh: bool) -> bool:
    """换了药之后挺稳的 / 自从换成… / "since I switched to…": a change referred back to, not made."""
    if zh:
        return bool(_ZH_AFTER.match(text[m.end():]) or text[: m.start()].endswith(("自从", "自", "从")))
    return bool(_EN_AFTER.search(text[: m.start()]))


def _draft(work: MessageExtraction, group: list[Clause], slot: str | None) -> Draft:
    text = group_statement([work.content(c) for c in group], work.lang, MAX_CHARS)
    d = fact(text, slot, "", importance=0.7, confidence=0.8)
    d.source = group_source(group)
    d.source_at = group[0].start
    return d
