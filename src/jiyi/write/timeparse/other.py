"""Days named by their distance from today in the other languages users mix into Chinese and English chat.

"Check-up 是 lusa", "Termin ist übermorgen", "しあさって断水", "มะรืนนี้ไปดูห้อง", "sa makalawa na yung dinner", "내일
병원 가요": a bot's users write the language of where they live. Each word names one day, counted from the day it
was said (the speaker's, jiyi.clock.speaker_zone). The words are CLDR's relative-day names (as dateparser ships them,
``date_translation_data``: "in 1 day", "1 day ago", …) for the languages of :data:`RELATIVE_DAYS`, with the words for
two and three days out that CLDR leaves out (Malay and Indonesian lusa, Tagalog makalawa, Thai มะรืน, Korean 모레 /
글피, Japanese あさって / しあさって, Vietnamese ngày kia). Left out on purpose: a word that is also a common word of
another language in the table (French "hier" is German "here"), Hindi कल (yesterday and tomorrow alike), and the
languages whose CLDR words are short words elsewhere ("pan", "wit", "moi").

Weekdays too, in the week the words around them name ("thứ Sáu tuần sau", "Jumat depan", "다음 주 수요일",
"来週の水曜日"), a week ("tuần sau", "minggu depan") and the end of a month ("cuối tháng này", "akhir bulan depan").
"""

from __future__ import annotations

import re
from datetime import timedelta

from jiyi.write.timeparse.spans import (
    Ctx,
    Res,
    Rule,
    day_span,
    monday_of,
    month_add,
    month_part,
    shift,
)

