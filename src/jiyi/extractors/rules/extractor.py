"""The ``rules`` extractor: drafts of each user message into candidates.

Only the user's own messages are mined; assistant turns are read only to learn
which attribute a bare correction ("不对，杭州") refers to.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace
from datetime import timezone, tzinfo
from typing import TYPE_CHECKING
from zoneinfo import ZoneInfo

from jiyi.extractors.protocol import Candidate
from jiyi.extractors.rules.answers import adopted, answered, denied, introduced, pointed
from jiyi.extractors.rules.corrections import Thread
from jiyi.extractors.rules.drafts import MAX_CHARS, Draft
from jiyi.extractors.rules.message import MessageExtraction
from jiyi.extractors.rules.sensitive import without_secret_values
from jiyi.privacy.detect import PLACEHOLDER
from jiyi.records import Message
from jiyi.text.entities import find_entities
from jiyi.text.language import detect_language
from jiyi.text.mixed import Reading
from jiyi.text.person import EN_USER, ZH_USER, name_subject, speaker_name
from jiyi.text.script import restore, rules_reading
from jiyi.text.smalltalk import is_pleasantry, without_decoration

if TYPE_CHECKING:
    from jiyi.config import Settings

class RulesExtractor:
    """Offline pattern extractor; cheap enough to run on every batch (``cheap = True``).

    ``tz`` is the user's zone: the calendar that 明天 / 下周三 / 今天中午 refer to.
    """

    name = "rules"
    cheap = True
    #: every event it returns already carries its end (a plan an ``expires_at``, a thing told as
    #: done none): the write path adds no default end (write/normalize.py)
    ends_events = True

    def __init__(self, *, tz: tzinfo = timezone.utc) -> None:
        self.tz = tz

    def extract(self, messages: Sequence[Message], *, language_hint: str | None = None) -> list[Candidate]:
        """Candidates from the user messages in ``messages`` (oldest first). The rules read each message's
        :func:`~jiyi.text.script.rules_reading` (traditional characters as simplified, the Latin names in Chinese
        as one value); what is proposed is given back in what was typed."""
        sources = [rules_reading(m.content) for m in messages]
        if all(r.text == r.original for r in sources):
            return self._extract(messages, language_hint)
        read = [replace(m, content=r.text) for m, r in zip(messages, sources)]
        return [_restored(c, sources) for c in self._extract(read, language_hint)]

    def _extract(self, messages: Sequence[Message], language_hint: str | None) -> list[Candidate]:
        thread = Thread()
        out: list[Candidate] = []
        seen: set[tuple[str, str | None]] = set()
        asked = ""  # the bot's turn the next user message answers
        told = ""  # the user's message before it
        for index, msg in enumerate(messages):
            if msg.role != "user":
                if msg.role == "assistant":
                    thread.assistant = asked = msg.content
                thread.recent = None
                continue
            answer = msg
            lang = _lang(msg.content, language_hint)
            if asked and (said := adopted(asked, msg.content.strip(), lang) or answered(asked, msg.content, lang)
                          or denied(asked, msg.content, lang)):
                answer = replace(msg, content=said)  # "yep, Bristol from next week" after "moving out of Leeds?"
                # (and "早不碰了" after "烟还抽吗？": "烟早不碰了")
            elif said := pointed(asked, msg.content, _next_said(messages, index), lang) or introduced(
                    told, asked, msg.content, lang):
                answer = replace(msg, content=said)  # "那玩意儿我早不碰了" after "烟也少抽点哈": "烟我早不碰了"
                # (and "一个做咖啡的 叫林晚" after "姐又恋爱了" and "是谁是谁": "我对象叫林晚，…")
            asked, told = "", msg.content
            for cand in self._from_message(answer, language_hint, thread):
                if (cand.content, cand.slot) not in seen:
                    seen.add((cand.content, cand.slot))
                    out.append(cand)
        return out

    def _from_message(self, msg: Message, hint: str | None, thread: Thread) -> list[Candidate]:
        text = msg.content.strip()
        bare = without_decoration(text).strip()  # a sticker says nothing: "来了来了 [狗头]" is "来了来了"
        if not bare or is_pleasantry(text):  # small talk included
            return []
        if bare != text:
            if is_pleasantry(bare):
                return []
            msg, text = replace(msg, content=bare), bare
        lang = _lang(text, hint)
        work = MessageExtraction(msg, lang, self.tz)
        drafts = work.run(thread)
        for d in drafts:
            if d.slot and d.template:
                thread.last_slotted = d
        cands: list[Candidate] = []
        for d in drafts:
            cands.extend(_to_candidates(d, msg, lang, work.corrects))
        return cands


def _restored(cand: Candidate, sources: Sequence[Reading]) -> Candidate:
    """``cand`` in the characters its messages were typed in: its content, entities and the names it ends. A
    placeholder of a hidden value ("[已隐藏:密码]") is ours, and stays as written."""
    def text(value: str) -> str:
        out, at = [], 0
        for m in PLACEHOLDER.finditer(value):
            out += [restore(value[at:m.start()], sources), m.group(0)]
            at = m.end()
        return "".join([*out, restore(value[at:], sources)])

    def back(value: object) -> object:
        if isinstance(value, str):
            return text(value)
        if isinstance(value, list):
            return [back(v) for v in value]
        return value

    return replace(cand, content=text(cand.content), entities=tuple(text(e) for e in cand.entities),
                   metadata={k: back(v) for k, v in cand.metadata.items()})


#: the speaker's next messages looked at for what a pointing word stands for
_LOOK_AHEAD = 2


def _next_said(messages: Sequence[Message], index: int) -> list[str]:
    """The contents of the speaker's next messages after ``messages[index]``, up to the bot's next turn."""
    out: list[str] = []
    for msg in messages[index + 1:]:
        if msg.role != "user" or len(out) == _LOOK_AHEAD:
            break
        out.append(msg.content)
    return out


def _lang(text: str, hint: str | None) -> str:
    return hint if hint in ("zh", "en") else detect_language(text)


def _to_candidates(d: Draft, msg: Message, lang: str, corrects: bool) -> list[Candidate]:
    """Split over-long content on sentence boundaries; attach entities and provenance.

    A named speaker replaces 用户 / User in the content and joins the entities, and a
    slot becomes that speaker's (``user/city@Melanie``): in a conversation between two
    people, one's new city must not supersede the other's.
    """
    pieces = _fit(re.sub(r"\s{2,}", " ", without_decoration(d.content)).strip(), lang)
    who = speaker_name(msg.name)
    entities = without_secret_values(find_entities(d.source or d.content, lang, extra=d.values), msg.content)
    if who is not None:
        entities = tuple(dict.fromkeys((who, *entities)))
    lead_only = (ZH_USER if lang == "zh" else EN_USER) in msg.content
    slot = f"{d.slot}@{who}" if d.slot and who is not None else d.slot
    return [
        Candidate(content=name_subject(piece, who, lang, lead_only=lead_only), kind=d.kind,
                  slot=slot if i == 0 else None, entities=entities,
                  importance=importance_of(d), confidence=round(d.confidence, 3),
                  valid_from=d.valid_from, valid_until=d.valid_until, expires_at=d.expires_at,
                  visibility=d.visibility, source_ids=(msg.id,) if msg.id else (), corrects=corrects,
                  speaker=msg.name, metadata=_metadata(d, lang))
        for i, piece in enumerate(pieces)
        if len(piece.removeprefix(ZH_USER).removeprefix(EN_USER).strip(" ：:")) >= 2
    ]


#: the least importance of a slot family: what a bot must never forget ranks first in a profile
_FLOORS: tuple[tuple[str, float], ...] = (
    ("allergy/", 0.9), ("health/", 0.85), ("user/name", 0.8), ("diet/", 0.75), ("user/", 0.7), ("relation/", 0.7),
    ("style/", 0.7), ("contact/", 0.7), ("status/", 0.7),
)


def importance_of(d: Draft) -> float:
    """The draft's importance, raised to its slot family's floor (allergy 0.9, health 0.85, identity 0.7…)."""
    floor = next((f for prefix, f in _FLOORS if (d.slot or "").startswith(prefix)), 0.0)
    return round(max(d.importance, floor), 3)


def _metadata(d: Draft, lang: str) -> dict[str, object]:
    """Provenance, and what the statement ends besides its own slot (read by write/resolve.py)."""
    meta: dict[str, object] = {"extractor": "rules", "lang": lang}
    if d.ends:
        meta["ends"] = list(d.ends)
    if d.ends_mention:
        meta["ends_mention"] = d.ends_mention
        if d.ends_person:
            meta["ends_person"] = True
    return meta


_SENT_END = re.compile(r"(?<=[。！？!?；;])|(?<=[.])\s+")
_CLAUSE_END = re.compile(r"(?<=[，,])")


def _pack(parts: Sequence[str]) -> list[str]:
    pieces: list[str] = []
    cur = ""
    for part in parts:
        if cur and len(cur) + len(part) > MAX_CHARS:
            pieces.append(cur.strip())
            cur = ""
        cur += part
    if cur.strip():
        pieces.append(cur.strip())
    return pieces


def _fit(text: str, lang: str) -> list[str]:
    """``text`` as pieces of at most 200 characters, cut at sentence, then clause, boundaries.

    Pieces after the first are prefixed with the subject so each stays self-contained.
    """
    if len(text) <= MAX_CHARS:
        return [text]
    out: list[str] = []
    for piece in _pack([p for p in _SENT_END.split(text) if p]):
        subparts = [piece] if len(piece) <= MAX_CHARS else _pack([p for p in _CLAUSE_END.split(piece) if p])
        out.extend(p if len(p) <= MAX_CHARS else p[: MAX_CHARS - 1] + "…" for p in subparts)
    subject = "用户：" if lang == "zh" else "User: "
    return [p if i == 0 or p.startswith(("用户", "User")) else (subject + p)[:MAX_CHARS]
            for i, p in enumerate(out)]


def from_settings(settings: Settings) -> RulesExtractor:
    """``JIYI_EXTRACTOR=rules`` (the default): relative times resolve in ``JIYI_TIMEZONE``.

    明天 said at 23:30 in Shanghai is the next Shanghai day, not the day after the UTC date.
    """
    return RulesExtractor(tz=ZoneInfo(settings.timezone))
