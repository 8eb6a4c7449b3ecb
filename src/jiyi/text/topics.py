"""Topics of standing memories, and the statements of change that end them.

A standing memory is about one **topic family**: where the user lives, their employer and
role, their partner, a named pet, a vehicle, a phone number, an email, their diet, a
habit's object, a study or an application. A later statement that changes the topic —
any way of moving, leaving, ending, stopping, selling, losing, being admitted, replacing —
closes the memory it changes, however either was worded:

* :func:`change_of` finds the **change class** of a statement from a verb lexicon (move,
  leave, end, stop, done, lose, sell, replace, switch; classes, not sentences) and the
  families it may change: the class's own, narrowed by the topic nouns the statement says
  (戒 / quit with 工作 / job is leaving a job, with a drink a habit stopped);
* :func:`families_of` gives a stored memory's families, from its slot first
  (``user/city`` → residence, ``pref/…`` → habit, ``status/…`` → pursuit) and else from
  what it states (用户养了一只狗 → pet; "User drives a Mazda" → vehicle);
* :func:`jiyi.text.subjects.about_user` and :mod:`jiyi.text.qualifiers` keep out what changes
  nothing now: a friend's move, "I might move", "years ago I moved to …".

Which memory of a family a change closes is decided by :func:`jiyi.write.resolve.topic_targets`, with
entities (:mod:`jiyi.text.lexical`) and the store's embeddings. A change that names what ended rather
than its family (退租, "done with keto") is read by :mod:`jiyi.text.over`.
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass
from functools import lru_cache

from jiyi.text import kinds
from jiyi.text.change_phrases import en_phrase, zh_phrase
from jiyi.text.consumption import consumption
from jiyi.text.dialect import standard_zh
from jiyi.text.verb_senses import THING_MOVED, degree_complement, left_behind, place_moved_to
from jiyi.text.wordlists import data_rows, words

FAMILIES = ("residence", "employer", "partner", "pet", "vehicle", "phone", "email", "diet", "habit", "pursuit")
#: families a user has one of at a time: a change closes every standing memory of them
SINGLE = frozenset({"residence", "employer", "partner", "phone", "email", "diet"})
#: families of things owned that a sale or a loss ends, though one may own several: a car told by its model
#: ("我开着一辆二手思域") is over when "车出了" (a pet's loss names the pet: write/endings.py)
OWNED = frozenset({"vehicle"})
#: a car handed out, adverbs between (车出了, 车也出了, 车早就出掉了): a sale (text/ended.py reads it too)
#: a car let go by 出: 车出了, 给出了, 把那台本田出了 (a vehicle's measure word before it; not 出了问题 / 出了点事)
ZH_CAR_OUT = (r"(?:(?:车|给)|(?:台|辆)[^，。,\s]{1,8}?)(?:也|都|已经|早就?)*出(?:掉|去)?了"
              r"(?!问题|毛病|故障|事|车祸|状况|点|个|一|趟|门|来|去|差)")

#: slot prefixes of each family (a slot may carry ``@speaker``)
_SLOT_FAMILIES: tuple[tuple[str, str], ...] = (
    ("user/city", "residence"), ("user/address", "residence"),
    ("user/employer", "employer"), ("user/job", "employer"),
    ("relation/girlfriend", "partner"), ("relation/boyfriend", "partner"), ("relation/partner", "partner"),
    ("relation/fiance", "partner"), ("relation/wife", "partner"), ("relation/husband", "partner"),
    ("relation/spouse", "partner"), ("person:girlfriend", "partner"), ("person:boyfriend", "partner"),
    ("person:wife", "partner"), ("person:husband", "partner"), ("person:partner", "partner"),
    ("person:fiance", "partner"), ("person:spouse", "partner"),
    ("user/phone", "phone"), ("user/email", "email"), ("diet/", "diet"), ("pref/", "habit"),
    ("status/", "pursuit"), ("user/school", "pursuit"),
)

_P = re.compile


@dataclass(slots=True, frozen=True)
class Lex:
    zh: re.Pattern[str]
    en: re.Pattern[str]

    def search(self, text: str, lang: str) -> re.Match[str] | None:
        return (self.zh if lang == "zh" else self.en).search(text)

    def found(self, text: str, lang: str) -> bool:
        return self.search(text, lang) is not None


#: what a memory standing in the family says (for memories without a slot)
_STANDING: dict[str, Lex] = {
    "residence": Lex(_P(r"^用户(?:现在|目前)?(?:住在|定居在|家在|在\S{1,10}(?:住|生活|定居)|搬到了?|搬去了?)"),
                      _P(r"(?i)^User (?:now )?(?:lives|is living|is based|moved|relocated|settled|resides)\b")),
    "employer": Lex(_P(r"^用户(?:现在|目前)?(?:在\S{1,14}(?:工作|上班|任职|当|做|实习)|是\S{1,10}(?:师|员|经理|总监|主管))|"
                       # a trade said as what one does: 我开网约车的, 我是做装修的, 俺跑货运的
                       r"^用户(?:现在|目前)?(?:是)?(?:开|跑|做|干|搞|送|卖|修)(?!饭|菜|家务|作业|梦|运动|步)[\u4e00-\u9fffA-Za-z]{1,6}的$"),
                     _P(r"(?i)^User (?:now )?(?:works|is working|is employed|is an? [\w -]{2,30} at)\b")),
    "partner": Lex(_P(r"^用户(?:的)?(?:女朋友|男朋友|女友|男友|对象|老婆|老公|妻子|丈夫|未婚[夫妻])"),
                    _P(r"(?i)^User(?:'s)? (?:girlfriend|boyfriend|gf|bf|partner|wife|husband|fianc\w*)\b|^User is dating\b")),
    "pet": Lex(_P(r"猫|狗|宠物|仓鼠|兔|鹦鹉|金鱼|乌龟|柯基|泰迪|柴犬|金毛|哈士奇|" + kinds.alternation(kinds.PETS, "zh")),
                _P(r"(?i)\b(?:cat|dog|pet|rabbit|bunny|hamster|parrot|puppy|kitten|turtle|tortoise|guinea pig|"
                   r"ferret|budgie|goldfish|corgi|terrier|retriever|poodle)s?\b|" + kinds.alternation(kinds.PETS, "en"))),
    "vehicle": Lex(_P(r"(?:开|买|有)(?:了|的是|的)?(?:一|辆|台)\S{0,10}车|车(?:是|子)|座驾|摩托|(?:开|买|有)(?:了|的是)?一辆|"
                      # a car by its make or model: 我开着一辆二手思域, 我那台雅迪, 跑的是一台比亚迪秦 (data/kinds.tsv)
                      r"(?:开|买|有|提|骑|跑|(?:我|用户)(?:的|那|家))(?:着|了|的是|的)?(?:一|辆|台|部)?\S{0,6}?"
                      + kinds.alternation(kinds.VEHICLES, "zh")
                      # one's car by what it has run, whatever its make: 我那台白色飞度也跑了十二万公里
                      + r"|(?:我|用户)(?:的|那|这|家)(?:台|辆|部)[^，。,！!？?]{0,8}?(?:跑|开)了[\d一二两三四五六七八九十几多]+万?(?:多)?(?:公里|km)"),
                    _P(r"(?i)\b(?:drives?|owns?|bought|has)\s+an?\s+(?:[\w-]+\s+){0,4}(?:car|truck|suv|van|motorcycle|"
                       r"sedan|hatchback|[A-Z][a-z]+)|\b(?:car|truck|motorcycle)\b|"
                       r"\b(?:my|our|user's|drives?|driving|bought|owns?)\s+(?:an?\s+)?(?:[\w-]+\s+){0,2}?"
                       + kinds.alternation(kinds.VEHICLES, "en"))),
    "phone": Lex(_P(r"手机号|电话号|号码|手机是"), _P(r"(?i)\b(?:phone|cell|mobile)\b|\bnumber is\b")),
    "email": Lex(_P(r"邮箱|邮件地址|email", re.IGNORECASE), _P(r"(?i)\be-?mail\b")),
    "diet": Lex(_P(r"吃素|素食|纯素|生酮|断食|蛋奶素|饮食"),
                 _P(r"(?i)\b(?:vegetarian|vegan|keto|pescatarian|plant-based|diet)\b")),
    "habit": Lex(_P(r"每天|天天|每周|每晚|经常|总是|习惯|一直|老是|每次|爱喝|爱吃|爱抽|喜欢喝|喜欢吃|抽烟|喝酒|离不开|上瘾|"
                     r"[一每](?:天|日|周|星期|礼拜|个月|晚)[一两三四五六七八九十几半\d]+(?:包|杯|瓶|罐|根|支|盒|次|顿)"),
                  _P(r"(?i)\b(?:every\s+(?:day|morning|afternoon|evening|night|week)|(?:a|per)\s+(?:day|night|week)|daily|"
                     r"nightly|always|usually|habit|"
                     r"a\s+lot\s+of|addicted|hooked|loves?\s+(?:drinking|eating)|drinks?|smokes?|vapes?)\b")),
    "pursuit": Lex(_P(r"备考|准备(?:考|申请|面试)|申请|考研|考公|考编|面试|找工作|求职|备战|报考|留学"),
                    _P(r"(?i)\b(?:applying|application|preparing\s+for|studying\s+for|prepping\s+for|interviewing|"
                       r"job\s+hunting|looking\s+for\s+(?:a\s+)?(?:new\s+)?job)\b")),
}

#: nouns of a family a change statement may name (戒 … 工作 is leaving a job)
#: what a vegetarian or vegan diet leaves out (English)
_ANIMAL_FOOD = r"(?:meat|chicken|beef|pork|fish|seafood|dairy|eggs|bacon|steak|burgers)"
_CUES: dict[str, Lex] = {
    "residence": Lex(_P(r"房子|租房|城市|老家|住"), _P(r"(?i)\b(?:apartment|flat|house|city|place\s+in|live|living)\b")),
    "employer": Lex(_P(r"工作|上班|公司|单位|职位|岗位|辞|老板|班|(?:那个|那家|这个|这家)(?:破|鬼|烂|垃圾)(?:地方|厂子?)"),
                     _P(r"(?i)\b(?:job|work|employer|company|office|position|role|boss|notice|firm)\b")),
    "partner": Lex(_P(r"女朋友|男朋友|女友|男友|对象|老婆|老公|妻子|丈夫|未婚|我们俩|我俩|在一起|单身"),
                    _P(r"(?i)\b(?:girlfriend|boyfriend|partner|wife|husband|fianc\w*|together|single|relationship)\b")),
    # …or a pet told of as "it" (它走了) or put down: a loss no person suffers
    "pet": Lex(_P(_STANDING["pet"].zh.pattern + r"|它"),
                _P(_STANDING["pet"].en.pattern + r"|\bput\s+(?:him|her|it|them)\s+down\b|\bput\s+to\s+sleep\b")),
    "vehicle": Lex(_P(r"车(?!站|票|厢|程|位|祸)|摩托|" + kinds.alternation(kinds.VEHICLES, "zh")),
                    _P(r"(?i)\b(?:car|truck|suv|van|motorcycle|motorbike|vehicle|sedan|scooter|moped|e-?bike|jeep)\b|"
                       + kinds.alternation(kinds.VEHICLES, "en"))),
    "phone": Lex(_P(r"手机号|电话|号码|号(?!称|召)"), _P(r"(?i)\b(?:phone|number|cell|mobile)\b")),
    "email": _STANDING["email"],
    "diet": Lex(_P(r"吃素|素食|纯素|生酮|饮食|断食|吃(?:肉|鱼|荤|海鲜|蛋)|开荤|荤|(?:啥|什么)都吃"),
                 _P(rf"(?i)\b(?:vegetarian|vegan|keto|pescatarian|plant-based|diet)\b|\b{_ANIMAL_FOOD}\b")),
    "habit": Lex(_P(r"喝|抽|吃|烟|酒|饮料|咖啡|茶|零食|甜食|游戏|玩"),
                  _P(r"(?i)\b(?:drink\w*|smok\w*|vap\w*|coffee|tea|soda|alcohol|booze|caffeine|sugar|snacks?|"
                     r"cigarettes?|cigs?|ciggies|fags|gaming|games?)\b")),
    "pursuit": Lex(_P(r"录取|offer|考|申请|学校|大学|学院|证书|面试|终面|[一二三]面(?:过|挂)", re.IGNORECASE),
                    _P(r"(?i)\b(?:admitted|accepted|admission|offer|exam|school|university|college|program|"
                       r"certificat\w*|bar|interview)\b")),
}


@dataclass(slots=True, frozen=True)
class _Class:
    name: str
    lex: Lex
    families: tuple[str, ...]  # the first is taken when the statement names none of them
    direction: str  # "to": names the new value; "from": names (or implies) what ends
    said: Lex | None = None  # more ways of saying it (data/changes.tsv), read after every class's verbs

    @property
    def lexes(self) -> tuple[Lex, ...]:
        return (self.lex,) if self.said is None else (self.lex, self.said)


#: words of a death said of anyone or anything (已经不在了, 唔喺度, 挂了): a pet's loss only where a pet is named
_ANYONES_DEATH = r"(?:已经|早就?)不在(?:度|这|家)?了|(?<![考科])挂了(?=$|[\s，,。！!~～]|[😭💔]|呜)"
SAID_OF_ANYONE = re.compile(_ANYONES_DEATH)

_CLASSES: tuple[_Class, ...] = (
    _Class("replace", Lex(_P(r"换(?:了)?(?:个|新)?(?:手机)?(?:号|号码|邮箱)|(?:手机号|手机号码|电话号码|号码|邮箱)(?:也|都|已经)?换了|新(?:的)?(?:手机)?(?:号码|号|邮箱)|改(?:了)?(?:号|邮箱)|"
                              r"以后(?:打|联系|发)(?:我)?(?:这个)?|"
                              # the old one dead, whatever the new: 之前那个号注销了, 163那个邮箱不用了
                              r"(?:号|号码|手机号|电话号码|邮箱)(?:也|都|已经)?(?:注销|停机|作废|停用|不用了|没了|废了|弃了|被收回)",
                              re.IGNORECASE),
                           _P(r"(?i)\bnew\s+(?:phone\s+|cell\s+|mobile\s+)?(?:number|email)\b|\bchanged\s+my\s+(?:phone\s+)?"
                              r"(?:number|email)\b|\b(?:number|email)\s+(?:is\s+now|changed)\b|"
                              r"\b(?:number|email|sim)(?:\s+(?:is|was|has\s+been|got)|['\u2019]s)\s+(?:now\s+)?"
                              r"(?:disconnected|dead|cancell?ed|canceled|gone|deactivated|closed|deleted)\b")),
           ("phone", "email"), "to"),
    _Class("move", Lex(_P(r"搬(?!运|砖|东西|出来了?住?$)|挪窝|迁(?:居|到|去|往)|(?i:relocate|move)(?:到|去)|定居|落脚|安家|落户|移居|住到|住进|换了个城市|"
                           r"(?<![个一有没别])人(?:已经)?(?:到|在)(?=[\u4e00-\u9fff]{2,4}了)|(?:已经)?(?<![送寄带拿运上下这那一每几调换])回(?:到)?(?:老家(?!过|探|休|度|玩|看|住|待|办|参|吃|喝|拜|上|扫|结|相|陪))?(?=[\u4e00-\u9fff]{2,3}了)|"
                           r"新(?:的)?城市是|新家在|新地址在|现在窝在|(?:现在|目前|如今)住(?![在着过])[\u4e00-\u9fff]{1,6}了|"
                           r"从\S{1,8}?(?:拉|搬|运)(?:过来|过去|回来)了|"
                           r"(?<![送寄带拿运上下这那一每几])回(?:到)?[\u4e00-\u9fff]{2,4}?(?:跟|和|陪)[\u4e00-\u9fff]{1,6}?住|"
                           r"(?<![送寄带拿运上下这那一每几])回(?:到)?[\u4e00-\u9fff]{2,4}?住(?:了|下了)|"
                           r"(?:现在|目前|如今)(?:住|人)在|外派|派驻|常驻|"
                           r"(?:调|派|调动|借调)(?:到|去|往|回)了?(?=[^，。,！!]{1,8}?(?:分公司|总公司|总部|分部|办事处|分行|分院|基地|市|省|那边))|"
                           # transferred back home: 老公调回乌鲁木齐了, Henrik 调回 Gothenburg 了 (not 调回周五: a shift)
                           r"(?:调|派)回(?:到)?(?!周|星期|礼拜|[上下明后今昨早晚白夜]|原来|以前|之前|原样|[\d一二三四五六七八九十])"
                           r"(?=\s?[\u4e00-\u9fffA-Z][\u4e00-\u9fffA-Za-z]{1,11}?\s?了)"),
                        _P(r"(?i)\bnew\s+(?:place|apartment|flat|house|address|home)\s+(?:is\s+)?(?=in\b)|"
                           r"\bofficially\s+an?\s+(?=\w+(?:\s+\w+)?\s+resident\b)|"
                           r"\bmov(?:ed|ing)\W*\s+out(?:\s+of)?\b|\bout\s+of\s+[\w' .-]{2,30}?,?(?=\s+(?:and\s+)?now\s+(?:in|at)\b)|\bsigned\s+(?:a|the|my)\s+(?:[\w-]+\s+){0,2}?lease\b|"
                           r"\b(?:mov(?:ed|ing)|relocat(?:ed|ing)|settled(?:\s+down)?|resettled|emigrated|"
                           r"immigrated)\b" + THING_MOVED + r"(?:\s+\w+){0,3}?\s+(?:to|in|into)\b|\btransferred\s+to\s+(?=(?:the\s+|our\s+)?"
                           r"(?:[A-Z]\w+|\w+\s+(?:office|branch|site|campus))\b)|\bnow\s+(?:live|living|based|reside)\b|"
                           r"\btransfer\s+to\s+(?=(?:the\s+|our\s+)?\w+\s+(?:office|branch|site|campus|store)\b[^.!?]{0,30}?"
                           r"\b(?:approved|confirmed|went\s+through|came\s+through|is\s+official)\b)|"
                           r"\b(?:live|living|based)\s+in\s+\S+\s+now\b|\b(?:been|started)\s+(?:living|based)\s+in\b|"
                           # "we're in Edinburgh now" (a trip says so: qualifiers.on_a_trip); "packed up the flat"
                           r"\b(?:i'?m|we'?re|i\s+am|we\s+are)\s+(?:officially\s+)?in\s+(?=(?-i:[A-Z])\w+(?:\s+(?-i:[A-Z])\w+)?\s+now\b)|"
                           r"\bpacked\s+up\s+(?:the|my|our)\s+(?:flat|apartment|house|place)\b")),
           ("residence",), "to"),
    _Class("end", Lex(_P(r"(?:把|将)(?:我|用户)(?:给)?(?:甩|踹)|分手|分了手|分开了|离婚|离了婚|(?:和|跟)\S{1,6}离了|掰了|吹了|散了|说散就散|散伙了|(?:不|没)(?:再)?在一起|恢复单身|单身了|分道扬镳|"
                          r"(?:我们|我俩|我们俩)\S{0,4}结束了|"
                          # an ex now: 已经是前任了, 我现在是他前女友了, 不是夫妻了
                          r"(?:已经|现在|都|正式)(?:是|成了?|变成了?)(?:我|他|她)?的?前(?:任|女友|男友|女朋友|男朋友|妻|夫)|"
                          r"成了?(?:我|他|她)?的?前(?:任|女友|男友|妻|夫)|前(?:任|女友|男友|妻|夫)了|不是(?:夫妻|两口子|情侣|一对)了|"
                          r"婚不结了|(?:她|他)提的分|(?:跟|和)(?:他|她|(?!老板|同事|领导|公司|朋友|大家|你|您|这|那)[\u4e00-\u9fff]{2,3}?)(?<!说)拜拜了"),
                       _P(r"(?i)\bbroke\s+up\b|\bbreaks\s+up\b|\bsplits?(?!\s+(?:the|a|an|our|my|his|her|their|it|this|that|everything|costs?|bills?|rent|checks?)\b)(?:\s+up)?\b|\bdivorc\w*|\bseparated\b|\bparted\s+ways\b|"
                          r"\b(?:aren't|are\s+not|not|no\s+longer|weren't)\s+(?:\w+\s+)?together\b|"
                          r"\bsingle\s+(?:again|now)\b|\bended\s+(?:things|it)\b|\bcalled\s+it\s+(?:off|quits)\b|"
                          r"\b(?:and\s+I|me\s+and\s+\w+)\s+(?:have\s+|finally\s+|officially\s+)?called\s+it\s+a\s+day\b(?!\s+(?:at|early|for|on|after|and\s+went)\b)|"
                          r"(?:(?<![\w\s])|(?<=[^\w\s]\s)|(?<=\band\s)|(?<=\bso\s)|(?<=\bbut\s)|(?<=\bthink\s)|(?<=\bguess\s))"
                          r"we'?re\s+(?:done|over|through)\b|\bdumped\b|"
                          r"\b(?:\w+\s+and\s+(?:i|user)|(?:me|user)\s+and\s+\w+)\s+(?:are|r)\s+(?:done|over|through|finished)\b|"
                          r"\b(?:is|'s)\s+(?:my|an)\s+ex\s+now\b|\bnow\s+my\s+ex\b|\b(?:she|he)'?s\s+with\s+someone\s+else\b")),
           ("partner",), "from"),
    _Class("lose", Lex(_P(r"去世|过世|离世|死了|病死|走丢|丢了|" + _ANYONES_DEATH + r"|去了(?:喵|汪)星|送人|送给\S{1,8}(?:养|了)|送走|被领养|"
                           r"送(?:到|回|去)?[^，。,！!？?\s]{1,8}?(?:那|家|那里|那儿|老家)(?:养|去|住)?了|"
                           r"把(?![我你他她咱])[^，。,！!？?\s]{1,6}送(?:回|到|去)了?[^，。,！!？?\s]{1,8}了|领养走|安乐|(?<![出带回])走了(?!\S{0,2}(?:路|步|一))|"
                           r"被(?:人|贼)?偷(?:走)?了|被盗了?|没(?:抢)?救过来|找不回来|回不来了|(?:新|下一任)(?:车主|主人)|"
                           # a pet's death told by what was found or done: 它一动不动了, 仓鼠没挺过去, 埋在花坛了
                           r"(?:它|猫|狗|仓鼠|兔|鹦鹉|乌龟|龟|鱼|鸟)[^，。,！!？?]{0,8}?(?:一动不动了|没(?:挺|熬|撑)过(?:去|来)|"
                           r"(?:埋|葬)(?:在|到|了))"),
                        _P(r"(?i)\bpassed\s+away\b|\bdied\b|\bpassed\s+(?:on\s+)?(?:(?:mon|tues|wednes|thurs|fri|satur|sun)day|"
                           r"yesterday|last\s+night|this\s+morning|overnight|peacefully|in\s+(?:his|her|their)\s+sleep)\b|\bput\s+(?:\w+\s+)?(?:down|to\s+sleep)\b|\brehom\w*|"
                           r"\bgave\s+(?:\w+\s+){0,2}away\b|\bgiven\s+(?:\w+\s+)?away\b|\bhad\s+to\s+give\s+(?:\w+\s+){0,2}away\b|\bran\s+away\b|\bgot\s+lost\b|"
                           r"\bwent\s+missing\b|\badopted\s+by\b|\bcrossed\s+the\s+rainbow\s+bridge\b|"
                           r"\b(?:got|was|been)\s+stolen\b|\bran\s+off\b|\bwent\s+belly\s+up\b|\bburied\b|"
                           r"\bsurrender(?:ed)?\s+(?:him|her|it|them)\b|\bnew\s+owners?\b|"
                           r"\bsomeone\s+else'?s\s+(?:problem|now)\b|\bin\s+a\s+junkyard\b|\bsaid\s+goodbye\s+to\b|"
                           # "rip" is banter ("rip my sleep") unless grief or the vet is beside it: "rip biscuit 💔"
                           r"\brip\b(?!\s+(?:me|my|us|our|to\s+my)\b)(?=[^.!?\n]{0,40}?(?:💔|😭|😢|🌈|🐾|\bvet\b|\bgoodbye\b|\bpassed\b|\bmiss\s+(?:him|her)\b))")),
           ("pet",), "from"),
    _Class("sell", Lex(_P(r"卖了|卖掉|卖出|出手了|转手|转卖|报废|处理掉了|不开车了|" + ZH_CAR_OUT + r"|过户(?:了|的|给)|"
                           r"挂(?:咸鱼|闲鱼)|(?:贩子|车商|中介)(?:拉|收|提|开)走(?:了|的)|"
                           # a membership given back or passed on: 健身卡我退了 / 年卡转出去了 / 会员卡已经转让
                           r"(?:卡|会员|年卡|月卡)(?:我|用户|也|都|已经|早就?)*(?:退|转)(?:掉|出去|给别人|让)?了|"
                           # for a price, to a trader: 三万二给了个车贩子 / 两万出给二手车商了
                           r"[\d一二两三四五六七八九十百千万几]+(?:万|千|块|元)[\d一二两三四五六七八九]?(?:就|才)?(?:给|卖给|出给|转给)了?"
                           r"(?:个|一个)?\S{0,4}?(?:贩子|车商|收购商|回收站|买家)"),
                        _P(r"(?i)\bsold\b|\bselling\b|\bhad\s+to\s+sell\b|\bgot\s+rid\s+of\b|\btraded\s+(?:\w+\s+){0,2}?in\b|\bscrapped\b|"
                           r"\btotal(?:l)?ed\b|\bno\s+longer\s+(?:have|own|drive)\b|"
                           # slang and Malay / Indonesian: "flogged the ute on Trade Me", "Myvi jual sudah", "udah dijual"
                           r"\bflogged(?=\s+(?:(?:the|my|our|that|this|old)\s+){0,2}(?:\w+\s+)?(?:ute|car|van|truck|motorbike|bike|scooter|"
                           r"wagon|hatch\w*|suv|jeep|ride)\b)|\b(?:dah|sudah|udah)\s+(?:di)?jual\b|\bjual\s+(?:sudah|dah|udah)\b|\b(?:terjual|dijual)\b")),
           ("vehicle",), "from"),
    _Class("marry", Lex(_P(r"(?<![没不未])领(?:了)?证了?|(?:红本本|小红本|结婚证)(?:到手|领了|拿到了?|领到了?)|"
                            r"民政局[^。！？!?]{0,12}?(?:本本|证)(?:到手|领了|拿到)|(?:我们|我俩|咱俩|俺俩|我和\S{1,6}|我跟\S{1,6})\S{0,4}?结婚了|"
                            r"^(?:用户[：:]?)?(?:今天|昨天|前天|上周|上个月|终于|正式|已经|也|(?:\d{4}年)?\d{1,2}月\d{1,2}[日号])*结婚了|(?<![没不])(?:嫁给|娶了)|办完(?:了)?婚礼|婚礼办完|新婚|(?:度完|度完了)蜜月|蜜月(?:回来了|结束了)"),
                         _P(r"(?i)\b(?:got|just\s+got|getting)\s+married\b|\bwe'?re\s+(?:officially\s+)?married\b|"
                            r"\bjust\s+married\b|(?<!\bif\s)\b(?:i|we|user)\s+(?:just\s+|finally\s+|officially\s+)?married\b(?!\s+to\b)(?![^.!?]*\?)|^[^\w?？]*(?:we\s+did\s+it[^\w?？]*)?married[^\w?？]*$|\btied\s+the\s+knot\b|\bnewlyweds?\b|\bmarried\s+(?:now|him|her)\b|"
                            r"\bofficially\s+(?:a\s+)?(?:husband|wife|mrs?\.?)\b|\bmrs\.?\s+(?:\w+\s+)?now\b|"
                            r"\bsigned\b.{0,30}?\bat\s+the\s+(?:registry|registry\s+office|courthouse|city\s+hall)\b|"
                            # the honeymoon behind: back from it, or a spouse now ("being someone's wife is so weird")
                            r"\b(?:back|home)\s+from\s+(?:the|our|my)\s+honeymoon\b|\bbeing\s+(?:someone|somebody|\w+)'s\s+(?:wife|husband)\b")),
           ("partner",), "to"),
    _Class("join", Lex(_P(r"入职(?!手续|体检|材料|培训|以来|之后|后|前|时|的时候|那|第|\S{0,2}(?:周年|年了|个月了))|(?<![不没])(?:要|录用|聘用)了?我了|跳槽(?:到|去)了?|"
                           # from one workplace to another: 从建行跳到一家露营公司, 从门店调到总部做运营
                           r"从[^，。,！!？?\s]{1,10}?(?:跳槽|跳|换|转|调)(?:到|去)(?=[^，。,！!？?]{0,14}?(?:公司|单位|厂|店|集团|银行|医院|学校|总部|上班|工作|做|当))|"
                           r"(?<![没不])进了(?=[\u4e00-\u9fffA-Za-z ]{2,16}?(?:做(?!检查|手术|治疗|体检|化疗|透析|B超|CT)|当|干|上班|工作|实习))|"
                           r"第一天上班|上班第一天|(?:入职|新工作|新公司)第[一二三1-3]天|"
                           r"(?:去|到)新(?:公司|单位|东家)(?:报到|上班)|新(?:工作|公司|单位|东家)(?:是|在|叫)|"
                           # a new job settled: 新工作定了 / 找到新工作了 / 工作落实了
                           r"新(?:工作|公司|单位|东家)(?:也|终于|总算|已经)*(?:定了|定下来了|落实了|有着落了|谈妥了)|"
                           r"找到(?:了)?新(?:工作|东家)|"
                           # going to be a …: 我去当主厨助理, 过去当店长, 去那边做销售经理 (a job's title)
                           r"(?<![想要会准备打算])(?:过去|去|到那边|来)(?:当|做)(?:个|一名|一个)?[\u4e00-\u9fff]{0,6}?"
                           r"(?:助理|经理|主管|店长|主厨|厨师|工程师|设计师|会计|专员|顾问|学徒|司机|老师|教练|编辑|运营)(?![的])", re.IGNORECASE),
                        _P(r"(?i)\bstart(?:ed|ing)\s+(?:at|with)\s+(?=(?-i:[A-Z])|\w+\s+(?:as|in)\b)|"
                           r"\b(?:signed|accepted|took)\s+(?:the|an|their|my)\s+(?:job\s+)?offer\b|"
                           r"\bstart(?:ed|ing)?\s+(?:a|my|the)\s+new\s+(?:job|role|position|gig)\b|"
                           r"\bnew\s+(?:job|role|position|gig)\s+(?:at|with|is)\b|\bgot\s+(?:hired|a\s+job)\s+(?:at|by|with)\b|"
                           r"\bgot\s+(?:the|a|an)\s+(?:[\w-]+\s+){0,3}?(?:job|role|position|gig)\s+(?:at|with)\b|"
                           r"\bhired\s+me\b|\bjoined\s+(?:\w+\s+){0,3}?(?:as\s+an?|team|company|firm|agency|startup)\b|"
                           r"\bfirst\s+(?:day|week)\s+(?:at|with)\s+(?:the\s+)?new\s+(?:job|place|company|office)\b|"
                           r"\bfirst\s+(?:day|week|shift)\s+(?:at|with)\s+(?:the\s+)?(?:(?-i:[A-Z])\w+|[\w'-]+\s+)?(?:studio|office|shop|"
                           r"store|firm|company|clinic|lab|agency|restaurant|cafe|café|bakery|warehouse|site|startup)\b|"
                           r"\bnow\s+work(?:ing)?\s+(?:at|for)\b|\bwork(?:ing)?\s+(?:at|for)\s+\S+(?:\s+\S+)?\s+now\b")),
           ("employer", "pursuit"), "to"),
    _Class("done", Lex(_P(r"录取|上岸|考上|拿到(?:了)?\S{0,8}?(?:offer|录取|证书?|资格)|收到(?:了)?(?:\S{0,10})(?:offer|录取)|"
                           r"offer(?:到了|来了|下来了|到手了?)|"
                           r"(?:考试|考)\S{0,2}过了|考过了|通过了|拿到手|到手了|落榜|没考上|签了|签约|"
                           # a certificate passed: 导游证过了, 教资证书考过了
                           r"(?<![保验认])证(?:书)?(?:考)?过了|"
                           # passed at last, or no need to sit it again: 第三次过了, 总算过了, 不用再考了
                           r"(?:终于|总算|第[一二三四五六七八九十\d]+次)(?:考)?过了|不用再?考了|"
                           r"[一二两三四五六七八九十\d]+(?:科|门)(?:全|都)(?:过|通过)", re.IGNORECASE),
                        _P(r"(?i)\bgot\s+(?:in|into|accepted|admitted)\b|\baccepted\s+(?:to|into|at|an?\s+offer)\b|"
                           r"\badmitted\s+to\b|\bgot\s+(?:an?\s+|the\s+)?offer\b|\bpassed\b|\bfailed\b|\baced\b|"
                           r"\bsigned\s+(?:with|the)\b|\bacceptance\s+letter\b|\bgot\s+(?:the|an|my)\s+(?:admit|acceptance|admission)\b|"
                           r"\bdone\s+with\s+(?:\w+\s+){0,2}?(?:prep|preparation|studying|revision|applications?|apps)\b")),
           ("pursuit",), "from"),
    _Class("leave", Lex(_P(r"(?:把|将)(?:我|用户)(?:给)?(?:裁|开除|辞退|优化|炒)|辞职|离职|辞了|辞呈|辞掉|走人|不干了|不待了|不做了|被\S{0,4}裁(?!判|缝|剪|决)|裁员|被\S{0,2}优化|被毕业|被开除|被辞退|失业|退休|跳槽|"
                            r"离开(?:了)?(?:公司|单位|那家|原来|[^，。,\s]{1,6}?那家)|换(?:了)?(?:个|份|一份)?(?:新)?工作(?:了|啦)|最后一天班|下岗|从\S{1,6}?(?:成功|终于|顺利)?跑路|(?:店|铺子|门面|摊子?|生意)\S{0,4}?(?:兑|转|盘)(?:出去|给别人)了|"
                            r"(?:地方|公司|单位|厂子?)[^，。,]{0,8}?(?:再也|终于)?不(?:用|会|想|必)(?:再)?(?:去|待|呆|干)了|"
                            r"不(?:做|干|当)(?:自由职业|全职|兼职|销售|客服|外卖|网约车|代购|微商|主播|[\u4e00-\u9fff]{0,4}(?:员|师|工))了|"
                            # told by what comes with it: a contract not renewed, severance, gone from there
                            r"合同(?:到期)?(?:了)?(?:没|不)(?:再)?续|(?:拿了?|给了?)(?:我)?N\+\d|(?:活|班)(?:也)?干到头了|"
                            r"(?:已经|早就|早)不在那(?:边|儿|里|家)(?:干|上班|做)?了"),
                         _P(r"(?i)\b(?:quits?|resigned|left|retired)\b|\b(?:handed|put|gave)\s+in\s+(?:my\s+|the\s+|\w+'s\s+)?(?:notice|"
                            r"resignation)\b|\b(?:handed|put|turned)\s+(?:my|the|our|\w+'s)\s+(?:notice|resignation)\s+in\b|"
                            r"\b(?:gave|given|giving|served|serving|tendered|submitted|handed\s+over)\s+(?:my\s+|in\s+my\s+)?(?:(?:four|two|one|three|six)[-\s]weeks?'?\s+|a\s+month'?s?\s+)?"
                            r"(?:notice|resignation)\b|\blast\s+day\b|\blaid\s+off\b|\bfired\b|\blet\s+(?:\w+\s+)?go\b|\bwalked\s+out\b|"
                            r"\bdone\s+with\s+(?:that|this|the|my)\s+(?:place|job|company|firm|office|cafe|café|shop|store|"
                            r"restaurant|salon|clinic|bakery|studio|agency|warehouse|startup|bank|hospital)\b|\bunemployed\b|"
                            r"\bbetween\s+jobs\b|\b(?:turned|handed)\s+in\s+my\s+(?:badge|keys|laptop|lanyard|apron|uniform)\b|"
                            r"\bcleaned\s+out\s+my\s+(?:desk|locker)\b|\bout\s+of\s+a\s+job\b|\b(?:changed|switched)\s+jobs\b|"
                            r"\b(?:wrapped|finished)\s+up\s+at\b")),
           ("employer", "residence"), "from"),
    _Class("stop", Lex(_P(r"戒(?!指)|不再|再也不|(?<!从)不碰(?=[^，。,！!？?\s]{0,6}?了)|停了|停掉|放弃|告别|不喝了|不吃了|不抽了|不玩了|(?i:quit)(?:了|掉了?)|"
                           # a sport or pastime given up by its word: 不跑步了, 不去健身房了, 不撸铁了, 不跑了
                           r"不(?:去)?(?:" + kinds.alternation(kinds.ACTIVITIES, "zh") + r"|跑|练)了|"
                           # a thing's name, then given up: 晨跑这事先拉倒吧 / 健身的事算了
                           r"(?<=[\u4e00-\u9fff])(?:这事|这个事|的事)(?:儿)?(?:就|先|也)?(?:拉倒|算了)|"
                           # a doctor's no: 医生说半年内别跑步了
                           r"(?:医生|大夫)(?:说|让|叫)[^，。,]{0,8}?(?:别|不能|不要)再?(?:跑|喝|抽|吃|打|练|熬)[\u4e00-\u9fff]{0,2}了|没(?:有)?再(?:学|练|去|弹|玩|喝|抽|碰|上)(?:过)?了|(?:从|把)\S{1,8}换成了?|"
                           r"不(?:喝|吃|抽|玩)[^，。,！!？?\s]{1,8}了|(?:一滴|一口|一根|一点)都?不(?:沾|碰)|"  # 不喝奶茶了: 不…了 is a change of state
                           r"(?:好久|很久|好长时间|很长时间|[周星期礼拜月年]多?|[\d一二两三四五六七八九十百几]+(?:天|周|个?星期|个?礼拜|个?月|年)多?)"
                           r"(?:了|来)?(?:都|也|了)?没(?:有|再)?(?:喝|吃|抽|玩|碰|打)"),
                        _P(r"(?i)\bquits?\b|\bstopped\b|"
                           # a streak of going without: "day 38 no cigs", "3 weeks without a drink", "two months sober"
                           r"\bday\s+\d+\s+(?:of\s+)?(?:no|without)\b|\b(?:\d+|one|two|three|four|five|six|a)\s+(?:days?|weeks?|months?|years?)\s+"
                           r"(?:no|without|sober|clean|smoke-free|off\s+(?:the\s+)?\w+)\b|"
                           r"\b(?:haven'?t|hasn'?t)\s+(?:had|drunk|eaten|smoked|touched|played|vaped)\b(?=.{0,40}?\bsince\b)|\b(?:smoke|vape|nicotine|alcohol|sugar|caffeine|soda|booze)[-\s]free\b|\b(?:haven't|hasn't)\s+(?:had|drunk|eaten|smoked|touched|played)\b(?=.{0,40}?"
                           r"\b(?:in|for)\s+(?:a\s+|over\s+a\s+|\w+\s+)?(?:weeks?|months?|years?|while|ages)\b)|\bswitched\s+from\b|\bgave\s+up\b|\bgiven\s+up\b|\bcut\s+(?:\w+\s+){0,2}out\b|"
                           r"\bkicked\b|\bno\s+more\b|\bno\s+longer\b|\banymore\b|\bsworn\s+off\b|\bditched\b|"
                           r"\bswore\s+off\b")),
           ("habit", "diet", "pursuit", "employer"), "from"),
    _Class("switch", Lex(_P(r"改成|改吃|改为|开始吃|开荤|转成|换成|(?:不|没)(?:再)?吃素|(?:现在|如今|又|已经)(?:啥|什么)都吃"),
                          _P(r"(?i)\bstarted\s+eating\b|\beat(?:s|ing)?\s+meat\s+again\b|\bon\s+an?\s+\w+\s+diet\s+now\b|"
                             r"\bwent\s+(?:vegan|vegetarian|keto|pescatarian)\b|\bswitched\s+to\b|\bnow\s+(?:vegan|"
                             r"vegetarian|keto|pescatarian)\b|\bno\s+longer\s+(?:vegan|vegetarian)\b|"
                             r"\bback\s+(?:on|to\s+eating)\s+(?:meat|chicken|beef|pork|fish|carbs|dairy)\b|"
                             # "meat's back on the menu", "eating fish again": what a diet left out is eaten again
                             rf"\b{_ANIMAL_FOOD}(?:'s|\s+is|\s+are)\s+back\s+on\s+(?:the\s+|my\s+)?(?:menu|table|plate)\b|"
                             rf"\beat(?:ing|s)?\s+(?:{_ANIMAL_FOOD}(?:,\s*|\s+(?:and|&|n|\+)\s+))*{_ANIMAL_FOOD}\s+again\b|"
                             # "fish + eggs are back", "meat and dairy are back in"
                             rf"\b(?:{_ANIMAL_FOOD}(?:,\s*|\s*(?:and|&|\+)\s*))*{_ANIMAL_FOOD}\s+(?:is|are|'re|'s)\s+back\b(?!\s+(?:in\s+stock|on\s+(?:sale|the\s+shelf|the\s+menu\s+at)|at\b))")),
           ("diet",), "to"),
)


def _said_ways(classes: tuple[_Class, ...]) -> tuple[_Class, ...]:
    """Each class with the ways of saying it of ``data/changes.tsv`` (literal phrases, 车出了 / "got canned")
    added to its verbs, after them: the verbs' finer reading (a destination, an object) comes first."""
    phrases: dict[tuple[str, str], list[str]] = {}
    for cls, lang, phrase in data_rows("changes.tsv"):
        phrases.setdefault((cls, lang), []).append(standard_zh(phrase) if lang == "zh" else phrase)
    out = []
    for c in classes:
        zh_said = "|".join(zh_phrase(x) for x in sorted(phrases.get((c.name, "zh"), ()), key=len, reverse=True)) or "(?!)"
        eng = "|".join(en_phrase(x) for x in sorted(phrases.get((c.name, "en"), ()), key=len, reverse=True)) or "(?!)"
        out.append(dataclasses.replace(c, said=Lex(_P(zh_said), _P(f"(?i){eng}"))))
    return tuple(out)


