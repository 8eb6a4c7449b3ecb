"""A report that something has happened and is over: 刚从青岛回来, 无锡马完赛, 面试过了, "just got back from Lisbon".

A turn that reports a trip, a race, an exam or a show as done tells of its day, the day it was
said, whether or not it names one. Shown a week later beside "接下来有啥行程？" it is no plan and no
current news: the block lists it under its past heading (read/curate.py), never drops it.

What counts is the grammar of completion, not the thing: a return (回来了, 到家了, "got back",
"back from"), a verb with 完 (考完, 跑完, 完赛) or a word of finishing (结束了, 搞定了, "finished",
"wrapped up"), a test passed (面试过了, 科目二过了, "passed my driving test"), a trip looked back on
(这趟太值了, 去了趟, 玩了三天, "the trip was amazing", "had a blast").

Guards: nothing ahead or hoped for in the same text (要, 打算, 下周, 明天, "will", "next", "can't
wait"), nothing negated (还没回来, 没考完, "haven't finished"), no habit (每次跑完, "every time I get
back"), and a loss undone (猫自己回来了, 找回来了) is a state that lasts, not a moment.
"""

from __future__ import annotations

import re

_P = re.compile

_ZH_DONE = _P(
    r"(?:刚|才)(?:从[^\s，,。！!？?]{1,10})?回来|(?<![找又])回来(?:了|啦|咯|喽|啰)|回到家了|到家了|落地了|"
    r"(?:考|面|跑|比|玩|逛|看|办|弄|做|写|录|拍|演|唱|爬|骑|游|答辩)完(?:了|啦|咯|赛)|完赛|"
    r"(?:结束|搞定|完成|落幕)(?:了|啦|咯)|"
    r"(?:面试|笔试|复试|初试|考试|考核|资格|答辩|驾照|科目[一二三四1234]|试用期)[^\s，,。！!？?]{0,4}(?:过了|通过了|过啦)|"
    r"[这那]趟|(?:去|玩|逛)了(?:一)?趟|玩了[一二两三四五六七八九十几\d]+天|"
    # an outing looked back on by how it went: 玩得挺开心, 见家长超顺利 (not a wish: 祝你顺利)
    r"(?:玩|逛|吃|聊|唱)得(?:挺|很|超|贼|蛮|太|真|可)?(?:开心|爽|嗨|值|过瘾|尽兴)|(?:见家长|面试|答辩|婚礼|手术|搬家|交接|考试|演出|比赛|签约)[^\s，,。！!？?]{0,4}?"
    r"(?:超|很|挺|特别|贼|蛮|非常|还算|都)?顺利(?!吗)")
_ZH_NOT_YET = _P(
    r"要|打算|准备|计划|想|希望|祝|愿|会去|将|下周|下个|下次|下礼拜|明天|后天|明早|明晚|等|快|马上|即将|还没|没(?:回|考|跑|比|玩|到|过)|"
    r"没有|不知道|能不能|是不是|吗|[?？]|每|经常|平时|通常|总是|天天|一般|自己回来|找回来")
_EN_DONE = _P(
    r"(?i)\b(?:just\s+)?(?:got|came|flew|drove|made\s+it)\s+(?:back|home)\b|\bback\s+(?:home\s+)?from\b|"
    r"\b(?:finished|completed|wrapped\s+up|crossed\s+the\s+finish)\b|\b(?:passed|aced|nailed)\s+(?:my|the|our)\b|"
    r"\bhad\s+(?:a\s+blast|so\s+much\s+fun|the\s+(?:best|time)|a\s+(?:great|good|lovely|wonderful)\s+time)\b|"
    r"\b(?:trip|holiday|vacation|concert|race|marathon|gig|show|interview|exam|wedding|party|festival|hike|ceremony|"
    r"reunion|retreat|camp)\s+(?:was|went)\b")
_EN_NOT_YET = _P(
    r"(?i)\b(?:will|won't|going\s+to|gonna|plan(?:ning)?|next|tomorrow|tonight|hope|hoping|can't\s+wait|"
    r"haven't|hasn't|didn't|not\s+yet|yet|until|every|always|usually|whenever|if|when)\b|'ll\b|\?")


def reports_done(text: str, lang: str) -> bool:
    """Does ``text`` report something that happened and is over (a return, a finish, a test passed, a trip
    looked back on), with nothing in it still ahead, negated or habitual?"""
    if lang == "zh":
        return bool(_ZH_DONE.search(text)) and not _ZH_NOT_YET.search(text)
    return bool(_EN_DONE.search(text)) and not _EN_NOT_YET.search(text)
