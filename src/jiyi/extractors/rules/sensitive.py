"""Contacts, identity numbers, addresses, allergies and diagnoses, in both languages.

These are the facts whose visibility is decided here: phone numbers, emails, ID
numbers, addresses and diagnoses are ``sensitive`` (shown only when a query asks for
them). Allergies are deliberately ``normal`` with importance 0.9: a bot that hides a
peanut allergy when the user orders food is dangerous. Passwords, PINs, one-time codes,
card numbers and API keys are ``secret`` (:func:`secret_facts`): the fact names the
value by its placeholder (用户的支付密码是[已隐藏:支付密码]) and never holds it; the
write path seals the value when a key is set (jiyi.privacy).
"""

from __future__ import annotations

import re

from jiyi.extractors.rules.drafts import Draft, S, fact, templated
from jiyi.extractors.rules.zh import ADDR_LIKE, ZH_ADV, zh_address
from jiyi.privacy.detect import PLACEHOLDER, SECRET, Finding, find_values
from jiyi.privacy.mask import placeholder, placeholder_level
from jiyi.records import Kind
from jiyi.text import zh
from jiyi.text.person import tidy_zh
from jiyi.text.relations import MORE_KIN_ZH, REL_ZH, alternation

# ---------------------------------------------------------------- secrets


#: the slots of sensitive values, as the contact rules below name them
_MASKED_SLOTS = {"手机号": "user/phone", "phone number": "user/phone", "邮箱": "user/email", "email": "user/email",
                 "身份证号": "user/id_number", "ID number": "user/id_number", "地址": "user/address",
                 "address": "user/address"}


def secret_facts(text: str, zh: bool) -> list[Draft]:
    """One fact per password, code, card number or key in ``text`` (``secret``), and one per value
    already masked (a sensitive one when a key is set); the value itself is never in the fact:
    记住我的支付密码是884422 → 用户的支付密码是[已隐藏:支付密码]."""
    found = [(placeholder(f, zh), f.label, SECRET) for f in find_values(text, lang="zh" if zh else "en")
             if f.level is SECRET]
    found += [(m.group(0), m.group("label").strip(), placeholder_level(m.group(0)))
              for m in PLACEHOLDER.finditer(text)]
    out = []
    for ph, label, level in found:
        content = f"用户的{label}是{ph}" if zh else f"User's {label} is {ph}"
        slot = _MASKED_SLOTS.get(label) or f"secret/{label.lower()}"
        out.append(fact(content, slot, "", importance=0.7, visibility=level))
    return out


def without_secret_values(entities: tuple[str, ...], text: str) -> tuple[str, ...]:
    """``entities`` minus any piece of a secret value of ``text`` (a card's digit groups, a PIN)."""
    values = [f.value for f in _secret_spans(text) if f.level is SECRET]
    return tuple(e for e in entities if not any(e in v for v in values)) if values else entities


def _secret_spans(text: str) -> list[Finding]:
    """The values a phone-shaped match must not overlap: secrets, and ID numbers (an SSN is no phone)."""
    return [f for f in find_values(text) if f.level is SECRET or f.kind == "id_number"]


def _inside_secret(m: re.Match[str], secrets: list[Finding]) -> bool:
    """A phone-shaped match inside a card number, code or key is not a phone number."""
    return any(m.start("v") < f.end and f.start < m.end("v") for f in secrets)

# ---------------------------------------------------------------- Chinese

_ZH_ADDRESS = re.compile(r"(?<!公司)(?<!单位)(?<!店)(?<!铺)(?<!学校)(?<!医院)(?<!餐厅)"  # not a workplace's
                         r"(?:收货地址|家庭住址|新地址|地址|住址|新家在|家在|住在|寄到|送到)"
                         # 地址帮我改下：…, 地址更新一下: … (a few words of asking, then the colon)
                         r"(?:是|为|:|：|在|改成|改为|换成|填的?|[^：:，,。\d\s]{1,6}?[：:])?\s*"
                         r"(?P<v>[\u4e00-\u9fffA-Za-z0-9\-#－]{4,60})")
