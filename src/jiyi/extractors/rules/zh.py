"""Chinese fact patterns about the user: name, age, home, work, diet, likes, habits, reply style.

Each function takes a clause body (the clause after its subject: 我叫小王 → 叫小王)
and returns drafts in canonical third person (用户名字是小王). Contacts and health
are in :mod:`.sensitive`; people and pets in :mod:`.people`.
"""

from __future__ import annotations

import re

from jiyi.extractors.rules.drafts import Draft, S, fact, templated
from jiyi.records import Kind
from jiyi.text import zh
from jiyi.text.consumption import kinds_of
from jiyi.text.new_value import online
from jiyi.text.person import tidy_zh
from jiyi.text.relations import NAME_DENY, looks_like_name_zh, name_at_start
from jiyi.text.wordlists import words
from jiyi.write.timeparse import cn_to_int

#: adverbs that may open a clause body before the pattern proper (现在住在…, 已经28岁)
ZH_ADV = r"(?:现在|目前|已经|也|还|都|就|才|刚|刚刚|正|今年|最近|本来|一直|平时|其实|真的|确实|主要|目前还)*"
#: a value: everything up to the next punctuation or space
ZH_VAL = r"(?P<v>[^，,。！？!?；;\s]{1,40})"
#: recurring days that may open a habit or a liking (周末喜欢喝咖啡): see :mod:`.recurring`
_ZH_RECUR = r"(?:周末|周[一二三四五六日天]|星期[一二三四五六日天]|礼拜[一二三四五六日天]|工作日|平日|节假日|假期|下班后|放学后)"
_PUNCT_CUT = re.compile(r"[，,。！？!?；;\s]")

_ZH_NAME_IS = re.compile(rf"^{ZH_ADV}(?:的)?(?:名字|姓名|全名|大名)(?:叫做|叫|是|为)?[:：]?\s*{ZH_VAL}")
_ZH_NAME_CALLED = re.compile(rf"^{ZH_ADV}(?:叫做|名叫|叫){ZH_VAL}")
_ZH_CALL_ME = re.compile(r"(?:^|你|您|大家|以后|可以|就|都|请|直接)叫我(?P<v>[^，,。！？!?；;\s]{1,12})")
_ZH_SURNAME = re.compile(r"^姓(?P<v>[\u4e00-\u9fff])(?:[，,。]|$|的|，)")
_ZH_AGE = re.compile(rf"^{ZH_ADV}(?:已经|都|才|快)?(?P<v>\d{{1,3}}|[一二三四五六七八九十两]{{1,3}})(?:周)?岁(?!的)")
_ZH_MOVE = re.compile(rf"^{ZH_ADV}(?:要|准备|打算|计划|将|会|刚|已经|终于)?(?:正式)?(?:搬家)?"
                      rf"(?:搬到|搬去|搬进|搬回|迁到|搬家到|搬家去|(?i:relocate|move)(?:到|去))(?:了)?{ZH_VAL}")
_ZH_NEWHOME = re.compile(rf"^(?:的)?新家(?:在|位于|是){ZH_VAL}")
_ZH_LIVE = re.compile(rf"^{ZH_ADV}(?:房子)?(?:住在|家住|家在|生活在|定居在|定居|常驻|暂住在|租住在|租在了?|住(?![院校宿店了过得不着惯]))"
                      rf"{ZH_VAL}")  # (住院: in hospital; 住校, 住宿, 住店: not a home)
_ZH_LIVE_WORK = re.compile(r"^" + ZH_ADV + r"在(?P<v>[^，,。！？!?\s]{1,20}?)(?:工作生活|生活工作|生活|定居|长大)$")
#: 在成都住了五年了 / 在杭州生活快十年了: a stay that goes on (its length said, ending in 了)
_ZH_LIVED_FOR = re.compile(r"^" + ZH_ADV + r"在(?P<v>[^，,。！？!?\s]{1,20}?)(?:住|生活|定居)了?(?:快|差不多|将近|有|都)?"
                           r"[\d一二两三四五六七八九十几半]+多?(?:年|个月)多?了$")
