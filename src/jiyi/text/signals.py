"""Does a message carry a memory signal, so extraction should run now (SPEC §2.4)?

A signal is a phrase people use when they state something durable about themselves
(我叫 / 我住 / 过敏 / my name is / I live), ask to be remembered (记住 / 别忘了 /
remember), state a habit (我一直 / 我从不 / always / never), a future arrangement
(以后 / 下次 / from now on) or correct themselves (不对 / actually). A false positive
only costs an early extraction run; a false negative delays a memory by a few rounds,
so the list leans inclusive but avoids words that occur in almost every message.
"""

from __future__ import annotations

import re

from jiyi.text.script import simplified

_ZH = (
    "记住|记一下|记下|记着|记好|帮我记|给我记|别忘|不要忘|千万记得|记得提醒|提醒我"
    "|我一直|我从不|我从来不|我从来没|我向来|我每天|我每周|我平时|我习惯|以后|下次|今后|从今天起|从现在开始"
    "|我叫|叫我|我的名字|我名字|我姓|我住|我家在|住在|搬家|搬到|搬去|老家|我是.{0,6}人"
    "|我在.{1,12}(?:工作|上班|实习|读书|上学)|我是(?:一名|一个)?.{0,6}(?:师|员|生|家|工|经理)|我做.{0,6}的|我今年|岁了"
    "|过敏|忌口|吃素|不吃|不喝|戒了|戒掉|在戒|高血压|糖尿病|哮喘|怀孕|确诊"
    "|我喜欢|我不喜欢|我爱|我讨厌|我最爱|我最喜欢|我受不了|我偏好|我更喜欢"
    "|我(?:的)?(?:老婆|老公|妻子|丈夫|太太|先生|女朋友|男朋友|对象|妈|爸|母亲|父亲|儿子|女儿|哥|姐|弟|妹|爷爷|奶奶|外公|外婆|室友|同事|老板|领导|猫|狗)"
    "|生日|纪念日|手机号|电话|邮箱|地址|身份证"
    "|回复|回答|简短|简洁|啰嗦|表情|语气|别.{0,4}打电话|发短信|发邮件"
    "|不对|说错了|搞错了|更正|纠正|其实是|应该是"
)
_EN = (
    r"\b(?:remember|don'?t forget|do not forget|keep in mind|note that|remind me"
    r"|always|never|usually|every (?:day|morning|night|week)|from now on|in the future|next time"
    r"|my name|call me|i'?m called|i go by|i live|i'?m living|i moved|i'?m moving|moved to|i'?m from|grew up"
    r"|i work|i'?m working|my job|i'?m an? |i am an? |i'?m \d+|years old|my birthday"
    r"|allerg\w*|vegetarian|vegan|i don'?t eat|i can'?t eat|i quit|i gave up|diabet\w*|diagnosed"
    r"|i love|i like|i hate|i dislike|i prefer|i enjoy|my fav\w*|i'?m into|i can'?t stand"
    r"|my (?:wife|husband|partner|girlfriend|boyfriend|mom|mum|mother|dad|father|son|daughter"
    r"|sister|brother|kids?|children|friend|best friend|boss|dog|cat|pet)"
    r"|phone|email|e-mail|address"
    r"|be concise|keep it short|reply in|answer in|emoji"
    r"|actually|i meant|correction|i was wrong)\b"
)
_SIGNAL = re.compile(f"(?:{_ZH})|{_EN}", re.IGNORECASE)


def has_memory_signal(text: str) -> bool:
    """True when ``text`` contains a phrase that usually introduces something to remember."""
    return bool(text) and _SIGNAL.search(simplified(text)) is not None