_CLASSES = _said_ways(_CLASSES)
_STOP = next(c.lex for c in _CLASSES if c.name == "stop")
#: the verbs of every class that ends something (lose, sell, end, leave, stop, done): text/over.py
ENDINGS: tuple[Lex, ...] = tuple(lex for c in _CLASSES if c.direction == "from" for lex in c.lexes)
#: the verbs that end a thing the speaker had or did (a habit, a thing sold, a couple, a job): text/ended.py
ENDS_A_THING: tuple[Lex, ...] = tuple(lex for c in _CLASSES if c.name in ("stop", "sell", "end", "leave") for lex in c.lexes)
#: classes that need their family named (换成 alone changes nothing known)
_NEEDS_CUE = frozenset({"switch", "replace"})


@dataclass(slots=True, frozen=True)
class Change:
    """A statement of change: its class, the families it may close, where its verb ends."""

    cls: str
    families: tuple[str, ...]
    direction: str
    at: int  # index just after the change verb (the destination follows it)
    start: int = 0  # index of the change verb (who did it is said before it)


@lru_cache(maxsize=4096)
def change_of(text: str, lang: str) -> Change | None:
    """The change a statement makes, or None (no change verb, or one naming no family it changes). Cached: the read
    path asks it of the same stored turns several times a block (the pairing in read/overtaken.py, the broad reading
    of text/changed.py, the endings of read/aftermath.py). A message in another language with Chinese in it is read
    as Chinese too ("Sampoerna Mild udah gue buang semua. 戒了, 3 minggu ini bersih")."""
    found = _change_of(text, lang)
    if found is None and lang != "zh" and _HAN.search(text):
        found = _change_of(text, "zh")
    return found