_ZH_BARE_ADDRESS = re.compile(r"^(?P<v>[\u4e00-\u9fff]{2,20}(?:路|街|大道|巷|道)\d+(?:弄|号)[\dA-Za-z\-号弄室栋幢单元楼层]*)$")
_PHONE = re.compile(r"(?<![\d*])(?:\+?86[-\s]?)?(?P<v>1[3-9]\d(?:[\s-]?\d{4}){2})(?![\d*])")  # 138 5920 7741 too
_LANDLINE = re.compile(r"(?:电话|座机|固话|号码)(?:是|为|:|：)?\s*(?P<v>0\d{2,3}-?\d{7,8})(?!\d)")
_EMAIL = re.compile(r"(?P<v>[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,})")
_ZH_ID = re.compile(r"(?:身份证|证件|护照)(?:号码|号)?(?:是|为|:|：)?\s*(?P<v>\d{17}[\dXx]|\d{15}|[A-Z]\d{8})(?![\dA-Za-z])")
_ZH_ALLERGY = re.compile(rf"^{ZH_ADV}(?:对|有)?(?P<v>[\u4e00-\u9fffA-Za-z、和与及]{{1,10}}?)"
                         r"(?:有点|有些|特别|非常|很|严重|比较|轻微|都)?过敏(?!性|科|门诊|原|源|测试|检查|药|反应科)")
_ZH_ALLERGEN_IS = re.compile(r"过敏原(?:是|为|有)(?P<v>[\u4e00-\u9fffA-Za-z、和与及跟]{1,16})")
_ZH_CONDITIONS = (
    "高血压|低血压|高血脂|高血糖|糖尿病|哮喘|心脏病|冠心病|抑郁症|焦虑症|失眠症|癫痫|痛风|胃炎|胃溃疡|贫血|甲亢|甲减|乙肝|"
    "过敏性鼻炎|鼻炎|湿疹|颈椎病|腰椎间盘突出|腰间盘突出|关节炎|偏头痛|脂肪肝|肾结石|胆结石|癌症|乳腺癌|肺癌|肿瘤|色盲|"
    "乳糖不耐受?|帕金森|阿尔茨海默症?|心律不齐|心肌炎|甲状腺结节|多囊卵巢|幽门螺杆菌|恐高症?|晕车|晕船|低血糖|心脏支架|抑郁|焦虑"
)
_ZH_HEALTH = re.compile(rf"(?:有|得了?|患有?|查出(?:来)?了?|确诊(?:了|为)?|诊断(?:出|为)?|算|是|犯了?|放了?|装了?)"
                        rf"(?:轻度|轻微的?|严重的?|慢性|点|一点)?(?P<v>{_ZH_CONDITIONS})")
_ZH_HIGH = re.compile(r"^(?P<v>血压|血糖|血脂|尿酸)(?:又|也|都|还|一直|还是|老是|总是|有点|有些|偏|比较|很|太)*高(?!不高|吗|么|不)")
#: a condition said right after the subject, with no verb: 我痛风，海鲜不能吃 / 老毛病胃炎
_ZH_BARE_CONDITION = re.compile(rf"^(?:{ZH_ADV})?(?P<v>{_ZH_CONDITIONS.replace('|抑郁|焦虑', '')}|三高)(?=$|[，,。！!\s]|了|又|犯|坐|走|站|爬)")
#: the speaker said of themself: 我 / 俺 / 咱 / 本人 in the sentence (a bare condition after someone's name is theirs)
_SAID_OF_ME = re.compile(r"[我俺咱]|本人")
#: someone else named in a sentence: a pronoun, a role (学员老孟, 同事小王)
_SOMEONE = re.compile(r"[他她]|学员|同事|老板|朋友|室友|同学|邻居|客户|领导|师傅|老师|病人|学生|队友|表哥|表姐|表妹|表弟")


def _someone_named(sentence: str) -> bool:
    """Does ``sentence`` name someone else (a pronoun, a role, a person's name) and not the speaker?"""
    from jiyi.text.lexical import entities

    return not _SAID_OF_ME.search(sentence) and bool(_SOMEONE.search(sentence) or entities(sentence).get("PER"))
#: a condition told by what treats it, the speaker's own: 我每天打胰岛素 / 降压药又吃完了 / 哮喘喷雾随身带
_ZH_TREATED = ((re.compile(r"胰岛素|降糖药|二甲双胍|血糖仪"), "糖尿病"), (re.compile(r"降压药"), "高血压"),
               (re.compile(r"哮喘(?:喷雾|药)|吸入器|沙丁胺醇"), "哮喘"),
               (re.compile(r"(?:医生|大夫|医院)\S{0,2}(?:让|叫|要)(?:我|俺)?(?:控糖|控制血糖)"), "高血糖"))  # 大夫让控糖
