"""Turns that carry nothing for a prompt: small talk and the bot's pleasantries.

The write path stores small-talk turns with importance ≤ 0.1 (and skips the plainest);
stores written before that, and the bot's courtesies ("你好！有什么可以帮你？", "很高兴认识
你，小明！", "恭喜乔迁！", "Glad to help!"), are caught here when the block is built. A turn
is noise when every clause of it is small talk (:func:`jiyi.text.smalltalk.is_smalltalk`)
or a courtesy formula; the bot's own clauses also count as noise when they are too short
to state anything (a few characters of praise, "杭州很美").
"""

from __future__ import annotations

import re

from jiyi.text.smalltalk import is_smalltalk

_CLAUSES = re.compile(r"[，,。.！!？?；;：:~～…\n]+")
_COURTESY = re.compile(
    r"^(?:"
    # Chinese: greetings, offers to help, congratulations, wishes, thanks, praise
    r"(?:你好|您好|嗨|哈喽)\S{0,3}|有什么(?:可以|能|需要)?(?:帮|帮助|为)\S*|(?:请问)?(?:还)?有什么(?:事|需要|问题)\S*"
    r"|很高兴(?:认识|见到|为|帮|和)\S*|(?:恭喜|祝贺|祝你|祝您|祝)\S*|(?:谢谢|感谢|多谢)\S*|不客气\S*|不用谢\S*"
    r"|(?:加油|棒棒哒|真棒|太棒了|好厉害|真厉害|好的呢|好嘞|没问题|随时\S*|欢迎\S*|希望\S*(?:愉快|开心|顺利)\S*)"
    r"|(?:听起来|看起来)(?:不错|很棒|很好|很有意思|真好)\S{0,3}|哈+\S{0,3}|嘿嘿\S{0,3}"
    # English
    r"|(?:hi|hello|hey)\b(?:\s+\S+){0,1}|(?:how|what) can i (?:help|do)\b(?:\s+\S+){0,5}|(?:is there )?anything else\b(?:\s+\S+){0,5}"
    r"|(?:nice|glad|great|happy) to (?:meet|see|hear|help)\b(?:\s+\S+){0,5}|congrat\w*\b(?:\s+\S+){0,5}|(?:thank|thanks)\b(?:\s+\S+){0,5}"
    r"|you'?re welcome\b(?:\s+\S+){0,5}|(?:have|enjoy) (?:a|your) (?:nice|good|great|lovely)\b(?:\s+\S+){0,5}|good luck\b(?:\s+\S+){0,5}"
    r"|sounds (?:great|good|fun|lovely|nice)\b(?:\s+\S+){0,5}|that(?:'?s| is) (?:great|awesome|wonderful|nice|cool|amazing|exciting)\b(?:\s+\S+){0,5}"
    r"|(?:i'?m )?(?:always )?here (?:to help|for you)\b(?:\s+\S+){0,5}|no problem\b(?:\s+\S+){0,5}|my pleasure\b(?:\s+\S+){0,5}"
    r")$",
    re.IGNORECASE,
)
_CJK = re.compile(r"[\u3400-\u9fff]")
_WORD = re.compile(r"[A-Za-z0-9]+")
#: A clause of the bot's shorter than this (CJK characters, or words) states nothing on its own.
SHORT_CJK, SHORT_WORDS = 6, 3


def is_noise(text: str, *, assistant: bool) -> bool:
    """True when every clause of ``text`` is small talk or a courtesy (``assistant``: or too short)."""
    if is_smalltalk(text):
        return True
    clauses = [c.strip() for c in _CLAUSES.split(text) if c.strip()]
    return bool(clauses) and all(_empty_clause(c, assistant) for c in clauses)


def _empty_clause(clause: str, assistant: bool) -> bool:
    if is_smalltalk(clause) or _COURTESY.match(clause):
        return True
    if not assistant:
        return False
    return len(_CJK.findall(clause)) < SHORT_CJK and len(_WORD.findall(clause)) < SHORT_WORDS \
        and not re.search(r"\d", clause)