_HAN = re.compile(r"[\u4e00-\u9fff]{2}")
_CANCELLED = re.compile(r"(?i)取消|cancel")
_I_LEFT = re.compile(r"(?:我|用户)(?:已经|早就?|都|也)?走了$")


def _change_of(text: str, lang: str) -> Change | None:
    if lang == "zh":
        text = standard_zh(text)  # 车卖咗, 唔做了: the dialect's grammar words as Mandarin (one character each)
    cues = {f for f, lex in _CUES.items() if lex.search(text, lang)}
    if lang == "zh" and (at := place_moved_to(text)) is not None:
        return Change("move", ("residence",), "to", at, at)
    # every class's verbs first, in order; then the ways of saying it (被毕业了 is a layoff before 毕业了 a degree)
    unnamed_loss: Change | None = None
    for cls, lex in [(c, c.lex) for c in _CLASSES] + [(c, c.said) for c in _CLASSES if c.said is not None]:
        m = lex.search(text, lang)
        if m is not None and cls.name == "lose" and lang == "zh" and degree_complement(text, m):
            m = next((n for n in lex.zh.finditer(text, m.end()) if not degree_complement(text, n)), None)
        if m is None or (cls.name == "lose" and "pet" not in cues and SAID_OF_ANYONE.fullmatch(m.group(0))):
            continue  # (不在了 / 挂了 tell a pet's death only of a pet: 老板不在了, 数学挂了)
        named = tuple(f for f in cls.families if f in cues)
        if unnamed_loss is not None and not named:
            continue  # after a loss that named no pet, only a class whose thing is named reads it otherwise
        if cls.name == "lose" and not named and "employer" in cues and _I_LEFT.search(text, 0, m.end()):
            return Change("leave", ("employer",), "from", m.end(), m.start())  # 那家公司我已经走了: a job left
        if cls.name == "lose" and not named and unnamed_loss is None:
            # 速腾出了 让个二手车贩子收走了: gone (走了) to a car dealer is a car sold; a loss naming no pet is a pet's
            # (its name: 黑蛋送给二舅了) only when no other class's thing is named
            unnamed_loss = Change(cls.name, cls.families[:1], cls.direction, m.end(), m.start())
            continue
        if cls.name in ("sell", "lose") and not named and "pursuit" in cues:
            return Change(cls.name, ("pursuit",), cls.direction, m.end(), m.start())  # 考研的书全挂闲鱼了: the studying is over
        if not named and cls.name in _NEEDS_CUE:
            continue
        if cls.name == "leave" and "employer" not in cues and _STOP.search(text, lang):
            continue  # "no more X, I quit": a habit stopped, not a job left
        if cls.name == "leave" and left_behind(text, m, _CUES["employer"].en):
            continue  # "I left my umbrella on the bus": a thing left somewhere, not a job
        if (cls.name == "stop" and "employer" in named and not {"habit", "diet", "pursuit"} & set(named)
                and not _CANCELLED.search(m.group(0))):  # (一个班取消了, 航班取消了: a class or a flight, never a job)
            return Change("leave", ("employer",), "from", m.end(), m.start())  # 把工作戒了 / quit the job
        families = tuple(f for f in named if f != "employer") if cls.name == "stop" else named
        if cls.name == "join":  # a new job, and the search or the application for it over when it says so
            families = ("employer", *(("pursuit",) if "pursuit" in cues else ()))
        if cls.name == "leave" and not named:
            families = ("employer",)
        if cls.name == "leave" and "residence" in families and "employer" in cues:
            families = ("employer",)
        return Change(cls.name, families or cls.families[:1], cls.direction, m.end(), m.start())
    return unnamed_loss