#: a condition flaring up again is one the speaker has: 我这痛风又犯了 / 老毛病胃炎又犯了 / 鼻炎又发作了
_ZH_FLARE = re.compile(rf"(?<!没)(?<!不)(?P<v>{_ZH_CONDITIONS})(?:又|老是|总是|经常|动不动就|最近)*(?:犯了?|发作|复发|加重)")
#: a body part that limits what the speaker can do: 膝盖一直不太行 / 半月板伤过 / 腰不好 (an injury, sensitive)
_ZH_BODY = re.compile(r"(?<![他她它])(?P<v>膝盖|膝关节|半月板|韧带|跟腱|脚踝|腰椎|颈椎|手腕|肩膀|腰)(?:一直|老是|总是|本来就|有点|也|都|不太|之前|以前)*"
                      r"(?:不好|不行|不太行|有伤|有旧伤|受过伤|伤过|伤了|积液|撕裂|损伤|劳损|有毛病|出过问题|做过手术)")
_ZH_PREGNANT = re.compile(r"怀孕|怀上了|在孕期|孕(?:\d+|[一二三四五六七八九十]+)周")


#: a number said to be the old one: 旧的18657320419别再打了 / 以前那个号 186… 不用了 / 原来的号停机了
_ZH_OLD_BEFORE = re.compile(r"(?:旧|以前|之前|原来|原先|老)(?:的|那个|那个号|号码?|手机号?)?(?:是|:|：)?\s*$")
_ZH_OLD_AFTER = re.compile(r"^\s*(?:的)?(?:别再?打了?|不用了|不再用|停机|停用|作废|注销|没用了|打不通)")


def _zh_old_number(text: str, m: re.Match[str]) -> bool:
    """Is the number of ``m`` the one the speaker says is old (旧的…别再打了)?"""
    return bool(_ZH_OLD_BEFORE.search(text[max(0, m.start() - 8):m.start()]) or _ZH_OLD_AFTER.match(text[m.end():]))


#: the number's label and who it is of, just before it: 二蛋那小子电话 151…, 领养人小葛电话 136…, 他手机…
_ZH_LABELLED = re.compile(r"(?P<who>[\u4e00-\u9fffA-Za-z]{1,10}?)(?:的)?(?:电话号码|电话|手机号码|手机号|手机|号码|"
                          r"联系方式|微信号|微信)(?:是|为|:|：)?\s*$")
_ZH_OTHER_WORD = re.compile(rf"(?:他|她|他们|她们|人|{alternation([*REL_ZH, *MORE_KIN_ZH])})$")


def _someone_elses_number(text: str, m: re.Match[str]) -> str | None:
    """Whose number ``m`` is, when its label names someone else (二蛋那小子电话, 领养人小葛电话, 他手机): a name, a
    relative, a pronoun or a person's role; None when it is the user's (我手机, 手机, 家里电话, 记下电话)."""
    label = _ZH_LABELLED.search(text[max(0, m.start() - 16):m.start()])
    if label is None:
        return None
    who = re.sub(r"^.*?(?:帮我|给我|我|俺)(?:记下|记一下|记|存下|存一下|存)?", "", label.group("who"))
    if not who or re.search(r"(?:我|俺|自己|本人|咱)$", who):
        return None
    words = zh.pos_tags(who)
    return who if _ZH_OTHER_WORD.search(who) or (words and words[-1][1] == "nr") else None


def zh_contact(text: str) -> list[Draft]:
    """Mobile or landline, email, ID number, address (all sensitive). A mobile number labelled as someone
    else's (二蛋那小子电话 151…) is theirs: a statement about them, not the user's number."""
    secrets = _secret_spans(text)
    out = secret_facts(text, zh=True)
    for m in _PHONE.finditer(text):
        if _inside_secret(m, secrets) or _zh_old_number(text, m):
            continue
        number = re.sub(r"[\s-]", "", m.group("v"))
        if who := _someone_elses_number(text, m):
            out.append(fact(f"{who}的电话是{number}", None, number, kind=Kind.RELATION, importance=0.6))
        else:
            out.append(templated("用户的手机号是{v}", "user/phone", number, importance=0.7, visibility=S))
    if not out and (landline := _LANDLINE.search(text)) and not _inside_secret(landline, secrets):
        out.append(templated("用户的电话是{v}", "user/phone", landline.group("v"), importance=0.7, visibility=S))
    if email := _EMAIL.search(text):
        out.append(templated("用户的邮箱是{v}", "user/email", email.group("v"), importance=0.7, visibility=S))
    if ident := _ZH_ID.search(text):
        out.append(templated("用户的证件号是{v}", "user/id_number", ident.group("v"), importance=0.7, visibility=S))
    addr = _ZH_ADDRESS.search(text) or _ZH_BARE_ADDRESS.match(tidy_zh(text))
    if addr and ADDR_LIKE.search(addr.group("v")):
        out.extend(zh_address(addr.group("v")))
    return out


