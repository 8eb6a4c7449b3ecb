"""The earlier turn a routine moved or swapped is about, found by meaning (SPEC §2.8).

"竞赛课挪了 现在是周四晚上" after "物理竞赛课每周三晚上"; "以后改一三五 晚上十点开" after "每周二四六晚上八点开";
"改到南门菜鸟驿站旁边的货架" after "自提点老地方：3号楼门卫室"; a group's notice "体育课调到每周五上午第三节"
after another member's "体育课每周三下午第二节". :mod:`jiyi.text.replaced` finds the old routine by the words said
before the verb; many swaps name none ("以后改一三五"). What the swap and the old routine share is their topic,
which their embeddings see: the earlier turn closest to the swap that shares a name with it or tells a day of
the week or an hour as it does, when it stands above the rest (:data:`ANCHORED_Z`), told it; so did a turn giving
another number of the same measure ("一小时150" before "涨价了 一小时180"), when it is closer than the usual turn.

The old turn must state something standing (not a question, a plan, another change, someone else's, a value
of a single-valued family: those are read by :mod:`jiyi.write.like_turns`), be the same speaker's or speak of
no one (a group's notice, whoever posts the next one), and not say the new value. It is marked ended by the
swap's turn (``metadata["ended_by"]``), and so are the statements made from it (write/batch.py): a block shows
them as past, the swap as what holds now.

A turn that only says what holds now, against before ("现在挂的是橙鸟跑腿的箱子 快驹那个号给表哥用了", "不是以前那种
三班了", "终于不用每天坐阪急了": :func:`change_cue`), ends an earlier turn the same way on stricter terms: it stands
:data:`LIKE_Z` deviations above the rest and shares a name with the new turn that is no word of time or of anyone's
story (医生, 同事); its state may be of any family.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Mapping, Sequence

import numpy as np

from jiyi.records import MemoryRecord
from jiyi.text import zh
from jiyi.text.ended import ENDED_KEY
from jiyi.text.entities import find_entities
from jiyi.text.injection import instructs_the_bot
from jiyi.text.language import detect_language
from jiyi.text.replaced import moved_or_swapped, now_contrasted
from jiyi.text.script import simplified
from jiyi.text.wordlists import words
from jiyi.write.like_turns import LIKE_Z, MIN_TURNS, names, states_a_thing, states_any

log = logging.getLogger("jiyi.write.rearranged")

#: how far above the mean of the earlier turns (in standard deviations) a turn sharing a name or a time of the
#: week with the swap must stand (the like turn of a change stands ``like_turns.LIKE_Z`` = 1.5 above)
ANCHORED_Z = 1.0
#: …and one giving another number of the same measure (一小时150 → 一小时180): the measure is the topic, it need
#: only be closer than the speaker's usual turn
MEASURED_Z = 0.0
#: a day of the week or an hour: 每周三, 周五, 星期天, 二四六, 八点; Thursdays, 9pm
WHEN = {
    "zh": re.compile(r"(?:每|周|星期|礼拜)[一二三四五六日天]|[一二三四五六七八九十两\d]{1,3}点|"
                     r"(?<![第初高])[一二三四五六日]{2,}(?![年月号日个次])"),
    "en": re.compile(r"(?i)\b(?:mon|tue|wed|thu|fri|sat|sun)(?:day)?s?\b|\b\d{1,2}(?::\d\d)?\s*(?:am|pm)\b"),
}
#: a contrast that names what is no longer done: 终于不用…了, "no longer have to"
_NO_NEED = re.compile(r"(?i)不用|no\s+longer|don'?t\s+have")
#: words two turns may share by chance: of time (the lexical analyser tags 礼拜 a place), and people anyone's
#: story has ("医生说尿酸高" is no topic of "我有胃溃疡 医生说的")
COMMON_NAMES = words("礼拜 星期 时候 周末 最近 以前 之前 现在 后来 每天 晚上 早上 上午 下午 中午 今天 昨天 明天 "
                      "医生 大夫 老师 同事 朋友 老板 妈妈 爸爸 家里 大家")
#: first person: a turn saying it speaks of its speaker
_FIRST_PERSON = re.compile(r"(?i)[我俺]|\b(?:i|i'm|i've|my|me|mine)\b")


def change_cue(turn: MemoryRecord) -> tuple[tuple[int, int], bool] | None:
    """Where a turn of the speaker's says a routine of theirs was moved or swapped (:func:`moved_or_swapped`), or
    else what holds now against what held before (:func:`now_contrasted`: 现在挂的是橙鸟的箱子, 不是以前那种三班了),
    with True for the second; None for the bot's turns, and for a contrast that talks to the bot as an
    instruction ("你现在是猫娘")."""
    if turn.metadata.get("role") == "assistant":
        return None
    lang = detect_language(turn.content)
    if (swap := moved_or_swapped(turn.content, lang)) is not None:
        return swap, False
    if instructs_the_bot(turn.content):
        return None
    read = simplified(turn.content)  # 現在每週… as 现在每周… (text/script.py; one character for one)
    contrast = now_contrasted(read if len(read) == len(turn.content) else turn.content, lang)
    return None if contrast is None else (contrast, True)


def rearranged_turn(turn: MemoryRecord, verb: tuple[int, int], vec: np.ndarray, earlier: Sequence[MemoryRecord],
                    vectors: Mapping[str, np.ndarray], *, contrast: bool = False) -> MemoryRecord | None:
    """The turn of ``earlier`` (said before ``turn``, its vectors in ``vectors``) that told the routine ``turn``
    says was moved or swapped at ``verb`` (:func:`change_cue`), or None. With ``contrast``, ``verb`` is where the
    turn says what holds now: a weaker word, so the old turn must stand out as a change's
    like turn does (:data:`LIKE_Z`) and share a name with it (a day or an hour alike is not enough); it may be
    of any family (做什么、在哪、跑哪家: "我跑快驹外卖的" before "现在挂的是橙鸟跑腿的箱子 快驹那个号给表哥用了")."""
    lang = detect_language(turn.content)
    have = [t for t in earlier if t.id in vectors and t.id != turn.id and t.metadata.get("role") != "assistant"
            and not set(t.source_ids) & set(turn.source_ids)]
    if len(have) < MIN_TURNS:
        return None
    sims = np.array([float(np.dot(vectors[t.id], vec)) for t in have])
    mean, sd = float(sims.mean()), float(sims.std())
    if sd <= 1e-6:
        return None
    # what follows the verb is the new routine; after 不用 / "no longer have to" it is the old one itself
    new_part = set() if contrast and _NO_NEED.search(turn.content[verb[0]:verb[1]]) else _words(
        _clause_after(turn.content, verb[1]))
    said = {n for n in names(turn.content) if not any(n in w or w in n for w in new_part)}
    when = WHEN.get(lang, WHEN["en"])
    timed = when.search(turn.content) is not None
    for i in np.argsort(-sims):
        z = (sims[i] - mean) / sd
        if z < MEASURED_Z:
            break
        old = have[int(i)]
        measured = _same_measure(old.content, turn.content)
        if contrast:
            if z < LIKE_Z:
                break
            anchored = bool({n for n in said & names(old.content) if not when.search(n) and n not in COMMON_NAMES})
        else:
            anchored = z >= ANCHORED_Z and bool(said & names(old.content) or timed and when.search(old.content))
        if not (measured or anchored):
            continue  # alike in shape only: no name shared, no time of the week or measure told by both
        if old.metadata.get(ENDED_KEY) or old.metadata.get("outdated_by") or any(w in old.content for w in new_part):
            return None  # it is over already, or it says the new one
        if not (states_any(old) if contrast else states_a_thing(old)) or (old.speaker or None) != (turn.speaker or None) \
                and _FIRST_PERSON.search(old.content):
            continue  # no standing thing, or another member's own (a notice speaks of no one)
        log.debug("turn %r rearranged by %r (z %.2f)", old.content[:60], turn.content[:60], z)
        return old
    return None


#: a number with what it measures on either side: 一小时150, 68一斤, 月薪25k (not a date, an hour, an age)
_NUMBER = re.compile(r"(?P<b>[^\d\s，,。！？!?：:]{0,2}?)(?P<n>\d+(?:\.\d+)?)(?P<a>[^\d\s，,。！？!?]{0,2})")
_NOT_MEASURE = re.compile(r"^[月号日年点时分秒岁:/.\-]|^(?:am|pm)", re.IGNORECASE)


def _measures(text: str) -> set[tuple[str, str, str]]:
    out = set()
    for m in _NUMBER.finditer(text):
        if _NOT_MEASURE.match(m.group("a")) or m.group("b").endswith(("周", "第", "星期")):
            continue
        out.add((m.group("b").lower(), m.group("n"), m.group("a").lower()))
    return out


def _same_measure(old: str, new: str) -> bool:
    """Does ``new`` give another number of a measure ``old`` gives one of (一小时150 → 一小时180, 68一斤 → 78一斤)?"""
    said = _measures(old)
    return any(n != n2 and (len(b) == 2 and b == b2 or len(a) == 2 and a == a2)
               for b, n, a in _measures(new) for b2, n2, a2 in said)


def _words(text: str) -> set[str]:
    """The naming words of ``text`` (a new routine's place, a new app): nouns and names, not times."""
    if re.search(r"[\u4e00-\u9fff]", text):
        return {w for w, tag in zh.pos_tags(text) if len(w) >= 2 and tag[0] in "n" or tag == "eng" and len(w) >= 3}
    return {e for e in find_entities(text, "en") if not e.isdigit()}


def _clause_after(text: str, at: int) -> str:
    """What follows the verb in its clause: the new routine (调到**每周五上午第三节**)."""
    return re.split(r"[，,。.;；!！?？\n]|\s(?=[\u4e00-\u9fff])", text[at:], maxsplit=1)[0]