def families_of(content: str, slot: str | None, lang: str) -> frozenset[str]:
    """The families a stored memory stands in: its slot's, else what its statement says."""
    if slot:
        base = slot.split("@", 1)[0]
        found = {fam for prefix, fam in _SLOT_FAMILIES if base.startswith(prefix)}
        if "habit" in found and _STANDING["diet"].search(content, lang):
            found.add("diet")  # pref/素 → also the diet
        if base.startswith("person:") and _STANDING["partner"].search(content, lang):
            found.add("partner")  # 用户的男朋友阿泽是做西餐的 (person:阿泽/job): what is said of the partner
        return frozenset(found)  # a slotted memory stands in its slot's topic only
    found = {f for f, lex in _STANDING.items() if lex.search(content, lang)}
    framed = standing_family(content, lang)  # 用户还在一家书店兼职: a frame of the fallback's
    return frozenset(found | {framed} if framed else found)


def names(text: str, lang: str) -> tuple[str, ...]:
    """People, places and organisations the statement names (a pet's name, an employer, a city)."""
    if lang == "zh":
        from jiyi.text.lexical import entities

        found = entities(text)
        return tuple(dict.fromkeys(w for tag in ("PER", "LOC", "ORG") for w in found.get(tag, ())))
    from jiyi.text.entities import find_entities

    return tuple(e for e in find_entities(text, "en") if not e[:1].isdigit() and e != "User")


