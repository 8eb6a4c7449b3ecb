"""Rewrite first-person chat text as a third-person statement about the user.

A memory is read later, out of context, by another prompt: "我下周去深圳" must
become "用户下周去深圳" and "I love hiking" must become "User loves hiking", or the
model reading it would take "I" for itself. The assistant ("你"/"you") becomes
"助手"/"the assistant". English verbs after the new subject are conjugated in the
third person singular (love → loves, have → has, don't → doesn't), which covers the
sentence shapes people use about themselves; anything unusual is left as written.
"""

from __future__ import annotations

import re

from jiyi.text.wordlists import word_list, words

ZH_USER = "用户"
EN_USER = "User"

_ZH_REL_AFTER_WO = (
    "老婆|老公|妻子|丈夫|太太|媳妇|爱人|女朋友|男朋友|女友|男友|对象|妈妈|妈|老妈|母亲|爸爸|爸|老爸|父亲"
    "|儿子|女儿|闺女|哥哥|哥|姐姐|姐|弟弟|弟|妹妹|妹|爷爷|奶奶|外公|外婆|姥姥|姥爷|室友|同事|老板|领导|上司"
    "|闺蜜|朋友|好朋友|同学|家人|孩子|宝宝|猫|狗|家"
)
_ZH_SUBST = (
    (re.compile(r"(?:我们俩|咱们俩|我俩|咱俩|俺俩)"), ZH_USER + "和对方"),  # 我俩分了: the user and the other one
    (re.compile(r"(?:我们|咱们|俺们)"), ZH_USER),
    (re.compile(rf"(?<!自)(?:我|俺)家(?:的)?(?=(?:{_ZH_REL_AFTER_WO.removesuffix('|家')}))"), ZH_USER + "的"),
    (re.compile(r"(?<!自)(?:我|俺)家(?=(?:那|这)?(?:只|条|头|个|位))"), ZH_USER + "家"),  # 我家那只土狗
    (re.compile(rf"(?<!自)(?:我|俺)(?:的)?(?=(?:{_ZH_REL_AFTER_WO}))"), ZH_USER + "的"),
    (re.compile(r"(?<!自)(?:我|俺|本人)"), ZH_USER),
    (re.compile(r"(?:你们|您|你)"), "助手"),
    (re.compile(r"用户的(妈|爸)(?![妈爸])"), r"用户的\1\1"),
)
# fillers that only count as such before punctuation ("对，…" yes, "对花生过敏" no)
_ZH_FILLERS = word_list(
    "嗯+ 哦+ 噢 喔 啊 唉 哎 哎呀 诶 欸 额 呃 哈+ 嘿 好的 好 行 行吧 对 对的 对对 是的 那个 嗯呢 好吧"
)
# discourse connectors, stripped with or without punctuation after them
_ZH_CONNECTORS = word_list(
    "对了 还有 就是 另外 然后 而且 并且 所以 但是 不过 反正 话说 顺便说一下 顺便问一下 顺便说 顺便问 顺便 跟你说个事"
    " 跟你说一下 跟你说 先说个事 说个事 告诉你 老实说 说实话 可是 因为 只是 毕竟 况且"
    " 提前说一下 提前说好 提前说 先说好 先说一下 先说 提醒一下 提醒你 友情提示 说一下 说下 讲一下 补充一下 忘了说 忘说了"
    " 仲有 另外仲有 同埋 仲要讲"  # (Cantonese: 还有, 而且)
)


def _alts(words: list[str]) -> str:
    return "|".join(sorted(words, key=len, reverse=True))


_ZH_LEAD = re.compile(
    rf"^(?:(?:{_alts(_ZH_FILLERS)})[啊呀哈啦呢吧]?[，,、\s!！~～。.]+"
    rf"|(?:{_alts(_ZH_CONNECTORS)}|但(?=我|俺|咱))[啊呀哈啦呢吧哦噢]?[，,、\s!！~～]*"
    # English ones before Chinese, as people who mix write them ("and 我搬到…", "btw 我…", "update: 终于…")
    rf"|(?i:and|also|btw|so|anyway|anyways|oh|ok|okay|update|fyi|ps|but|plus|lol|omg|tbh|ngl)[:：,，!！.\s]*"
    rf"(?=[\u4e00-\u9fff])"
    # the one spoken to, before what the speaker says of themselves ("兄弟 我跑外卖的", "姐妹们，我分手了")
    rf"|(?:兄弟们?|哥们儿?|老铁们?|老哥|姐妹们?|家人们|朋友们|宝子们?|亲们?|大佬们?)[啊呀哈啦呢吧]?[，,、\s!！~～]+(?=[我俺咱]))+"
)
_ZH_TAIL = re.compile(r"[吧啊呢哈啦呀嘛哦噢喔哟咯嘞哇\s~～，,。.!！…\"'“”‘’「」『』]+$")