#: an allergy told by what it does: 我吃虾会起疹子 / 一吃芒果就嘴肿 / 碰到猫毛就喘不上气
_ZH_REACTION = re.compile(r"^(?:我|俺)?(?:一|只要|每次)?(?:吃|喝|碰|碰到|沾|闻到)(?:了)?(?P<v>[\u4e00-\u9fffA-Za-z]{1,6}?)"
                          r"(?:就|会|都会|就会|必|准)(?:起|长|冒)?(?:疹子|红疹|风团|荨麻疹|包)|"
                          r"^(?:我|俺)?(?:一|只要|每次)?(?:吃|喝|碰|碰到|沾)(?:了)?(?P<w>[\u4e00-\u9fffA-Za-z]{1,6}?)"
                          r"(?:就|会|都会|就会)(?:嘴|嘴巴|嘴唇|喉咙|脸|眼睛)?(?:肿|发肿|发痒|痒|喘不上气|休克)")


#: a part of the body, which swells or itches, never what one is allergic to (no food is named so: 鸭脖 and 鸡爪 are)
_BODY_PART = re.compile(r"(?:脚脖子|脚踝|膝盖|皮肤|关节|眼睛|嘴巴|嘴唇|喉咙|脸|腰|肚子|后背|肩膀|手指|手臂|胳膊|大腿|小腿|伤口)$")


#: an allergy a doctor or a test found, said of whoever was seen
_ZH_DIAGNOSED = re.compile(r"(?:医生|大夫|检查|化验|测试|查)(?:说|显示|结果|出来)?(?:是|为)?[^，。,]{0,8}过敏")


#: 對蝦蟹敏感 (Cantonese, Taiwanese: allergic), "sensitive" to something eaten; 对声音敏感 is no allergy
_ZH_SENSITIVE = re.compile(rf"^{ZH_ADV}对(?P<v>[\u4e00-\u9fffA-Za-z、和与及]{{1,10}}?)(?:有点|有些|特别|非常|很|好|比较|都)?敏感")
#: what eating it does, in the same sentence: 食完會出風癩, 一食就腫, 吃了起疹子
_EATEN = re.compile(r"[吃食](?:完|了|到|咗)?|[吃食]就")


def _eaten_sensitivity(body: str, sentence: str) -> re.Match[str] | None:
    m = _ZH_SENSITIVE.match(body)
    return m if m is not None and _EATEN.search(sentence[sentence.find(m.group("v")) + len(m.group("v")):]) else None


def _zh_allergies(body: str, sentence: str) -> list[Draft]:
    """我对花生和海鲜过敏 → one memory per allergen; 挺严重的 anywhere in the sentence marks it severe."""
    m = _ZH_ALLERGY.match(body) or _ZH_ALLERGEN_IS.search(body) or _eaten_sensitivity(body, sentence)
    if m is None and (r := _ZH_REACTION.match(body)) is not None and "不" not in body[:r.start("v" if r.group("v") else "w")]:
        item = r.group("v") or r.group("w")
        if re.match(r"[一两几点多少些口了]|这|那", item) or _BODY_PART.search(item):
            return []  # 吃一点就起疹子: how much, said of an allergen named before; 一碰脚脖子就肿: where it hurts
        return [fact(f"用户对{item}过敏", f"allergy/{item}", item, importance=0.9, template="用户对{v}过敏")]
    if m is None or "不过敏" in body or "不敏感" in body:
        return []
    if (seen := _ZH_DIAGNOSED.search(sentence)) and not re.search(r"[我俺]", sentence[:seen.end()]):
        return []  # 给豆包喂了一口蛋黄 全身起红疹 医生说是鸡蛋过敏: the one the doctor saw, not the speaker
    severe = "严重" if "严重" in sentence else ""
    out: list[Draft] = []
    for item in re.split(r"[、和与及跟]|还有", re.sub(r"^(?:对|有|是)+", "", m.group("v"))):
        item = item.strip()
        if item and not re.search(r"[不我你他她说就跟让给后吃喝在会带去看]|什么|有点|这个", item):
            out.append(fact(f"用户对{item}{severe}过敏", f"allergy/{item}", item, importance=0.9,
                             template="用户对{v}" + severe + "过敏"))
    return out


