"""A habit replaced, not given up: what a turn that moves or swaps a routine says the old one was about.

"夜班调到周五了" after "我每周三晚上上夜班"; "最近改喝燕麦拿铁了 美式太苦" after "咖啡我只喝美式"; "swim moved to
Thursdays now", "moved my stream over to YouTube", "switched to oat flat whites, black coffee was wrecking my
stomach". Nothing ends, so :mod:`jiyi.text.ended` finds no word of ending; yet the old routine no longer holds.
:func:`replaced_terms` gives the words the swap is about (夜班, 美式, swim, stream): the speaker's earlier
turns and memories that say them are the old routine (write/endings.py marks them past), while the new
statement stands as it was said.

A swap of residence ("I moved to Leeds", 搬到) is a move (:mod:`jiyi.text.topics`), and a wish, a question or
someone else's swap ("想改成周五", "did you switch to oat milk?", "my sister switched to decaf") is none.
"""

from __future__ import annotations

import re

from jiyi.text.consumption import consumed_words
from jiyi.text.qualifiers import hedged, told_long_ago
from jiyi.text.turn_topics import TURN_CLAUSE
from jiyi.text.wordlists import words

_P = re.compile

#: a routine moved or swapped: 调到周五, 改喝燕麦拿铁, 换成游泳, 挪到周六; "moved to Thursdays", "switched to oat"
_ZH_SWAP = _P(r"(?:改|换|调|挪|转)(?:成|到|去|为|喝|吃|用|玩|练|看)(?!手机|衣服|座位|房间)")
_EN_SWAP = _P(r"(?i)\bswitched\s+(?:over\s+)?(?:to|from)\b|\bswapped\s+(?:\w+\s+){0,3}?(?:for|to)\b|"
              r"(?<![\w'])(?!(?:i|we|i've|we've|they|he|she|i'm|we're|im|you|you're)\b)[a-z]+\s+(?:got\s+|was\s+|has\s+been\s+|is\s+)?"
              r"(?:moved|moving)\s+to\b|"
              r"\bmoved\s+(?:my|our|the)\s+\w+(?:\s+\w+)?\s+(?:over\s+)?to\b|\bchanged\s+(?:\w+\s+){0,2}?to\b")
#: a value raised or cut to a new one: 社费调涨到250, 房租涨到3200, "rent went up to 2400", "fees raised to $60";
#: the thing before it is what the old value was of
_VALUE_MOVED = {
    "zh": _P(r"(?:[调調][涨漲降]|[上下][调調]|[涨漲][价價]|[降][价價]|[涨漲降加减減增升]|增加|减少|減少|提高|降低)(?:到|至|成|为|為)"
             r"(?=\s*(?:每[天日周次顿]|一[天日周次顿])?\s*[\d一二两兩三四五六七八九十百千万萬几幾半])"),
    "en": _P(r"(?i)\b(?:(?:went|gone|goes|going)\s+(?:up|down|back)|raised|increased|bumped(?:\s+up)?|upped|hiked|cut|"
             r"dropped|lowered|reduced|(?:back\s+)?down|back)"
             r"\s+to\b(?=\s*[$€£¥]?\d)"),
}
#: someone else's swap, or the speaker's wish
_ZH_NOT_MINE = _P(r"他|她|妈|爸|姐|妹|哥|弟|朋友|同事|老公|老婆|对象|想|打算|要不要|准备")
_EN_NOT_MINE = _P(r"(?i)\b(?:my\s+(?:mom|dad|sister|brother|friend|wife|husband|partner|boss|roommate)|he|she|they)\s+"
                  r"(?:\w+\s+)?(?:switched|swapped|moved|moving|changed)\b|\b(?:thinking\s+(?:of|about)|might|maybe|want\s+to|"
                  r"going\s+to|gonna|planning\s+to)\b")
#: words that tell when, not what: a routine moved to another day keeps its own word
_EN_WHEN = words("monday mondays tuesday tuesdays wednesday wednesdays thursday thursdays friday fridays saturday "
                 "saturdays sunday sundays morning mornings evening evenings night nights weekend weekends week "
                 "today tonight tomorrow now later earlier every over stomach wrecking")
