"""Chinese with Latin words in it, read as one run of text: 我搬到 Brightwater 了 → 我搬到Brightwater了.

People who write Chinese beside English (overseas students, Hong Kong, Singapore, Malaysia, anyone naming an
app, a firm or a street) put spaces around Latin words, and often inside a name of several (Port Calder,
Halcyon Games). The rules read Chinese where a space cuts a clause, so "我住在 Port Calder" read the value as
nothing and "我在 Halcyon Games 上班" named no workplace. :func:`tight` gives the rules a reading where

- a space between a Chinese character and a Latin word or a number is gone (住在 Port → 住在Port);
- a space inside a name of capitalised words (Port Calder, St Anselm's, Flat 4B) or inside a short lowercase
  term set between Chinese words (做 senior associate) is :data:`JOINER`, so the name is one value.

Every character of the reading keeps the index of the character it stands for in the text as typed
(:class:`Reading`), so :func:`jiyi.text.script.restore` gives back what was typed, spaces included
(:func:`jiyi.text.script.rules_reading` reads traditional characters as simplified first).
A text without a Chinese character, or read as English, is left as it is.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from jiyi.text.language import detect_language

#: stands for a space inside a name in a reading; never stored (restore gives the space back)
JOINER = "\ue000"

_CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
_CJK_OR_STOP = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff，。！？；：、,.!?;:~～…）)】」]")
#: a Latin word, a number, or a word with digits in it (4B, C++, Anselm's, e-bike)
_TOKEN = r"[A-Za-z0-9][A-Za-z0-9'’&+#.\-]*"
_RUN = re.compile(rf"{_TOKEN}(?:[ \t\u3000]+{_TOKEN})*")
_NAME_WORD = re.compile(r"^(?:[A-Z][A-Za-z'’&+#.\-]*|[0-9]+[A-Za-z]+[A-Za-z0-9]*)$")
#: calendar and clock words: "Dec 9", "Friday 3pm" are read by the time parser, never one value
_CALENDAR = re.compile(r"(?i)^(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec|january|february|march|april|"
                       r"june|july|august|september|october|november|december|mon|tue|tues|wed|thu|thur|thurs|fri|sat|"
                       r"sun|monday|tuesday|wednesday|thursday|friday|saturday|sunday|am|pm|a\.m\.|p\.m\.|today|"
                       r"tonight|tomorrow|tmr|tmrw|yesterday|next|last|this|week|weekend|month|year|morning|"
                       r"afternoon|evening|night|noon|midnight|ago|later|[0-9][0-9:.\-]*(?:st|nd|rd|th|am|pm|h|hrs?|"
                       r"mins?|k|w)?)$")
_LATIN = re.compile(r"[A-Za-z0-9]")
_TOKEN_AT = re.compile(_TOKEN)
_TOKEN_BEFORE = re.compile(r"[A-Za-z0-9'’&+#.\-]+$")
_RUN_BEFORE = re.compile(rf"{_TOKEN}(?:[ \t\u3000]+{_TOKEN})*$")
#: lowercase terms of at most this many words, set between Chinese words, are one value (做 data analyst 的)
_TERM_WORDS = 3


@dataclass(frozen=True)
class Reading:
    """A text as the rules read it: ``text``, and for each of its characters the index in ``original``."""

    text: str
    original: str
    positions: tuple[int, ...]

    def span(self, start: int, end: int) -> str:
        """What ``text[start:end]`` stands for in the original (a joiner is its space again)."""
        if start >= end:
            return ""
        return self.original[self.positions[start]:self.positions[end - 1] + 1]


def tight(text: str) -> Reading:
    """The reading of ``text`` described in the module's docstring. A text read as English, though it has Chinese
    words in it ("also 我 quit 了 starbucks, now doing 花艺 at a studio"), keeps its spaces: the English rules
    read words by their edges."""
    if not _CJK.search(text) or detect_language(text) != "zh":
        return Reading(text, text, tuple(range(len(text))))
    joins: set[int] = set()  # start offsets of the spaces that become a joiner
    for run in _RUN.finditer(text):
        tokens = list(re.finditer(_TOKEN, run.group(0)))
        if len(tokens) < 2:
            continue
        base = run.start()
        words = [t.group(0) for t in tokens]
        gaps = [base + tokens[i].end() for i in range(len(tokens) - 1)]
        if _a_term(text, run, words):
            joins.update(gaps)
            continue
        for i, gap in enumerate(gaps):
            a, b = words[i], words[i + 1]
            if _NAME_WORD.match(a) and _NAME_WORD.match(b) and a[0].isalpha() \
                    and not _CALENDAR.match(a) and not _CALENDAR.match(b):
                joins.add(gap)
    out: list[str] = []
    pos: list[int] = []
    i = 0
    while i < len(text):
        ch = text[i]
        if ch in " \t\u3000":
            j = i
            while j < len(text) and text[j] in " \t\u3000":
                j += 1
            before, after = text[i - 1] if i else "", text[j] if j < len(text) else ""
            if i in joins:
                out.append(JOINER)
                pos.append(i)
            elif before and after and _drops(text, i, j):
                pass
            else:
                out.extend(text[i:j])
                pos.extend(range(i, j))
            i = j
            continue
        out.append(ch)
        pos.append(i)
        i += 1
    return Reading("".join(out), text, tuple(pos))


def _a_term(text: str, run: re.Match[str], words: list[str]) -> bool:
    """Is ``run`` a short lowercase term set between Chinese words ("一间 audit firm 做", "做 senior associate")?"""
    if len(words) > _TERM_WORDS or any(not w[0].isalpha() or _CALENDAR.match(w) for w in words):
        return False
    left = text[:run.start()].rstrip(" \t\u3000")
    right = text[run.end():].lstrip(" \t\u3000")
    return bool(left) and bool(_CJK.match(left[-1])) and (not right or bool(_CJK_OR_STOP.match(right[0])))


def _drops(text: str, i: int, j: int) -> bool:
    """Is the space ``text[i:j]`` between a Chinese character and a Latin word (either order), to be read as
    none? Not beside a number or a time word (the time parser reads "Dec 9 我…", "tomorrow 要…" by word edges), nor
    when the Latin words are typed against Chinese on their other side ("通知 YY太卡": YY is 太卡's)."""
    before, after = text[i - 1], text[j]
    if _CJK.match(before) and _LATIN.match(after):
        word = _TOKEN_AT.match(text, j)
        run = _RUN.match(text, j)
        glued = run is not None and run.end() < len(text) and bool(_CJK.match(text[run.end()]))
    elif _LATIN.match(before) and _CJK.match(after):
        word = _TOKEN_BEFORE.search(text, 0, i)
        run = _RUN_BEFORE.search(text, 0, i)
        glued = run is not None and run.start() > 0 and bool(_CJK.match(text[run.start() - 1]))
    else:
        return False
    # a word typed against the Chinese on its other side ("通知 YY太卡") is that side's: the space is a boundary
    return word is not None and not _CALENDAR.match(word.group(0)) and not glued