def zh_health(body: str, sentence: str, *, whose_known: bool = False) -> list[Draft]:
    """Allergies (normal visibility), diagnoses, high readings, pregnancy (sensitive). A condition said bare after
    the subject (我痛风, 还有痛风) is the speaker's unless the sentence names someone else and not 我 (学员老孟 腰椎间盘突出
    is his), or ``whose_known`` (the caller read whose it is: 我妈高血压)."""
    out = _zh_allergies(body, sentence)
    bare = _ZH_BARE_CONDITION.match(body) if whose_known or not _someone_named(sentence) else None
    for m in [*_ZH_HEALTH.finditer(body), *filter(None, [bare]), *_ZH_FLARE.finditer(body)]:
        cond = m.group("v")
        if not any(cond in d.content for d in out):
            out.append(fact(f"用户有{cond}", f"health/{cond}", cond, importance=0.8, visibility=S))
    if not any(d.slot and d.slot.startswith("health/") for d in out) and not re.search(r"[没不别]", body):
        out += [fact(f"用户有{cond}", f"health/{cond}", cond, importance=0.8, visibility=S)
                for pattern, cond in _ZH_TREATED if pattern.search(body)][:1]
    if (hurt := _ZH_BODY.search(body)) and not re.search(r"[没不别]", body[:hurt.start()]) \
            and not any(hurt.group("v") in d.content for d in out):  # (胃不好 beside 胃炎: the condition says more)
        out.append(fact(f"用户{hurt.group(0)}", f"health/{hurt.group('v')}", hurt.group("v"), importance=0.8, visibility=S))
    if high := _ZH_HIGH.match(body):
        what = high.group("v")
        out.append(fact(f"用户{what}偏高", f"health/{what}", what, importance=0.7, visibility=S))
    if _ZH_PREGNANT.search(body) and not re.search(r"没|不|未", body):
        out.append(fact("用户怀孕了", "health/pregnancy", "", importance=0.9, visibility=S))
    return out


# ---------------------------------------------------------------- English

_EN_PHONE = re.compile(r"(?i:\b(?:phone|number|cell|mobile|tel|whatsapp)\b)[^0-9+\n]{0,20}(?P<v>\+?\d[\d\s().-]{6,18}\d)")
_EN_ADDRESS = re.compile(r"(?i:\bmy\s+(?:home\s+|mailing\s+|shipping\s+|new\s+)?address\s+is|\bi\s+live\s+at)"
                         r"\s+(?P<v>\d*[^.;!?\n]{5,100})")
_EN_ID = re.compile(r"(?i:\b(?:ssn|social\s+security\s+number|passport\s+(?:number|no\.?)|id\s+number|"
                    r"driver'?s\s+licen[sc]e\s+number))\s*(?i:is|:)?\s*(?P<v>[A-Z0-9-]{5,20})")
