"""The earlier turn a change of state is about, found by meaning (SPEC §2.8).

A change names its topic in words the rules may not share with the turn that told the old state:
"自己喺西营盘租咗间劏房" before "决定搬返大围屋企住", "my flat is a 4th floor walk-up in Graça" before "MOVED.
ground floor in Campo de Ourique", "我喺中环一间 audit firm 做 senior associate" before "升了做 manager 啦". What
such a turn and the change share is their topic, which their embeddings see: among the speaker's earlier turns,
the one closest to the change, when it stands clearly above the rest of them, told the state the change ends.

Only a turn that states something of the user's (not another's, not a question, not a change or plan itself,
not a value of another family) qualifies. The caller marks it outdated: shown as past, not as current.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Mapping, Sequence

import numpy as np

from jiyi.read.noise import ZH_STOP
from jiyi.records import MemoryRecord
from jiyi.text import qualifiers, subjects, topics, zh
from jiyi.text.dialect import standard_zh
from jiyi.text.entities import find_entities
from jiyi.text.fillers import is_filler
from jiyi.text.language import detect_language
from jiyi.text.person import of_speaker
from jiyi.text.script import simplified
from jiyi.text.turn_topics import turn_families

log = logging.getLogger("jiyi.write.like_turns")

#: how far above the mean of the speaker's earlier turns (in standard deviations) the closest one must stand
LIKE_Z = 1.5
#: at least this many earlier turns to compare with (fewer tell nothing of what is usual)
MIN_TURNS = 4
#: at most this many turns marked per change
MOST = 2
#: a turn this short says too little to be a state ("嗯嗯", "好的")
MIN_CHARS = 6


def like_turns(families: Sequence[str], vec: np.ndarray, turns: Sequence[MemoryRecord],
               vectors: Mapping[str, np.ndarray], value: Sequence[str] = (), said: str = "",
               unnamed: bool = False) -> list[MemoryRecord]:
    """The turns of ``turns`` (the speaker's earlier ones) that tell the state a change of ``families`` ends:
    the closest to ``vec`` (the change's vector) when it stands :data:`LIKE_Z` deviations above the mean, and
    a second as close by the same measure. ``value`` is the new value the change names: a turn saying it stays.
    ``said`` is the change as said: a turn must name the family's thing or share a name with it (vectors of
    two turns alike in shape, "多益成績出來了 880！！" and "奔雲賣掉了 八千", are not one topic). ``unnamed``: the
    change goes to a value it does not parse ("got the keys!! subiaco"); a name shared with it may be the new
    value ("subiaco or leederville?"), so only a turn naming the family's thing qualifies."""
    have = [t for t in turns if t.id in vectors]
    if len(have) < MIN_TURNS:
        return []
    sims = np.array([float(np.dot(vectors[t.id], vec)) for t in have])
    mean, sd = float(sims.mean()), float(sims.std())
    if sd <= 1e-6:
        return []
    order = np.argsort(-sims)
    out: list[MemoryRecord] = []
    for i in order[:MOST]:
        z = (sims[i] - mean) / sd
        if z < LIKE_Z:
            break
        turn = have[int(i)]
        shared = bool(said) and bool(names(turn.content) & names(said))
        # a name shared with a change going somewhere unnamed may be that new place: then it counts against
        about = (_names_family(turn.content, families) and not shared) if unnamed \
            else (shared or _names_family(turn.content, families))
        if about and _states_it(turn, families, value):
            log.debug("turn %r like the change (z %.2f)", turn.content[:60], z)
            out.append(turn)
    return out


def _names_family(text: str, families: Sequence[str]) -> bool:
    """Does the turn ``text`` name a thing of ``families`` (住, 公司, flat, car…)? (Or else it must share a name
    with the change, 西营盘, 奔雲, Graça: numbers are no names, two turns may share a price by chance.)"""
    lang = detect_language(text)
    read = standard_zh(text) if lang == "zh" else text
    return any(topics.cue_of(f, read, lang) for f in families)


#: parts of speech of a two-character word that name nothing (今天, 每天, 这样, 一直, 好吃…)
_NAMING_NOTHING = ("t", "r", "d", "m", "q", "p", "c", "u", "y", "e", "o", "f", "a", "v", "l")


def names(text: str) -> set[str]:
    """The names in ``text``: capitalised names and codes (:func:`find_entities`), and for Chinese each two
    characters in a row that are no grammar word and no word naming nothing (an unknown name like 奔雲 is cut
    into characters by any dictionary; its pairs are what two turns share)."""
    names = {e.lower() for e in find_entities(text, detect_language(text)) if not e.isdigit()}
    for run in _HAN_RUN.findall(standard_zh(text)):
        for i in range(len(run) - 1):
            pair = run[i:i + 2]
            if ZH_STOP.isdisjoint(pair) and not _names_nothing(pair):
                names.add(pair)
    return names


def _names_nothing(pair: str) -> bool:
    words = zh.pos_tags(pair)
    return len(words) == 1 and words[0][1].startswith(_NAMING_NOTHING)


#: options weighed, not a state: "subiaco or leederville", 鼓楼或者仓山
_OPTIONS = re.compile(r"(?i)\w\s+or\s+\w|或者")
_HAN_RUN = re.compile(r"[\u4e00-\u9fff]{2,}")


def states_a_thing(turn: MemoryRecord) -> bool:
    """Does the speaker's ``turn`` state a standing thing of theirs of no single-valued family (a routine, a
    place they go, a habit): not a question, a plan, a change, someone else's?"""
    return _states_it(turn, (), ())


def states_any(turn: MemoryRecord) -> bool:
    """Does the speaker's ``turn`` state a standing thing of theirs, of any family or none?"""
    return _states_it(turn, (*topics.SINGLE, *topics.OWNED), ())


def _states_it(turn: MemoryRecord, families: Sequence[str], value: Sequence[str]) -> bool:
    """Does the speaker's ``turn`` state a standing thing of theirs that a change of ``families`` may end?"""
    text = simplified(turn.content.strip())  # (text/script.py)
    if turn.metadata.get("smalltalk") or is_filler(text) or len(text) < MIN_CHARS or text.endswith(("?", "？", "吗")):
        return False
    low = text.lower()
    if any(len(v) >= 2 and simplified(v).lower() in low for v in value):
        return False  # it says the new value: "厦门那边的房子看好了"
    lang = detect_language(text)
    if topics.change_of(text, lang) is not None or qualifiers.hedged(text, lang) or _OPTIONS.search(text):
        return False  # a change or a plan of its own is read by the rules that know it; options are no state
    said = of_speaker(text, lang)  # "兄弟 我跑外卖的": 兄弟 is spoken to
    if subjects.someone_elses(said, lang):
        return False
    named = turn_families(text, lang)
    return not named or bool(named & set(families))
