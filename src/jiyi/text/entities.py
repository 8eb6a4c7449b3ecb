"""Entity mentions in a statement: people, places, organisations, products, numbers.

Entities link memories to each other (the read path fetches neighbours sharing an
entity) and to queries, so they should be the words someone would search for:
``李文杰``, ``深圳``, ``华恒集团``, ``CG2502248817``, ``Caroline``. Chinese uses
jieba's part-of-speech tags (``nr`` person, ``ns`` place, ``nt`` organisation,
``nz`` other proper noun, ``eng`` Latin words and codes), with a small deny-list for
words jieba mis-tags (``过敏`` comes out as a person). English takes runs of
capitalised words that are not sentence-initial function words, weekdays or months.
Numbers of two or more digits (phone numbers, prices, order numbers) are kept.
"""

from __future__ import annotations

import calendar
import re
from collections.abc import Iterable

from jiyi.text import zh
from jiyi.text.wordlists import words

_ZH_TAGS = frozenset({"nr", "nrfg", "nrt", "ns", "nt", "nz", "eng"})
_ZH_DENY = words(
    "过敏 老公 老婆 用户 助手 小时 周末 生日 晚上 早上 上午 下午 中午 明天 今天 昨天 后天 前天 礼拜 星期 "
    "妈妈 爸爸 哥哥 姐姐 弟弟 妹妹 女朋友 男朋友 老师 先生 女士 小姐 师傅 高血压 白色 黑色 红色"
)
_EN_DENY = frozenset(
    {m for m in calendar.month_name if m} | {d for d in calendar.day_name}
    | words("I I'm I've I'll I'd User User's The A An And But So Or If Then When Where What Who Why How "
          "Which This That These Those It Its My Your Our Their We You He She They Me Yes No Ok Okay Oh "
          "Hi Hey Hello Thanks Thank Please Just Also Actually Well Today Tomorrow Yesterday Tonight Last "
          "Next Every Lol Haha Wow Sure Yeah Yep Nope Not Do Does Did Is Are Was Were Have Has Had Can "
          "Could Would Should Will Maybe Sorry Remember Don't Let Let's Our Mom Dad Call Reply Tell Send Keep "
          "Make Give Take Help Show Write Answer Respond Speak Talk Use Stop Be Try Go Get Check Book Remind "
          "Note Good Great Nice Cool Here There Now One Time Since Though Although Because Thanks Wow Congrats "
          "Anyway Hope Glad Happy Awesome Amazing Love Lots")
)
_EN_CAP = re.compile(r"\b[A-Z][\w'\u2019&-]*(?:\s+(?:of\s+|de\s+|the\s+)?[A-Z][\w'\u2019&-]*)*")
_SENTENCE_START = re.compile(r"(?:^|[.!?…]\s*|[\"“(]\s*)$")
_CONTRACTION = re.compile(r"['\u2019](?:re|m|ve|ll|d|t)$", re.IGNORECASE)
_NUMBER = re.compile(r"(?<![A-Za-z0-9.])[A-Za-z]*\d[\dA-Za-z]*(?:[./:-]\d+)*")
_ZH_ORG = re.compile(r"有限公司|股份公司|集团|银行|大学|学院|医院|研究所|研究院|中学|小学|幼儿园")
_ORG_BREAK = re.compile(r"[^\u4e00-\u9fff]|[的一下那这边个我你他她说在要了和跟与是到从给对]")
_ORG_LEAD = re.compile(r"^(?:在|和|跟|是|去|到|给|从|的|对|于|家|那个|这个|见|找|约|拜访|联系|来自|加入|入职|考上|考进|考)+")
_HAN = re.compile(r"[\u4e00-\u9fff]")
_FUNCTION_CHARS = frozenset("和跟与在的了是把被给对从向往就都也还")


def _numbers(text: str) -> list[str]:
    return [n for n in _NUMBER.findall(text) if sum(ch.isdigit() for ch in n) >= 2]


def _zh_entities(text: str, *, latin_too: bool = True) -> list[str]:
    """Names by jieba's tags; its Latin words (``eng``) only when ``latin_too`` (an English statement's are
    read by :func:`_en_entities`, which knows a name from "lives" or "of")."""
    out: list[str] = []
    for m in _ZH_ORG.finditer(text):
        head = _ORG_BREAK.split(text[max(0, m.start() - 20):m.start()])[-1]
        head = _ORG_LEAD.sub("", head)
        if len(head) >= 2:
            out.append(head + m.group(0))
    for word, flag in zh.pos_tags(text):
        if flag not in _ZH_TAGS or word in _ZH_DENY:
            continue
        if flag == "eng" and (not latin_too or len(word) < 2 or any(ch.isdigit() for ch in word)):
            continue  # digit-bearing codes come from _numbers, whole
        if flag != "eng" and (len(word) < 2 or word[0] in _FUNCTION_CHARS):
            continue  # jieba glues particles to names now and then (和华 from 和华恒集团)
        out.append(word)
    return out


def _en_entities(text: str) -> list[str]:
    out: list[str] = []
    for m in _EN_CAP.finditer(text):
        words = [w for w in m.group(0).rstrip(".'\u2019").split() if not _CONTRACTION.search(w)]
        words = [re.sub(r"['\u2019]s$", "", w) for w in words]
        while words and words[0] in _EN_DENY:
            words = words[1:]
        phrase = " ".join(words)
        if not phrase or phrase in _EN_DENY or len(phrase) < 2:
            continue
        if len(words) == 1 and _SENTENCE_START.search(text[: m.start()]) and not _named_elsewhere(text, phrase, m):
            continue  # "Lost my job…", "Finishing up…": capitalised only because it starts the sentence
        out.append(phrase)
    return out


def _named_elsewhere(text: str, word: str, m: re.Match[str]) -> bool:
    """Is ``word`` capitalised mid-sentence somewhere, or a vocative ("Caroline, …")?"""
    if word.endswith("ly"):
        return False
    if text[m.end(): m.end() + 1] in (",", "!"):
        return True
    return any(not _SENTENCE_START.search(text[: o.start()]) for o in re.finditer(rf"\b{re.escape(word)}\b", text))


def find_entities(text: str, lang: str, *, extra: Iterable[str] = (), limit: int = 12) -> tuple[str, ...]:
    """Entities of ``text``: ``extra`` (values a rule captured) first, then tagged names, then numbers."""
    found: list[str] = [e.strip() for e in extra if e and e.strip()]
    if _HAN.search(text):
        found.extend(_zh_entities(text, latin_too=lang != "en"))
    if lang == "en" or not _HAN.search(text):
        found.extend(_en_entities(text))
    found.extend(_numbers(text))
    seen: dict[str, None] = {}
    for item in found:
        key = item.strip(" ,.;:，。")
        if key and not any(key in kept for kept in seen):  # 碧波 inside 碧波路690弄12号603
            seen[key] = None
    return tuple(list(seen)[:limit])