_ZH_HOMETOWN = re.compile(rf"^{ZH_ADV}(?:是(?P<v>[\u4e00-\u9fff]{{2,8}}?)人$|(?:老家(?:是|在)|来自){ZH_VAL.replace('v>', 'w>')})")
_ZH_WORK_AT = re.compile(rf"^{ZH_ADV}在(?P<org>[^，,。！？!?\s]{{1,24}}?)(?:工作|上班|任职|就职|实习|打工)(?:了|呢|啊)?$")
_ZH_WORK_AS = re.compile(rf"^{ZH_ADV}在(?P<org>[^，,。！？!?\s]{{1,24}}?)(?:做|当|担任|干)(?P<job>[^，,。！？!?\s]{{1,12}})$")
#: a workplace told by what it does before its noun: 在一家做冷链物流的公司搞调度 / 在一个卖建材的店里帮忙
_ZH_WORK_DESCRIBED = re.compile(
    rf"^{ZH_ADV}在(?P<org>(?:一家|一个|一所|家|个)?[^，,。！？!?\s]{{1,16}}?的(?:公司|厂|工厂|医院|学校|银行|酒店|餐厅|店|"
    rf"事务所|工作室|机构|集团|中心|单位))(?:里|里面)?(?:做|当|担任|干|搞|负责|帮忙)(?P<job>[^，,。！？!?\s]{{0,12}})$")
#: work told by what one does at a workplace named as one (在一家外包公司写vue, 在高新区一家培训机构教编程): the noun
#: says it is an employer, so the verb may be any ("在星巴克写论文" names no workplace noun: no job)
#: the nouns that say a place is a workplace
ZH_WORKPLACE_NOUN = "(?:公司|厂|工厂|医院|学校|银行|酒店|餐厅|店|事务所|工作室|机构|集团|中心|单位|诊所|幼儿园|超市)"
_ZH_WORK_DOING = re.compile(
    rf"^{ZH_ADV}在(?P<org>[^，,。！？!?\s]{{0,8}}?(?:一家|一个|一所|家)[^，,。！？!?\s]{{1,10}}?{ZH_WORKPLACE_NOUN})(?:里|里面)?(?:写|教|带|管|负责|搞|跑|修|卖|送|接|剪|画|"
    rf"拍|开)(?P<job>[^，,。！？!?\s]{{1,12}})$")  # (做 / 当 / 干 a title: _ZH_WORK_AS keeps the title too)
#: a teacher told by what is taught: 我教初中语文, 在培训班教钢琴
_ZH_TEACHES = re.compile(rf"^{ZH_ADV}(?:在[^，,。！？!?\s]{{1,12}}?)?教(?P<lvl>小学|初中|高中|初一|初二|初三|高一|高二|高三|大学|"
                         rf"幼儿园)?(?P<subj>语文|数学|英语|物理|化学|生物|历史|地理|政治|音乐|美术|体育|钢琴|吉他|舞蹈|编程|"
                         rf"书法|日语|韩语|法语|德语|西班牙语)(?:的)?$")
_ZH_EMPLOYED = re.compile(rf"^{ZH_ADV}(?:就职于|供职于|任职于|入职了?(?!以来|之后|后|前|时|的时候|培训|手续|体检|材料)|加入了?)(?P<org>[^，,。！？!?\s]{{2,24}})$")
#: a business the speaker runs: 在坡子街开了个纹身店 / 跟阿强合伙开了家牛肉火锅店 / 现在在河南街开韩语补习班
_ZH_RUNS = re.compile(rf"^{ZH_ADV}(?:在[^，,。！？!?\s]{{1,10}}?)?(?:自己|跟[^，,\s]{{1,4}}?(?:合伙|一起)|"
                      rf"和[^，,\s]{{1,4}}?(?:合伙|一起)|合伙)?开(?:了)?(?:一)?(?:家|个|间|爿|档|座|处)?"
                      r"(?P<v>[\u4e00-\u9fff]{1,8}?(?:店|馆|铺|坊|厂|公司|工作室|补习班|培训班|辅导班|诊所|餐厅|饭店|超市|档口|"
                      r"民宿|酒吧|摊))(?:叫.{0,12})?$")