_EN_ALLERGY = (
    re.compile(r"(?i:\b(?:i'm|i\s+am|i've\s+been|i\s+was)\s+(?:\w+\s+){0,2}allergic\s+to)\s+"
               r"(?P<v>[\w\s,'-]+?)(?=[.;!?]|$|\s+(?i:and|but|so)\s+(?i:i|it|that|my)\b)"),
    re.compile(r"(?i:\b(?:i\s+have(?:\s+got)?|i['\u2019]?ve\s+got|i\s+got)\s+(?:an?\s+|a\s+severe\s+|severe\s+|bad\s+)?)"
               r"(?P<v>[\w-]+(?:\s+[\w-]+)?)\s+(?i:allerg(?:y|ies))\b"),  # (I've got a tree nut allergy)
    # an allergy told by what it does: "i break out in hives when i eat shrimp", "my lips swell if i have mango"
    re.compile(r"(?i:\b(?:i|my\s+(?:lips|face|throat|mouth|eyes))\s+(?:break\s+out(?:\s+in\s+(?:hives|a\s+rash))?|get\s+(?:hives|a\s+rash)|"
               r"swells?\s+up|swell|itch|puff\s+up)\s+(?:when(?:ever)?|if|every\s+time)\s+i\s+(?:eat|have|touch|drink)\s+(?:any\s+)?)"
               r"(?P<v>[\w\s-]+?)(?=[.;!?,]|$|\s+(?i:and|but|so|lol)\b)"),
    # …or what cannot be had because of it: "i can't do shellfish, i puff up like a balloon"
    re.compile(r"(?i:\bcan'?t\s+(?:do|have|eat|touch)\s+(?:any\s+)?)(?P<v>[a-z][\w\s-]{1,25}?)(?=[,.;]?\s+(?:i|my\s+\w+)\s+"
               r"(?:puff|swell|break\s+out|get\s+hives|blow\s+up|go\s+into\s+anaphyla|itch))"),
    # …and the allergy named after it: "I can't be near cats, allergic af", "can't have dairy, i'm allergic"
    re.compile(r"(?i:\b(?:i\s+)?can'?t\s+(?:be\s+(?:near|around)|do|have|eat|touch)\s+(?:any\s+)?)(?P<v>[a-z][\w-]*(?:\s+[\w-]+)?)"
               r"(?=\s*[,.;]\s*(?:(?:i'?m|im|i\s+am|cause|cuz|because|since|so|super|very|deathly|seriously|totally)\s+)*"
               r"allergic\b(?!\s+to\b))"),
    # the speaker's, said without a subject as chat does: "also deathly allergic to shellfish. like epipen-level"
    re.compile(r"(?i:^\W*(?:(?:also|and|plus|btw|oh|fyi|but)[,\s]+)*(?:(?:deathly|severely|seriously|super|very|mildly|"
               r"really|so|kinda|a\s+bit)\s+)?allergic\s+to)\s+(?P<v>[\w\s,'-]+?)"
               r"(?=[.;!?]|$|\s+(?i:and|but|so|like|lol|btw|tho|haha|fyi)\b)"),
    # the subject said once for two states: "i'm vegan, 2 yrs now, and allergic to sesame"
    re.compile(r"(?i:\b(?:i'm|im|i\s+am)\b[^.!?;]{0,60}?(?:,\s*|\s+)(?:and|also|plus)\s+(?:also\s+)?(?:\w+\s+)?allergic\s+to)\s+"
               r"(?P<v>[\w\s,'-]+?)(?=[.;!?]|$|\s+(?i:and|but|so|which|that|who)\b)"),
    # a clause that is the allergy alone, the speaker's in chat: "shellfish allergy, i will actually die"
    re.compile(r"(?i)^(?:(?:also|and|oh|btw|fyi|plus|but|ps)[,:\s]+)*(?:(?:severe|bad|mild|deadly|serious|major|"
               r"massive|huge|real)\s+)?(?!(?:my|his|her|their|the|our|your|a|an|no|any|some)\b)"
               r"(?P<v>[a-z][\w-]*(?:\s+[a-z][\w-]*)?)\s+allerg(?:y|ies)\b"
               r"(?!\s+(?:season|meds?|medicine|pills?|tests?|shots?|clinic|doctor|flare|sufferers?|symptoms?|stuff)\b)"
               r"(?!'s)"),
)
_CONDITIONS_EN = (
    "type 1 diabetes|type 2 diabetes|diabetes|asthma|high blood pressure|hypertension|depression|anxiety|adhd|"
    "autism|cancer|arthritis|migraines?|epilepsy|celiac disease|ibs|insomnia|heart disease|a heart condition|copd|"
    "hiv|hepatitis|hypothyroidism|hyperthyroidism|pcos|endometriosis|ptsd|bipolar disorder|high cholesterol|"
    "crohn's disease|lupus|multiple sclerosis|sleep apnea|gout|anemia|eczema|psoriasis|coeliac disease|celiac|coeliac|"
    "lactose intolerance|gluten intolerance|acid reflux|gerd|kidney stones|fatty liver|high uric acid|"
    "color blindness|colour blindness|a bad knee|bad knees|a bad back|a torn acl|a torn meniscus|a herniated disc|"
    "a slipped disc|tendonitis|tendinitis|plantar fasciitis|shin splints"
)
#: a condition said as what the user is ("I'm celiac", "im diabetic"): the name it is stored under, in the user's
#: spelling (a British "coeliac" stays coeliac: it is the word the user, and whoever reads the prompt, would look for)
_EN_CONDITION_ADJ = {"diabetic": "diabetes", "prediabetic": "prediabetes", "pre-diabetic": "prediabetes",
                     "celiac": "celiac disease", "coeliac": "coeliac disease", "asthmatic": "asthma",
                     "epileptic": "epilepsy", "anemic": "anemia", "anaemic": "anaemia",
                     "hypertensive": "hypertension", "colorblind": "color blindness", "colourblind": "colour blindness",
                     "color blind": "color blindness", "colour blind": "colour blindness",
                     "color-blind": "color blindness", "colour-blind": "colour blindness"}  # (lactose intolerant: a diet)
