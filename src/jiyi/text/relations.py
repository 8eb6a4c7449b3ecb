"""People in the user's life: relation words, given names, who 她/他/she/he refers to.

One lexicon serves extraction (我老婆苏琳 → ``relation/wife`` = 苏琳) and could serve
query understanding (我老婆喜欢什么花 → the wife's memories). Each relation word maps
to a language-neutral key and a gender, which decides whether a later 她/他/it can
refer to it. Only single-valued relations (one wife, one mother) get a slot: a person
can have several children, siblings or friends, and a new one must not replace the old.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from jiyi.text.wordlists import data_rows, word_list, words

#: word -> (key, gender); gender f/m/p(et)/"" decides what 她/他/它 can refer to
REL_ZH: dict[str, tuple[str, str]] = {
    "老婆": ("wife", "f"), "妻子": ("wife", "f"), "太太": ("wife", "f"), "媳妇": ("wife", "f"),
    "媳妇儿": ("wife", "f"), "夫人": ("wife", "f"), "老公": ("husband", "m"), "丈夫": ("husband", "m"),
    "先生": ("husband", "m"), "爱人": ("spouse", ""), "女朋友": ("girlfriend", "f"), "女友": ("girlfriend", "f"),
    "男朋友": ("boyfriend", "m"), "男友": ("boyfriend", "m"), "对象": ("partner", ""),
    "未婚夫": ("fiance", "m"), "未婚妻": ("fiance", "f"),
    "妈妈": ("mother", "f"), "妈": ("mother", "f"), "老妈": ("mother", "f"), "母亲": ("mother", "f"),
    "爸爸": ("father", "m"), "爸": ("father", "m"), "老爸": ("father", "m"), "父亲": ("father", "m"),
    "儿子": ("son", "m"), "女儿": ("daughter", "f"), "闺女": ("daughter", "f"),
    "哥哥": ("brother", "m"), "哥": ("brother", "m"), "弟弟": ("brother", "m"), "弟": ("brother", "m"),
    "姐姐": ("sister", "f"), "姐": ("sister", "f"), "妹妹": ("sister", "f"), "妹": ("sister", "f"),
    "爷爷": ("grandfather", "m"), "外公": ("grandfather", "m"), "姥爷": ("grandfather", "m"),
    "奶奶": ("grandmother", "f"), "外婆": ("grandmother", "f"), "姥姥": ("grandmother", "f"),
    "室友": ("roommate", ""), "同事": ("colleague", ""), "老板": ("boss", ""), "领导": ("boss", ""),
    "上司": ("boss", ""), "闺蜜": ("best_friend", "f"), "发小": ("best_friend", ""), "好朋友": ("friend", ""),
    "朋友": ("friend", ""), "好友": ("friend", ""), "同学": ("classmate", ""), "孩子": ("child", ""),
    "宝宝": ("child", ""), "猫咪": ("pet", "p"), "猫": ("pet", "p"), "狗狗": ("pet", "p"), "狗": ("pet", "p"),
    "宠物": ("pet", "p"),
}
REL_EN: dict[str, tuple[str, str]] = {
    "wife": ("wife", "f"), "husband": ("husband", "m"), "spouse": ("spouse", ""), "partner": ("partner", ""),
    "girlfriend": ("girlfriend", "f"), "boyfriend": ("boyfriend", "m"), "fiancé": ("fiance", ""),
    "fiancée": ("fiance", ""), "fiance": ("fiance", ""), "fiancee": ("fiance", ""),
    "mom": ("mother", "f"), "mum": ("mother", "f"), "mother": ("mother", "f"), "dad": ("father", "m"),
    "father": ("father", "m"), "son": ("son", "m"), "daughter": ("daughter", "f"),
    "sister": ("sister", "f"), "brother": ("brother", "m"), "grandma": ("grandmother", "f"),
    "grandmother": ("grandmother", "f"), "grandpa": ("grandfather", "m"), "grandfather": ("grandfather", "m"),
    "best friend": ("best_friend", ""), "friend": ("friend", ""), "roommate": ("roommate", ""),
    "boss": ("boss", ""), "coworker": ("colleague", ""), "colleague": ("colleague", ""),
    "dog": ("pet", "p"), "cat": ("pet", "p"), "puppy": ("pet", "p"), "kitten": ("pet", "p"),
    "kid": ("child", ""), "son's": ("son", "m"),
    # as chat writes them
    "gf": ("girlfriend", "f"), "bf": ("boyfriend", "m"), "hubby": ("husband", "m"), "bestie": ("best_friend", ""),
    "sis": ("sister", "f"), "aunt": ("aunt", "f"), "uncle": ("uncle", "m"), "cousin": ("cousin", ""),
    "niece": ("niece", "f"), "nephew": ("nephew", "m"), "neighbor": ("neighbor", ""), "neighbour": ("neighbor", ""),
    "flatmate": ("roommate", ""), "housemate": ("roommate", ""), "classmate": ("classmate", ""),
    "buddy": ("friend", ""), "mate": ("friend", ""), "pal": ("friend", ""),
}


def _kin_words() -> None:
    """The words of ``data/kin.tsv`` (a region's, an age's, chat's: 阿嫲, 老豆, 婆娘, "hubby", "nana") added to
    :data:`REL_ZH` / :data:`REL_EN`, after the words above (which keep their reading)."""
    for lang, word, key, gender in data_rows("kin.tsv"):
        (REL_ZH if lang == "zh" else REL_EN).setdefault(word if lang == "zh" else word.lower(), (key, gender))


_kin_words()
#: kin and people of a user's life beyond the relations lexicon: 我表哥对芒果过敏 is 表哥's allergy, never the user's
MORE_KIN_ZH = word_list("表哥 表姐 表弟 表妹 堂哥 堂姐 堂弟 堂妹 舅舅 舅妈 姑姑 姑父 姑妈 叔叔 婶婶 阿姨 姨妈 姨父 伯伯 伯父 伯母 "
                "侄子 侄女 外甥女 外甥 岳父 岳母 丈母娘 公公 婆婆 嫂子 姐夫 妹夫 弟媳 孙子 孙女 外孙女 外孙 邻居 师傅 老师 "
                "导师 同桌 舍友 组长 经理 客户 学生 徒弟 队友 网友 房东 房客 搭档 合伙人 未婚妻 未婚夫 前任 前女友 前男友 "
                "继母 继父 干妈 干爹 老乡 学长 学姐 学弟 学妹 主管 下属 助理 医生 保姆")
SINGLE_VALUED = frozenset({"wife", "husband", "spouse", "girlfriend", "boyfriend", "partner", "mother",
                           "father", "boss", "fiance"})
PRONOUN_GENDER = {"她": "f", "他": "m", "它": "p", "she": "f", "he": "m", "it": "p"}


def alternation(items: Sequence[str]) -> str:
    """A regex alternation of ``items``, longest first (so 妈妈 wins over 妈)."""
    return "|".join(re.escape(w) for w in sorted(items, key=len, reverse=True))


REL_ZH_RE = alternation(list(REL_ZH))
_ZH_REL_MENTION = re.compile(rf"(?:(?:我|俺)(?:家的|的|家)?(?P<rel>{REL_ZH_RE})|"
                             # a relation word of two characters or more opening the message: 男朋友 Nat 是泰国人
                             rf"^\s*(?P<bare>{alternation([w for w in REL_ZH if len(w) > 1])}))"
                             r"(?P<sep>(?:的)?(?:名字|小名|大名)(?:叫做|叫|是)|叫做|名叫|叫|是)?[ \t]*")
_PRONOUNS = frozenset("我你您他她它俺咱")
_ZH_NAME_STOP = re.compile(r"(?:就行|就好|就可以|好了|吧|哦|啊|呀|呢|啦|了|哈|嘛|吗|的|在|说|也|要|去|来|和|跟|很|特别|"
                           r"挺|今年|明天|今天|生日|过|是|喜欢|爱|最|一直|已经|[，,。.!！?？\s、:：])")
#: the ~300 commonest single-character surnames (a holiday word after one is a given name: 孙国庆)
SURNAMES_ZH = frozenset(
    "王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘于蒋蔡余杜叶程苏魏吕丁任沈姚卢"
    "姜崔钟谭陆汪范金石廖贾夏韦付方白邹孟熊秦邱江尹薛闫段雷侯龙史陶黎贺顾毛郝龚邵万钱严覃武戴莫孔向汤常温康施"
    "文牛樊葛邢安齐易乔伍庞颜倪庄聂章鲁岳翟殷詹申欧耿关兰焦俞左柳甘祝包宁尚符舒阮柯纪梅童凌毕单季裴霍涂成苗谷"
    "盛曲翁冉骆蓝路游辛靳管柴蒙鲍华喻祁蒲房滕屈饶解牟艾尤阳时穆农司卓古吉缪简车项连芦麦褚娄窦戚岑景党宫费卜冷"
    "晏席卫米柏宗瞿桂全佟应臧闵苟邬边卞姬师和仇栾隋商刁沙荣巫寇桑郎甄丛仲虞敖巩明佘池查麻苑迟邝"
)
NAME_DENY = words(
    "过敏 老公 老婆 用户 助手 生日 家里 那边 这边 一起 身体 工作 上班 自己 一下 特别 非常 "
    "老师 老板 老乡 老家 老人 老外 老总 老大 老二 老头 小孩 小区 小时 小学 小组 小姐 小伙 小狗 小猫 阿姨 "
    "老号 旧号 新号 小号 大号 号码"
)


#: measure words: 老个, 小只, 老部 name a thing by its size or age, never a person
_COUNTERS = frozenset("个只条台部辆间件张本")


def looks_like_name_zh(word: str) -> bool:
    """A cheap given-name test: 小雅 / 老王 / 阿强 / 乐乐 / 苏琳 / 李文杰, or a capitalised Anna."""
    if not word or word in NAME_DENY:
        return False
    if word.isascii():
        return word[:1].isupper() and word.isalpha()
    if len(word) == 2 and word[0] in "小老阿" and word[1] in _COUNTERS:
        return False  # 老个 / 老只: "the old one" (Wu chat writes 的 as 个: 老个138不用了 新个159…), no name
    if len(word) == 2 and (word[0] in "小老阿" or word[0] == word[1]):
        return True
    return 2 <= len(word) <= 3 and word[0] in SURNAMES_ZH


def name_at_start(rest: str, explicit: bool) -> str | None:
    """The name at the start of ``rest`` (after 我老婆 / 我儿子叫), if any."""
    cut = _ZH_NAME_STOP.search(rest)
    head = rest[: cut.start()] if cut else rest
    head = head[:4] if not head.isascii() else head.split()[0] if head.split() else ""
    if explicit:
        return head if head and head not in NAME_DENY else None
    from jiyi.text import zh

    tags = zh.pos_tags(rest[:8])
    if tags and tags[0][1] in ("nr", "nrfg", "nrt") and looks_like_name_zh(tags[0][0]):
        return tags[0][0]
    if tags and tags[0][1] == "eng" and looks_like_name_zh(tags[0][0]):
        return tags[0][0]
    return head if looks_like_name_zh(head) and len(head) == 2 and head[0] in "小老阿" else None


def zh_relation_names(text: str) -> list[tuple[str, str, str]]:
    """(word, key, name) for every 我老婆苏琳 / 我儿子叫乐乐 in ``text``."""
    out: list[tuple[str, str, str]] = []
    for m in _ZH_REL_MENTION.finditer(text):
        sep = m.group("sep")  # 叫/名叫 make what follows a name; after 是 it must look like one
        if text[m.end():m.end() + 1] in _PRONOUNS:
            continue  # 我朋友叫我小王: what the friend calls the user, not the friend's name
        name = name_at_start(text[m.end():], explicit=bool(sep) and sep != "是")
        if name:
            rel = m.group("rel") or m.group("bare")
            out.append((rel, REL_ZH[rel][0], name))
    return out


#: what may stand between "my" and the relation: "my old flatmate", "my little sister", "my former boss"
EN_REL_ADJ = r"(?:(?:old|oldest|best|older|elder|younger|little|big|baby|former|late|dear|childhood|new)\s+)?"
_EN_REL_NAME = re.compile(rf"(?i:\bmy\s+{EN_REL_ADJ}(?P<rel>{alternation(list(REL_EN))}))(?i:'s\s+name\s+is|\s+is\s+called|"
                          r"\s+is\s+named|\s+named|\s+called|,)?\s+(?P<name>[A-Z][a-z]+(?:\s+[A-Z][a-z]+)?)\b")
EN_NAME_DENY = words("I The And But So Or Is Was Are Were Has Had Have Who Which That This It He She They "
                      "We You My Our Mom Dad Just Also Really Always Never Today Yesterday Tomorrow "
                      "Fine Good Okay Ok Sorry Back Here Done Ready Tired Happy Sad Single Married Divorced Vegan "
                      "Vegetarian Home Sure Great Well Busy Sick Free Jewish Muslim Catholic Christian Buddhist "
                      "Hindu Gay Straight Retired Pregnant Hungry Bored Late Excited Glad Lost Alone Not So Still "
                      "Jain Sikh Mormon Atheist Agnostic Orthodox Protestant Lutheran Baptist Anglican Shinto Taoist "
                      "Kosher Halal Celiac Coeliac Diabetic Asthmatic Deaf Blind Autistic Dyslexic Bi Trans Queer")


def en_relation_names(text: str) -> list[tuple[str, str, str]]:
    """(word, key, name) for every "my wife Anna" / "my sister's name is Emma" in ``text``."""
    return [(m.group("rel").lower(), REL_EN[m.group("rel").lower()][0], m.group("name"))
            for m in _EN_REL_NAME.finditer(text) if m.group("name").split()[0] not in EN_NAME_DENY]