_EN_GENERIC = words("that this these those with from into about just really also then them they their some like "
                    "been have were what when where which while because since again still even only ever here there "
                    "user user's switched swapped moved moving changed lol haha honestly finally actually heads same time "
                    "said says told doc doctor")
_ZH_WORD_TAGS = frozenset({"n", "nz", "vn", "ORG", "nw"})


def replaced_terms(text: str, lang: str) -> tuple[str, ...]:
    """The words of the routine a turn of the speaker's says was moved or swapped, or ()."""
    clauses = [c.strip() for c in TURN_CLAUSE.split(text) if c.strip()]
    for i, clause in enumerate(clauses):
        if (value := _VALUE_MOVED.get(lang, _VALUE_MOVED["en"]).search(clause)) is not None:
            if (_ZH_NOT_MINE if lang == "zh" else _EN_NOT_MINE).search(clause) or hedged(clause, lang):
                return ()
            before = clause[:value.start()]
            if lang == "zh" and "把" in before:  # 医生把氨氯地平加到一天一片: what 把 takes is what changed
                before = before[before.rindex("把") + 1:]
            named = _words(before, lang) or _words(clause[value.end():], lang)  # "back to 1 tablet a day": its unit
            return tuple(dict.fromkeys(named))
        m = (_ZH_SWAP if lang == "zh" else _EN_SWAP).search(clause)
        if m is None or re.search(r"[?？]", text[text.find(clause) + len(clause):][:2]):
            continue
        if _not_the_speakers_now(clause, m, lang):
            return ()
        # what came before the swap ("夜班调到", "moved my stream over to") and the next clause ("美式太苦") tell the
        # old routine; what follows the swap in its clause is the new one (调到周五, 改喝燕麦拿铁)
        old = clause[:m.start()] if lang == "zh" else clause[:m.end()]
        return tuple(dict.fromkeys(w for c in (old, *clauses[i + 1:i + 2]) for w in _words(c, lang)))
    return ()


def _not_the_speakers_now(clause: str, verb: re.Match[str], lang: str) -> bool:
    """Is the swap ``verb`` of ``clause`` someone else's (我妹改喝… / "my sister switched"), a wish or a plan, or
    long ago?"""
    mine = (_ZH_NOT_MINE if lang == "zh" else _EN_NOT_MINE).search(clause[:verb.start()] if lang == "zh" else clause)
    return bool(mine) or hedged(clause, lang) or told_long_ago(clause, lang)


def _words(clause: str, lang: str) -> list[str]:
    """The thing-words of a clause (nouns by the lexical analyser; English words of four letters or more)."""
    named = list(consumed_words(clause))  # 美式, 拿铁: what is drunk, however the analyser tags it
    if lang == "zh":
        from jiyi.text.lexical import tagged

        return named + [w for w, t in tagged(clause) if t in _ZH_WORD_TAGS and len(w) >= 2 and "用户" not in w]
    return named + [w.lower() for w in re.findall(r"[A-Za-z][A-Za-z']{3,}", clause)
            if w.lower() not in _EN_WHEN and w.lower() not in _EN_GENERIC]


#: a routine, a place or a time said to be moved or swapped, in more ways than :data:`_ZH_SWAP` names its
#: old thing by: 竞赛课挪了, 以后改一三五, 改到南门…, 时间调一下, "practice got rescheduled", "from now on it's…"
_ZH_MOVED = _P(r"(?:改|换|调|挪|转|变)(?:成|到|去|为|至)|(?<![空修])(?:改|调|挪)(?:了|一下|过了)(?![吗嘛])|"
               r"(?:以后|今后|现在|从今天起|从下周起|下周起|这周起)都?(?:改|换)(?!天)|"
               r"改(?=[一二三四五六日]|周|每|星期|礼拜|\d)|"
               # a price, a rate or a rent replaced: 腊肉涨价了 现在78一斤, 房租降了 (the number is the new one)
               r"(?:涨|降|加|减)(?:价|薪|租)(?:了)?|(?<![上下])(?:涨|降)了(?=[^，,。！？!?]{0,12}\d)|"
               # an amount raised or cut: 氨氯地平加到一天一片, 咖啡减成一天一杯, 提成涨到40%
               r"(?:加|减|增|涨|升|降|增加|减少|提高|降低)(?:到|至|成|为)(?=(?:每[天日周次顿]|一[天日周次顿])?[\d一二两三四五六七八九十百千万几半])")