#: one slot for both spellings of a condition
_US_SPELLING = {"coeliac disease": "celiac disease", "coeliac": "celiac", "anaemia": "anemia",
                "colour blindness": "color blindness"}
_EN_IS_CONDITION = re.compile(r"(?i)\b(?:i'm|im|i\s+am)\s+(?:(?:also|a\s+bit|mildly|severely|very|type\s+[12]|partially|totally|red[\s/-]*green)\s+)?"
                              r"(?P<v>" + "|".join(sorted(_EN_CONDITION_ADJ, key=len, reverse=True)) + r")\b")
_EN_HEALTH = re.compile(
    r"(?i:\bi(?:\s+|(?=['\u2019]))(?:have|['\u2019]ve\s+got|got|was\s+diagnosed\s+with|have\s+been\s+diagnosed\s+with|"
    r"['\u2019]ve\s+been\s+diagnosed\s+with|suffer\s+from|am\s+suffering\s+from|['\u2019]m\s+suffering\s+from|"
    r"struggle\s+with|live\s+with|['\u2019]ve)\s+"
    rf"(?:(?:a|an|mild|severe|chronic)\s+)*)(?P<v>(?i:{_CONDITIONS_EN}))\b")
_EN_PREGNANT = re.compile(r"(?i)\b(?:i'm|i\s+am)\s+(?:\w+\s+)?pregnant\b")
#: a condition told by what treats it, the speaker's own ("my insulin pen", "my inhaler", "type 1 life",
#: "type 2 diabetic here"): the condition it is for
_EN_TREATED = (
    (re.compile(r"(?i)\bmy\s+(?:\w+\s+)?(?:insulin|glucose\s+(?:tabs|tablets|monitor|meter|sensor)|cgm)\b"
                r"|\btype\s*[12]\s+(?:life|diabetic|here)\b|\b(?:diabetic|t1d|t2d)\s+here\b"), "diabetes"),
    (re.compile(r"(?i)\bmy\s+(?:\w+\s+)?inhaler\b|\basthmatic\s+here\b"), "asthma"),
    (re.compile(r"(?i)\bmy\s+(?:blood\s+pressure|bp)\s+(?:meds|pills|medication|tablets)\b"), "hypertension"),
)


#: a phone-shaped number: seven to fifteen digits, in groups, maybe a country code
_EN_PHONE_SHAPE = re.compile(r"(?<![\w.-])(?P<v>\+?\d[\d\s().-]{5,18}\d)(?![\w-])")
#: a phone named anywhere in the message ("changed my number btw. … new one is 8841 0593")
_EN_PHONE_TOLD = re.compile(r"(?i)\b(?:phone|number|cell|mobile|whatsapp|sim|carriers?|call\s+me|text\s+me|reach\s+me)\b")
#: a number said to be the old one: "the 9736 one is dead", "old one's dead", "my old number 9…"
_EN_OLD_NUMBER_AFTER = re.compile(r"(?i)^\W{0,3}(?:\w+\W+){0,2}?(?:is|'s|was|are)\s+(?:now\s+)?(?:dead|gone|old|off|"
                                  r"disconnected|cancel+ed|cut\s+off|no\s+longer|not\s+(?:in\s+use|working))|"
                                  r"^\W*(?:no\s+longer|doesn't\s+work|is\s+the\s+old)")
