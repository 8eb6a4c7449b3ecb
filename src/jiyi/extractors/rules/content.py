"""Clause text into memory content: absolute times, third person, a subject in front.

"下周三要去深圳" said on 2025-03-05 is stored as "用户2025年3月12日要去深圳": a memory
is read later, out of context, so relative times are made absolute (in the user's
zone) and first person becomes 用户 / User.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import datetime, timedelta, timezone, tzinfo

from jiyi.extractors.rules.drafts import Clause
from jiyi.text.person import third_person, tidy_zh
from jiyi.write.timeparse import TimeSpan
from jiyi.write.timeparse.lunar import is_lunar

_ZH_PART_WORDS = ("凌晨", "清晨", "早上", "早晨", "上午", "中午", "下午", "傍晚", "晚上", "夜里", "深夜", "半夜")
_ZH_SHORT_PARTS = {"早": "早上", "晨": "早上", "晚": "晚上", "夜": "夜里"}
_EN_PREPOSITION = re.compile(r"(?i)\b(?:on|in|at|from|by|since|during|until|till|to|for|of|before|after|around|over)\s*$")


def _part_word_zh(span: TimeSpan) -> str:
    for word in _ZH_PART_WORDS:
        if word in span.text:
            return word
    for ch, word in _ZH_SHORT_PARTS.items():
        if ch in span.text:
            return word
    return ""


def render_span(span: TimeSpan, lang: str, tz: tzinfo = timezone.utc) -> str:
    """An absolute, human-readable form of ``span`` (2025年3月12日 / 2025-03-12 / March 2025)."""
    s = span.start.astimezone(tz)
    e = (span.end - timedelta(microseconds=1)).astimezone(tz)
    g = span.granularity
    if lang == "zh":
        def day(x: datetime) -> str:
            return f"{x.year}年{x.month}月{x.day}日"

        if g == "year":
            return f"{s.year}年"
        if g == "month":
            return f"{s.year}年{s.month}月"
        if g == "week":
            return f"{day(s)}那一周"
        if g in ("hour", "minute"):
            tail = f"-{span.end.astimezone(tz):%H:%M}" if span.end - span.start > timedelta(hours=1) else ""
            return f"{day(s)}{s:%H:%M}{tail}"
        if g == "daypart":
            return day(s) + (_part_word_zh(span) or f"{s:%H:%M}前后")
        if s.date() != e.date():
            return f"{day(s)}至{f'{e.month}月{e.day}日' if e.year == s.year else day(e)}"  # (至12月31日: whole)
        return day(s)
    if g == "year":
        return f"{s.year}"
    if g == "month":
        return f"{s:%B %Y}"
    if g == "week":
        return f"the week of {s:%Y-%m-%d}"
    if g in ("hour", "minute"):
        return f"{s:%Y-%m-%d %H:%M}"
    if g == "daypart":
        part = next((p for p in ("morning", "afternoon", "evening", "night") if p in span.text.lower()), "night")
        return f"the {part} of {s:%Y-%m-%d}"
    if s.date() != e.date():
        return f"{s:%Y-%m-%d} to {e:%Y-%m-%d}"
    return f"{s:%Y-%m-%d}"


def _en_with_preposition(rendered: str, span: TimeSpan, before: str) -> str:
    if _EN_PREPOSITION.search(before):
        return rendered
    g = span.granularity
    if g in ("month", "year", "week"):
        return "in " + rendered
    if g in ("hour", "minute"):
        return "at " + rendered
    if " to " in rendered:
        return "from " + rendered
    return "on " + rendered


def substitute_times(text: str, base: int, spans: Sequence[TimeSpan], lang: str, tz: tzinfo) -> str:
    """``text`` (found at ``base`` in the message) with each time expression made absolute."""
    out = text
    for span in sorted(spans, key=lambda s: s.offset, reverse=True):
        lo, hi = span.offset - base, span.end_offset - base
        if lo < 0 or hi > len(out):
            continue
        rendered = render_span(span, lang, tz)
        if is_lunar(span.text):  # 腊月初八（2027年1月15日）: a birthday kept by the lunar calendar moves year by year
            rendered = f"{span.text}（{rendered}）" if lang == "zh" else f"{span.text} ({rendered})"
        elif lang != "zh":
            rendered = _en_with_preposition(rendered, span, out[:lo])
        out = out[:lo] + rendered + out[hi:]
    return out


def mask_times(text: str, base: int, spans: Sequence[TimeSpan]) -> str:
    """``text`` with its time expressions blanked out (for entities: 3月12日 is not a name)."""
    for span in spans:
        lo, hi = span.offset - base, span.end_offset - base
        if 0 <= lo < hi <= len(text):
            text = text[:lo] + " " * (hi - lo) + text[hi:]
    return text


_EN_LEAD = re.compile(r"(?i)^(?:(?:yeah|yes|yep|oh|well|so|and|but|wow|haha|lol|hey|hi|ok|okay|anyway|"
                      r"honestly|btw|also)\b[,!.]?\s+)+")
_ZH_PRONOUN = re.compile(r"^[他她它](?![们])")
_EN_PRONOUN = re.compile(r"(?i)^(?:she|he|it|they)(['\u2019](?:s|re))?\b")
#: a participle after 's: the contraction is of has ("she's had diabetes", "he's been"), not of is ("she's married")
_HAS_DONE = re.compile(r"(?i)\s+(?:been|had|got|gotten|gone|done|seen|taken|made|lost|never|always|already|just)\b|"
                       r"\s+(?!(?:married|engaged|divorced|tired|excited|interested|worried|scared|obsessed|bored|"
                       r"stressed|based|located|employed|unemployed|retired|vaccinated|named|called|related|involved|"
                       r"supposed|pleased|allergic|pregnant)\b)\w+ed\b")
_TIME_THEN_USER = re.compile(r"^([\d年月日至\-:：那一周上下午晚中早凌晨夜里深半前后从末星期礼拜二三四五六天工作平节假每个]{2,30})用户(?!的)")
_ZH_VERBISH = re.compile(r"^(?:[\d要去会想打算准备得在有回飞出到从把和跟给最很特别也还都就已刚正一每经通平总不没是才又再先常对]|喜欢|爱|讨厌|周末|周[一二三四五六日天]|星期|礼拜|工作日|平日|早上|晚上|上午|下午|中午)")


#: a yes or a sound alone, no part of what a statement says
_YES_ALONE = re.compile(r"(?i)^(?:嗯+|哦+|噢+|喔|啊+|额|呃|诶|欸|哈+|嘿|好的|好滴|好|行|对|对的|对对|是的|嗯呢|yeah|yes|yep|ya|"
                        r"ok|okay|oh|mhm)[啊呀哈啦呢吧~～!！.。]*$")


def with_user_prefix(text: str) -> str:
    """``用户`` before a verb-like start (用户要去…), ``用户：`` before anything else (never a comma after it)."""
    text = tidy_zh(text.lstrip("，,、；;：: ")) or text  # 嗯嗯 米饭面条一口不碰: the yes is no part of the statement
    return ("用户" if _ZH_VERBISH.match(text) else "用户：") + text


def clause_content(c: Clause, lang: str, tz: tzinfo) -> str:
    """The clause as a third-person statement with absolute times (她 → the relative she refers to)."""
    raw = substitute_times(c.text, c.start, c.spans, lang, tz)
    if lang == "zh":
        t = third_person(tidy_zh(raw), "zh")
        if c.subject == "rel" and c.rel and (m := _ZH_PRONOUN.match(t)):
            t = third_person(f"我的{c.rel}", "zh") + (c.rel_name or "") + t[m.end():]
        if c.subject == "rel" and c.rel and t.startswith("用户" + c.rel):  # 用户表哥对芒果过敏 → 用户的表哥…
            t = "用户的" + t[2:]
        elif c.subject == "rel" and c.rel and t.startswith(c.rel):  # 老爸下个月退休 / 阿嫲糖尿病: the relative, said bare
            t = "用户的" + t
        if m := _TIME_THEN_USER.match(t):  # 2025年3月12日用户要… → 用户2025年3月12日要…
            t = "用户" + m.group(1) + t[m.end():]
        if not t.startswith("用户") and c.subject == "self":
            t = with_user_prefix(t)
        return t
    t = third_person(_EN_LEAD.sub("", raw.strip()).rstrip(".!,;"), "en")
    if c.subject == "rel" and c.rel and (m := _EN_PRONOUN.match(t)):
        verb = {"'s": " is", "\u2019s": " is", "'re": " is", "\u2019re": " is"}.get(m.group(1) or "", "")
        if (m.group(1) or "")[-1:] == "s" and _HAS_DONE.match(t, m.end()):  # "she's had diabetes for years": 's is has before a participle
            verb = " has"
        t = f"User's {c.rel}{' ' + c.rel_name if c.rel_name else ''}{verb}" + t[m.end():]
    return t[:1].upper() + t[1:]


def group_statement(parts: Sequence[str], lang: str, max_chars: int | None = None, *, users: bool = True) -> str:
    """The contents of a group of clauses as one statement that names the user: later clauses
    lose the subject their own rendering put in front (zh), empty ones are skipped, the text is
    cut to ``max_chars`` (if given) before ``用户`` / ``User:`` is put in front where missing (not when the
    statement is not ``users``: someone else's, named in it)."""
    zh = lang == "zh"
    parts = [p for p in parts if (said := p.removeprefix("用户").removeprefix("User").strip("：:，, "))
             and not _YES_ALONE.match(said)]  # 跟你说 → nothing; 嗯嗯 / "yeah" alone is no part of the statement
    if zh and parts:
        parts = [parts[0], *(drop_subject(p) for p in parts[1:])]
    text = ("，" if zh else ", ").join(p for p in parts if p)
    if max_chars is not None:
        text = text[:max_chars]
    if zh and "用户" not in text and users:
        return with_user_prefix(text)
    if not zh and "User" not in text and users:
        return "User: " + text
    return text


def group_source(group: Sequence[Clause]) -> str:
    """The clauses' own words, their times blanked (what entities are read from)."""
    return " ".join(mask_times(c.text, c.start, c.spans) for c in group)


def drop_subject(part: str) -> str:
    """A continuation clause without the 用户/用户： its own rendering put in front."""
    if part.startswith("用户："):
        return part[3:]
    return part[2:] if part.startswith("用户") and not part.startswith("用户的") else part