_ZH_JOB = re.compile(rf"^{ZH_ADV}(?:是|做|当|干)(?:一名|一个|一位|个|名)?(?P<job>[^，,。！？!?\s]{{1,12}}?)(?:的)?$")
_ZH_JOB_DO = re.compile(rf"^{ZH_ADV}是(?:做|搞|干)(?P<job>[^，,。！？!?\s]{{1,10}})的$")
_ZH_ORG_JOB = re.compile(rf"^{ZH_ADV}是(?P<org>[^，,。！？!?\s]{{2,20}}?)的(?P<job>[^，,。！？!?\s]{{1,10}})$")
_ZH_I_AM = re.compile(rf"^{ZH_ADV}是(?P<v>[^，,。！？!?\s]{{1,6}})$")
#: the head of a group one joins without being employed by it: 读书会, 跑团, 篮球队, 羽毛球社, 业主群, 合唱团, 市场部
_A_GROUP = re.compile(r"(?:会|团|队|社|群|班|圈|组|部|俱乐部|联盟|项目)$")
_JOB_SUFFIX = re.compile(
    r"(?:师|员|工|经理|总监|主管|主任|老板|医生|护士|律师|会计|司机|厨师|记者|编辑|作家|演员|警察|教授|博士生?|硕士生?|"
    r"研究生|本科生|大学生|高中生|初中生|小学生|学生|留学生|实习生|公务员|销售|运营|前端|后端|全栈|自由职业者?|创业者|主播|"
    r"博主|模特|歌手|画家|农民|军人|保安|店主|宝妈|全职妈妈|HR|CEO|CTO|产品|老师|教练|导游|翻译|客服|助理|秘书|专员|"
    r"顾问|分析师|架构师|会计师|药剂师|董事长|总裁|经纪人|外卖小哥|快递小哥|退休职工|退休了|文案|策划|写手|设计|剪辑|"
    r"摄影|插画|自媒体|up主|UP主|领班|(?:组|店|班|队|科|处|厂|校|院|部|行|站|所|车间|护士|机|船)长)$"
)
_PLACE_SUFFIX = re.compile(r"(?:市|省|区|县|镇|乡|村|州|岛)$")
_PLACE_TRIM = re.compile(r"(?:对吧|对吗|是吧|是吗|吗|那边|这边|那里|这里|那儿|这儿|附近|一带|去了|去|来|住|的家|了|啦|吧|呢|啊|哦|哈|的)+$")
_GENERIC_PLACES = words("家 家里 这 那 这里 那里 公司 单位 宿舍 学校 酒店 宾馆 外地 外面 老家 国外 本地 附近 哪 哪里")
#: house numbers and the like: what makes 漕溪北路88弄 an address rather than a city
ADDR_LIKE = re.compile(r"\d+\s*(?:号|弄|室|栋|幢|单元|楼|层|号楼)|(?:路|街|巷|道|弄|村|里)\d")
#: the city an address opens with (上海市… → 上海), or its district (弋江区澄溪苑… → 弋江区)
_ZH_CITY_OF_ADDR = re.compile(r"^(?P<c>[\u4e00-\u9fff]{2,4}?(?=市)|[\u4e00-\u9fff]{1,4}?区)")
_ZH_VEG = re.compile(rf"^{ZH_ADV}(?:只)?(?:吃素|是素食者|是素食主义者|吃全素|是纯素食?者?)")
_ZH_NO_EAT = re.compile(rf"^{ZH_ADV}(?P<neg>一点都不|完全不|从来不|从不|不能|不敢|再也不|不再|不)(?P<verb>吃|喝|碰)"
                        r"(?P<v>[^，,。！？!?\s]{1,12})")
#: 开始吃肉了 / 重新喝咖啡了 / 现在能吃辣了: a food or drink taken up again, the user's stance on it now (a
#: later "又吃火锅了" is a meal, not a stance: 又 is not among the words)
_ZH_EATS_AGAIN = re.compile(rf"^{ZH_ADV}(?P<again>开始|重新|恢复|又开始|能|可以)(?P<verb>吃|喝)(?P<v>[\u4e00-\u9fff]{{1,4}}?)(?:了|啦)$")
#: 不再打篮球 / 再也不玩游戏了 / 不抽烟了: a habit or liking that stopped
_ZH_NO_LONGER = re.compile(rf"^{ZH_ADV}(?:(?P<neg>不再|再也不|不)(?P<verb>抽|玩|打|踢|看|去|用|练|弹|追|跑|喝|吃)"
                           r"(?P<v>[^，,。！？!?\s了]{1,8})(?P<le>了)?(?:啦|呀|哦)?$)")
#: (the topic a thing, not an adverb: 早不碰了 is "long since stopped", its object said before)
_ZH_TOPIC_NO_LONGER = re.compile(r"^(?!早|都|也|就|还|再|真|从|现在|已经|一直|好久|根本)(?P<v>[\u4e00-\u9fff]{1,4}?)(?:我)?(?P<adv>(?:也|已经|都|早就|早|现在)*)不(?P<verb>吃|喝|抽|玩|打|看|碰)了")
_VERB_LEAD = re.compile(r"^(?:吃|喝|看|听|玩|用|去|穿|养|打|踢|抽|弹|练|追)(?=.)")
#: 一个多月没喝奶茶了 / 好久都没抽烟了: a habit not done for a while (not 昨天没吃早饭: a day is no while)
_ZH_LAPSED = re.compile(
    rf"^{ZH_ADV}(?:都|已经|有)?(?P<for>好久|很久|好长时间|很长时间|好一阵子?|好几(?:天|周|个星期|个月)|"
    r"(?:快|差不多|将近)?[\d一二两三四五六七八九十几半]+多?个?多?(?:周|星期|礼拜|月|年)多?)(?:都|也|了)?"
    r"没(?:有|再)?(?P<verb>喝|吃|抽|玩|碰|买|点|打)(?:过)?(?P<v>[\u4e00-\u9fffA-Za-z]{1,8}?)(?:了|啦)$")