def tidy_zh(text: str) -> str:
    """Drop leading fillers (嗯/对了/另外…) and trailing particles (吧/啊/哈…)."""
    text = _ZH_LEAD.sub("", text.strip())
    return _ZH_TAIL.sub("", text).strip()


def third_person_zh(text: str) -> str:
    """``我妈下周三生日`` → ``用户的妈妈下周三生日``; ``你帮我记`` → ``助手帮用户记``."""
    for pattern, repl in _ZH_SUBST:
        text = pattern.sub(repl, text)
    return text


# ---------------------------------------------------------------- English

_EN_CONTRACTIONS = (
    (re.compile(r"\bI['\u2019]m\b|\bI am\b|\bIm\b(?=\s)"), "User is"),
    (re.compile(r"\bI['\u2019]ve\b"), "User has"),
    (re.compile(r"\bI['\u2019]ll\b"), "User will"),
    (re.compile(r"\bI['\u2019]d\b"), "User would"),
)
_EN_FIXED = (
    (re.compile(r"\b(?:my|My)\b"), "User's"),
    (re.compile(r"\b(?:mine|Mine)\b"), "User's"),
    (re.compile(r"\b(?:myself|Myself)\b"), "themself"),
    (re.compile(r"\b(?:we|We)['\u2019]re\b"), "User and others are"),
    (re.compile(r"\b(?:we|We)\b"), "User and others"),
    (re.compile(r"\b(?:our|Our)\b"), "User's"),
    (re.compile(r"\b(?:ours|Ours)\b"), "User's"),
    (re.compile(r"\b(?:your|Your)\b"), "the assistant's"),
    (re.compile(r"\b(?:you|You)\b"), "the assistant"),
)
_EN_ME = re.compile(r"\b(?:me|us)\b")
_EN_I = re.compile(r"\bI\b(?P<adv>(?:\s+(?:really|just|also|still|always|never|usually|often|sometimes|"
                   r"actually|definitely|totally|truly|absolutely|mostly|rarely|even|only|generally|"
                   r"normally|typically|recently|finally|kind of|sort of))*)\s+(?P<verb>[A-Za-z'\u2019]+)")
_EN_KEEP = words(
    "will would can could should might must may shall was had did said went got made am is are were has does "
    "bought brought thought felt left met saw took gave told found ran came became began ate drank wrote won "
    "lost sent spent built taught caught fought kept slept held heard paid sold stood understood wore knew grew "
    "flew drew threw chose spoke broke forgot put set cut hit let quit read"
)
_EN_IRREGULAR = {"have": "has", "am": "is", "do": "does", "go": "goes", "be": "is",
                 "don't": "doesn't", "don\u2019t": "doesn't", "haven't": "hasn't", "haven\u2019t": "hasn't",
                 "aren't": "isn't", "can't": "can't", "won't": "won't"}


def _s_form(verb: str) -> str:
    low = verb.lower()
    if low in _EN_IRREGULAR:
        return _EN_IRREGULAR[low]
    if low in _EN_KEEP or low.endswith(("ed", "n't", "ly")) or (low.endswith("s") and not low.endswith("ss")):
        return verb
    if re.search(r"[^aeiou]y$", low):
        return verb[:-1] + "ies"
    if low.endswith(("sh", "ch", "x", "z", "ss", "o")):
        return verb + "es"
    return verb + "s"


_EN_LOWER_I = re.compile(r"\bi(?=['\u2019](?:m|ve|ll|d)\b|\s|$)|\bim(?=\s)")


def third_person_en(text: str) -> str:
    """``I love hiking with my dog`` → ``User loves hiking with User's dog`` (chat's lowercase "i" too)."""
    text = _EN_LOWER_I.sub(lambda m: "I'm" if m.group() == "im" else "I", text)
    for pattern, repl in _EN_CONTRACTIONS:
        text = pattern.sub(repl, text)
    text = _EN_I.sub(lambda m: f"{EN_USER}{m.group('adv')} {_s_form(m.group('verb'))}", text)
    text = re.sub(r"\bI\b", EN_USER, text)
    for pattern, repl in _EN_FIXED:
        text = pattern.sub(repl, text)
    return _EN_ME.sub(EN_USER, text)


def third_person(text: str, lang: str) -> str:
    """Language dispatch for :func:`third_person_zh` / :func:`third_person_en`."""
    return third_person_zh(text) if lang == "zh" else third_person_en(text)


