"""Message-level markers: corrections (不对 / actually) and 记住 / remember.

Both are cut out of the text before clauses are split (blanked with spaces, so
offsets stay valid) and applied to the message's drafts at the end:

- after ``记住 / 别忘了 / remember`` what follows gets importance at least 0.85; with
  nothing a pattern recognises after it, the remembered text itself is stored.
- a correction (不对 / 我说错了 / 其实是 / actually / I meant) marks every candidate
  ``corrects=True``; a bare value ("不对，杭州") takes the slot of the last attribute
  stated in the conversation, or the one the assistant just asked about.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from jiyi.extractors.rules.birthdays import calendar_date
from jiyi.extractors.rules.clauses import ZH_CLAUSE, ZH_SELF
from jiyi.extractors.rules.content import substitute_times
from jiyi.extractors.rules.drafts import Draft, fact, templated
from jiyi.extractors.rules.en import en_identity
from jiyi.extractors.rules.sensitive import en_contact, zh_contact
from jiyi.extractors.rules.zh import zh_age, zh_name, zh_residence, zh_work
from jiyi.records import Kind
from jiyi.text.person import third_person, tidy_zh

if TYPE_CHECKING:
    from jiyi.extractors.rules.message import MessageExtraction

_ZH_CORRECTION = re.compile(
    r"^\s*(?:(?:(?:不对|不是|错了|不不)[啊呀]?[，,。！!：:\s]+|(?:我说错了|说错了|打错了|写错了|搞错了|记错了|更正一下|更正|"
    r"纠正一下|纠正)[，,。！!：:\s]*)+(?:(?:其实|应该|实际上)是?)?|(?:其实是|应该是|实际上是|准确地说是?))"
)
_EN_CORRECTION = re.compile(r"(?i)^\s*(?:(?:no|nope|sorry|oops|wait)[,.!]?\s+)?(?:(?:actually|correction|i\s+meant|"
                            r"i\s+mean|to\s+correct\s+myself)\b[,.:]?\s*)+")
_ZH_REMEMBER = re.compile(
    r"(?:(?:(?:帮我|给我|替我|你|请)(?:得|要|一定要|务必)?|(?:得|要|一定要|务必)|(?<![我还]))"
    r"(?:记住|记一下|记下来?|记着|记好)(?!了|呢)|"
    r"(?:帮我|给我|替我|你|请)?(?:别忘了|不要忘了|不要忘记|别忘记|千万记得|千万别忘了)|"
    # 记得 before something past is recalling it (记得记得 上次吓死了), not a request
    r"(?<![我还不])记得(?![，,\s]*(?:记得|上次|那次|以前|当时|小时候|之前|那天|去年|吗|吧|呀)))(?:哦|啊|哈|啊)?[，,:：\s]*"
)
_EN_REMEMBER = re.compile(r"(?i)(?:^|(?<=[.!?;])\s+|,\s*)(?:(?:please|pls|and|also|oh|so)[,]?\s+)*(?:remember|"
                          r"don'?t\s+forget|do\s+not\s+forget|keep\s+in\s+mind|make\s+a\s+note|note)"
                          r"(?:\s+that)?[:,]?\s+")
_TRIVIAL_REMAINDER = re.compile(r"^(?:几|一|这|那)?(?:个|件)?(?:事|事情)?(?:吧|哈|哦|了)?$|^(?:this|that|it)?$", re.IGNORECASE)


@dataclass(slots=True)
class Thread:
    """What earlier messages of the same ``extract`` call tell us (for bare corrections)."""

    last_slotted: Draft | None = None
    assistant: str = ""
    #: the relative the user's message just before named last, in its language: "my sister Lucy just moved to
    #: Seoul" → "she's allergic to shellfish" (a bot's turn between them ends it)
    recent: tuple[str, str | None] | None = None
    recent_lang: str = ""


def _blank(text: str, m: re.Match[str] | None) -> tuple[str, int]:
    """Replace the match with spaces (offsets stay valid); return (text, match start or -1)."""
    if m is None or m.end() == m.start():
        return text, -1
    return text[: m.start()] + " " * (m.end() - m.start()) + text[m.end():], m.start()


def strip_markers(text: str, lang: str) -> tuple[str, bool, int]:
    """``(text without its markers, is a correction, where 记住/remember was or -1)``."""
    correction = (_ZH_CORRECTION if lang == "zh" else _EN_CORRECTION).match(text)
    text, corr_at = _blank(text, correction)
    pattern = _ZH_REMEMBER if lang == "zh" else _EN_REMEMBER
    remember = pattern.search(text)
    text, remember_at = _blank(text, remember)
    while remember is not None and (again := pattern.match(text, remember.end())) is not None:
        text, _ = _blank(text, again)  # 你帮我记住哈 记住这个: said twice, one request
        remember = again
    return text, corr_at >= 0, remember_at


def remembered(work: MessageExtraction, drafts: list[Draft]) -> list[Draft]:
    """After 记住/remember: boost what follows, or keep the remembered text itself."""
    if work.remember_at < 0:
        return drafts
    after = [d for d in drafts if d.source_at >= work.remember_at]
    for d in after:
        d.importance = max(d.importance, 0.85)
    if after:
        return drafts
    rest = work.text[work.remember_at:].strip()
    cleaned = tidy_zh(rest) if work.lang == "zh" else rest.strip(" .!")
    if len(cleaned) < (4 if work.lang == "zh" else 8) or _TRIVIAL_REMAINDER.match(cleaned):
        return drafts
    own = [c for c in work.clauses if c.start >= work.remember_at]
    timed = [s for c in own for s in work.qualifying(c)]
    dated = any(s.offset >= work.remember_at for s in work.spans)  # 下周要联系他, with its day, is a plan of its own
    if not dated and _says_why(work, drafts):
        return drafts
    body = substitute_times(rest, work.text.index(rest, work.remember_at), work.spans, work.lang, work.tz)
    if work.lang == "zh":
        content = "用户要求记住：" + third_person(tidy_zh(body), "zh")
    else:
        content = "User asked to remember: " + third_person(body.strip(" .!"), "en")
    draft = Draft(Kind.EVENT if timed else Kind.FACT, content, None, [], 0.85, 0.85)
    if timed:
        draft.valid_from, draft.valid_until = min(s.start for s in timed), max(s.end for s in timed)
    draft.source = rest
    return drafts + [draft]


#: what a clause before the request names: a noun, a name, a place, an organisation, a number
_CONTENT_TAGS = frozenset({"n", "nz", "nw", "PER", "LOC", "ORG", "m"})


def _says_why(work: MessageExtraction, drafts: list[Draft]) -> bool:
    """Is what follows 记着 a reason, the request being about what came before it ("我身份证号… 帮我记着 以后填表用",
    "我青霉素过敏，这个帮我记着，万一哪天我迷糊了")? It is when the request closes a break (a space or a comma,
    not a colon: 帮我记一下：周五交表 introduces) and something was said before it: a memory was made of it, or
    it has a noun or a number."""
    if work.lang != "zh":
        return False
    marker = _ZH_REMEMBER.match(work.unmarked, work.remember_at)
    if marker is None or not re.search(r"[，,\s]$", marker.group()) or re.search(r"[:：]", marker.group()):
        return False
    if any(d.source_at < work.remember_at for d in drafts):
        return True
    from jiyi.text.lexical import tagged

    before = re.sub(r"@\S+", " ", work.unmarked[: work.remember_at])
    return any(tag in _CONTENT_TAGS and not (tag == "m" and not re.search(r"\d", word))
               for part in re.split(r"[，,。！!？?；;\s]+", before) if len(tidy_zh(part)) >= 2
               for word, tag in tagged(tidy_zh(part)))


def corrected(work: MessageExtraction, drafts: list[Draft], thread: Thread) -> list[Draft]:
    """Mark a correction; give a bare value ("不对，杭州") the slot it corrects."""
    if not work.corrects:
        return drafts
    base = thread.last_slotted
    if (base is not None and base.template and (base.slot or "").endswith(("birthday", "anniversary"))
            and all(d.kind is Kind.EVENT for d in drafts) and (found := calendar_date(work.text, work.lang))):
        return [templated(base.template, base.slot or "", found[1], importance=base.importance)]  # 不对，是5月21日
    if not drafts:
        value = re.sub(r"^(?:是|在|叫|其实是|应该是|it's|it\s+is)\s*", "", work.text.strip(" ，,。.!！"))
        value = tidy_zh(value) if work.lang == "zh" else value.strip(" .!")
        if 0 < len(value) <= 20:
            base = thread.last_slotted or slot_from_context(thread.assistant, work.lang)
            if base is not None and base.template:
                d = templated(base.template, base.slot or "", value, kind=base.kind,
                              importance=base.importance, visibility=base.visibility)
                drafts = [d]
        if not drafts and len(value) >= 2:
            label = "用户更正：" if work.lang == "zh" else "User corrected: "
            drafts = [fact(label + third_person(value, work.lang), None, "", importance=0.7)]
    return drafts


def slot_from_context(text: str, lang: str) -> Draft | None:
    """What attribute did the assistant just state or ask about (您住在上海对吗 → user/city)?"""
    if not text:
        return None
    if lang == "zh":
        mirrored = re.sub(r"您|你", "我", text)
        for part in ZH_CLAUSE.split(mirrored):
            body = re.sub(r"^是", "", ZH_SELF.sub("", tidy_zh(part)))
            found = zh_name(body) + zh_age(body) + zh_residence(body) + zh_work(body) + zh_contact(part)
            if found:
                return found[0]
        return None
    mirrored = re.sub(r"(?i)\byou're\b", "I'm", re.sub(r"(?i)\byour\b", "my", text))
    mirrored = re.sub(r"(?i)\byou\b", "I", mirrored)
    found = en_identity(mirrored) + en_contact(mirrored)
    return found[0] if found else None