_EN_MOVED = _P(r"(?i)\bswitched\b|\bswapped\b|\brescheduled\b|\bmoved\s+(?:\w+\s+){0,3}?to\b|\bchanged\s+(?:\w+\s+){0,2}?to\b|"
               r"\bfrom\s+now\s+on\b|\bgoing\s+forward\b|\bnow\s+(?:on|at|every)\b|\bis\s+now\b|"
               r"\b(?:raised|hiked|went\s+up|went\s+down|cut|dropped)\b(?=[^.!?]{0,30}\d)|"
               r"\b(?:increased|upped|bumped|reduced|lowered|(?:went\s+)?back)\s+to\b(?=\s*[$€£¥]?\d)")


def moved_or_swapped(text: str, lang: str) -> tuple[int, int] | None:
    """Where a turn of the speaker's says a routine, a place or a time of theirs was moved or swapped (the verb's
    span; what follows it in its clause is the new one), or None: no such verb, a question, a wish or a plan,
    long ago, or someone else's."""
    return _first_said(text, lang, _ZH_MOVED if lang == "zh" else _EN_MOVED)


def _first_said(text: str, lang: str, words: re.Pattern[str]) -> tuple[int, int] | None:
    """The span of ``words`` in the first clause of ``text`` that says them, unless that clause asks, wishes or
    plans, tells of long ago or of someone else (then None)."""
    for clause in (c.strip() for c in TURN_CLAUSE.split(text) if c.strip()):
        m = words.search(clause)
        if m is None:
            continue
        if re.search(r"[?？吗]\s*$", clause) or _not_the_speakers_now(clause, m, lang):
            return None
        at = text.find(clause)
        return at + m.start(), at + m.end()
    return None


#: a state said as what holds now, against what held before: 现在挂的是橙鸟的箱子, 不是以前那种三班了, 而家每朝打太极,
#: "these days I'm on nights", "now i'm doing deliveries". Weaker than a swap's verb: read only beside a turn it
#: stands out as alike to and shares a name with (write/rearranged.py)
_ZH_NOW = _P(r"不是以前|不像以前|(?:跟|和)以前不一样|不再是|(?:终于|再也|以后|现在|已经)不用(?:再)?|"
             r"(?:现在|如今|而家|目前|而今)(?:已经|都|全)?(?:改|换|转)?(?:是|係|成|(?:用|挂|跑|喝|开|播|玩|做|干|住|带|管|吃|坐|骑|练)"
             r"(?:的|嘅)是|只(?:喝|吃|用|跑|玩|做|练)|每(?:天|周|个?礼拜|个?星期|朝|晚)|一(?:天|周|个礼拜))")
_EN_NOW = _P(r"(?i)\b(?:i'?m|i\s+am|we'?re)\s+now\b|\bno\s+longer\s+have\s+to\b|"
             r"\bdon'?t\s+have\s+to\b(?=[^.!?]*\banymore\b)|\bnow\s+(?:i\s|i'm\b|we\s|it'?s\b|doing\b|working\b|living\b|"
             r"using\b|driving\b|riding\b|drinking\b)|\bthese\s+days\b|\bnowadays\b|\binstead\b")


def now_contrasted(text: str, lang: str) -> tuple[int, int] | None:
    """Where a turn of the speaker's says what holds now, in words that set it against before (the cue's span;
    what follows it in its clause is the new state), or None: no such words, a question, a wish or a plan, long
    ago, or someone else's."""
    return _first_said(text, lang, _ZH_NOW if lang == "zh" else _EN_NOW)
