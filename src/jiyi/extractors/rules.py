"""The default extractor: offline Chinese and English patterns (SPEC §2.5).

Only the user's own messages are mined (role ``user``); assistant turns are read
only to learn which attribute a bare correction ("不对，杭州") refers to. Each
message is split into sentences and clauses (Chinese commas separate clauses: 我叫小王，
住在上海，在腾讯做程序员，对花生过敏 gives four memories), each clause gets a subject
(the user, a relative, the assistant, someone else; subject-less clauses inherit it),
and ordered patterns turn clauses into canonical third-person statements:
``用户…`` for Chinese input, ``User …`` for English.

Slots (single-valued attributes; a new value supersedes the old one):

======================  =====================================================
``user/name``           名字 / name (also ``叫我X`` / "call me X")
``user/surname``        我姓王
``user/age``            年龄 / age
``user/city``           where the user lives; moves (搬到/I moved to) write here too
``user/hometown``       我是上海人 / I'm from Boston
``user/job``            职业 / job title
``user/employer``       公司 / employer
``user/phone``          手机号 (sensitive)
``user/email``          邮箱 (sensitive)
``user/address``        地址 (sensitive)
``user/id_number``      身份证/passport numbers (sensitive)
``relation/<role>``     name of a single-valued relation: wife, husband, girlfriend,
                        boyfriend, partner, mother, father, boss (many-valued ones —
                        children, siblings, friends, pets — carry no slot)
``allergy/<item>``      one per allergen (花生, penicillin)
``health/<condition>``  one per diagnosis (sensitive)
``diet/type``           吃素 / vegetarian / vegan
``pref/<object>``       like / dislike / don't eat / quit, keyed by the object, so
                        "我戒了咖啡" supersedes "我喜欢咖啡"
``style/length``        回答简短点 / be concise / more detail
``style/language``      用英文回复 / reply in Chinese
``style/emoji``         别用表情 / no emoji
``style/tone``          别灌鸡汤 / no lectures
``contact/channel``     发短信别打电话 / email me, don't call
======================  =====================================================

Decisions:
- allergies are ``normal`` visibility with importance 0.9: a bot that hides a peanut
  allergy when the user orders food is dangerous; other diagnoses are ``sensitive``.
- events (anything with a resolved time that no fact pattern claimed) get
  ``valid_from``/``valid_until`` from the time expression, resolved against the
  message's timestamp; a same-day or next-day plan that has not happened yet
  (今天中午想吃面) also gets ``expires_at`` at the end of that day.
- ``记住 / 别忘了 / remember`` raise importance to at least 0.85; with nothing a
  pattern recognises after them, the remembered text itself is stored.
- corrections (不对 / 我说错了 / 其实是 / actually / I meant) mark candidates
  ``corrects=True``; a bare value ("不对，杭州") takes the slot of the last
  attribute stated in the conversation, or the one the assistant just asked about.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone, tzinfo
from typing import TYPE_CHECKING

from jiyi.extractors.protocol import Candidate
from jiyi.records import Kind, Message, Visibility
from jiyi.text import zh
from jiyi.text.entities import find_entities
from jiyi.text.language import detect_language
from jiyi.text.person import third_person, tidy_zh
from jiyi.text.relations import (
    EN_NAME_DENY,
    NAME_DENY,
    PRONOUN_GENDER,
    REL_EN,
    REL_ZH,
    REL_ZH_RE,
    SINGLE_VALUED,
    alternation,
    en_relation_names,
    looks_like_name_zh,
    name_at_start,
    zh_relation_names,
)
from jiyi.text.smalltalk import is_smalltalk
from jiyi.text.wordlists import words
from jiyi.write.timeparse import TimeSpan, cn_to_int, find_time_expressions

if TYPE_CHECKING:
    from jiyi.config import Settings

MAX_CHARS = 200
N, S = Visibility.NORMAL, Visibility.SENSITIVE


@dataclass(slots=True)
class Draft:
    """A candidate being built; ``template`` (with ``{v}``) lets a correction reuse it."""

    kind: Kind
    content: str
    slot: str | None = None
    values: list[str] = field(default_factory=list)
    importance: float = 0.5
    confidence: float = 0.85
    visibility: Visibility = N
    valid_from: datetime | None = None
    valid_until: datetime | None = None
    expires_at: datetime | None = None
    template: str | None = None
    source: str = ""
    source_at: int = 0


@dataclass(slots=True)
class Clause:
    """One clause of a message, with its subject and the time spans inside it."""

    text: str
    start: int
    end: int
    sentence: int
    subject: str = "self"  # self | rel | bot | other
    rel: str | None = None
    rel_name: str | None = None
    body: str = ""
    spans: list[TimeSpan] = field(default_factory=list)
    consumed: bool = False
    question: bool = False
    inherited: bool = False  # no subject of its own: continues the previous clause


# ---------------------------------------------------------------- splitting

_ZH_SENT = re.compile(r"[。！？!?；;\n…]+")
_ZH_CLAUSE = re.compile(r"[，,]+|(?<=[\u4e00-\u9fff])\s+(?=[\u4e00-\u9fff])")
_EN_SENT = re.compile(r"(?<=[.!?])\s+|[;\n]+")
_EN_CLAUSE = re.compile(
    r",\s*(?=(?:and\s+|but\s+|so\s+)?(?:I|I'm|I've|I'll|I'd|my|My|we|We|he|she|they|He|She|They)\b)"
    r"|\s+(?:and|but|so)\s+(?=(?:I|I'm|I've|I'll|I'd|my)\b)"
)
_ZH_QUESTION = re.compile(r"[？?]$|吗[？?]?$|能不能|可不可以|是不是|有没有|怎么(?!样都)|什么(?!都)|多少|几[个点号]|咋|"
                          r"有啥|干啥|啥时候|来着$")
_EN_QUESTION = re.compile(r"\?$|^(?:what|how|why|where|when|which|who|do|does|did|can|could|would|should|will|is|are)"
                          r"\b", re.IGNORECASE)


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
    sent_re, clause_re = (_ZH_SENT, _ZH_CLAUSE) if lang == "zh" else (_EN_SENT, _EN_CLAUSE)
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


# ---------------------------------------------------------------- subjects

_ZH_REL_START = re.compile(rf"^(?:(?:我|俺)(?:的|家)?(?P<rel>{REL_ZH_RE})"
                           rf"|(?P<bare>{alternation([w for w in REL_ZH if len(w) > 1 and w not in ('先生', '对象')])}))")
_ZH_SELF = re.compile(r"^(?:我们|咱们|我|本人|俺)")
_ZH_REPORTED = re.compile(r"^(?:医生|大夫)(?:说|讲|告诉我)(?:我)?")
_ZH_BOT = re.compile(r"^(?:你们|您|你|请你?|麻烦你?)")
_ZH_PRON = re.compile(r"^(?P<p>他们|她们|他|她|它)")


def without_times(c: Clause) -> str:
    """The clause with its time expressions cut out: patterns see 我搬到杭州 in 我下个月搬到杭州."""
    text = c.text
    for span in sorted(c.spans, key=lambda s: s.offset, reverse=True):
        lo, hi = max(span.offset - c.start, 0), min(span.end_offset - c.start, len(text))
        if lo < hi:
            text = text[:lo] + text[hi:]
    return text


def assign_subject_zh(c: Clause, prev: Clause | None, recent_rel: tuple[str, str | None] | None) -> None:
    """Set ``c.subject``/``rel``/``body`` from how the clause starts (after fillers and times)."""
    t = tidy_zh(without_times(c))
    if m := _ZH_REL_START.match(t):
        word = m.group("rel") or m.group("bare")
        c.subject, c.rel, c.body = "rel", word, t
        return
    if m := _ZH_REPORTED.match(t):
        c.subject, c.body = "self", t[m.end():]
        return
    if m := _ZH_SELF.match(t):
        c.subject, c.body = "self", t[m.end():]
        return
    if _ZH_BOT.match(t):
        c.subject, c.body = "bot", t
        return
    if m := _ZH_PRON.match(t):
        gender = PRONOUN_GENDER.get(m.group("p"))
        if recent_rel and gender and REL_ZH.get(recent_rel[0], ("", ""))[1] == gender:
            c.subject, c.rel, c.rel_name, c.body = "rel", recent_rel[0], recent_rel[1], t[m.end():]
        else:
            c.subject, c.body = "other", t
        return
    if prev is not None and prev.sentence == c.sentence:
        c.subject, c.rel, c.rel_name = prev.subject, prev.rel, prev.rel_name
        c.inherited = True
    c.body = t


# ---------------------------------------------------------------- Chinese fact patterns

_ADV = r"(?:现在|目前|已经|也|还|都|就|才|刚|刚刚|正|今年|最近|本来|一直|平时|其实|真的|确实|主要|目前还)*"
_VAL = r"(?P<v>[^，,。！？!?；;\s]{1,40})"
_PUNCT_CUT = re.compile(r"[，,。！？!?；;\s]")

_ZH_NAME_IS = re.compile(rf"^{_ADV}(?:的)?(?:名字|姓名|全名|大名)(?:叫做|叫|是|为)?[:：]?\s*{_VAL}")
_ZH_NAME_CALLED = re.compile(rf"^{_ADV}(?:叫做|名叫|叫){_VAL}")
_ZH_CALL_ME = re.compile(r"(?:^|你|您|大家|以后|可以|就|都|请|直接)叫我(?P<v>[^，,。！？!?；;\s]{1,12})")
_ZH_SURNAME = re.compile(r"^姓(?P<v>[\u4e00-\u9fff])(?:[，,。]|$|的|，)")
_ZH_AGE = re.compile(rf"^{_ADV}(?:已经|都|才|快)?(?P<v>\d{{1,3}}|[一二三四五六七八九十两]{{1,3}})(?:周)?岁(?!的)")
_ZH_MOVE = re.compile(rf"^{_ADV}(?:要|准备|打算|计划|将|会|刚|已经|终于)?(?:搬家)?"
                      rf"(?:搬到|搬去|搬进|搬回|迁到|搬家到|搬家去)(?:了)?{_VAL}")
_ZH_NEWHOME = re.compile(rf"^(?:的)?新家(?:在|位于|是){_VAL}")
_ZH_LIVE = re.compile(rf"^{_ADV}(?:住在|家住|家在|生活在|定居在|定居|常驻|暂住在|住){_VAL}")
_ZH_LIVE_WORK = re.compile(r"^" + _ADV + r"在(?P<v>[^，,。！？!?\s]{1,20}?)(?:工作生活|生活工作|生活|定居|长大)$")
_ZH_HOMETOWN = re.compile(rf"^{_ADV}(?:是(?P<v>[\u4e00-\u9fff]{{2,8}}?)人$|(?:老家(?:是|在)|来自){_VAL.replace('v>', 'w>')})")
_ZH_WORK_AT = re.compile(rf"^{_ADV}在(?P<org>[^，,。！？!?\s]{{1,24}}?)(?:工作|上班|任职|就职|实习|打工)(?:了|呢|啊)?$")
_ZH_WORK_AS = re.compile(rf"^{_ADV}在(?P<org>[^，,。！？!?\s]{{1,24}}?)(?:做|当|担任|干)(?P<job>[^，,。！？!?\s]{{1,12}})$")
_ZH_EMPLOYED = re.compile(rf"^{_ADV}(?:就职于|供职于|任职于|入职了?|加入了?)(?P<org>[^，,。！？!?\s]{{2,24}})$")
_ZH_JOB = re.compile(rf"^{_ADV}(?:是|做|当|干)(?:一名|一个|一位|个|名)?(?P<job>[^，,。！？!?\s]{{1,12}}?)(?:的)?$")
_ZH_JOB_DO = re.compile(rf"^{_ADV}是(?:做|搞|干)(?P<job>[^，,。！？!?\s]{{1,10}})的$")
_ZH_ORG_JOB = re.compile(rf"^{_ADV}是(?P<org>[^，,。！？!?\s]{{2,20}}?)的(?P<job>[^，,。！？!?\s]{{1,10}})$")
_ZH_I_AM = re.compile(rf"^{_ADV}是(?P<v>[^，,。！？!?\s]{{1,6}})$")
_JOB_SUFFIX = re.compile(
    r"(?:师|员|工|经理|总监|主管|主任|老板|医生|护士|律师|会计|司机|厨师|记者|编辑|作家|演员|警察|教授|博士生?|硕士生?|"
    r"研究生|本科生|大学生|高中生|初中生|小学生|学生|留学生|实习生|公务员|销售|运营|前端|后端|全栈|自由职业者?|创业者|主播|"
    r"博主|模特|歌手|画家|农民|军人|保安|店主|宝妈|全职妈妈|HR|CEO|CTO|产品|老师|教练|导游|翻译|客服|助理|秘书|专员|"
    r"顾问|分析师|架构师|会计师|药剂师|董事长|总裁|经纪人|外卖小哥|快递小哥|退休职工|退休了)$"
)
_PLACE_SUFFIX = re.compile(r"(?:市|省|区|县|镇|乡|村|州|岛)$")
_PLACE_TRIM = re.compile(r"(?:对吧|对吗|是吧|是吗|吗|那边|这边|那里|这里|那儿|这儿|附近|一带|去了|去|来|住|的家|了|啦|吧|呢|啊|哦|哈|的)+$")
_GENERIC_PLACES = words("家 家里 这 那 这里 那里 公司 单位 宿舍 学校 酒店 宾馆 外地 外面 老家 国外 本地 附近 哪 哪里")
_ADDR_LIKE = re.compile(r"\d+\s*(?:号|弄|室|栋|幢|单元|楼|层|号楼)|(?:路|街|巷|道|弄|村|里)\d")
_ZH_ADDRESS = re.compile(r"(?:收货地址|家庭住址|新地址|地址|住址|新家在|家在|住在|寄到|送到)"
                         r"(?:是|为|:|：|在|改成|改为|换成|填的?)?\s*(?P<v>[\u4e00-\u9fffA-Za-z0-9\-#－]{4,60})")
_ZH_BARE_ADDRESS = re.compile(r"^(?P<v>[\u4e00-\u9fff]{2,20}(?:路|街|大道|巷|道)\d+(?:弄|号)[\dA-Za-z\-号弄室栋幢单元楼层]*)$")
_ZH_CITY_OF_ADDR = re.compile(r"^(?P<c>[\u4e00-\u9fff]{2,4}?)市")
_PHONE = re.compile(r"(?<![\d*])(?:\+?86[-\s]?)?(?P<v>1[3-9]\d{9})(?![\d*])")
_LANDLINE = re.compile(r"(?:电话|座机|固话|号码)(?:是|为|:|：)?\s*(?P<v>0\d{2,3}-?\d{7,8})(?!\d)")
_EMAIL = re.compile(r"(?P<v>[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,})")
_ZH_ID = re.compile(r"(?:身份证|证件|护照)(?:号码|号)?(?:是|为|:|：)?\s*(?P<v>\d{17}[\dXx]|\d{15}|[A-Z]\d{8})(?![\dA-Za-z])")
_ZH_ALLERGY = re.compile(rf"^{_ADV}(?:对|有)?(?P<v>[\u4e00-\u9fffA-Za-z、和与及]{{1,10}}?)"
                         r"(?:有点|有些|特别|非常|很|严重|比较|轻微|都)?过敏(?!性)")
_ZH_ALLERGEN_IS = re.compile(r"过敏原(?:是|为|有)(?P<v>[\u4e00-\u9fffA-Za-z、和与及跟]{1,16})")
_ZH_CONDITIONS = (
    "高血压|低血压|高血脂|高血糖|糖尿病|哮喘|心脏病|冠心病|抑郁症|焦虑症|失眠症|癫痫|痛风|胃炎|胃溃疡|贫血|甲亢|甲减|乙肝|"
    "过敏性鼻炎|鼻炎|湿疹|颈椎病|腰椎间盘突出|腰间盘突出|关节炎|偏头痛|脂肪肝|肾结石|胆结石|癌症|乳腺癌|肺癌|肿瘤|色盲|"
    "乳糖不耐受?|帕金森|阿尔茨海默症?|心律不齐|心肌炎|甲状腺结节|多囊卵巢|抑郁|焦虑"
)
_ZH_HEALTH = re.compile(rf"(?:有|得了?|患有?|查出(?:来)?了?|确诊(?:了|为)?|诊断(?:出|为)?|算|是|犯了?)"
                        rf"(?:轻度|轻微的?|严重的?|慢性|点|一点)?(?P<v>{_ZH_CONDITIONS})")
_ZH_HIGH = re.compile(r"^(?P<v>血压|血糖|血脂|尿酸)(?:有点|有些|偏|比较|很)?高")
_ZH_PREGNANT = re.compile(r"怀孕|怀上了|在孕期|孕(?:\d+|[一二三四五六七八九十]+)周")
_ZH_VEG = re.compile(rf"^{_ADV}(?:只)?(?:吃素|是素食者|是素食主义者|吃全素|是纯素食?者?)")
_ZH_NO_EAT = re.compile(rf"^{_ADV}(?P<neg>一点都不|完全不|从来不|从不|不能|不敢|不)(?P<verb>吃|喝|碰)"
                        r"(?P<v>[^，,。！？!?\s]{1,12})")
_ZH_QUIT = re.compile(r"(?:戒了|戒掉了|戒掉|在戒|开始戒|决定戒|要戒|戒)(?![不了掉])(?P<v>[\u4e00-\u9fff]{1,4}?)(?:了|啦|吧)?$")
_NOT_A_HABIT_OBJECT = re.compile(r"快|个月|周|天|年|已经|不了|想|还是|要|就|也|都|会|能")
_ZH_QUIT_TOPIC = re.compile(r"^(?P<v>[\u4e00-\u9fff]{1,4}?)(?:我)?(?:也|已经|都|早就|早)?戒(?:了|掉了|掉)")
_ZH_LIKE = re.compile(
    rf"^{_ADV}(?:(?:最|特别|很|超|超级|非常|比较|挺|还挺|真的|蛮|也|还|一直|都|更|尤其)*)"
    r"(?P<neg>不太|不怎么|不是很|没那么|不)?(?:太|很|怎么)?"
    r"(?P<verb>喜欢|爱|讨厌|烦|受不了|偏好|偏爱|钟爱|热爱|迷上了|沉迷于?|害怕|反感)(?P<v>[^，,。！？!?；;]{1,40})"
)
_ZH_HABIT = re.compile(
    rf"^{_ADV}(?P<adv>每天|天天|每晚|每周|每个月|每月|每年|每次|经常|常常|通常|一般|平时|平常|总是|老是|一直|从不|从来不|"
    r"从来没|向来|习惯|一向)(?P<v>[^，,。！？!?；;]{2,40})"
)
_ZH_FREQ = re.compile(r"^(?:一天|每天|一周|每周|一个月|每月)[\d一二两三四五六七八九十几]+(?:杯|次|包|顿|个|小时|公里|趟|瓶|支)")
_STYLE_ZH: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("style/length", re.compile(
        r"(?:简短|简洁|简单|精简|短)(?:一?点|一些|些)|(?:别|不要|少)(?:太)?(?:啰嗦|废话|长篇大论)|"
        r"(?:别|不要)(?:给我)?(?:发|写|回|说)?(?:这么|那么)?(?:一大段|一长串|长篇)|说重点|"
        r"(?:详细|具体|仔细)(?:一?点|一些|些)|说(?:得)?(?:详细|具体)")),
    ("style/language", re.compile(
        r"(?:用|说|讲)(?:英文|英语|中文|汉语|普通话|粤语|日语|日文|韩语|繁体字?|简体字?)"
        r"(?:回复|回答|跟我说|和我说|交流|聊天?|说话|写|沟通)|(?:回复|回答|跟我说话?|和我聊)(?:请)?(?:都)?(?:用|说)"
        r"(?:英文|英语|中文|汉语|普通话|粤语|日语|日文|韩语)")),
    ("style/emoji", re.compile(r"(?:别|不要|不用|少|不许)(?:再)?(?:用|发|加|带|放)?(?:表情|emoji|颜文字)|"
                               r"多(?:用|发|加)点?(?:表情|emoji)", re.IGNORECASE)),
    ("style/tone", re.compile(
        r"(?:别|不要|不用)(?:老|总|再|总是|老是)?(?:给我)?(?:灌鸡汤|鸡汤|说教|讲大道理|讲道理|客套|打官腔|拍马屁)|"
        r"(?:正式|随意|幽默|温柔|严肃|口语化)(?:一?点|一些)")),
    ("contact/channel", re.compile(
        r"(?:发|用|通过|改成|换成|改用|走)(?:给)?(?:我)?(?:短信|邮件|邮箱|微信|站内信|App推送|APP推送|app推送|推送|QQ|钉钉|飞书)|"
        r"(?:别|不要|千万别|勿|不用|别再)(?:给我)?(?:打电话|打我电话|发邮件|发短信|发微信|致电|来电)")),
)


# ---------------------------------------------------------------- Chinese fact rules

def _fact(content: str, slot: str | None, value: str, *, kind: Kind = Kind.FACT, importance: float = 0.6,
          confidence: float = 0.9, visibility: Visibility = N, template: str | None = None) -> Draft:
    return Draft(kind, content, slot, [value] if value else [], importance, confidence, visibility,
                 template=template)


def _templated(template: str, slot: str, value: str, *, kind: Kind = Kind.FACT, importance: float = 0.6,
               visibility: Visibility = N) -> Draft:
    """A single-valued fact whose ``template`` can restate it with a corrected value."""
    return _fact(template.format(v=value), slot, value, kind=kind, importance=importance, visibility=visibility,
                 template=template)


def _clean_value(v: str) -> str:
    cut = _PUNCT_CUT.search(v)
    return (v[: cut.start()] if cut else v).strip()


def _clean_place(v: str) -> str | None:
    v = _PLACE_TRIM.sub("", _clean_value(v))
    if not v or v in _GENERIC_PLACES or len(v) > 20 or v[0] in "这那哪个几一二两三四五六七八九十" or v[0].isdigit():
        return None
    return v


def _is_place(word: str) -> bool:
    """Is ``word`` a place rather than an organisation (上海 vs 腾讯)?"""
    if _PLACE_SUFFIX.search(word):
        return True
    tags = zh.pos_tags(word)
    return len(tags) >= 1 and all(flag == "ns" for _, flag in tags)


def _is_job(word: str) -> bool:
    return bool(_JOB_SUFFIX.search(word)) and not re.search(r"[的了不很我你他她]", word)


def _zh_name(body: str) -> list[Draft]:
    for pattern in (_ZH_NAME_IS, _ZH_NAME_CALLED):
        if m := pattern.match(body):
            name = name_at_start(m.group("v"), explicit=True)
            if name and name[0] not in "他她它你您我这那别不没一":
                return [_templated("用户名字是{v}", "user/name", name, importance=0.8)]
    if m := _ZH_CALL_ME.search(body):
        raw = m.group("v")
        name = name_at_start(raw, explicit=True)
        polite = re.match(r".{1,6}?(?:就行|就好|就可以|吧|即可)", raw)
        if name and (looks_like_name_zh(name) or polite) and name not in NAME_DENY:
            return [_templated("用户希望被叫作{v}", "user/name", name, importance=0.8)]
    if m := _ZH_SURNAME.match(body):
        return [_templated("用户姓{v}", "user/surname", m.group("v"), importance=0.6)]
    return []


def _zh_age(body: str) -> list[Draft]:
    if m := _ZH_AGE.match(body):
        age = cn_to_int(m.group("v"))
        if 1 <= age <= 120:
            return [_templated("用户{v}岁", "user/age", str(age))]
    return []


def _zh_residence(body: str) -> list[Draft]:
    if m := _ZH_MOVE.match(body) or _ZH_NEWHOME.match(body):
        raw = _clean_value(m.group("v"))
        if _ADDR_LIKE.search(raw):
            return _zh_address_value(raw)
        if place := _clean_place(raw):
            return [_templated("用户搬到了{v}", "user/city", place, importance=0.7)]
    if m := _ZH_LIVE.match(body) or _ZH_LIVE_WORK.match(body):
        raw = _clean_value(m.group("v"))
        if _ADDR_LIKE.search(raw):
            return _zh_address_value(raw)
        if place := _clean_place(raw):
            return [_templated("用户住在{v}", "user/city", place, importance=0.7)]
    if m := _ZH_HOMETOWN.match(body):
        place = _clean_place(m.group("v") or m.group("w") or "")
        if place:
            return [_templated("用户是{v}人", "user/hometown", place)]
    return []


_ADDR_PART = re.compile(r"路|街|道|弄|巷|村|小区|大厦|公寓|花园|苑|区|镇|号楼|单元|栋|幢")
_ADDR_TAIL = re.compile(r"(?:对吗|对吧|是吗|吗|啦|吧|呢|哦|啊|呀|了|的)+$")


def _zh_address_value(addr: str) -> list[Draft]:
    addr = _ADDR_TAIL.sub("", addr)
    if not _ADDR_PART.search(addr) or addr[0] in "和跟与的是都也在就把":
        return []
    out = [_templated("用户的地址是{v}", "user/address", addr, importance=0.7, visibility=S)]
    if m := _ZH_CITY_OF_ADDR.match(addr):
        out.append(_templated("用户住在{v}", "user/city", m.group("c"), importance=0.7))
    return out


def _zh_work(body: str) -> list[Draft]:
    if m := _ZH_WORK_AS.match(body):
        org, job = _clean_value(m.group("org")), _clean_value(m.group("job"))
        out = [] if org in _GENERIC_PLACES else [_org_or_city(org)]
        if _is_job(job):
            out.append(_templated("用户是{v}", "user/job", job))
        return out
    if m := _ZH_WORK_AT.match(body) or _ZH_EMPLOYED.match(body):
        org = _clean_value(m.group("org"))
        return [] if org in _GENERIC_PLACES or not org else [_org_or_city(org)]
    if m := _ZH_ORG_JOB.match(body):
        org, job = m.group("org"), m.group("job")
        if _is_job(job):
            return [_org_or_city(org), _templated("用户是{v}", "user/job", job)]
    if m := _ZH_JOB_DO.match(body):
        return [_templated("用户是做{v}的", "user/job", m.group("job"))]
    if m := _ZH_JOB.match(body):
        job = m.group("job")
        if _is_job(job):
            return [_templated("用户是{v}", "user/job", job)]
    return []


def _org_or_city(org: str) -> Draft:
    if _is_place(org):
        return _templated("用户在{v}工作", "user/city", org, importance=0.7)
    return _templated("用户在{v}工作", "user/employer", org)


def _zh_i_am_name(body: str) -> list[Draft]:
    """我是小王 — only once job and hometown patterns have declined."""
    if (m := _ZH_I_AM.match(body)) and looks_like_name_zh(m.group("v")) and not _is_job(m.group("v")):
        return [_templated("用户名字是{v}", "user/name", m.group("v"), importance=0.8)]
    return []


def _zh_contact(text: str) -> list[Draft]:
    out = [_templated("用户的手机号是{v}", "user/phone", m.group("v"), importance=0.7, visibility=S)
           for m in _PHONE.finditer(text)]
    if not out and (landline := _LANDLINE.search(text)):
        out.append(_templated("用户的电话是{v}", "user/phone", landline.group("v"), importance=0.7, visibility=S))
    if email := _EMAIL.search(text):
        out.append(_templated("用户的邮箱是{v}", "user/email", email.group("v"), importance=0.7, visibility=S))
    if ident := _ZH_ID.search(text):
        out.append(_templated("用户的证件号是{v}", "user/id_number", ident.group("v"), importance=0.7, visibility=S))
    addr = _ZH_ADDRESS.search(text) or _ZH_BARE_ADDRESS.match(tidy_zh(text))
    if addr and _ADDR_LIKE.search(addr.group("v")):
        out.extend(_zh_address_value(addr.group("v")))
    return out


def _zh_allergies(body: str, sentence: str) -> list[Draft]:
    """我对花生和海鲜过敏 → one memory per allergen; 挺严重的 anywhere in the sentence marks it severe."""
    m = _ZH_ALLERGY.match(body) or _ZH_ALLERGEN_IS.search(body)
    if m is None or "不过敏" in body:
        return []
    severe = "严重" if "严重" in sentence else ""
    out: list[Draft] = []
    for item in re.split(r"[、和与及跟]|还有", m.group("v").lstrip("对有")):
        item = item.strip()
        if item and not re.search(r"[不我你他她说就跟让给后吃喝在会]|什么|有点|这个", item):
            out.append(_fact(f"用户对{item}{severe}过敏", f"allergy/{item}", item, importance=0.9,
                             template="用户对{v}" + severe + "过敏"))
    return out


def _zh_health(body: str, sentence: str) -> list[Draft]:
    out = _zh_allergies(body, sentence)
    for m in _ZH_HEALTH.finditer(body):
        cond = m.group("v")
        if not any(cond in d.content for d in out):
            out.append(_fact(f"用户有{cond}", f"health/{cond}", cond, importance=0.8, visibility=S))
    if high := _ZH_HIGH.match(body):
        what = high.group("v")
        out.append(_fact(f"用户{what}偏高", f"health/{what}", what, importance=0.7, visibility=S))
    if _ZH_PREGNANT.search(body) and not re.search(r"没|不|未", body):
        out.append(_fact("用户怀孕了", "health/pregnancy", "", importance=0.9, visibility=S))
    return out


def _zh_diet(body: str, content: str, timed: bool) -> list[Draft]:
    if _ZH_VEG.match(body):
        return [_fact("用户吃素", "diet/type", "素食", kind=Kind.PREFERENCE, importance=0.7)]
    if (m := _ZH_NO_EAT.match(body)) and not timed:
        item = re.sub(r"(?:的|了|东西|啊|哦)+$", "", _clean_value(m.group("v")))
        if item:
            return [_fact(f"用户{m.group('neg')}{m.group('verb')}{item}", f"pref/{item}", item,
                          kind=Kind.PREFERENCE, importance=0.7)]
    for m in (_ZH_QUIT.search(body), _ZH_QUIT_TOPIC.match(body)):
        if m and not _NOT_A_HABIT_OBJECT.search(m.group("v")):  # not 戒了快四个月 / 想想还是戒了
            item = m.group("v")
            text = content if timed else f"用户戒了{item}"
            return [_fact(text, f"pref/{item}", item, kind=Kind.PREFERENCE, importance=0.7)]
    return []


def _zh_like(body: str, content: str) -> list[Draft]:
    m = _ZH_LIKE.match(body)
    if not m or re.match(r"[你您他她它了的吗有]", m.group("v")) or "吗" in m.group("v"):
        return []
    obj = re.sub(r"^(?:吃|喝|看|听|玩|用|去|穿|养)", "", m.group("v"))
    obj = re.sub(r"(?:的|了|啊|呀|哦|吧)+$", "", obj)
    slot = f"pref/{obj}" if 0 < len(obj) <= 8 and not re.search(r"[，,]", obj) else None
    return [_fact(content, slot, obj, kind=Kind.PREFERENCE, importance=0.6, confidence=0.85)]


def _zh_habit(body: str, content: str) -> list[Draft]:
    if _ZH_HABIT.match(body) or _ZH_FREQ.match(body):
        return [_fact(content, None, "", kind=Kind.BEHAVIOR, importance=0.5, confidence=0.8)]
    return []


def style_slots_zh(text: str) -> list[str]:
    """The ``style/*`` and ``contact/channel`` slots a request to the assistant sets."""
    return list(dict.fromkeys(slot for slot, pattern in _STYLE_ZH if pattern.search(text)))


# ---------------------------------------------------------------- English fact rules

_CAP = r"[A-Z][\w'.&-]*(?:\s+(?:(?:of|de|la|upon)\s+)?[A-Z][\w'.&-]*)*(?:,\s*[A-Z][\w'.-]*(?:\s+[A-Z][\w'.-]*)*)?"
_LOWER_PHRASE = r"(?:a|an|the)\s+[a-z][\w\s-]{2,30}?(?=[.,;!?]|$|\s+(?:and|but|with|for|since|now|because)\b)"
_PLACE_EN = rf"(?P<v>{_CAP}|{_LOWER_PHRASE})"
_EN_ADV = r"(?:(?:really|absolutely|just|also|totally|still|kind\s+of|sort\s+of|actually|truly|do|definitely)\s+)*"
_EN_NAME = (
    re.compile(r"(?i:\bmy\s+name(?:'s|\s+is)\s+)(?P<v>[A-Za-z][\w'-]*(?:\s+[A-Z][\w'-]*){0,2})"),
    re.compile(r"(?i:(?<!don't\s)(?<!not\s)\b(?:call\s+me|i\s+go\s+by|i'm\s+called|i\s+am\s+called)\s+)"
               r"(?P<v>[A-Za-z][\w'-]*)"),
    re.compile(r"(?i:^(?:hi|hello|hey)(?:\s+there)?[,!.]?\s+(?:i'm|i\s+am|this\s+is)\s+)(?P<v>[A-Z][a-z]+)\b"),
)
_EN_AGE = (
    re.compile(r"(?i:\b(?:i'm|i\s+am)\s+)(?P<v>\d{1,3})(?i:\s+years?\s+old|\s*(?:yo|y/o|yrs?\s+old))?"
               r"(?=\s*(?:$|[.,!;]|and\b|now\b))"),
    re.compile(r"(?i:\bi\s+(?:just\s+)?turned\s+)(?P<v>\d{1,3})\b"),
)
_EN_MOVE = re.compile(r"(?i:\b(?:i|we)\s+(?:just\s+|recently\s+|finally\s+|have\s+|'ve\s+)?(?:moved|relocated)"
                      r"\s+(?:back\s+)?to|\b(?:i'm|i\s+am|we're|we\s+are)\s+moving\s+to)\s+" + _PLACE_EN)
_EN_LIVE = re.compile(r"(?i:\b(?:i|we)\s+(?:currently\s+|now\s+|still\s+|also\s+)?(?:live|reside|am\s+living|"
                      r"are\s+living)\s+in|\b(?:i'm|we're)\s+(?:living|based)\s+in|\bi\s+am\s+based\s+in)\s+" + _PLACE_EN)
_EN_HOMETOWN = re.compile(r"(?i:\b(?:i'm|i\s+am|i\s+come)\s+(?:originally\s+)?from|\bi\s+grew\s+up\s+in)\s+"
                          + _PLACE_EN)
_JOBS_EN = (
    "software engineer|data scientist|product manager|police officer|social worker|grad student|phd student|"
    "stay-at-home mom|stay-at-home dad|engineer|developer|programmer|teacher|nurse|doctor|student|designer|lawyer|"
    "accountant|manager|writer|artist|chef|cook|driver|pilot|scientist|researcher|professor|consultant|analyst|"
    "architect|photographer|musician|dentist|pharmacist|therapist|counselor|psychologist|journalist|editor|banker|"
    "farmer|firefighter|soldier|veteran|electrician|plumber|mechanic|carpenter|salesperson|marketer|entrepreneur|"
    "freelancer|founder|ceo|cto|intern|barista|waiter|waitress|cashier|librarian|veterinarian|paramedic|surgeon|"
    "translator|tutor|coach|instructor|retiree|homemaker|nanny|painter|dancer|actor|actress|singer|youtuber|streamer"
)
_EN_JOB = (
    re.compile(r"(?i:\bi\s+work\s+as\s+(?:an?\s+)?)(?P<v>[\w\s-]{2,40}?)(?=\s+(?i:at|for|in)\b|[.,;!?]|$)"),
    re.compile(rf"(?i:\b(?:i'm|i\s+am)\s+(?:now\s+|currently\s+)?(?:an?\s+))(?P<v>(?i:(?:[\w-]+\s+){{0,2}}(?:{_JOBS_EN})))\b"),
    re.compile(r"(?i:\bmy\s+job\s+is\s+(?:an?\s+)?)(?P<v>[\w\s-]{2,40}?)(?=[.,;!?]|$)"),
)
_ORG_EN = rf"(?P<org>{_CAP}|{_LOWER_PHRASE})"
_EN_EMPLOYER = re.compile(r"(?i:\bi\s+(?:currently\s+|now\s+|still\s+|also\s+)?(?:work|am\s+working|'m\s+working)"
                          r"\s+(?:at|for)|\bi\s+(?:just\s+)?(?:got\s+a\s+(?:new\s+)?job\s+at|started\s+"
                          r"(?:a\s+new\s+job\s+)?at)|\b(?:i'm|i\s+am)\s+an?\s+(?:[\w-]+\s+){0,3}(?:at|for)"
                          r"|\bi\s+work\s+as\s+an?\s+(?:[\w-]+\s+){0,3}(?:at|for))\s+" + _ORG_EN)
_EN_PHONE = re.compile(r"(?i:\b(?:phone|number|cell|mobile|tel|whatsapp)\b)[^0-9+\n]{0,20}(?P<v>\+?\d[\d\s().-]{6,18}\d)")
_EN_ADDRESS = re.compile(r"(?i:\bmy\s+(?:home\s+|mailing\s+|shipping\s+|new\s+)?address\s+is|\bi\s+live\s+at)"
                         r"\s+(?P<v>\d*[^.;!?\n]{5,100})")
_EN_ID = re.compile(r"(?i:\b(?:ssn|social\s+security\s+number|passport\s+(?:number|no\.?)|id\s+number|"
                    r"driver'?s\s+licen[sc]e\s+number))\s*(?i:is|:)?\s*(?P<v>[A-Z0-9-]{5,20})")
_EN_ALLERGY = (
    re.compile(r"(?i:\b(?:i'm|i\s+am|i've\s+been|i\s+was)\s+(?:\w+\s+){0,2}allergic\s+to)\s+"
               r"(?P<v>[\w\s,'-]+?)(?=[.;!?]|$|\s+(?i:and|but|so)\s+(?i:i|it|that|my)\b)"),
    re.compile(r"(?i:\bi\s+have\s+(?:an?\s+|a\s+severe\s+|severe\s+|bad\s+)?)(?P<v>[\w-]+(?:\s+[\w-]+)?)"
               r"\s+(?i:allerg(?:y|ies))\b"),
)
_CONDITIONS_EN = (
    "type 1 diabetes|type 2 diabetes|diabetes|asthma|high blood pressure|hypertension|depression|anxiety|adhd|"
    "autism|cancer|arthritis|migraines?|epilepsy|celiac disease|ibs|insomnia|heart disease|a heart condition|copd|"
    "hiv|hepatitis|hypothyroidism|hyperthyroidism|pcos|endometriosis|ptsd|bipolar disorder|high cholesterol|"
    "crohn's disease|lupus|multiple sclerosis|sleep apnea|gout|anemia|eczema|psoriasis"
)
_EN_HEALTH = re.compile(
    r"(?i:\bi\s+(?:have|'ve\s+got|got|was\s+diagnosed\s+with|have\s+been\s+diagnosed\s+with|'ve\s+been\s+diagnosed"
    r"\s+with|suffer\s+from|am\s+suffering\s+from|'m\s+suffering\s+from|struggle\s+with|live\s+with)\s+"
    rf"(?:(?:a|an|mild|severe|chronic)\s+)*)(?P<v>(?i:{_CONDITIONS_EN}))\b")
_EN_PREGNANT = re.compile(r"(?i)\b(?:i'm|i\s+am)\s+(?:\w+\s+)?pregnant\b")
_EN_VEG = re.compile(r"(?i)\b(?:i'm|i\s+am|i've\s+been|we're)\s+(?:a\s+)?(?:strict\s+|full\s+|now\s+)?"
                     r"(?P<v>vegetarian|vegan|pescatarian|pescetarian|lactose\s+intolerant|gluten[\s-]free|halal"
                     r"|kosher|keto)\b")
_EN_NO_EAT = re.compile(r"(?i)\bi\s+(?P<neg>don't|do\s+not|can't|cannot|never|won't)\s+(?P<verb>eat|drink|touch)\s+"
                        r"(?P<v>[\w\s-]{2,30}?)(?=[.,;!?]|$|\s+(?:and|but|because|anymore|since|at\s+all)\b)")
_EN_QUIT = re.compile(r"(?i)\bi\s+(?:just\s+|finally\s+|recently\s+)?(?:quit|gave\s+up|have\s+quit|'ve\s+quit|"
                      r"'ve\s+given\s+up|stopped|am\s+quitting|'m\s+quitting)\s+"
                      r"(?P<v>smoking|drinking|coffee|caffeine|alcohol|sugar|meat|soda|vaping|junk\s+food|sweets)\b")
_EN_LIKE = (
    re.compile(rf"(?i)\bi\s+{_EN_ADV}(?P<verb>love|like|enjoy|adore|hate|dislike|prefer|can't\s+stand|cannot\s+stand|"
               r"don't\s+like|do\s+not\s+like|don't\s+enjoy)\s+(?P<v>[^.;!?]{2,60})"),
    re.compile(rf"(?i)\b(?:i'm|i\s+am)\s+{_EN_ADV}(?P<verb>into|obsessed\s+with|a\s+(?:big\s+|huge\s+)?fan\s+of|"
               r"passionate\s+about|crazy\s+about)\s+(?P<v>[^.;!?]{2,60})"),
)
_EN_FAVORITE = re.compile(r"(?i)\bmy\s+(?:all-time\s+)?fav(?:ou?rite)?\s+(?P<x>[\w\s]{2,20}?)\s+(?:is|are)\s+"
                          r"(?P<v>[^.;!?,]{1,40})")
_EN_HABIT = re.compile(r"(?i)\b(?:i|we)\s+(?P<adv>always|never|usually|often|normally|typically|regularly|rarely|"
                       r"seldom|generally)\s+(?P<verb>[a-z']+)|\bevery\s+(?:day|morning|night|evening|week|weekend|"
                       r"monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b")
_STYLE_EN: tuple[tuple[str, re.Pattern[str], str], ...] = (
    ("style/length", re.compile(r"(?i)\b(?:be\s+(?:more\s+)?(?:concise|brief|succinct)|keep\s+(?:it|your\s+"
                                r"(?:answers?|replies|responses))\s+(?:short|brief)|(?:shorter|brief|short)\s+"
                                r"(?:answers?|replies|responses)|less\s+verbose|get\s+to\s+the\s+point|"
                                r"(?:stop|don't)\s+(?:rambling|writing\s+essays))"), "User wants short, concise replies"),
    ("style/length", re.compile(r"(?i)\b(?:more\s+detail(?:ed)?|be\s+(?:more\s+)?detailed|in\s+(?:more\s+)?detail|"
                                r"longer\s+(?:answers?|replies))"), "User wants detailed replies"),
    ("style/language", re.compile(r"(?i)\b(?:reply|respond|answer|talk|write|speak)\s+(?:to\s+me\s+)?in\s+"
                                  r"(?P<v>english|chinese|mandarin|cantonese|japanese|korean|french|spanish|german)"),
     "User wants replies in {v}"),
    ("style/emoji", re.compile(r"(?i)\b(?:no|don't\s+use|do\s+not\s+use|stop\s+using|without|avoid|fewer|less)\s+"
                               r"(?:any\s+|the\s+)?emojis?\b"), "User doesn't want emojis in replies"),
    ("style/tone", re.compile(r"(?i)\b(?:don't|do\s+not|stop)\s+(?:lecturing|moralizing|preaching|sugarcoating|"
                              r"being\s+so\s+formal)|\bbe\s+more\s+(?:casual|formal|direct|friendly|funny)\b"),
     "User wants the assistant to {clause}"),
    ("contact/channel", re.compile(r"(?i)\b(?:email|text|message|whatsapp|dm)\s+me\b|\b(?:don't|do\s+not|never)\s+"
                                   r"call\s+me\b|\bcontact\s+me\s+(?:by|via|through|on)\s+\w+"),
     "User's contact preference: {clause}"),
)
def _en_value(v: str) -> str:
    return re.split(r"\s+(?:and|but|because|since|now|so|which|who|with)\b|[.,;!?]", v.strip(), maxsplit=1)[0].strip()


def _en_identity(text: str) -> list[Draft]:
    out: list[Draft] = []
    for pattern in _EN_NAME:
        if m := pattern.search(text):
            name = " ".join(w.capitalize() if w.islower() else w for w in m.group("v").split())
            if name.split()[0] not in EN_NAME_DENY:
                out.append(_templated("User's name is {v}", "user/name", name, importance=0.8))
                break
    for pattern in _EN_AGE:
        if (m := pattern.search(text)) and 1 <= int(m.group("v")) <= 120:
            out.append(_templated("User is {v} years old", "user/age", m.group("v")))
            break
    if m := _EN_MOVE.search(text):
        out.append(_templated("User moved to {v}", "user/city", _en_value(m.group("v")), importance=0.7))
    elif m := _EN_LIVE.search(text):
        out.append(_templated("User lives in {v}", "user/city", _en_value(m.group("v")), importance=0.7))
    if m := _EN_HOMETOWN.search(text):
        out.append(_templated("User is from {v}", "user/hometown", _en_value(m.group("v"))))
    for pattern in _EN_JOB:
        if m := pattern.search(text):
            job = re.sub(r"^(?:an?\s+)", "", m.group("v").strip(), flags=re.IGNORECASE)
            out.append(_templated("User's job is {v}", "user/job", job))
            break
    if m := _EN_EMPLOYER.search(text):
        out.append(_templated("User works at {v}", "user/employer", _en_value(m.group("org"))))
    return out


def _en_contact(text: str) -> list[Draft]:
    out: list[Draft] = []
    if m := _EN_PHONE.search(text):
        out.append(_templated("User's phone number is {v}", "user/phone", m.group("v").strip(), importance=0.7,
                              visibility=S))
    if m := _EMAIL.search(text):
        out.append(_templated("User's email is {v}", "user/email", m.group("v"), importance=0.7, visibility=S))
    if m := _EN_ADDRESS.search(text):
        out.append(_templated("User's address is {v}", "user/address", m.group("v").strip(), importance=0.7,
                              visibility=S))
    if m := _EN_ID.search(text):
        out.append(_templated("User's ID number is {v}", "user/id_number", m.group("v"), importance=0.7,
                              visibility=S))
    return out


def _en_health(text: str) -> list[Draft]:
    out: list[Draft] = []
    for pattern in _EN_ALLERGY:
        if m := pattern.search(text):
            for item in re.split(r",\s*(?:and\s+|or\s+)?|\s+and\s+|\s+or\s+", m.group("v").strip()):
                item = re.sub(r"(?i)^(?:to\s+|(?:severe|serious|bad|mild|slight|strong)\s+)+", "", item.strip())
                if item and item.lower() not in ("it", "that", "this", "them", "something"):
                    out.append(_fact(f"User is allergic to {item}", f"allergy/{item.lower()}", item,
                                     importance=0.9, template="User is allergic to {v}"))
            break
    if m := _EN_HEALTH.search(text):
        cond = m.group("v")
        out.append(_fact(f"User has {cond}", f"health/{cond.lower()}", cond, importance=0.8, visibility=S))
    if _EN_PREGNANT.search(text):
        out.append(_fact("User is pregnant", "health/pregnancy", "", importance=0.9, visibility=S))
    return out


def _en_diet(text: str) -> list[Draft]:
    if m := _EN_VEG.search(text):
        return [_fact(f"User is {m.group('v').lower()}", "diet/type", m.group("v").lower(), kind=Kind.PREFERENCE,
                      importance=0.7)]
    if m := _EN_NO_EAT.search(text):
        item = m.group("v").strip()
        return [_fact(f"User doesn't {m.group('verb').lower()} {item}", f"pref/{item.lower()}", item,
                      kind=Kind.PREFERENCE, importance=0.7)]
    if m := _EN_QUIT.search(text):
        item = m.group("v").lower()
        return [_fact(f"User quit {item}", f"pref/{item}", item, kind=Kind.PREFERENCE, importance=0.7)]
    return []


def _en_preference(text: str) -> list[Draft]:
    if m := _EN_FAVORITE.search(text):
        x, v = m.group("x").strip().lower(), m.group("v").strip()
        return [_fact(f"User's favorite {x} is {v}", f"pref/favorite {x}", v, kind=Kind.PREFERENCE,
                      importance=0.6, template=f"User's favorite {x} is {{v}}")]
    for pattern in _EN_LIKE:
        m = pattern.search(text)
        if not m or re.match(r"(?i)(?:it|that|this|these|those|you|them|him|her|how|what|when|where|why|the\s+way|"
                             r"to\s+(?:think|say|know|hear|see))\b", m.group("v")):
            continue
        obj = _en_value(re.sub(r"(?i)^(?:to\s+|the\s+|a\s+|an\s+)", "", m.group("v")))
        if len(re.sub(r"[^A-Za-z]", "", obj)) < 3:
            continue  # "I love to."
        slot = f"pref/{obj.lower()}" if 0 < len(obj.split()) <= 3 else None
        content = third_person(text[m.start():].strip().rstrip(".!,"), "en")
        return [_fact(content, slot, obj, kind=Kind.PREFERENCE, importance=0.6, confidence=0.85)]
    return []


def _en_habit(text: str) -> list[Draft]:
    m = _EN_HABIT.search(text)
    if not m or (m.group("verb") and re.search(r"(?:ed|thought|knew|expected|imagined)$", m.group("verb") or "")):
        return []
    start = text.lower().rfind("i ", 0, m.start() + 1) if m.group("adv") is None else m.start()
    content = third_person(text[max(start, 0):].strip().rstrip(".!,"), "en")
    return [_fact(content, None, "", kind=Kind.BEHAVIOR, importance=0.5, confidence=0.8)]


def style_slots_en(text: str) -> list[tuple[str, str]]:
    """``(slot, content)`` for each request about how the assistant should reply."""
    out: dict[str, str] = {}
    for slot, pattern, template in _STYLE_EN:
        if slot not in out and (m := pattern.search(text)):
            value = (m.groupdict().get("v") or "").capitalize()
            clause = re.sub(r"(?i)^(?:please|pls|can\s+you|could\s+you)\s+", "", text.strip().rstrip(".!"))
            clause = re.sub(r"(?i)^(?:don't|do\s+not)\s+", "not ", clause)
            out[slot] = template.format(v=value, clause=third_person(clause, "en"))
    return list(out.items())


# ---------------------------------------------------------------- time in content

_ZH_PART_WORDS = ("凌晨", "清晨", "早上", "早晨", "上午", "中午", "下午", "傍晚", "晚上", "夜里", "深夜", "半夜")
_ZH_SHORT_PARTS = {"早": "早上", "晨": "早上", "晚": "晚上", "夜": "夜里"}
_EN_PREPOSITION = re.compile(r"(?i)\b(?:on|in|at|from|by|since|during|until|till|for|of|before|after|around|over)\s*$")


def _part_word_zh(span: TimeSpan) -> str:
    for word in _ZH_PART_WORDS:
        if word in span.text:
            return word
    for ch, word in _ZH_SHORT_PARTS.items():
        if ch in span.text:
            return word
    return ""


def render_span(span: TimeSpan, lang: str, tz: tzinfo = timezone.utc) -> str:
    """An absolute, human-readable form of ``span`` (2025年3月12日 / 2025-03-12 / March 2025)."""
    s = span.start.astimezone(tz)
    e = (span.end - timedelta(microseconds=1)).astimezone(tz)
    g = span.granularity
    if lang == "zh":
        def day(x: datetime) -> str:
            return f"{x.year}年{x.month}月{x.day}日"

        if g == "year":
            return f"{s.year}年"
        if g == "month":
            return f"{s.year}年{s.month}月"
        if g == "week":
            return f"{day(s)}那一周"
        if g in ("hour", "minute"):
            tail = f"-{span.end.astimezone(tz):%H:%M}" if span.end - span.start > timedelta(hours=1) else ""
            return f"{day(s)}{s:%H:%M}{tail}"
        if g == "daypart":
            return day(s) + (_part_word_zh(span) or f"{s:%H:%M}前后")
        if s.date() != e.date():
            tail = f"{e.day}日" if (e.year, e.month) == (s.year, s.month) else day(e)
            return f"{day(s)}至{tail}" if e.year == s.year else f"{day(s)}至{day(e)}"
        return day(s)
    if g == "year":
        return f"{s.year}"
    if g == "month":
        return f"{s:%B %Y}"
    if g == "week":
        return f"the week of {s:%Y-%m-%d}"
    if g in ("hour", "minute"):
        return f"{s:%Y-%m-%d %H:%M}"
    if g == "daypart":
        part = next((p for p in ("morning", "afternoon", "evening", "night") if p in span.text.lower()), "night")
        return f"the {part} of {s:%Y-%m-%d}"
    if s.date() != e.date():
        return f"{s:%Y-%m-%d} to {e:%Y-%m-%d}"
    return f"{s:%Y-%m-%d}"


def _en_with_preposition(rendered: str, span: TimeSpan, before: str) -> str:
    if _EN_PREPOSITION.search(before):
        return rendered
    g = span.granularity
    if g in ("month", "year", "week"):
        return "in " + rendered
    if g in ("hour", "minute"):
        return "at " + rendered
    if " to " in rendered:
        return "from " + rendered
    return "on " + rendered


def substitute_times(text: str, base: int, spans: Sequence[TimeSpan], lang: str, tz: tzinfo) -> str:
    """``text`` (found at ``base`` in the message) with each time expression made absolute."""
    out = text
    for span in sorted(spans, key=lambda s: s.offset, reverse=True):
        lo, hi = span.offset - base, span.end_offset - base
        if lo < 0 or hi > len(out):
            continue
        rendered = render_span(span, lang, tz)
        if lang != "zh":
            rendered = _en_with_preposition(rendered, span, out[:lo])
        out = out[:lo] + rendered + out[hi:]
    return out


def _mask_times(text: str, base: int, spans: Sequence[TimeSpan]) -> str:
    for span in spans:
        lo, hi = span.offset - base, span.end_offset - base
        if 0 <= lo < hi <= len(text):
            text = text[:lo] + " " * (hi - lo) + text[hi:]
    return text


# ---------------------------------------------------------------- markers

_ZH_CORRECTION = re.compile(
    r"^\s*(?:(?:(?:不对|不是|错了|不不)[啊呀]?[，,。！!：:\s]+|(?:我说错了|说错了|打错了|写错了|搞错了|记错了|更正一下|更正|"
    r"纠正一下|纠正)[，,。！!：:\s]*)+(?:(?:其实|应该|实际上)是?)?|(?:其实是|应该是|实际上是|准确地说是?))"
)
_EN_CORRECTION = re.compile(r"(?i)^\s*(?:(?:no|nope|sorry|oops|wait)[,.!]?\s+)?(?:(?:actually|correction|i\s+meant|"
                            r"i\s+mean|to\s+correct\s+myself)\b[,.:]?\s*)+")
_ZH_REMEMBER = re.compile(
    r"(?:帮我|给我|替我|你|请)?(?:得|要|一定要|务必)?(?:(?<![我还])记住(?!了)|记一下|记下来?|记着|记好|"
    r"别忘了|不要忘了|不要忘记|别忘记|千万记得|千万别忘了|(?<![我还不])记得)(?:哦|啊|哈|啊)?[，,:：\s]*"
)
_EN_REMEMBER = re.compile(r"(?i)(?:^|(?<=[.!?;])\s+|,\s*)(?:(?:please|pls|and|also|oh|so)[,]?\s+)*(?:remember|"
                          r"don'?t\s+forget|do\s+not\s+forget|keep\s+in\s+mind|make\s+a\s+note|note)"
                          r"(?:\s+that)?[:,]?\s+")
_TRIVIAL_REMAINDER = re.compile(r"^(?:几|一|这|那)?(?:个|件)?(?:事|事情)?(?:吧|哈|哦|了)?$|^(?:this|that|it)?$", re.IGNORECASE)
_ZH_PAST = re.compile(r"了|过(?!年|节|两天|几天)|已经|刚才")
_ZH_FUTURE = re.compile(r"要|会|打算|准备|想|计划|将|得|提醒|记得|叫我")
_EN_PAST_CUE = re.compile(r"(?i)\b(?:was|were|went|did|had|got|came|saw|made|took|\w{3,}ed)\b")
_EN_FUTURE_CUE = re.compile(r"(?i)\b(?:will|going\s+to|gonna|plan|planning|'ll|want\s+to|need\s+to|have\s+to)\b")
_EN_LEAD = re.compile(r"(?i)^(?:(?:yeah|yes|yep|oh|well|so|and|but|wow|haha|lol|hey|hi|ok|okay|anyway|"
                      r"honestly|btw|also)\b[,!.]?\s+)+")
_EVALUATIVE = re.compile(r"^(?:挺|很|太|真|好|超|蛮|特别|非常|还挺|it\s+was|it's|that's|so\b)", re.IGNORECASE)
_TIME_THEN_USER = re.compile(r"^([\d年月日至\-:：那一周上下午晚中早凌晨夜里深半前后从]{2,30})用户(?!的)")
_ZH_VERBISH = re.compile(r"^(?:[\d要去会想打算准备得在有回飞出到从把和跟给最很特别也还都就已刚正一每经通平总不没是才又再先常对]|喜欢|爱|讨厌)")


def _blank(text: str, m: re.Match[str] | None) -> tuple[str, int]:
    """Replace the match with spaces (offsets stay valid); return (text, match start or -1)."""
    if m is None or m.end() == m.start():
        return text, -1
    return text[: m.start()] + " " * (m.end() - m.start()) + text[m.end():], m.start()


# ---------------------------------------------------------------- English subjects

_EN_REL_START = re.compile(rf"(?i)^(?:and\s+|but\s+|so\s+|also\s+)?(?:my|our)\s+(?P<rel>{alternation(list(REL_EN))})\b")
_EN_SELF = re.compile(r"(?i)^(?:(?:and|but|so|also|well|oh|yeah|yes|honestly|anyway)[,!]?\s+)*(?:i|i'm|i've|i'll|i'd|"
                      r"im|we|we're|we've|my)\b")
_EN_BOT = re.compile(r"(?i)^(?:please\s+|pls\s+|can\s+you\s+|could\s+you\s+|you\s+)")
_EN_PRON = re.compile(r"(?i)^(?P<p>he|she|it|they)\b")


def assign_subject_en(c: Clause, prev: Clause | None, recent_rel: tuple[str, str | None] | None) -> None:
    t = re.sub(r"^[\s,]+", "", without_times(c))
    c.body = t
    if m := _EN_REL_START.match(t):
        c.subject, c.rel = "rel", m.group("rel").lower()
    elif _EN_SELF.match(t):
        c.subject = "self"
    elif _EN_BOT.match(t):
        c.subject = "bot"
    elif m := _EN_PRON.match(t):
        gender = PRONOUN_GENDER.get(m.group("p").lower())
        if recent_rel and gender and REL_EN.get(recent_rel[0], ("", ""))[1] == gender:
            c.subject, c.rel, c.rel_name = "rel", recent_rel[0], recent_rel[1]
        else:
            c.subject = "other"
    elif prev is not None and prev.sentence == c.sentence:
        c.subject, c.rel, c.rel_name = prev.subject, prev.rel, prev.rel_name
        c.inherited = True


# ---------------------------------------------------------------- one message

@dataclass(slots=True)
class _Thread:
    """What earlier messages of the same ``extract`` call tell us (for bare corrections)."""

    last_slotted: Draft | None = None
    assistant: str = ""


class _MessageExtraction:
    """All candidates of one user message; one method per stage, in :meth:`run` order."""

    def __init__(self, msg: Message, lang: str, tz: tzinfo) -> None:
        self.msg, self.lang, self.tz = msg, lang, tz
        self.ref = msg.timestamp if msg.timestamp.tzinfo else msg.timestamp.replace(tzinfo=timezone.utc)
        text = msg.content
        correction = (_ZH_CORRECTION if lang == "zh" else _EN_CORRECTION).match(text)
        text, corr_at = _blank(text, correction)
        self.corrects = corr_at >= 0
        remember = (_ZH_REMEMBER if lang == "zh" else _EN_REMEMBER).search(text)
        self.text, self.remember_at = _blank(text, remember)
        self.spans = find_time_expressions(self.text, self.ref, tz=tz)
        self.clauses = split_clauses(self.text, lang, self.spans)

    # -- helpers
    def qualifying(self, c: Clause) -> list[TimeSpan]:
        """Spans that make a clause an event (今年/this year alone says nothing)."""
        ref_year = self.ref.astimezone(self.tz).year
        return [s for s in c.spans
                if not (s.granularity == "year" and s.start.astimezone(self.tz).year == ref_year)]

    def content(self, c: Clause) -> str:
        """The clause as a third-person statement with absolute times."""
        raw = substitute_times(c.text, c.start, c.spans, self.lang, self.tz)
        if self.lang == "zh":
            t = third_person(tidy_zh(raw), "zh")
            if m := _TIME_THEN_USER.match(t):  # 2025年3月12日用户要… → 用户2025年3月12日要…
                t = "用户" + m.group(1) + t[m.end():]
            if not t.startswith("用户") and c.subject == "self":
                t = ("用户" if _ZH_VERBISH.match(t) else "用户：") + t
            return t
        t = third_person(_EN_LEAD.sub("", raw.strip()).rstrip(".!,;"), "en")
        return t[:1].upper() + t[1:]

    # -- stages
    def facts(self, c: Clause) -> list[Draft]:
        if c.subject in ("other", "rel"):
            return []
        drafts = (_zh_contact(c.text) if self.lang == "zh" else _en_contact(c.text))
        if c.subject == "self":
            drafts += self._identity(c)
        if not drafts:
            drafts += self._style(c)
        if not drafts and c.subject == "self":
            drafts += self._preference(c)
        return drafts

    def _identity(self, c: Clause) -> list[Draft]:
        if self.lang != "zh":
            out = _en_identity(c.text) + _en_health(c.text)
        else:
            body = c.body
            sentence = "".join(x.text for x in self.clauses if x.sentence == c.sentence)
            out = _zh_name(body) + _zh_age(body) + _zh_health(body, sentence) + _zh_residence(body)
            out += _zh_work(body)
            out = out or _zh_i_am_name(body)
        timed = self.qualifying(c)
        for d in out:
            if timed and d.slot == "user/city":  # 下个月搬到杭州: true from then on
                d.valid_from = min(s.start for s in timed)
        return out

    def _style(self, c: Clause) -> list[Draft]:
        if self.lang == "zh":
            slots = style_slots_zh(c.text)
            body = re.sub(r"^(?:你们|您|你|请你?|麻烦你?|以后|今后)+", "", tidy_zh(c.text))
            content = "用户要求助手" + third_person(body, "zh")
            return [_fact(content, slot, "", kind=Kind.PREFERENCE, importance=0.7) for slot in slots]
        return [_fact(text, slot, "", kind=Kind.PREFERENCE, importance=0.7) for slot, text in style_slots_en(c.text)]

    def _preference(self, c: Clause) -> list[Draft]:
        timed = self.qualifying(c)
        near = any(s.granularity in ("day", "daypart", "hour", "minute") for s in timed)
        if self.lang != "zh":
            diet = _en_diet(c.text)
        else:
            diet = _zh_diet(c.body, self.content(c), near)
        if diet and timed:  # 从今天开始戒咖啡 / I quit smoking 3 months ago
            diet[0].valid_from = min(s.start for s in timed)
        if diet:
            return diet
        if self.lang != "zh":
            return _en_preference(c.text) or _en_habit(c.text)
        content = self.content(c)
        return _zh_like(c.body, content) or _zh_habit(c.body, content)

    def relations(self, c: Clause) -> list[Draft]:
        """Names of people (我老婆苏琳 / my wife Anna) and statements about them."""
        out: list[Draft] = []
        if self.lang == "zh":
            named = zh_relation_names(c.text)
        else:
            named = en_relation_names(c.text)
        for word, key, name in named:
            slot = f"relation/{key}" if key in SINGLE_VALUED else None
            template = f"用户的{word}叫{{v}}" if self.lang == "zh" else f"User's {word} is named {{v}}"
            out.append(_fact(template.format(v=name), slot, name, kind=Kind.RELATION, importance=0.7,
                             confidence=0.85, template=template))
        if c.subject == "rel" and not c.question and not self.qualifying(c):
            out += self._relation_statement(c, [n for _, _, n in named])
        return out

    def _relation_statement(self, c: Clause, names: list[str]) -> list[Draft]:
        if self.lang == "zh":
            text = self.content(c)
            if not text.startswith("用户"):  # 她喜欢… resolved to the relative just mentioned
                text = f"用户的{c.rel}{c.rel_name or ''}" + third_person(tidy_zh(c.body), "zh")
            rest = text.removeprefix(f"用户的{c.rel}")
        else:
            text = self.content(c)
            if text.lower().startswith(("he ", "she ", "it ", "they ")):
                text = f"User's {c.rel}{' ' + c.rel_name if c.rel_name else ''} " + text.split(" ", 1)[1]
            rest = text.split(c.rel or "", 1)[-1]
        for name in names + ([c.rel_name] if c.rel_name else []):
            rest = rest.replace(name, "", 1)
        if len(rest.strip(" ，,。.")) < 2:
            return []
        importance = 0.8 if re.search(r"过敏|allerg", text, re.IGNORECASE) else 0.6
        values = names + ([c.rel_name] if c.rel_name else [])
        return [Draft(Kind.RELATION, text, None, values, importance, 0.8)]

    def events(self) -> list[Draft]:
        """One event per sentence: the first timed clause plus the clauses that continue it."""
        out: list[Draft] = []
        for sentence in sorted({c.sentence for c in self.clauses}):
            clauses = [c for c in self.clauses if c.sentence == sentence]
            start = next((i for i, c in enumerate(clauses) if self.qualifying(c) and not c.consumed
                          and not c.question and c.subject not in ("bot", "other")), None)
            if start is None:
                continue
            group = [clauses[start]]
            for c in clauses[start + 1:]:
                if c.consumed or c.question or c.subject in ("bot", "other") or c.subject != group[0].subject:
                    break
                group.append(c)
            for c in reversed(clauses[:start]):  # 这次是去见华恒集团的人，谈明年的合同
                if (c.consumed or c.question or c.subject in ("bot", "other") or len(c.text) < 6
                        or _EVALUATIVE.match(c.text)):
                    break
                group.insert(0, c)
            out.append(self._event(group))
        return [d for d in out if d.content]

    def _event(self, group: list[Clause]) -> Draft:
        joiner = "，" if self.lang == "zh" else ", "
        parts = [self.content(c) for c in group]
        if self.lang == "zh":
            parts = [parts[0]] + [_drop_subject(p) for p in parts[1:]]
        text = joiner.join(p for p in parts if p)
        if self.lang == "zh" and "用户" not in text:
            text = ("用户" if _ZH_VERBISH.match(text) else "用户：") + text
        elif self.lang != "zh" and "User" not in text:
            text = "User: " + text
        spans = [s for c in group for s in self.qualifying(c)]
        raw = " ".join(c.text for c in group)
        draft = Draft(Kind.EVENT, text, None, [], 0.6, 0.8, valid_from=min(s.start for s in spans),
                      valid_until=max(s.end for s in spans))
        draft.expires_at = self._expiry(spans, raw)
        if draft.expires_at is not None:
            draft.importance = 0.4
        draft.source = " ".join(_mask_times(c.text, c.start, c.spans) for c in group)
        draft.source_at = group[0].start
        return draft

    def _expiry(self, spans: list[TimeSpan], raw: str) -> datetime | None:
        """End of the day for a plan today or tomorrow that has not happened yet (今天中午想吃面)."""
        local = self.ref.astimezone(self.tz)
        today = local.replace(hour=0, minute=0, second=0, microsecond=0)
        horizon = today + timedelta(days=2)
        near = all(s.granularity in ("day", "daypart", "hour", "minute") and s.start >= today
                   and s.end <= horizon for s in spans)
        if not near or max(s.end for s in spans) <= self.ref:
            return None
        if self.lang == "zh":
            past = _ZH_PAST.search(raw) and not _ZH_FUTURE.search(raw)
        else:
            past = _EN_PAST_CUE.search(raw) and not _EN_FUTURE_CUE.search(raw)
        if past:
            return None
        last = max(s.end for s in spans).astimezone(self.tz) - timedelta(microseconds=1)
        return (last.replace(hour=0, minute=0, second=0, microsecond=0) + timedelta(days=1)).astimezone(timezone.utc)

    def remembered(self, drafts: list[Draft]) -> list[Draft]:
        """After 记住/remember: boost what follows, or keep the remembered text itself."""
        if self.remember_at < 0:
            return drafts
        after = [d for d in drafts if d.source_at >= self.remember_at]
        for d in after:
            d.importance = max(d.importance, 0.85)
        if after:
            return drafts
        rest = self.text[self.remember_at:].strip()
        cleaned = tidy_zh(rest) if self.lang == "zh" else rest.strip(" .!")
        if len(cleaned) < (4 if self.lang == "zh" else 8) or _TRIVIAL_REMAINDER.match(cleaned):
            return drafts
        own = [c for c in self.clauses if c.start >= self.remember_at]
        body = substitute_times(rest, self.text.index(rest, self.remember_at), self.spans, self.lang, self.tz)
        if self.lang == "zh":
            content = "用户要求记住：" + third_person(tidy_zh(body), "zh")
        else:
            content = "User asked to remember: " + third_person(body.strip(" .!"), "en")
        timed = [s for c in own for s in self.qualifying(c)]
        draft = Draft(Kind.EVENT if timed else Kind.FACT, content, None, [], 0.85, 0.85)
        if timed:
            draft.valid_from, draft.valid_until = min(s.start for s in timed), max(s.end for s in timed)
        draft.source = rest
        return drafts + [draft]

    def corrected(self, drafts: list[Draft], thread: _Thread) -> list[Draft]:
        """Mark a correction; give a bare value ("不对，杭州") the slot it corrects."""
        if not self.corrects:
            return drafts
        if not drafts:
            value = re.sub(r"^(?:是|在|叫|其实是|应该是|it's|it\s+is)\s*", "", self.text.strip(" ，,。.!！"))
            value = tidy_zh(value) if self.lang == "zh" else value.strip(" .!")
            if 0 < len(value) <= 20:
                base = thread.last_slotted or _slot_from_context(thread.assistant, self.lang)
                if base is not None and base.template:
                    d = _templated(base.template, base.slot or "", value, kind=base.kind,
                                   importance=base.importance, visibility=base.visibility)
                    drafts = [d]
            if not drafts and len(value) >= 2:
                label = "用户更正：" if self.lang == "zh" else "User corrected: "
                drafts = [_fact(label + third_person(value, self.lang), None, "", importance=0.7)]
        return drafts

    def run(self, thread: _Thread) -> list[Draft]:
        """Clause facts and relations, then events, then remember/correction adjustments."""
        drafts: list[Draft] = []
        prev: Clause | None = None
        recent: tuple[str, str | None] | None = None
        assign = assign_subject_zh if self.lang == "zh" else assign_subject_en
        for c in self.clauses:
            assign(c, prev, recent)
            found = self.facts(c)
            if not found and self._continues(c, prev, drafts):
                prev = c
                continue
            c.consumed = bool(found)
            found += self.relations(c)
            if any(d.kind is Kind.RELATION and d.slot is None and not d.template for d in found):
                c.consumed = True
            for d in found:
                d.source, d.source_at = d.source or _mask_times(c.text, c.start, c.spans), c.start
            drafts += found
            recent = self._recent_relation(c, found, recent)
            prev = c
        drafts += self.events()
        return self.corrected(self.remembered(_merge_slots(drafts, self.lang)), thread)

    def _continues(self, c: Clause, prev: Clause | None, drafts: list[Draft]) -> bool:
        """Append a subject-less clause to the statement it continues (一般7点起，8点到图书馆…)."""
        last = drafts[-1] if drafts else None
        if (prev is None or last is None or not c.inherited or c.question or self.qualifying(c)
                or last.source_at != prev.start or last.template is not None
                or last.kind not in (Kind.PREFERENCE, Kind.BEHAVIOR, Kind.RELATION)
                or last.slot is not None and last.slot.startswith(("style/", "contact/"))):
            return False
        if len(last.content) > MAX_CHARS - 20:
            return False
        joiner = "，" if self.lang == "zh" else ", "
        addition = _drop_subject(self.content(c)) if self.lang == "zh" else c.text.strip().rstrip(".!")
        last.content += joiner + addition
        last.source += " " + _mask_times(c.text, c.start, c.spans)
        last.source_at = c.start
        c.consumed = True
        return True

    def _recent_relation(self, c: Clause, found: list[Draft], recent: tuple[str, str | None] | None
                         ) -> tuple[str, str | None] | None:
        """The relative a following 她/他/she/he most likely refers to."""
        named = [d for d in found if d.kind is Kind.RELATION and d.template]
        if named:
            word = re.sub(r"^(?:用户的|User's )|(?:叫\{v\}| is named \{v\})$", "", named[-1].template or "")
            return word, named[-1].values[0] if named[-1].values else None
        if c.subject == "rel" and c.rel:
            return c.rel, c.rel_name
        return recent


def _drop_subject(part: str) -> str:
    """A continuation clause without the 用户/用户： its own rendering put in front."""
    if part.startswith("用户："):
        return part[3:]
    return part[2:] if part.startswith("用户") and not part.startswith("用户的") else part


def _slot_from_context(text: str, lang: str) -> Draft | None:
    """What attribute did the assistant just state or ask about (您住在上海对吗 → user/city)?"""
    if not text:
        return None
    if lang == "zh":
        mirrored = re.sub(r"您|你", "我", text)
        for part in _ZH_CLAUSE.split(mirrored):
            body = re.sub(r"^是", "", _ZH_SELF.sub("", tidy_zh(part)))
            found = _zh_name(body) + _zh_age(body) + _zh_residence(body) + _zh_work(body) + _zh_contact(part)
            if found:
                return found[0]
        return None
    mirrored = re.sub(r"(?i)\byou're\b", "I'm", re.sub(r"(?i)\byour\b", "my", text))
    mirrored = re.sub(r"(?i)\byou\b", "I", mirrored)
    found = _en_identity(mirrored) + _en_contact(mirrored)
    return found[0] if found else None


def _merge_slots(drafts: list[Draft], lang: str) -> list[Draft]:
    """One draft per slot per message: style requests are joined, facts keep the last value."""
    out: list[Draft] = []
    by_slot: dict[str, Draft] = {}
    for d in drafts:
        if d.slot is None:
            if all(d.content != o.content for o in out):
                out.append(d)
            continue
        if d.slot not in by_slot:
            by_slot[d.slot] = d
            out.append(d)
            continue
        first = by_slot[d.slot]
        if d.slot.startswith(("style/", "contact/")) and d.content != first.content:
            prefix = "用户要求助手" if lang == "zh" else ""
            addition = d.content.removeprefix(prefix) if prefix else d.content
            first.content = first.content + ("；" if lang == "zh" else "; ") + addition
        elif d.content != first.content:
            out[out.index(first)] = d
            by_slot[d.slot] = d
    return out


# ---------------------------------------------------------------- the extractor

class RulesExtractor:
    """Offline pattern extractor; cheap enough to run on every batch (``cheap = True``)."""

    name = "rules"
    cheap = True

    def __init__(self, *, tz: tzinfo = timezone.utc) -> None:
        self.tz = tz

    def extract(self, messages: Sequence[Message], *, language_hint: str | None = None) -> list[Candidate]:
        """Candidates from the user messages in ``messages`` (oldest first)."""
        thread = _Thread()
        out: list[Candidate] = []
        seen: set[tuple[str, str | None]] = set()
        for msg in messages:
            if msg.role != "user":
                if msg.role == "assistant":
                    thread.assistant = msg.content
                continue
            for cand in self._from_message(msg, language_hint, thread):
                if (cand.content, cand.slot) not in seen:
                    seen.add((cand.content, cand.slot))
                    out.append(cand)
        return out

    def _from_message(self, msg: Message, hint: str | None, thread: _Thread) -> list[Candidate]:
        text = msg.content.strip()
        if not text or is_smalltalk(text):
            return []
        lang = hint if hint in ("zh", "en") else detect_language(text)
        work = _MessageExtraction(msg, lang, self.tz)
        drafts = work.run(thread)
        for d in drafts:
            if d.slot and d.template:
                thread.last_slotted = d
        cands: list[Candidate] = []
        for d in drafts:
            cands.extend(_to_candidates(d, msg, lang, work.corrects))
        return cands


def _to_candidates(d: Draft, msg: Message, lang: str, corrects: bool) -> list[Candidate]:
    """Split over-long content on sentence boundaries; attach entities and provenance."""
    pieces = _fit(re.sub(r"\s{2,}", " ", d.content).strip(), lang)
    entities = find_entities(d.source or d.content, lang, extra=d.values)
    return [
        Candidate(content=piece, kind=d.kind, slot=d.slot if i == 0 else None, entities=entities,
                  importance=round(d.importance, 3), confidence=round(d.confidence, 3),
                  valid_from=d.valid_from, valid_until=d.valid_until, expires_at=d.expires_at,
                  visibility=d.visibility, source_ids=(msg.id,) if msg.id else (), corrects=corrects,
                  speaker=msg.name, metadata={"extractor": "rules", "lang": lang})
        for i, piece in enumerate(pieces)
        if len(piece.removeprefix("用户").removeprefix("User").strip(" ：:")) >= 2
    ]


_SENT_END = re.compile(r"(?<=[。！？!?；;])|(?<=[.])\s+")
_CLAUSE_END = re.compile(r"(?<=[，,])")


def _pack(parts: Sequence[str]) -> list[str]:
    pieces: list[str] = []
    cur = ""
    for part in parts:
        if cur and len(cur) + len(part) > MAX_CHARS:
            pieces.append(cur.strip())
            cur = ""
        cur += part
    if cur.strip():
        pieces.append(cur.strip())
    return pieces


def _fit(text: str, lang: str) -> list[str]:
    """``text`` as pieces of at most 200 characters, cut at sentence, then clause, boundaries.

    Pieces after the first are prefixed with the subject so each stays self-contained.
    """
    if len(text) <= MAX_CHARS:
        return [text]
    out: list[str] = []
    for piece in _pack([p for p in _SENT_END.split(text) if p]):
        subparts = [piece] if len(piece) <= MAX_CHARS else _pack([p for p in _CLAUSE_END.split(piece) if p])
        out.extend(p if len(p) <= MAX_CHARS else p[: MAX_CHARS - 1] + "…" for p in subparts)
    subject = "用户：" if lang == "zh" else "User: "
    return [p if i == 0 or p.startswith(("用户", "User")) else (subject + p)[:MAX_CHARS]
            for i, p in enumerate(out)]


def from_settings(settings: Settings) -> RulesExtractor:
    """``JIYI_EXTRACTOR=rules`` (the default): no options; times resolve in UTC."""
    return RulesExtractor()