_ZH_WISH = re.compile(r"(?:想|打算|准备|希望|试着|尝试)(?:要)?戒")
_ZH_QUIT = re.compile(r"(?:戒了|戒掉了|戒掉|在戒|开始戒|决定戒|要戒|戒)(?![不了掉])(?P<v>[\u4e00-\u9fff]{1,4}?)(?:了|啦|吧)?$")
_NOT_A_HABIT_OBJECT = re.compile(r"快|个月|月|周|天|年|礼拜|星期|俩|仨|已经|不了|想|还是|要|就|也|都|会|能|没|不|未|别|还")  # (烟还没戒掉: not quit)
_ZH_QUIT_TOPIC = re.compile(r"^(?:把)?(?!早|都|也|就|还|已经|现在|真)(?P<v>[\u4e00-\u9fff]{1,4}?)(?:我)?(?:也|已经|都|早就|早)?(?:给)?戒(?:了|掉了|掉)")
#: a thing consumed, then dropped: 烟我彻底断了 / 那玩意儿我撂下了 (its name put in) / 酒早掐了
_ZH_DROPPED_TOPIC = re.compile(r"^(?:把)?(?!早|都|也|就|还|已经|现在|真)(?P<v>[\u4e00-\u9fff]{1,4}?)(?:我)?"
                               r"(?:也|已经|都|早就|早|彻底|完全)*(?:给)?(?:断|撂|掐|扔)(?:了|掉了|掉|下了)")
_ZH_LIKE = re.compile(
    rf"^{ZH_ADV}(?:{_ZH_RECUR}(?:的时候)?(?:早上|上午|中午|下午|晚上)?)?{ZH_ADV}(?:(?:最|特别|很|超|超级|非常|比较|挺|还挺|真的|蛮|也|还|一直|都|更|尤其)*)"
    r"(?P<neg>不太|不怎么|不是很|没那么|不)?(?:太|很|怎么)?"
    r"(?P<verb>喜欢|爱|讨厌|烦|受不了|偏好|偏爱|钟爱|热爱|迷上了|沉迷于?|害怕|反感)(?P<v>[^，,。！？!?；;]{1,40})"
)
#: what follows 烦 / 爱 is only how much ("烦死了", "爱死了", "讨厌极了"): a mood of the moment, no object
_ONLY_DEGREE = re.compile(r"^(?:到|得)?(?:死|极|透|坏|爆|炸|疯|惨|飞起|不行|要命|要死|哭|吐)?(?:了|啦|掉了)?(?:啊|呀|哦|吧)*$")
_ZH_HABIT = re.compile(
    rf"^{ZH_ADV}(?P<adv>每天|天天|每晚|每周|每个月|每月|每年|每次|经常|常常|通常|一般|平时|平常|总是|老是|一直|从不|从来不|"
    r"从来没|向来|习惯|一向)(?P<v>[^，,。！？!?；;]{2,40})"
)
#: a habit on a recurring day: 周末一般在家 / 周一都去游泳 / 工作日早上喝咖啡
_ZH_RECUR_HABIT = re.compile(
    rf"^{ZH_ADV}{_ZH_RECUR}(?:的时候)?(?:早上|上午|中午|下午|晚上)?(?:都|一般|通常|总是|经常|常常|基本上?|会|也|喜欢)+"
    r"(?P<v>[^，,。！？!?；;]{2,40})")
