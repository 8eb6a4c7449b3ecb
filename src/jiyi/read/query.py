"""Query understanding: tokens, time expressions, entity mentions, sensitivity intent."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime, tzinfo

from jiyi.text.script import simplified
from jiyi.text.tokens import tokenize
from jiyi.write.timeparse import TimeSpan, find_time_expressions

_SENSITIVE_ASK = re.compile(
    r"电话|手机|号码|地址|住址|邮箱|身份证|证件|银行卡|账号|密码|病|健康|药|过敏|诊断|"
    r"phone|number|address|e-?mail|passport|\bid\b|ssn|bank|account|password|health|medical|diagnos|allerg",
    re.IGNORECASE,
)
#: Questions about the present state ("where does she live now", 用户现在住哪): newer wins.
_CURRENT_ASK = re.compile(
    r"现在|目前|当前|如今|眼下|最近|最新|最后|还在|还[^，。？?！!]{0,12}吗|"
    r"\bnow\b|\bcurrent(?:ly)?\b|\blatest\b|\bmost recent(?:ly)?\b|\bstill\b|\bthese days\b|\banymore\b|"
    r"\bnowadays\b",
    re.IGNORECASE,
)
#: Questions about the past or about a date ("约的是哪一天", "面试是哪天来着", "when did I…"): a lapsed plan may answer.
_PAST_ASK = re.compile(
    r"哪天|哪一天|几号|几月几|什么时候|啥时候|何时|哪个月|哪年|来着|上次|那次|那回|之前|以前|当时|那天|那会儿?|"
    r"么子?时候|啥子时候|几时|啥辰光|底时|啥前儿|哪阵|边日|上回|上趟|上摆|"  # "when" and "last time" in dialects: 武汉, 粤, 吴, 闽, 东北, 川
    r"上周|上个?月|上礼拜|去年|前年|前几天|前阵子|前段时间|后来|"
    r"(?:去|吃|见|做|玩|看|买|用|试|学|到|住)过|(?:了|过)(?:没有?|吗)[？?]?$|怎么样了?[？?]?$|"
    r"\bwhen\b|\bwhat (?:day|date|time)\b|\bwhich day\b|\blast (?:time|week|month|year|weekend)\b|\bbefore\b|"
    r"\bago\b|\bused to\b|\b(?:did|have|had) (?:i|we|you|he|she|they)\b|\bhow (?:was|did)\b|\bwent\b|"
    r"\bwhat happened\b|\bever\b",
    re.IGNORECASE,
)
_CAPITALISED = re.compile(r"\b[A-Z][a-z]{2,}\b")
_QUESTION_WORDS = {"What", "When", "Where", "Who", "Why", "How", "Which", "Did", "Does", "Do", "Is", "Are",
                   "Was", "Were", "Has", "Have", "Would", "Could", "Can", "Will", "The", "And", "Yes"}


@dataclass(slots=True, frozen=True)
class QueryInfo:
    text: str
    tokens: tuple[str, ...]
    spans: tuple[TimeSpan, ...]
    names: tuple[str, ...]
    wants_sensitive: bool
    wants_current: bool = False
    asks_past: bool = False  # about the past or a date: lapsed plans stay candidates (boosts.lapsed_turn_penalty)


def asks_past(text: str) -> bool:
    """Does ``text`` ask about the past or a date ("when did I…", "…去过…吗", "那次…怎么样", 上個月…)?"""
    return _PAST_ASK.search(simplified(text)) is not None


def analyze_query(text: str, *, ref: datetime, tz: tzinfo | None = None) -> QueryInfo:
    """Everything the routes and the ranker want to know about a query (``tz``: the user's day). Its
    questions are read in simplified characters (text/script.py); its keywords as typed, as stored."""
    read = simplified(text)
    spans = tuple(find_time_expressions(read, ref, tz=tz))
    names = tuple(dict.fromkeys(w for w in _CAPITALISED.findall(text) if w not in _QUESTION_WORDS))
    return QueryInfo(text=text, tokens=tuple(tokenize(text)), spans=spans, names=names,
                     wants_sensitive=bool(_SENSITIVE_ASK.search(read)),
                     wants_current=bool(_CURRENT_ASK.search(read)), asks_past=bool(_PAST_ASK.search(read)))