_EN_OLD_NUMBER_BEFORE = re.compile(r"(?i)\b(?:old|previous|former|dead|ex)\s+(?:\w+\s+){0,2}(?:is\s+|was\s+)?$")
_EN_DATE_SHAPE = re.compile(r"^\d{4}[-./]\d{1,2}[-./]\d{1,2}$|^\d{1,2}[-./]\d{1,2}[-./]\d{2,4}$")


def _en_phone(text: str, context: str, secrets: list[Finding]) -> str | None:
    """The user's phone number in the clause ``text``: after a word of phones in the clause, or anywhere in it
    when the message (``context``) names a phone, a new number, a SIM; never one said to be the old one."""
    if (m := _EN_PHONE.search(text)) and not _inside_secret(m, secrets) and not _old_number(text, m):
        return m.group("v").strip()
    if not _EN_PHONE_TOLD.search(context or text):
        return None
    for m in _EN_PHONE_SHAPE.finditer(text):
        value = m.group("v").strip()
        if (7 <= sum(ch.isdigit() for ch in value) <= 15 and not _EN_DATE_SHAPE.match(value)
                and not _inside_secret(m, secrets) and not _old_number(text, m)):
            return value
    return None


def _old_number(text: str, m: re.Match[str]) -> bool:
    return bool(_EN_OLD_NUMBER_AFTER.match(text[m.end("v"):]) or _EN_OLD_NUMBER_BEFORE.search(text[:m.start("v")]))


def en_contact(text: str, context: str = "") -> list[Draft]:
    """Phone, email, address, ID number (all sensitive); passwords, codes, cards, keys (secret). ``context``
    is the whole message of the clause ``text`` (a phone named in one clause, its number in the next)."""
    secrets = _secret_spans(text)
    out: list[Draft] = secret_facts(text, zh=False)
    if phone := _en_phone(text, context, secrets):
        out.append(templated("User's phone number is {v}", "user/phone", phone, importance=0.7, visibility=S))
    if m := _EMAIL.search(text):
        out.append(templated("User's email is {v}", "user/email", m.group("v"), importance=0.7, visibility=S))
    if m := _EN_ADDRESS.search(text):
        out.append(templated("User's address is {v}", "user/address", m.group("v").strip(), importance=0.7,
                              visibility=S))
    if m := _EN_ID.search(text):
        out.append(templated("User's ID number is {v}", "user/id_number", m.group("v"), importance=0.7,
                              visibility=S))
    return out


#: what follows a list of allergens after a comma and is none ("like epipen level", "so no shrimp")
_AFTERTHOUGHT = re.compile(r"(?i)^(?:like|so|which|but|especially|even|super|really|very|not|no|just|lol|haha|"
                           r"though|tho|since|because|cause|it|that|this|i|i'm|badly|seriously)\b")


def en_health(text: str) -> list[Draft]:
    """Allergies (normal visibility), diagnoses and pregnancy (sensitive)."""
    out: list[Draft] = []
    for pattern in _EN_ALLERGY:
        if m := pattern.search(text):
            for item in re.split(r",\s*(?:and\s+|or\s+)?|\s+and\s+|\s+or\s+", m.group("v").strip()):
                item = re.sub(r"(?i)^(?:to\s+|(?:severe|serious|bad|mild|slight|strong)\s+)+", "", item.strip())
                if _AFTERTHOUGHT.match(item) or len(item.split()) > 3:
                    break  # "peanuts, like epipen level" / "shellfish, so no shrimp please": the list is over
                if item and item.lower() not in ("it", "that", "this", "them", "something"):
                    out.append(fact(f"User is allergic to {item}", f"allergy/{item.lower()}", item,
                                     importance=0.9, template="User is allergic to {v}"))
            break
    if m := _EN_HEALTH.search(text):
        cond: str | None = _EN_CONDITION_ADJ.get(m.group("v").lower(), m.group("v"))  # "I have celiac": the disease
    elif m := _EN_IS_CONDITION.search(text):
        cond = _EN_CONDITION_ADJ[m.group("v").lower()]
    else:
        cond = next((c for pattern, c in _EN_TREATED if pattern.search(text)), None)
    if cond:
        out.append(fact(f"User has {cond}", f"health/{_US_SPELLING.get(cond.lower(), cond.lower())}", cond,
                        importance=0.8, visibility=S))
    if _EN_PREGNANT.search(text):
        out.append(fact("User is pregnant", "health/pregnancy", "", importance=0.9, visibility=S))
    return out