_ZH_FREQ = re.compile(r"^(?:一天|每天|一周|每周|一个月|每月)[\d一二两三四五六七八九十几]+(?:杯|次|包|顿|个|小时|公里|趟|瓶|支)")
_STYLE_ZH: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("style/length", re.compile(
        r"(?:简短|简洁|简单|精简|短)(?:一?点|一些|些)|(?:别|不要|少)(?:太)?(?:啰嗦|废话|长篇大论)|"
        r"(?:别|不要)(?:给我)?(?:发|写|回|说)?(?:这么|那么)?长?(?:一大段|一长串|长篇)|说重点|"
        r"[一两二三四五\d]+句(?:话)?(?:以内|之内|就(?:行|够|好)|说完)|(?:控制在|不超过|别超过)[\d一二三四五六七八九十百]+(?:个)?(?:字|句)|"
        r"(?:详细|具体|仔细)(?:一?点|一些|些)|说(?:得)?(?:详细|具体)")),
    ("style/language", re.compile(
        r"(?:用|说|讲)(?:英文|英语|中文|汉语|普通话|粤语|日语|日文|韩语|繁体字?|简体字?)"
        r"(?:回复|回答|跟我说|和我说|交流|聊天?|说话|写|沟通)|(?:回复|回答|跟我说话?|和我聊)(?:请)?(?:都)?(?:用|说)"
        r"(?:英文|英语|中文|汉语|普通话|粤语|日语|日文|韩语)")),
    ("style/emoji", re.compile(r"(?:别|不要|不用|少|不许)(?:再)?(?:用|发|加|带|放)?(?:表情|emoji|颜文字)|"
                               r"多(?:用|发|加)点?(?:表情|emoji)", re.IGNORECASE)),
    ("style/tone", re.compile(
        r"(?:别|不要|不用)(?:老|总|再|总是|老是)?(?:给我)?(?:灌鸡汤|鸡汤|说教|讲大道理|讲道理|客套|打官腔|拍马屁)|"
        r"(?:正式|随意|幽默|温柔|严肃|口语化|直接)(?:一?点|一些)|(?:别|不要|少)(?:跟我|给我)?(?:整|搞|来|绕)?(?:那些|这些)?(?:弯弯绕绕?|绕弯子?|拐弯抹角)|"
        r"有啥说啥|有什么说什么|直来直去")),
    ("style/format", re.compile(  # how a reply is laid out: 分点说, 用列表, 别用表格, 别用markdown
        r"(?:分点|分条|列点|列要点|列清单|用列表|列个表|用表格|一条一条)(?:说|写|回|列|回答|回复)?|"
        r"(?:别|不要|不用|少)(?:用|搞|列|分)?(?:列表|表格|分点|markdown|标题|加粗)", re.IGNORECASE)),
    ("contact/channel", re.compile(  # how to reach the speaker: 给我发… / …联系我 / 有事发…, not 给导师发邮件
        r"(?:给我|跟我|和我|联系我|通知我|找我|提醒我)(?:就|都)?(?:发|用|通过|走)(?:个)?(?:短信|邮件|邮箱|微信|站内信|推送|QQ|钉钉|飞书)|"
        r"(?:发|用|通过|改成|换成|改用|走)(?:短信|邮件|邮箱|微信|站内信|App推送|APP推送|app推送|推送|QQ|钉钉|飞书)"
        r"(?:给我|联系我|通知我|找我|提醒我)|(?:有事|以后|请|麻烦)(?:就|都)?(?:发|用|通过|改用|走)(?:短信|邮件|微信|QQ|钉钉|飞书|推送)|"
        r"(?:改成|换成|改用)(?:短信|邮件|邮箱|微信|站内信|App推送|APP推送|app推送|推送|QQ|钉钉|飞书)|"
        r"(?:别|不要|千万别|勿|不用|别再)(?:给我)?(?:打电话|打我电话|发邮件|发短信|发微信|致电|来电)")),
)


def clean_value(v: str) -> str:
    """``v`` up to the first punctuation or space."""
    cut = _PUNCT_CUT.search(v)
    return (v[: cut.start()] if cut else v).strip()


def _clean_place(v: str) -> str | None:
    v = _PLACE_TRIM.sub("", clean_value(v))
    if not v or v in _GENERIC_PLACES or len(v) > 20 or v[0] in "这那哪个几一二两三四五六七八九十" or v[0].isdigit():
        return None
    return v


def _is_place(word: str) -> bool:
    """Is ``word`` a place rather than an organisation (上海 vs 腾讯)?"""
    return bool(_PLACE_SUFFIX.search(word)) or tagged_as_place(word)


def tagged_as_place(word: str) -> bool:
    """Does jieba tag every part of ``word`` a place (郑东, 滨江)?"""
    tags = zh.pos_tags(word)
    return len(tags) >= 1 and all(flag == "ns" for _, flag in tags)


def is_job(word: str) -> bool:
    """Does ``word`` end like a job title (调度主管, 前端, 护士) and say nothing else (我的, 不是)? Not a place
    counted out (一间做IC设计, 一家搞装修: a company told by what it does, not a title)."""
    return bool(_JOB_SUFFIX.search(word)) and not re.search(r"[的了不很我你他她]", word) \
        and not re.match(r"[一两几][间家个所座]", word)


def zh_name(body: str) -> list[Draft]:
    """我叫小王 / 我的名字是… / 叫我雨桐就行 / 我姓王."""
    for pattern in (_ZH_NAME_IS, _ZH_NAME_CALLED):
        if m := pattern.match(body):
            name = name_at_start(m.group("v"), explicit=True)
            if name and name[0] not in "他她它你您我这那别不没一得的了起着过醒声来出去做":
                return [templated("用户名字是{v}", "user/name", name, importance=0.8)]
    if called := zh_call_me(body):
        return called
    if m := _ZH_SURNAME.match(body):
        return [templated("用户姓{v}", "user/surname", m.group("v"), importance=0.6)]
    return []


