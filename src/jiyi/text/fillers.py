"""Is a reply a filler ("没有啦哈哈", "没去哈哈", "还好吧", "中中中 得劲", "nah not really lol", "idk lol")?

A filler answers the turn before it with a bare no / yes / meh and maybe a laugh: nothing
in it is a memory on its own. The write path keeps it as a turn flagged small talk
(importance 0.05, left out of a context block) like a pleasantry. Conservative: anything
with a word beyond a bare answer (没去过杭州哈哈, "no, I moved to Leeds lol") is no filler.
"""

from __future__ import annotations

import re
import unicodedata

from jiyi.text.script import simplified
from jiyi.text.smalltalk import is_smalltalk
from jiyi.text.wordlists import word_list

_LAUGH = re.compile(r"(?i)哈{2,}|呵{2,}|嘿{2,}|嘻{2,}|嘎{2,}|\bh{2,}\b|\b2?33+\b|\bx+d+\b|\blo+l\b|\blmf?ao\b|\brofl\b|"
                    r"\b(?:ha){2,}h?\b|\b(?:he){2,}\b|\[(?:笑|捂脸|偷笑|呲牙|doge)\]|[\U0001F600-\U0001F64F\U0001F923\U0001F602]")
_MARKS = re.compile(r"[\W_]+")
_TAG = re.compile(r"^\s*\[[^\]]{1,8}\]")
#: a bare answer: a negation, yes, or meh, with at most one more character (没去 / 没买) and particles
_BARE_ZH = re.compile(r"^(?:还|也|都|倒|其实)?(?:没|没有|没呢|没啥|没什么|不|不是|不会|不用|算了|随便|一般般?|还好|还行|就那样|是的?|对|嗯+|哦+)"
                      r"[\u4e00-\u9fff]?(?:啦|呀|啊|吧|呢|哦|嘛|了|哇|耶|哈)*$")
_BARE_EN = frozenset(word_list("ok okay k no nope nah yeah yes yep yup ya sure not really i guess maybe idk dunno same fine kinda "
                     "sorta whatever true meh eh well oh ah um uh hmm just nothing much"))
MAX_CHARS = 24
#: yes, OK, got it, in Mandarin and the dialects (中 in 河南话, 要得 in 四川话, 得啦 in 粤语, 知啦 in 闽南话)
_OK_WORDS = frozenset(word_list("好 好的 好滴 好嘞 好啦 好吧 好嘛 行 行吧 中 对 是 嗯 哦 要得 得 得啦 晓得 晓得了 知道 知道了 知道啦 "
                                "知了 知啦 收到 明白 懂 可以 没问题 OK ok 係 系 冇问题 得嘞 妥 妥了 记住了 记得 晓得啦"))
#: an answer said over and over: one of those, three times or more if it is one character (行行行, 中中中), twice if
#: longer (好的好的, 得啦得啦, 晓得了晓得了); "我我我" (me!) or "冲冲冲" is no answer, a noun doubled (妈妈) none
_SAID_OVER = re.compile(r"^(?:(?P<one>[\u4e00-\u9fff])(?P=one){2,}|(?P<word>[\u4e00-\u9fff]{2,3})(?P=word)+)$")
#: … beside which a short piece or two says no more ("中中中 得劲", "得啦得啦 瞓觉先", "好的好的 谢谢老师")
_BESIDE_CHARS = 4


def _said_over(piece: str) -> bool:
    m = _SAID_OVER.match(piece)
    return m is not None and (m.group("one") or m.group("word")) in _OK_WORDS


def is_filler(text: str) -> bool:
    """A bare no / yes / meh reply, laughing or not, with nothing else said."""
    norm = simplified(unicodedata.normalize("NFKC", text)).strip()
    norm = _TAG.sub("", norm).strip() or norm  # ([语音转文字] before words says how they came, not what)
    if not norm or len(norm) > MAX_CHARS:
        return False
    rest = _MARKS.sub(" ", _LAUGH.sub(" ", norm)).strip()
    laughed = rest != _MARKS.sub(" ", norm).strip()
    if not rest:
        return laughed
    if re.search(r"[\u4e00-\u9fff]", rest):
        pieces = rest.split()
        if any(_said_over(p) for p in pieces) and len(pieces) <= 3 and not re.search(r"\d", rest) \
                and all(_said_over(p) or len(p) <= _BESIDE_CHARS for p in pieces):
            return True
        return all(_BARE_ZH.match(p) or is_smalltalk(p) for p in pieces) and len("".join(pieces)) <= 4 + 2 * laughed
    words = rest.lower().split()
    return len(words) <= 5 and all(w in _BARE_EN for w in words)
