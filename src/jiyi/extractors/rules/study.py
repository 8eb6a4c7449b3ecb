"""What the user studies: their major or subject (``user/major``), one at a time.

"我在读土木 大二", "学计算机的", "我是金融专业的", "转专业成功了 下学期开始读计算机"; "I study nursing",
"majoring in econ", "I'm a history major". A new major in the same slot supersedes the old one, as a new city
does. Not a degree or a level (读研, 读博, 在读大三: how far, not what), nor reading a book (读书, 读小说), nor a
word the verb's character only opens (学校, 学信网, 学费, 读者: the segmenter reads one word there, no 学).
"""

from __future__ import annotations

import re

from jiyi.extractors.rules.drafts import Draft, templated
from jiyi.text import zh

#: a subject studied: 读土木 / 学计算机的 / 开始读计算机 / 是金融专业的 / 金融专业 (the clause's body, 我 gone)
_ZH_STUDY = re.compile(r"^(?:是|现在|目前|也|还|在|正在|开始|改|转|(?:下|这|本|新)学期|明年|今年|以后)*(?:读|学|念)(?!书|完|过|了|着|习)"
                       r"(?P<v>[\u4e00-\u9fffA-Za-z]{2,8}?)(?:专业)?(?:的)?(?:[，,。！!~～\s]|$)|"
                       r"^(?:是)?(?P<w>[\u4e00-\u9fffA-Za-z]{2,8}?)专业(?:的)?(?:[，,。！!~～\s]|$)")
#: what follows 读 / 学 that is a level or a thing read, not a subject
_ZH_NOT_A_SUBJECT = re.compile(r"^(?:研|博|研究生|博士|硕士|本科|大专|高中|初中|小学|大学|大[一二三四五]|研[一二三]|书|小说|"
                               r"漫画|报纸|新闻|绘本|课外|经|英语单词|单词|车|开车|游泳|做饭|吉他|钢琴|画画|跳舞)")
_EN_STUDY = re.compile(r"(?i)\b(?:i\s+(?:study|studied)|i'?m\s+(?:studying|majoring\s+in)|majoring\s+in|my\s+major\s+is)\s+"
                       r"(?P<v>[a-z][a-z &-]{2,30}?)(?=\s+(?:at|in|and|but|now|this|since|so)\b|[.,;!?]|$)|"
                       r"\b(?:i'?m|i\s+am)\s+an?\s+(?P<w>[a-z][a-z -]{2,20}?)\s+major\b")
_EN_NOT_A_SUBJECT = re.compile(r"(?i)^(?:for|hard|abroad|late|online|at|a|an|the|my|with|together|all)\b")


def zh_study(body: str) -> list[Draft]:
    """The subject the user studies, said in a clause about themself (its body, the subject gone)."""
    m = _ZH_STUDY.match(body)
    if m is None:
        return []
    subject = m.group("v") or m.group("w")
    if _ZH_NOT_A_SUBJECT.match(subject):
        return []
    if m.group("v") and len(zh.cut(body[m.start("v") - 1:])[0]) > 1:
        return []  # "学校游泳馆一次十块", "学信网密码": a word of its own, not 学 and a subject
    return [templated("用户的专业是{v}", "user/major", subject, importance=0.6)]


def en_study(text: str) -> list[Draft]:
    """"I study nursing", "I'm a history major": the user's subject."""
    m = _EN_STUDY.search(text)
    if m is None:
        return []
    subject = (m.group("v") or m.group("w")).strip()
    if _EN_NOT_A_SUBJECT.match(subject):
        return []
    return [templated("User's major is {v}", "user/major", subject, importance=0.6)]