def zh_call_me(text: str) -> list[Draft]:
    """叫我雨桐就行 / 你以后叫我小王: how the user wants to be addressed (``user/name``)."""
    if m := _ZH_CALL_ME.search(text):
        raw = m.group("v")
        name = name_at_start(raw, explicit=True)
        polite = re.match(r".{1,6}?(?:就行|就好|就可以|吧|即可)", raw)
        if name and (looks_like_name_zh(name) or polite) and name not in NAME_DENY:
            return [templated("用户希望被叫作{v}", "user/name", name, importance=0.8)]
    return []


def zh_age(body: str) -> list[Draft]:
    """我今年28岁 / 三十八岁."""
    if m := _ZH_AGE.match(body):
        age = cn_to_int(m.group("v"))
        if 1 <= age <= 120:
            return [templated("用户{v}岁", "user/age", str(age))]
    return []


def zh_residence(body: str) -> list[Draft]:
    """Where the user lives or moved to (user/city, or an address), or comes from (user/hometown)."""
    if m := _ZH_MOVE.match(body) or _ZH_NEWHOME.match(body):
        raw = clean_value(m.group("v"))
        if ADDR_LIKE.search(raw):
            return zh_address(raw)
        if online(raw):
            return []  # "搬去B站做视频了", "店搬到美团上了": a platform, not a home
        if place := _clean_place(raw):
            return [templated("用户搬到了{v}", "user/city", place, importance=0.7)]
    if m := _ZH_LIVE.match(body) or _ZH_LIVE_WORK.match(body) or _ZH_LIVED_FOR.match(body):
        raw = clean_value(m.group("v"))
        if ADDR_LIKE.search(raw):
            return zh_address(raw)
        if place := _clean_place(raw):
            return [templated("用户住在{v}", "user/city", place, importance=0.7)]
    if m := _ZH_HOMETOWN.match(body):
        place = _clean_place(m.group("v") or m.group("w") or "")
        if place:
            return [templated("用户是{v}人", "user/hometown", place)]
    return []


_ADDR_PART = re.compile(r"路|街|道|弄|巷|村|小区|大厦|公寓|花园|苑|区|镇|号楼|单元|栋|幢")
_ADDR_TAIL = re.compile(r"(?:对吗|对吧|是吗|吗|啦|吧|呢|哦|啊|呀|了|的)+$")


def zh_address(addr: str) -> list[Draft]:
    """An address (sensitive), plus the city it names (上海市… → user/city)."""
    addr = _ADDR_TAIL.sub("", addr)
    if not _ADDR_PART.search(addr) or addr[0] in "和跟与的是都也在就把":
        return []
    out = [templated("用户的地址是{v}", "user/address", addr, importance=0.7, visibility=S)]
    if m := _ZH_CITY_OF_ADDR.match(addr):
        out.append(templated("用户住在{v}", "user/city", m.group("c"), importance=0.7))
    return out


def zh_work(body: str) -> list[Draft]:
    """Job title (user/job) and employer (user/employer; a place instead goes to user/city)."""
    if m := _ZH_WORK_DESCRIBED.match(body):
        job = clean_value(m.group("job"))
        out = [templated("用户在{v}工作", "user/employer", clean_value(m.group("org")))]
        return out + ([templated("用户是{v}", "user/job", job)] if job and is_job(job) else [])
    if m := _ZH_WORK_DOING.match(body):
        return [templated("用户在{v}工作", "user/employer", clean_value(m.group("org")))]
    if m := _ZH_TEACHES.match(body):
        return [templated("用户是{v}老师", "user/job", (m.group("lvl") or "") + m.group("subj"))]
    if m := _ZH_WORK_AS.match(body):
        org, job = clean_value(m.group("org")), clean_value(m.group("job"))
        if not is_job(job) and not _names_a_place_or_org(org):
            return []  # 最近在学做饭 / 在家做饭: learning and cooking, no workplace
        out = [] if org in _GENERIC_PLACES else [_org_or_city(org)]
        if is_job(job):
            out.append(templated("用户是{v}", "user/job", job))
        return out
    if m := _ZH_WORK_AT.match(body) or _ZH_EMPLOYED.match(body):
        org = clean_value(m.group("org"))
        if org in _GENERIC_PLACES or not org or org[0] in "找换新":  # 在找工作 / 在换工作: no employer
            return []
        if "加入" in m.group(0)[: m.start("org")] and _A_GROUP.search(org):
            return []  # 加入了一个读书会 / 小区的跑团 / 市场部: a group joined, not an employer
        return [_org_or_city(org)]
    if m := _ZH_ORG_JOB.match(body):
        org, job = m.group("org"), m.group("job")
        if is_job(job):  # 退休的语文老师 / 兼职的…: what kind of, not where
            return [*([] if _says_how(org) else [_org_or_city(org)]), templated("用户是{v}", "user/job", job)]
    if m := _ZH_RUNS.match(body):  # one's own shop or school is one's work
        return [templated("用户开了{v}", "user/employer", clean_value(m.group("v")))]
    if m := _ZH_JOB_DO.match(body):
        return [templated("用户是做{v}的", "user/job", m.group("job"))]
    if m := _ZH_JOB.match(body):
        job = m.group("job")
        if is_job(job):
            return [templated("用户是{v}", "user/job", job)]
    return []


