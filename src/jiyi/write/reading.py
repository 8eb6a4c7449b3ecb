"""A change kept in the user's own words says, in plain words too, what the engine read it as.

"Rafe and User are done", "煤球走了", "那辆车出给车商了": the words are the user's, and out of their
conversation they are unclear (done with what? gone where?). A memory that the engine keeps
*because* it read a change (a breakup, a job left, a car sold, a pet gone, a move, a
wedding) carries that reading after the words, unless the words already say it:

- "User: Rafe and User are done" → "User: Rafe and User are done (broke up; no longer together)"
- "用户：煤球走了" → "用户：煤球走了（已不再陪伴用户）"
- "用户跟周屿掰了" → "用户跟周屿掰了（不再是伴侣）": an ending says the one it ends is no longer so
- "User quit smoking" → "User quit smoking (no longer: smoking)", "用户：轻断食那玩意儿用户不搞了" →
  "…（已不再继续）": a habit, a diet or a study given up, by its word when the words name it

A bot's model reads what the memory means; search finds it by either wording. The reading is
added once the change is resolved (write/ingest.py), so that what resolves it reads the words alone.
"""

from __future__ import annotations

import re

from jiyi.text.ended import ended_terms
from jiyi.text.qualifiers import NOW_LEAD
from jiyi.write.resolve import as_user

#: (change class, family) → (zh reading, en reading, words that already say it)
_READINGS: dict[tuple[str, str], tuple[str, str, re.Pattern[str]]] = {
    ("end", "partner"): ("分手了", "broke up", re.compile(r"(?i)分手|分了|离婚|掰了|散了|吹了|前任|前男友|前女友|"
                                                         r"broke\s+up|split|divorc|\bex\b|dumped")),
    ("leave", "employer"): ("离职了", "left the job", re.compile(r"(?i)辞职|离职|被裁|裁员|不干了|走人|quit|left|laid\s+off|"
                                                               r"fired|resign|let\s+go")),
    ("sell", "vehicle"): ("卖掉了", "sold", re.compile(r"(?i)卖|出手|转|过户|退|闲鱼|咸鱼|sold|sell|refund|cancel|traded")),
    ("lose", "pet"): ("", "", re.compile(r"(?i)去世|死|病逝|送人|送走|rehomed|died|passed|put\s+down|gave\s+away")),
    ("move", "residence"): ("搬家了", "moved", re.compile(r"(?i)搬|moved|moving|relocat")),
    ("marry", "partner"): ("结婚了", "got married", re.compile(r"(?i)结婚|领证|married|wedding|婚礼")),
}
#: the families a stop gives up (its verb says the stop: 戒了, 不搞了, quit); only what it ends is read (:func:`_stopped`)
_STOPPED = frozenset({"habit", "diet", "pursuit"})
#: what an ending leaves no longer so, in plain words (the one it ends is not current: a bot must not ask after
#: the ex, the old job, the car or the pet as if they were), and the words that already say so
_NO_LONGER: dict[tuple[str, str], tuple[str, str]] = {
    ("end", "partner"): ("不再是伴侣", "no longer together"),
    ("leave", "employer"): ("不再在那里工作", "no longer works there"),
    ("sell", "vehicle"): ("不再拥有", "no longer owned"),
    ("lose", "pet"): ("已不再陪伴用户", "no longer with the user"),
}
#: the user as a memory's subject, before the words of what they gave up
_SUBJECT = re.compile(r"^(?:用户[：:]?|User:?\s+)")


def _stopped(content: str, lang: str, speaker: str | None = None) -> tuple[str, str]:
    """What a habit, a diet or a pursuit given up leaves no longer so: the thing by its word when the words
    name it ("User quit smoking" → no longer: smoking), or that it is not kept up. The speaker's name before
    it is its subject, never the thing ("伟哥戒了烟" → 烟)."""
    terms = ended_terms(_SUBJECT.sub("", as_user(content, speaker, lang)), lang)
    if terms:
        return f"不再：{terms[0]}", f"no longer: {terms[0]}"
    return "已不再继续", "no longer doing it"


#: where a change's statement goes on to how things stand now ("辞职了，现在自己在网上卖干花", "sold it, now User bikes")
_NOW_AFTER = re.compile(rf"[，,]\s*(?={NOW_LEAD})")
_SAYS_NO_LONGER = re.compile(r"(?i)不再|已经不|不(?:碰|喝|抽|吃|玩)[^，,。]{0,6}了|no\s+longer|not\s+any\s*more|\bformer\b|\bex-")


def says_no_longer(content: str) -> bool:
    """Do ``content``'s own words say something is no longer so (不再, 早不碰…了, "no longer", "my ex-")?"""
    return _SAYS_NO_LONGER.search(content) is not None


def reading(content: str, cls: str, family: str, lang: str, speaker: str | None = None) -> str:
    """``content`` with what its change means after it, where its words do not say it already: the change
    ("done" → broke up) and, for an ending, that what it ends is no longer so."""
    stopped = cls == "stop" and family in _STOPPED
    found = _READINGS.get((cls, family))
    if found is None and not stopped:
        return content
    said = "" if found is None else found[0] if lang == "zh" else found[1]
    parts = [] if found is None or not said or found[2].search(content) else [said]
    no_longer = _stopped(content, lang, speaker) if stopped else _NO_LONGER.get((cls, family))
    if no_longer is not None and not says_no_longer(content):
        parts.append(no_longer[0] if lang == "zh" else no_longer[1])
    if not parts:
        return content
    said_now = _NOW_AFTER.search(content)  # the reading stands after the change, before how things stand now
    head, tail = (content[:said_now.start()], content[said_now.start():]) if said_now else (content, "")
    return (f"{head}（{'，'.join(parts)}）" if lang == "zh" else f"{head} ({'; '.join(parts)})") + tail
