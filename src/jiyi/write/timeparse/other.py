"""Days named by their distance from today in the other languages users mix into Chinese and English chat.

"Check-up 是 lusa", "Termin ist übermorgen", "しあさって断水", "มะรืนนี้ไปดูห้อง", "sa makalawa na yung dinner", "내일
병원 가요": a bot's users write the language of where they live. Each word names one day, counted from the day it
was said (the speaker's, jiyi.clock.speaker_zone). The words are CLDR's relative-day names (as dateparser ships them,
``date_translation_data``: "in 1 day", "1 day ago", …) for the languages of :data:`RELATIVE_DAYS`, with the words for
two and three days out that CLDR leaves out (Malay and Indonesian lusa, Tagalog makalawa, Thai มะรืน, Korean 모레 /
글피, Japanese あさって / しあさって, Vietnamese ngày kia). Left out on purpose: a word that is also a common word of
another language in the table (French "hier" is German "here"), Hindi कल (yesterday and tomorrow alike), and the
languages whose CLDR words are short words elsewhere ("pan", "wit", "moi").
"""

from __future__ import annotations

import re
from datetime import timedelta

from jiyi.write.timeparse.spans import Ctx, Res, Rule, day_span

#: language → (offset in days → words), lower case
RELATIVE_DAYS: dict[str, dict[int, tuple[str, ...]]] = {
    "ja": {-2: ("おととい", "一昨日"), -1: ("きのう",), 1: ("あした",), 2: ("あさって", "明後日"),
           3: ("しあさって", "明々後日", "明明後日")},
    "ko": {-2: ("그저께",), -1: ("어제",), 1: ("내일",), 2: ("모레",), 3: ("글피",)},
    "th": {-2: ("เมื่อวานซืน",), -1: ("เมื่อวาน",), 1: ("พรุ่งนี้",), 2: ("มะรืนนี้", "มะรืน")},
    "vi": {-2: ("hôm kia",), -1: ("hôm qua",), 1: ("ngày mai",), 2: ("ngày kia",)},
    "ms": {-1: ("semalam",), 1: ("esok",), 2: ("lusa",)},
    "id": {-2: ("kemarin lusa",), -1: ("kemarin",), 1: ("besok",), 2: ("lusa",)},
    "fil": {-1: ("kahapon",), 1: ("bukas",), 2: ("makalawa",)},
    "de": {-2: ("vorgestern",), -1: ("gestern",), 1: ("morgen",), 2: ("übermorgen",)},
    "nl": {-2: ("eergisteren",), -1: ("gisteren",), 1: ("morgen",), 2: ("overmorgen",)},
    "fr": {-2: ("avant-hier",), 1: ("demain",), 2: ("après-demain",)},
    "es": {-2: ("anteayer",), -1: ("ayer",), 1: ("mañana",), 2: ("pasado mañana",)},
    "pt": {-2: ("anteontem",), -1: ("ontem",), 1: ("amanhã",), 2: ("depois de amanhã",)},
    "it": {-2: ("l'altro ieri", "altroieri"), -1: ("ieri",), 1: ("domani",), 2: ("dopodomani",)},
    "ru": {-2: ("позавчера",), -1: ("вчера",), 1: ("завтра",), 2: ("послезавтра",)},
    "tr": {-1: ("dün",), 1: ("yarın",)},
}

_OFFSETS: dict[str, int] = {w: off for days in RELATIVE_DAYS.values() for off, ws in days.items() for w in ws}
#: a word of a script that spaces its words must stand alone; Thai, Japanese and Korean run into their neighbours
_ALONE = re.compile(r"^[a-zà-öø-ÿ'\- ]+$|^[а-я]+$")
#: the morning of "Guten Morgen" / "por la mañana", not the next day
_MORNING = r"(?<!guten )(?<!goede )(?<!la )(?<!esta )(?<!am )(?<!jeden )(?<!heute )"


def _alternation() -> str:
    def form(w: str) -> str:
        body = r"\s+".join(re.escape(p) for p in w.split())
        return rf"(?<![\w']){body}(?![\w'])" if _ALONE.match(w) else body
    return "|".join(form(w) for w in sorted(_OFFSETS, key=len, reverse=True))


def _other_rel_day(m: re.Match[str], c: Ctx) -> Res:
    word = " ".join(m.group("w").lower().split())
    return Res(*day_span(c.today + timedelta(days=_OFFSETS[word])), "day")


#: (pattern, handler, skipped after 每/every): tried on any text, after the Chinese and English rules
OTHER_RULES: list[Rule] = [(re.compile(rf"(?i){_MORNING}(?P<w>{_alternation()})"), _other_rel_day, False)]