def _names_a_place_or_org(org: str) -> bool:
    """Is ``org`` (before 做 / 当) a noun of two characters or more, not a verb (学 / 练 / 帮忙)?"""
    from jiyi.text import zh

    tags = zh.pos_tags(org)
    return len(org) >= 2 and bool(tags) and tags[-1][1].startswith(("n", "eng")) and org not in _GENERIC_PLACES


def _org_or_city(org: str) -> Draft:
    if _is_place(org):
        return templated("用户在{v}工作", "user/city", org, importance=0.7)
    return templated("用户在{v}工作", "user/employer", org)


def zh_i_am_name(body: str) -> list[Draft]:
    """我是小王 — only once job and hometown patterns have declined, and not 我是左撇子 / 我是团长 (one common
    noun to the lexical analyser: what the user is, not what they are called)."""
    if ((m := _ZH_I_AM.match(body)) and looks_like_name_zh(m.group("v")) and not is_job(m.group("v"))
            and not _one_common_word(m.group("v"))):
        return [templated("用户名字是{v}", "user/name", m.group("v"), importance=0.8)]
    return []


#: lexical-analyser tags of words that are not names: common nouns, verbal nouns, adjectives, times, places of a kind
_NOT_A_NAME_TAGS = frozenset({"n", "vn", "an", "a", "ad", "v", "TIME", "s", "f"})
#: what only says who the speaker is or greets: 我是程序员 / 我也是新人 / 大家好 (a 叫X after it is the speaker's name)
_SPEAKER_IS = re.compile(r"^(?:我|俺|本人)(?:也|就|其实|正好)?是")


def _says_how(word: str) -> bool:
    """Is ``word`` (before 的 + a job) a verb or an adjective to the lexical analyser (退休的, 兼职的), not a place?"""
    from jiyi.text.lexical import tagged

    tags = tagged(word)
    return bool(tags) and tags[-1][1] in ("v", "vn", "a", "ad", "an", "d", "p")


def _one_common_word(word: str) -> bool:
    from jiyi.text.lexical import tagged

    tags = tagged(word)
    return len(tags) == 1 and tags[0][1] in _NOT_A_NAME_TAGS


def brings_in_a_thing(clause: str) -> bool:
    """Does ``clause`` bring in something a following subject-less 叫X names (我找了个新球友 叫老K, 一家公司要我了，
    叫鹭汐科技, 现在住在月子中心 叫馨月)? A noun to the lexical analyser does, unless the clause only says who the
    speaker is (我是程序员，叫小林) or greets."""
    from jiyi.text.lexical import has_tag
    from jiyi.text.smalltalk import is_chatter

    body = tidy_zh(clause)
    if not body or _SPEAKER_IS.match(body) or is_chatter(body):
        return False
    return has_tag(body, ("n", "nz", "nw", "ORG", "PER"))


def _no_need(m: re.Match[str]) -> bool:
    """不用 before a verb is "no need to" (再也不用背政治了, 不用备考的日子), not "no longer use" (不用微信了)."""
    if m.group("verb") != "用":
        return False
    from jiyi.text.lexical import tagged

    words = tagged(m.group("v"))
    return bool(words) and (words[0][1] in ("v", "vd", "vn") or words[0][0].startswith("再"))  # 不用再考了