#: language → (offset in days → words), lower case
RELATIVE_DAYS: dict[str, dict[int, tuple[str, ...]]] = {
    "ja": {-2: ("おととい", "一昨日"), -1: ("きのう",), 1: ("あした",), 2: ("あさって", "明後日"),
           3: ("しあさって", "明々後日", "明明後日")},
    "ko": {-2: ("그저께",), -1: ("어제",), 1: ("내일",), 2: ("모레",), 3: ("글피",)},
    "th": {-2: ("เมื่อวานซืน",), -1: ("เมื่อวาน",), 1: ("พรุ่งนี้",), 2: ("มะรืนนี้", "มะรืน")},
    "vi": {-2: ("hôm kia",), -1: ("hôm qua",), 1: ("ngày mai",), 2: ("ngày kia", "ngày mốt")},
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
#: a word of a script that spaces its words must stand alone among its letters; Thai, Japanese and Korean run into
#: their neighbours. A Chinese character beside it ends it: the rules read "après-demain 要去" as "après-demain要去"
#: (text/mixed.py), and people type "besok要交" too
_ALONE = re.compile(r"^[a-zà-öø-ÿ'\- ]+$|^[а-я]+$")
_LETTER = r"[0-9A-Za-zÀ-ÖØ-öø-ÿĀ-ɏḀ-ỿА-яЁё_']"
#: the morning of "Guten Morgen" / "por la mañana", not the next day
_MORNING = r"(?<!guten )(?<!goede )(?<!la )(?<!esta )(?<!am )(?<!jeden )(?<!heute )"


def _alternation() -> str:
    def form(w: str) -> str:
        body = r"\s+".join(re.escape(p) for p in w.split())
        return rf"(?<!{_LETTER}){body}(?!{_LETTER})" if _ALONE.match(w) else body
    return "|".join(form(w) for w in sorted(_OFFSETS, key=len, reverse=True))


def _other_rel_day(m: re.Match[str], c: Ctx) -> Res:
    word = " ".join(m.group("w").lower().split())
    return Res(*day_span(c.today + timedelta(days=_OFFSETS[word])), "day")


#: the weekdays, Monday first, in Vietnamese, Indonesian and Malay, Korean and Japanese
_WEEKDAYS: dict[str, int] = {
    **{w: i for i, w in enumerate(("thứ hai", "thứ ba", "thứ tư", "thứ năm", "thứ sáu", "thứ bảy", "chủ nhật"))},
    **{w: i for i, w in enumerate(("senin", "selasa", "rabu", "kamis", "jumat", "sabtu", "hari minggu"))},
    "jum'at": 4, "isnin": 0, "khamis": 3, "ahad": 6,
    **{w: i for i, w in enumerate("월화수목금토일")}, **{w: i for i, w in enumerate("月火水木金土日")}}
#: the week a weekday is in, said around it: next (1), this (0) or last (-1)
_WEEK_WORDS: dict[str, int] = {"tuần sau": 1, "tuần tới": 1, "tuần này": 0, "tuần trước": -1,
                               "depan": 1, "minggu depan": 1, "ini": 0, "minggu ini": 0, "lalu": -1, "minggu lalu": -1,
                               "다음": 1, "다음 주": 1, "이번": 0, "이번 주": 0, "지난": -1, "지난 주": -1,
                               "来周": 1, "今周": 0, "先周": -1}  # (来週, read as simplified)
#: (not an ordinal: "lần thứ hai", the second time)
_VI = (r"(?<!lần )(?<!người )(?<!đứa )(?<!cái )(?<!con )(?<!bài )(?<!câu )(?<!hạng )(?<!phần )(?<!vòng )(?<!tầng )"
       r"(?<!giải )(?<!năm )(?<!tập )thứ\s+(?:hai|ba|tư|năm|sáu|bảy)|chủ\s+nhật")
_MS = r"(?:hari\s+)?(?:senin|selasa|rabu|kamis|jum'?at|sabtu|isnin|khamis|ahad)|hari\s+minggu"


def _weekday(m: re.Match[str], c: Ctx) -> Res:
    """A weekday in the week the words around it name ("thứ Sáu tuần sau", "Jumat depan", "다음 주 수요일", "来週の水曜"),
    else the next one on or after today."""
    word = " ".join(m.group("wd").lower().split())
    i = _WEEKDAYS[word] if word in _WEEKDAYS else _WEEKDAYS[word.removeprefix("hari ")]
    week = m.group("pre") or m.group("post")
    if not week:
        return Res(*day_span(c.today + timedelta(days=(i - c.today.weekday()) % 7)), "day")
    return Res(*day_span(monday_of(c.today) + timedelta(weeks=_WEEK_WORDS[" ".join(week.lower().split())], days=i)),
               "day")


def _week(m: re.Match[str], c: Ctx) -> Res:
    """"tuần sau", "minggu depan", "다음 주", "来週": a week."""
    return shift(c, _WEEK_WORDS[" ".join((m.group("w") or m.group("w2")).lower().split())], "week")


def _month_end(m: re.Match[str], c: Ctx) -> Res:
    """"cuối tháng này", "akhir bulan depan", "월말": the end of this month or the next."""
    y, mo = month_add(c.today.year, c.today.month, 1 if m.group("next") or m.group("next2") else 0)
    return month_part(y, mo, "底")


#: (pattern, handler, skipped after 每/every): tried on any text, after the Chinese and English rules
OTHER_RULES: list[Rule] = [
    (re.compile(rf"(?i){_MORNING}(?P<w>{_alternation()})"), _other_rel_day, False),
    (re.compile(rf"(?i)(?<![\w'])(?P<wd>{_VI})(?:\s+(?P<post>tuần\s+(?:sau|tới|này|trước)))?(?![\w'])(?P<pre>)?"),
     _weekday, True),
    (re.compile(rf"(?i)(?<![\w'])(?P<wd>{_MS})(?:\s+(?P<post>depan|ini|lalu))?(?![\w'])(?P<pre>)?"), _weekday, True),
    (re.compile(r"(?:(?P<pre>다음|이번|지난)\s*주\s*)?(?P<wd>[월화수목금토일])요일(?P<post>)?"), _weekday, True),
    (re.compile(r"(?:(?P<pre>来周|今周|先周)の?)?(?P<wd>[月火水木金土日])曜日?(?P<post>)?"), _weekday, True),
    (re.compile(r"(?i)(?<![\w'])(?P<w>tuần\s+(?:sau|tới|này|trước)|minggu\s+(?:depan|ini|lalu))(?![\w'])|"
                r"(?P<w2>다음|이번|지난)\s*주(?!\s*[월화수목금토일]요일)"), _week, False),
    (re.compile(r"(?i)(?<![\w'])(?:cuối\s+tháng(?:\s+(?:này|(?P<next>sau|tới)))?|akhir\s+bulan(?:\s+(?:ini|(?P<next2>depan)))?)"
                r"(?![\w'])|월말"), _month_end, False),
]
