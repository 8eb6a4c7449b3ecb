"""What keeps a stated change from being a change now: a hedge, long ago, a pause, a step on a way that
goes on, a trip, a loss undone.

:func:`jiyi.text.topics.change_of` reads that a statement says something changed (a move, a job
left, a habit stopped); these predicates read what makes it no change of the user's present
state. The extractor (extractors/rules/changes.py, standing.py) and the resolver
(write/resolve.py ``topic_change``) ask them before anything is closed.
"""

from __future__ import annotations

import re

from jiyi.text.topics import Lex

_P = re.compile

#: 可能 / 打算 / "I might …" / a question: nothing has changed yet
_HEDGE = Lex(
    _P(r"可能|也许|大概会|打算|准备(?!好了)|想(?:要|去|搬|换|辞|卖|戒|分|退|离|放弃|跳槽|转行|结婚|领证|养|考)|(?:真|好|很|有时候|有点|总)想(?!念|起|到)|舍不得|考虑|要不要|是不是|如果|万一|假如|会不会|说不定|计划|"
       r"犹豫|纠结|还没|没想好|下(?:个|周|星期|月)\S{0,3}(?:要|就要|准备)|[？?]"),
    _P(r"(?i)\b(?:might|may|maybe|perhaps|probably|thinking\s+(?:of|about)|considering|plan(?:s|ning)?\s+to|"
       r"going\s+to|gonna|want(?:s)?\s+to|wanna|hope\s+to|hoping|if|would|could|should|unless|not\s+sure|"
       r"wonder\w*|wish(?:es|ed)?|tempted)\b|\?"))
#: 几年前 / 小时候 / "years ago": history, unless it says 现在 / now
_LONG_AGO = Lex(
    _P(r"(?:好|\d+|[一二两三四五六七八九十几多]+)年前|多年前|小时候|当年|那时候|那会儿|上学的时候|读书的时候|曾经|从小|"
       r"(?:上|读|念)?(?:大学|高中|初中|小学|中学|大一|大二|大三|大四|高一|高二|高三|研究生)(?:的)?(?:时候|那会儿?|那几年|时)"),
    _P(r"(?i)\b(?:(?:\d+|a\s+few|several|many|two|three|four|five|ten)\s+years\s+ago|years\s+ago|"
       r"when\s+(?:I|User)\s+was|back\s+(?:in|then|when)|as\s+a\s+(?:kid|child|teen)|growing\s+up|"
       r"used\s+to)\b"))
_NOW = _P(r"(?i)现在|目前|如今|\bnow\b|\bthese\s+days\b|\bcurrently\b")
#: the words that open a statement of how things stand now, after a change ("…辞职了！现在自己在网上卖干花",
#: "sold it, now User bikes"): extractors/rules/message.py keeps such a sentence with the change, write/reading.py
#: puts the change's reading before it
NOW_LEAD = r"(?:现在|目前|如今|眼下|(?i:now\b|these\s+days\b|nowadays\b|currently\b))"
#: a loss undone in the same breath: "got lost at the park, found him by the pond", 跑丢了…找回来了
_RECOVERED = Lex(
    _P(r"找到了|找回来了|找着了|自己回来了|又回来了|回家了"),
    _P(r"(?i)\b(?:found\s+(?:him|her|it|them)|(?<!never\s)(?<!n't\s)came\s+back|turned\s+up|showed\s+up)\b"))


def hedged(text: str, lang: str) -> bool:
    """可能 / 打算 / "I might …" / a question: nothing changed yet."""
    return _HEDGE.found(text, lang)


def told_long_ago(text: str, lang: str) -> bool:
    """几年前 / 小时候 / "years ago" without 现在 / now: the change is history, not the present."""
    return _LONG_AGO.found(text, lang) and not _NOW.search(text)


def recovered(text: str, lang: str) -> bool:
    """Does the statement say that what was lost was found again?"""
    return _RECOVERED.found(text, lang)


#: a stop that lasts an afternoon or a few days is a pause: 停了一天酒, 戒了一下午的手机, "no coffee for a day"
_PAUSE = Lex(_P(r"(?:停|戒|歇|断|没(?:喝|吃|抽|玩))了?(?:一|两|三|几|半)(?:天|下午|上午|晚上|晚|会儿|阵子?|周|个?星期|个?礼拜)"),
              _P(r"(?i)\b(?:for\s+(?:a|one|two|three|a\s+few|a\s+couple\s+(?:of\s+)?)\s*(?:day|days|night|nights|week|hours?)|"
               r"this\s+week|for\s+today|for\s+the\s+(?:day|weekend|week)|until\s+(?:monday|tuesday|wednesday|thursday|"
               r"friday|saturday|sunday|tomorrow|next\s+week))\b"))


def paused(text: str, lang: str) -> bool:
    """Is the stop only for a while (停了一天酒 / "off coffee for a few days")?"""
    return _PAUSE.found(text, lang)


#: a step passed on a way that goes on: 还在继续找, 下一轮, "3 more to go", "passed the phone screen"
_GOING_ON = Lex(_P(r"还在继续|继续(?:找|投|申|考|准备|备考)|还要(?:继续|再)|还没(?:决定|定下来|结束|考完|拿到)|下一(?:轮|步|关|阶段|门)|还剩|还差|"
                   r"(?:还得|得|要|准备)再(?:考|申|试|约|来)|重考|(?:下次|明年|下个月|下半年)再"),
                 _P(r"(?i)\b(?:(?:\d+|one|two|three|four|a\s+few)\s+more\s+to\s+go|still\s+(?:looking|searching|applying|hunting|"
                  r"waiting|studying|prepping)|next\s+(?:round|step|stage)|one\s+step\s+closer|(?:phone|first|initial|"
                  r"recruiter)\s+(?:screen|round|interview)|halfway|retak(?:e|ing)|reapply(?:ing)?|try(?:ing)?\s+again)\b"))


def goes_on(text: str, lang: str) -> bool:
    """Does the statement say that what it passed is one step of something still going on?"""
    return _GOING_ON.found(text, lang)


#: being somewhere for a while: 出差, "for a conference"
_TRIP = Lex(_P(r"出差|旅游|旅行|玩几天|度假|开会|培训|探亲|看病|考试|比赛|过年|过节|中转|转机"),
             _P(r"(?i)\b(?:trip|vacation|holiday|honeymoon|getaway|conference|visiting|visit|work\s+trip|business|layover|"
                r"for\s+the\s+(?:weekend|week))\b"))


def on_a_trip(text: str, lang: str) -> bool:
    """出差 / "for a conference": being somewhere for a while is no move."""
    return _TRIP.found(text, lang)