def zh_diet(body: str, content: str, timed: bool) -> list[Draft]:
    """吃素 / 不吃辣 / 戒了咖啡, keyed by the object so a later change supersedes."""
    if _ZH_VEG.match(body):
        return [fact("用户吃素", "diet/type", "素食", kind=Kind.PREFERENCE, importance=0.7)]
    if (m := _ZH_EATS_AGAIN.match(body)) and not timed:
        item = m.group("v")  # the same key as 不吃肉's: the stance now replaces the one before
        return [fact(f"用户{m.group('again')}{m.group('verb')}{item}了", f"pref/{item}", item, kind=Kind.PREFERENCE,
                     importance=0.7)]
    if (m := _ZH_NO_EAT.match(body)) and not timed:
        item = re.sub(r"(?:的|了|东西|啊|哦)+$", "", clean_value(m.group("v")))
        if item and not re.match(r"[就也都会了的得太过没还]", item):  # 不喝就没精神: no object
            # 不吃肉不吃鱼: the verb said again starts another object, each its own memory
            items = [i for i in re.split(rf"[，,\s]*(?:也)?{m.group('neg')}{m.group('verb')}", item) if i] or [item]
            out = []
            for one in items:
                d = fact(f"用户{m.group('neg')}{m.group('verb')}{one}", f"pref/{one}", one,
                         kind=Kind.PREFERENCE, importance=0.7)
                if m.group("neg") in ("不再", "再也不") or clean_value(body).endswith("了"):
                    d.ends_mention = one  # 不喝奶茶了: a change, it ends 每天喝奶茶 too
                out.append(d)
            return out
    m2 = _ZH_NO_LONGER.match(body)
    if m2 and not (m2.group("neg") == "不" and not m2.group("le")) and not _no_need(m2):
        item = _VERB_LEAD.sub("", m2.group("verb") + m2.group("v"))
        d = fact(f"用户不再{m2.group('verb')}{m2.group('v')}", f"pref/{item}", item, kind=Kind.PREFERENCE,
                 importance=0.7)
        d.ends_mention = item
        return [d]
    if (m3 := _ZH_TOPIC_NO_LONGER.match(body)) and not _NOT_A_HABIT_OBJECT.search(m3.group("v")):
        item = m3.group("v")
        adv = m3.group("adv").replace("也", "")  # in the user's words: 烟早不碰了 → 用户早不碰烟了
        d = fact(f"用户{adv}不{m3.group('verb')}{item}了", f"pref/{item}", item, kind=Kind.PREFERENCE, importance=0.7)
        d.ends_mention = item
        return [d]
    if (m4 := _ZH_LAPSED.match(body)) and not _NOT_A_HABIT_OBJECT.search(m4.group("v")):
        item = m4.group("v")  # 一个多月没喝奶茶了: a habit that lapsed is a change, like 不喝奶茶了
        d = fact(f"用户{m4.group('for')}没{m4.group('verb')}{item}了", f"pref/{item}", item,
                 kind=Kind.PREFERENCE, importance=0.7)
        d.ends_mention = item
        return [d]
    dropped = _ZH_DROPPED_TOPIC.match(body)
    if dropped and not kinds_of(dropped.group("v")):
        dropped = None  # 烟我断了 is a stop; 网我断了 is not
    for m in (_ZH_QUIT.search(body), _ZH_QUIT_TOPIC.match(body), dropped):
        if m and _ZH_WISH.search(body[:m.start() + 1]):
            return []  # 想戒烟，但是每次都失败: a wish to quit is no quitting
        if m and not _NOT_A_HABIT_OBJECT.search(m.group("v")):  # not 戒了快四个月 / 想想还是戒了
            item = m.group("v")
            text = content if timed else f"用户戒了{item}"
            d = fact(text, f"pref/{item}", item, kind=Kind.PREFERENCE, importance=0.7)
            d.ends_mention = item
            return [d]
    return []


def zh_like(body: str, content: str) -> list[Draft]:
    """喜欢 / 讨厌 / 受不了 X → a ``pref/X`` preference."""
    m = _ZH_LIKE.match(body)
    if not m or re.match(r"[你您他她它了的吗有]", m.group("v")) or "吗" in m.group("v") or _ONLY_DEGREE.match(m.group("v")):
        return []
    obj = _VERB_LEAD.sub("", m.group("v"))
    obj = re.sub(r"(?:的|了|啊|呀|哦|吧)+$", "", obj)
    slot = f"pref/{obj}" if 0 < len(obj) <= 8 and not re.search(r"[，,]", obj) else None
    return [fact(content, slot, obj, kind=Kind.PREFERENCE, importance=0.6, confidence=0.85)]


def zh_habit(body: str, content: str) -> list[Draft]:
    """每天 / 一般 / 从不 … → a behaviour with no date."""
    if _ZH_HABIT.match(body) or _ZH_FREQ.match(body) or _ZH_RECUR_HABIT.match(body):
        return [fact(content, None, "", kind=Kind.BEHAVIOR, importance=0.5, confidence=0.8)]
    return []


def style_slots_zh(text: str) -> list[str]:
    """The ``style/*`` and ``contact/channel`` slots a request to the assistant sets."""
    return list(dict.fromkeys(slot for slot, pattern in _STYLE_ZH if pattern.search(text)))