def cue_of(family: str, text: str, lang: str) -> bool:
    """Does ``text`` name the family's noun (狗 / car / 饮料…)?"""
    lex = _CUES.get(family)
    return bool(lex and lex.search(text, lang))


def family_slots(family: str) -> tuple[str, ...]:
    """The exact slots a single-valued family is stored under (``user/city``…), for a direct lookup."""
    return tuple(prefix for prefix, fam in _SLOT_FAMILIES
                 if fam == family and not prefix.endswith("/") and not prefix.startswith("person:"))


_ZH_CALLED = _P(r"(?:叫|名叫|名字是|取名)(?:[「『《“\"](?P<q>[^」』》”\"\n]{1,12})[」』》”\"]|(?P<n>[\u4e00-\u9fffA-Za-z]{1,6}?)"
               r"(?:[，。,.！!]|$|的|了|，))")
_EN_CALLED = _P(r"\b(?:named|called)\s+(?P<n>[A-Z][\w'-]+)|"
                r"(?i:\b(?:User's|my)\s+(?:cat|dog|puppy|kitten|bunny|rabbit|hamster|parrot|budgie)\s+)"
                r"(?P<a>(?!(?i:food|bed|toys?|hair|walker|sitter|park|treats|vet|is|was|has|and)\b)[A-Za-z][\w'-]+)"
                r"(?=\s+(?:keeps|is|was|has|had|just|loves|likes|hates|got|and)\b|[,.!]|$)")