def of_speaker(text: str, lang: str) -> str:
    """A turn as said of its speaker (:func:`third_person`), a Chinese one tidied first: "兄弟 我跑外卖的" → "用户跑外卖的"
    (a vocative before 我 is spoken to, not the subject)."""
    return third_person(tidy_zh(text) if lang == "zh" else text, lang)


#: Longer "names" are display strings or ids, not something to put in a sentence.
MAX_NAME_CHARS = 40
_EN_SUBJECT = re.compile(rf"\b{EN_USER}\b")


def speaker_name(name: str | None) -> str | None:
    """The speaker's name as it may stand in a sentence, or None (blank, too long, a line break)."""
    clean = (name or "").strip()
    if not clean or len(clean) > MAX_NAME_CHARS or any(ch in clean for ch in "\n\r\t"):
        return None
    return clean


def name_subject(text: str, name: str | None, lang: str, *, lead_only: bool = False) -> str:
    """``用户``/``User`` (as :func:`third_person` wrote them) replaced by the speaker's ``name``.

    When two people talk (LoCoMo: two friends, both role "user"), "User is allergic to
    peanuts" cannot say whose allergy it is, and a question naming Melanie cannot reach
    it; "Melanie is allergic to peanuts" can. ``lead_only`` replaces only a leading
    subject: for text whose source already contained the word (我们用户群…).
    """
    who = speaker_name(name)
    if who is None:
        return text
    if lang == "zh":
        if lead_only:
            return who + text[len(ZH_USER):] if text.startswith(ZH_USER) else text
        return text.replace(ZH_USER, who)
    return _EN_SUBJECT.sub(lambda _m: who, text, count=1 if lead_only else 0) if (
        not lead_only or text.startswith(EN_USER)) else text


# ---------------------------------------------------------------- third person back to first

_ZH_USER_LEAD = re.compile(r"(?:(?<=^)|(?<=[，,。！？!?；;：:\s]))(?:该用户|这位用户|这个用户|用户)(?P<of>的)?(?![们群量数名])")
_EN_USER_LEAD = re.compile(r"(?:(?<=^)|(?<=[.!?;:,]\s)|(?<=\band\s))(?:[Tt]he\s+)?[Uu]ser(?P<of>['\u2019]s)?\b(?!\s+(?:id|name\s+is\s+not))")
_EN_BACK = {"is": "am", "was": "was", "has": "have", "does": "do", "doesn't": "don't", "doesn\u2019t": "don't",
            "isn't": "am not", "hasn't": "haven't", "goes": "go", "wasn't": "wasn't"}
_EN_VERB_AFTER = re.compile(r"(?P<adv>(?:\s+(?:really|just|also|still|always|never|usually|often|sometimes|actually|"
                            r"now|currently|recently|no\s+longer|mostly|rarely|generally|normally|typically))*)"
                            r"\s+(?P<verb>[A-Za-z'\u2019]+)")


def _base_form(verb: str) -> str:
    low = verb.lower()
    if low in _EN_BACK:
        return _EN_BACK[low]
    if low.endswith("ies") and len(low) > 4:
        return verb[:-3] + "y"
    if low.endswith(("sses", "shes", "ches", "xes", "zes", "oes")):
        return verb[:-2]
    if low.endswith("s") and not low.endswith(("ss", "us", "is")) and len(low) > 3:
        return verb[:-1]
    return verb


def first_person(text: str, lang: str) -> str:
    """A statement written about "the user" as the user would say it: 用户住在杭州 → 我住在杭州,
    "User lives in Berlin" → "I live in Berlin", "The user's wife is Anna" → "my wife is Anna".

    Only a subject at the start of a sentence or clause is rewritten (我们用户群 stays),
    so the first-person patterns, slots and supersession apply to the form the
    ``add_memory`` tool and ``remember()`` callers write in.
    """
    if lang == "zh":
        return _ZH_USER_LEAD.sub(lambda m: "我的" if m.group("of") else "我", text)

    def en(m: re.Match[str]) -> str:
        if m.group("of"):
            return "my" if m.start() > 0 and text[m.start() - 2:m.start()] not in (". ", "! ", "? ") else "My"
        return "I"

    out: list[str] = []
    pos = 0
    for m in _EN_USER_LEAD.finditer(text):
        out.append(text[pos:m.start()])
        out.append(en(m))
        pos = m.end()
        if not m.group("of") and (v := _EN_VERB_AFTER.match(text, pos)):
            out.append(v.group("adv") + " " + _base_form(v.group("verb")))
            pos = v.end()
    out.append(text[pos:])
    return "".join(out)
