"""Where a move that names no place was headed, from what the speaker said before it.

People tell a move in two steps: first where ("我在考虑去珠海，那边有个工作室找我", "thinking of moving
to Leeds for the job"), days or weeks later that it happened, with no place ("搬完家累瘫了", "finally
moved, boxes everywhere"). A move naming no place closes nothing (the new value is unknown); this
module finds it in the speaker's turns of the last :data:`LOOK_BACK_DAYS` days: the latest place
said after a verb of going (去, 到, 搬到, 调到; "move to", "relocate to") or before 那边 / 那儿. The
memory of the move then says it in plain words after the user's — "用户：搬完家累瘫了（搬到珠海）" — so
that resolution reads the place as it would have read it said.

A place of the user's current home is no destination (the memories of the residence family say it),
and neither is one the turn itself says the user left.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import datetime, timedelta

from jiyi.records import MemoryRecord
from jiyi.text.places import place_at_start
from jiyi.text.qualifiers import on_a_trip

#: how far back a move's place is looked for (a move is often told a month or more ahead: "moving end of May")
LOOK_BACK_DAYS = 62

_ZH_TOWARDS = re.compile(r"(?:去|到|搬到|搬去|调到|调去|换到|落脚|定居)(?:了)?(?P<x>[\u4e00-\u9fff]{2,5})|"
                         r"(?P<y>[\u4e00-\u9fff]{2,5}?)(?:那边|那儿|那里)")
_EN_TOWARDS = re.compile(r"(?i)\b(?:mov(?:e|ed|ing)|relocat(?:e|ed|ing)|transfer(?:red|ring)?|going|headed|heading)"
                         r"\s+(?:\w+\s+){0,2}?to\s+(?P<x>[\w'-]+(?:\s+[\w'-]+)?)")


#: a turn that says the speaker is moving, and a place it says with "in" or "to"
_EN_MOVING = re.compile(r"(?i)\b(?:moving|relocating|relocate|move)\b(?!\s+(?:on|in\s+with|out\s+of\s+the\s+way))")
_EN_IN_PLACE = re.compile(r"\b(?:in|to)\s+(?P<x>[A-Z][\w'-]+(?:\s+[A-Z][\w'-]+)?)")


#: a stay of a few days, told by its dates: "Oct 3-5", "3号到5号", "10月3日-5日"
_A_FEW_DAYS = re.compile(r"(?i)\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)\w*\.?\s+\d{1,2}\s*(?:-|–|to)\s*\d{1,2}\b|"
                         r"\d{1,2}(?:号|日)?\s*(?:-|–|到|至)\s*\d{1,2}(?:号|日)")


#: a verb that says a home was moved, whatever its place: only such a move takes a place said before
_MOVED = re.compile(r"(?i)搬|挪窝|落户|定居|安家|新家|安顿|\bmov(?:e|ed|ing)\b|\brelocat|\bnew\s+(?:place|flat|apartment|house|home)\b|"
                    r"\bsettl(?:ed|ing)\s+in\b")


def moved_home(text: str) -> bool:
    """Does ``text`` say a home was moved with a verb of moving (搬完家, "finally moved"), not 回X了 or 人在X?"""
    return _MOVED.search(text) is not None


def headed_for(turns: Sequence[MemoryRecord], before: datetime, home: Sequence[str], lang: str) -> str | None:
    """The latest place ``turns`` (the speaker's, newest first or in any order) said the speaker was headed for,
    within :data:`LOOK_BACK_DAYS` before ``before``; None when none was, or only the current ``home``."""
    since = before - timedelta(days=LOOK_BACK_DAYS)
    recent = sorted((t for t in turns if since <= (t.valid_from or t.created_at) <= before),
                    key=lambda t: t.valid_from or t.created_at, reverse=True)
    for turn in recent:
        if on_a_trip(turn.content, lang) or _A_FEW_DAYS.search(turn.content):
            continue  # "going to Hong Kong Oct 3-5, visa run": a trip there, not a new home
        for place in reversed(_places(turn.content, lang)):
            if not any(place in h or h in place for h in home):
                return place
    return None


def _places(text: str, lang: str) -> list[str]:
    """The places ``text`` says someone goes to, in order."""
    if lang == "zh":
        towards = [m.group("x") or m.group("y") for m in _ZH_TOWARDS.finditer(text)]
        if not towards:
            return []  # (the lexical analyser only for a turn that says where someone goes)
        from jiyi.text.lexical import entities

        known = entities(text).get("LOC", ())
        out = []
        for said in towards:
            out += [loc for loc in known if said.startswith(loc) or said.endswith(loc)][:1]
        return out
    towards = [p for m in _EN_TOWARDS.finditer(text) if (p := _place_named(m.group("x")))]
    if towards or not _EN_MOVING.search(text):
        return towards
    # "got the job… in Bristol. moving end of May": a known place said with in / to in a turn of moving
    return [found[0] for m in _EN_IN_PLACE.finditer(text) if (found := place_at_start(m.group("x")))]


#: a place said as where the speaker is now, in a clause of its own: "Ballard now", "now in Leith", "现在在鹿泉"
_EN_NOW = re.compile(r"(?:^|[.!,;]\s*|\bnow\s+(?:in|at)\s+)(?P<x>[A-Z][\w'-]+(?:\s+[A-Z][\w'-]+)?)(?:\s+now\b|(?=\s*[.!,;]|$))")
#: capitalised words that are no place: the user, a mood, a doing ("Honestly tired now", "Working now")
_NOT_A_PLACE = re.compile(r"^(?:User|I|It|This|That|All|Just|Home|Here|There|Back|Done|Free|Busy|Good|Fine|Ok|Okay)\b|"
                          r"\w(?:ly|ed|ing)\b")
_ZH_NOW = re.compile(r"(?:现在|如今|目前)(?:人)?(?:在|住在?|搬到)(?P<x>[\u4e00-\u9fff]{2,6})")


def place_now(text: str, lang: str, home: Sequence[str] = ()) -> str | None:
    """The place the turn of a move (``text``) says the speaker is in now, in a clause of its own ("also finally
    moved. Ballard now.", "搬完了 现在住在鹿泉"): a known place or, in English, a capitalised name said with "now";
    None when it names none, or only the current ``home``."""
    if lang == "zh":
        from jiyi.text.lexical import entities

        known = entities(text).get("LOC", ())
        found = [loc for m in _ZH_NOW.finditer(text) for loc in known if m.group("x").startswith(loc)]
    else:
        found = [m.group("x") for m in _EN_NOW.finditer(text)
                 if (place_at_start(m.group("x")) or not _NOT_A_PLACE.search(m.group("x")))
                 and (re.search(rf"{re.escape(m.group('x'))}\s+now\b", text)
                      or m.group(0).lstrip(".!,; ").lower().startswith("now"))]
    return next((p for p in found if not any(p in h or h in p for h in home)), None)


def _place_named(words: str) -> str | None:
    """The place ``words`` (after "moving to") start with: a name as written ("Leeds", "New York"), or a known
    place typed in lower case ("leeds"); None for "live with", "the office", "User"."""
    caps = re.match(r"(?:[A-Z][\w'-]*)(?:\s+[A-Z][\w'-]*)?", words)
    if caps and caps.group() not in ("User", "I"):
        return caps.group()
    known = place_at_start(words)
    return known[0] if known else None


def with_destination(content: str, place: str, lang: str) -> str:
    """``content`` with the place it moved to said after it."""
    return f"{content}（搬到{place}）" if lang == "zh" else f"{content} (moved to {place})"