_ZH_PET = r"(?:猫|狗|宠物|仓鼠|兔子?|鹦鹉|金鱼|鱼|乌龟|龟|柯基|泰迪|柴犬|金毛|哈士奇|萨摩|英短|布偶|橘猫|猫咪|狗狗|蜥蜴|刺猬|龙猫|八哥)"
_EN_PET = (r"(?:cat|dog|pet|rabbit|bunny|hamster|parrot|puppy|kitten|turtle|tortoise|guinea\s+pig|ferret|budgie|fish|"
           r"goldfish|corgi|terrier|retriever|poodle|beagle|husky|lizard|gecko|snake|bird|cockatiel|pug|labrador|lab)")
#: the frame of a lasting state in each family, for a statement no template caught
#: (:mod:`jiyi.extractors.rules.standing`): stricter than :data:`_STANDING` where a family's
#: nouns are common words (a pet must be had or named, a vehicle driven or owned, a habit consumed)
_FRAMES: tuple[tuple[str, Lex], ...] = (
    ("residence", Lex(_P(r"^用户(?:现在|目前|一直|还|仍然|依然|也)*(?:住在|定居在|家在|租住在|租的房子在|在\S{1,10}?(?:住|生活|定居|租房|租了房|租的房|"
                           # 在容桂租了个单间, 在鼓楼租了套两居: what is rented in a place is a home, not a shop or a car
                           r"租(?:了|的)一?(?:个|间|套|栋|处)?(?![^，,。\s]{0,4}(?:车|铺|店|门面|档口|仓库|办公|工位|车位|场地|"
                           r"设备|摊|工作室|琴房|排练|会议|球场|自行车))))"),
                       _P(r"(?i)^User (?:now |currently )?(?:lives|is living|is based|resides|rents|is renting|"
                          r"has an? (?:apartment|flat|house|place) in)\b"))),
    ("employer", Lex(_P(r"^用户(?:现在|目前|一直|还|仍然|依然|也)*在(?!家|外面|路上|宿舍|床上|这|那|哪)\S{1,14}?"
                         r"(?:工作|上班|任职|当|做|实习|教|打工|干活|兼职|值班|跑)"),
                      _P(r"(?i)^User (?:now |currently )?(?:works|is working|is employed|teaches|drives for|delivers for|"
                         r"is an? [\w -]{2,30} (?:at|for))\b|"
                         r"^User: (?:now |currently |still )?(?:working|teaching|employed|driving|delivering|"
                         r"interning|temping) (?:\w+ )?(?:at|for)\b"))),
    ("partner", Lex(_P(r"^用户(?:的)?(?:女朋友|男朋友|女友|男友|对象|老婆|老公|妻子|丈夫|未婚[夫妻])|^用户(?:和|跟)\S{1,6}在一起|"
                        r"^用户(?:已经)?结婚了|^用户在(?:谈恋爱|和\S{1,6}谈恋爱)"),
                     _P(r"(?i)^User(?:'s)? (?:girlfriend|boyfriend|partner|wife|husband|fianc\w*|gf|bf)\b|"
                        r"^User is (?:dating|seeing|married to|engaged to|in a relationship with)\b"))),
    ("pet", Lex(_P(rf"^用户(?:家)?(?:养了?|有)(?:一|两|三|几)?(?:只|条|头|个)?\S{{0,6}}?{_ZH_PET}|^用户(?:家)?的\S{{0,4}}?{_ZH_PET}叫"),
                 _P(rf"(?i)^User (?:has|owns|adopted|got) (?:an?|two|three|\d+) (?:[\w-]+ ){{0,2}}{_EN_PET}s?\b|"
                    rf"^User's (?:[\w-]+ ){{0,2}}{_EN_PET} is (?:named |called )?(?-i:[A-Z])"))),
    ("vehicle", Lex(_P(r"^用户(?:现在)?(?:开|骑|有)(?:的是|了)?(?:一|辆|台)\S{0,12}?(?:车|摩托)|^用户的(?:车|座驾|摩托)"),
                     _P(r"(?i)^User (?:drives|rides|owns|has) (?:an?|my|the) (?:[\w-]+ ){0,4}?(?:car|truck|suv|van|"
                        r"motorcycle|motorbike|scooter|moped|(?-i:[A-Z])[\w-]+)\b"))),
    ("diet", Lex(_P(r"吃素|素食|纯素|生酮|断食|蛋奶素|鱼素|不吃(?:肉|荤|海鲜|猪肉|牛肉|鸡蛋|奶)"),
                  _P(r"(?i)\b(?:vegetarian|vegan|keto|pescatarian|plant-based|paleo|whole\s?30|low-carb|"
                     r"(?:dairy|gluten|sugar|meat)-free)\b"))),
    ("pursuit", Lex(_P(r"备考|准备(?:考|申请|面试)|申请|考研|考公|考编|找工作|求职|备战|报考|在考(?!虑)|在学(?:车|驾照)|"
                        r"^用户\S{0,4}?在(?:练|学)(?!习|校|会|到|了)"),
                     _P(r"(?i)\b(?:applying|preparing\s+for|studying\s+for|prepping\s+for|training\s+for|"
                        r"(?:learning|practicing|practising)\s+(?:the\s+|to\s+)?\w+|"
                        r"job\s+hunting|looking\s+for\s+(?:a\s+)?(?:new\s+)?job)\b"))),
    ("habit", Lex(_P(r"^用户\S{0,8}?(?:抽|喝|嚼|吸)(?!了)\S{1,10}"),
                   _P(r"(?i)^User (?:\w+ ){0,2}?(?:drinks|smokes|vapes|chews|plays)\b"))),
)


_BEFORE_MARRIAGE = Lex(_P(r"男朋友|女朋友|男友|女友|对象|未婚[夫妻]|求婚|订婚|谈恋爱|在一起"),
                      _P(r"(?i)\b(?:boyfriend|girlfriend|bf|gf|fianc\w*|engaged|proposed|propose|dating|wedding\s+planning)\b"))


def before_marriage(content: str, lang: str) -> bool:
    """Does a partner memory call them what a wedding changes (男朋友, "fiancée", engaged)?"""
    return _BEFORE_MARRIAGE.found(content, lang)


def stands_in(family: str, content: str, lang: str) -> bool:
    """Does ``content`` (用户… / User…) say a standing value of ``family`` in its frame (用户住在…, "User works at")?"""
    return _STANDING[family].found(content, lang)


def standing_family(content: str, lang: str) -> str | None:
    """The family whose lasting-state frame ``content`` (用户… / User…) is said in, or None."""
    for family, lex in _FRAMES:
        if lex.search(content, lang) and (family != "habit" or consumption(content, lang)):
            return family
    return None


def called(content: str, lang: str) -> tuple[str, ...]:
    """The names a statement gives (用户的仓鼠叫芝麻 → 芝麻; "a dog called Pepper" → Pepper)."""
    if lang == "zh":  # 叫芝麻, 叫「一隅」的花店
        return tuple(m.group("q") or m.group("n") for m in _ZH_CALLED.finditer(content))
    return tuple(m.group("n") or m.group("a") for m in _EN_CALLED.finditer(content))


CLAUSE_CUT = _P(r"[，,。.;；!！?？]")
_EN_FUNCTION = words(
    "user user's a an the my for to of and or but now anymore again completely altogether it that this all "
    "more no longer have has had been is are was were do does did finally just also really totally good")


def object_words(text: str, lang: str, at: int) -> tuple[str, ...]:
    """What the clause holding a change's verb (ending at ``at``) names besides the user: 把咖啡戒了 →
    咖啡; "No more Monster for User" → Monster; 想想还是戒了 → nothing (its object was said before)."""
    starts = [0, *(m.end() for m in CLAUSE_CUT.finditer(text, 0, max(at - 1, 0)))]
    end = CLAUSE_CUT.search(text, at)
    clause = text[starts[-1]:end.start() if end else len(text)]
    if lang == "zh":
        from jiyi.text.lexical import tagged

        return tuple(w for w, t in tagged(clause) if t in ("n", "nz", "ORG", "PER", "LOC", "vn") and "用户" not in w)
    verb = _STOP.search(clause, lang)
    words = re.findall(r"[A-Za-z][\w'-]+", clause)
    said = {w.lower() for w in re.findall(r"[A-Za-z][\w'-]+", verb.group(0))} if verb else set()
    return tuple(w for w in words if w.lower() not in _EN_FUNCTION and w.lower() not in said)


_ZH_COMPLETED = _P(r"(?:考|做|学|写|办|弄)完了?|结束了|完成了|搞定了")
_EN_COMPLETED = _P(r"(?i)\b(?:finished|completed|wrapped\s+up|is\s+over|was\s+over)\b")


def completed(content: str, lang: str) -> bool:
    """考完了 / "finished the exam": a statement that something is over is history, no standing state."""
    return bool((_ZH_COMPLETED if lang == "zh" else _EN_COMPLETED).search(content))
