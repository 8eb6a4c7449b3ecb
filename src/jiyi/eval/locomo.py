"""Loading LoCoMo-schema evaluation sets (SPEC §7): LoCoMo itself and our Chinese set.

Both files are a JSON list of samples ``{"sample_id", "conversation": {"speaker_a",
"speaker_b", "session_N_date_time", "session_N": [turns]}, "qa": [questions]}``. They
differ in three ways that matter here, all detected from the data:

- dates: LoCoMo writes ``1:56 pm on 8 May, 2023`` (no zone, taken as UTC); the zh set
  writes ``2025-03-02 09:15`` in China time (+08:00);
- categories: integers in LoCoMo (5 = adversarial, reported apart), names in zh;
- roles: in the zh set speaker_b is the bot, so its turns are ``assistant`` messages.

Evidence ids are checked against the conversation's turns. A few LoCoMo ids are
malformed (``D8:6; D9:17``, ``D:11:26``): the obvious repairs (split a list, drop a stray
colon) are made and counted; what still names no turn is dropped and counted.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

from jiyi.errors import InvalidInput

CHINA_TZ = timezone(timedelta(hours=8))
LOCOMO_CATEGORIES = {1: "multi_hop", 2: "temporal", 3: "open_domain", 4: "single_hop", 5: "adversarial"}
#: Categories reported apart from the overall numbers (questions about things never said).
APART_CATEGORIES = frozenset({"adversarial"})

_LOCOMO_DATE = re.compile(r"^\s*(\d{1,2}):(\d{2})\s*([ap]\.?m\.?)\s+on\s+(\d{1,2})\s+([A-Za-z]+),?\s+(\d{4})\s*$",
                          re.IGNORECASE)
_ISO_MINUTE = re.compile(r"^\s*(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2})(?::(\d{2}))?\s*$")
_MONTHS = {m: i for i, m in enumerate(
    ("january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
     "november", "december"), start=1)}
_SESSION_KEY = re.compile(r"^session_(\d+)$")
_DIA_ID = re.compile(r"^D(\d+):(\d+)$")


@dataclass(slots=True, frozen=True)
class Turn:
    dia_id: str
    speaker: str
    role: str
    text: str


@dataclass(slots=True, frozen=True)
class Session:
    number: int
    date: datetime
    turns: tuple[Turn, ...]


@dataclass(slots=True, frozen=True)
class Question:
    question: str
    category: str
    evidence: tuple[str, ...]  # resolved turn ids, in the file's order (zh knowledge_update: latest first)
    answer: str = ""


@dataclass(slots=True)
class EvidenceAudit:
    """How many evidence ids needed repair or could not be resolved (reported with the results)."""

    repaired: list[str] = field(default_factory=list)
    unresolved: list[str] = field(default_factory=list)


@dataclass(slots=True, frozen=True)
class Conversation:
    sample_id: str
    speaker_a: str
    speaker_b: str
    sessions: tuple[Session, ...]
    questions: tuple[Question, ...]

    def turn_count(self) -> int:
        return sum(len(s.turns) for s in self.sessions)


@dataclass(slots=True)
class Dataset:
    name: str
    schema: str  # "locomo" or "zh"
    conversations: list[Conversation]
    audit: EvidenceAudit


def parse_session_date(text: str) -> datetime:
    """A session date in either schema, as an aware datetime.

    ``1:56 pm on 8 May, 2023`` (LoCoMo, no zone given: UTC) or ``2025-03-02 09:15`` (zh,
    China time). ISO 8601 with an explicit offset is accepted too.
    """
    m = _LOCOMO_DATE.match(text)
    if m:
        hour, minute, ampm, day, month, year = m.groups()
        mon = _MONTHS.get(month.lower()) or _month_prefix(month)
        h = int(hour) % 12 + (12 if ampm.lower().startswith("p") else 0)
        return datetime(int(year), mon, int(day), h, int(minute), tzinfo=timezone.utc)
    m = _ISO_MINUTE.match(text)
    if m:
        y, mo, d, hh, mi, ss = m.groups()
        return datetime(int(y), int(mo), int(d), int(hh), int(mi), int(ss or 0), tzinfo=CHINA_TZ)
    try:
        parsed = datetime.fromisoformat(text.strip())
    except ValueError:
        raise InvalidInput(f"unrecognised session date {text!r}") from None
    return parsed if parsed.tzinfo else parsed.replace(tzinfo=timezone.utc)


def _month_prefix(name: str) -> int:
    for full, num in _MONTHS.items():
        if len(name) >= 3 and full.startswith(name.lower()):
            return num
    raise InvalidInput(f"unknown month {name!r}")


def category_name(raw: object) -> str:
    """LoCoMo's integer categories by name; names pass through."""
    if isinstance(raw, bool):
        raise InvalidInput(f"bad category {raw!r}")
    if isinstance(raw, int) or (isinstance(raw, str) and raw.isdigit()):
        return LOCOMO_CATEGORIES.get(int(raw), f"category_{raw}")
    if isinstance(raw, str) and raw.strip():
        return raw.strip()
    raise InvalidInput(f"bad category {raw!r}")


def detect_schema(samples: list[dict[str, Any]]) -> str:
    """``locomo`` when categories are integers, ``zh`` when they are names."""
    for sample in samples:
        for qa in sample.get("qa", []):
            return "locomo" if isinstance(qa.get("category"), int) else "zh"
    return "locomo"


def load_dataset(path: str | Path) -> Dataset:
    """Read a LoCoMo-schema file; schema, dates, roles and evidence are normalised."""
    p = Path(path)
    samples = json.loads(p.read_text(encoding="utf-8"))
    if not isinstance(samples, list):
        raise InvalidInput(f"{p}: expected a JSON list of samples")
    schema = detect_schema(samples)
    audit = EvidenceAudit()
    convs = [_conversation(s, schema, audit) for s in samples]
    return Dataset(name=p.name, schema=schema, conversations=convs, audit=audit)


def _conversation(sample: dict[str, Any], schema: str, audit: EvidenceAudit) -> Conversation:
    conv = sample["conversation"]
    a, b = conv["speaker_a"], conv["speaker_b"]
    sessions: list[Session] = []
    for key, turns in conv.items():
        m = _SESSION_KEY.match(key)
        if not m or not isinstance(turns, list) or not turns:
            continue
        number = int(m.group(1))
        date = parse_session_date(conv[f"{key}_date_time"])
        sessions.append(Session(number, date, tuple(_turn(t, b, schema) for t in turns)))
    sessions.sort(key=lambda s: s.number)
    ids = {t.dia_id for s in sessions for t in s.turns}
    sample_id = str(sample.get("sample_id", ""))
    questions = tuple(
        Question(question=str(q["question"]), category=category_name(q["category"]),
                 evidence=resolve_evidence(q.get("evidence") or [], ids, audit, sample_id),
                 answer=str(q.get("answer", q.get("adversarial_answer", ""))))
        for q in sample.get("qa", [])
    )
    return Conversation(sample_id, a, b, tuple(sessions), questions)


def _turn(raw: dict[str, Any], bot_name: str, schema: str) -> Turn:
    text = str(raw.get("text", "")).strip()
    caption = raw.get("blip_caption")
    if caption:
        text = f"{text} [shares a photo: {caption}]".strip()
    speaker = str(raw["speaker"])
    role = "assistant" if schema == "zh" and speaker == bot_name else "user"
    return Turn(dia_id=str(raw["dia_id"]), speaker=speaker, role=role, text=text)


def resolve_evidence(raw: list[Any], known: set[str], audit: EvidenceAudit, where: str = "") -> tuple[str, ...]:
    """Evidence ids that name a turn, in order; repairs and drops are recorded in ``audit``."""
    out: list[str] = []
    for item in raw:
        text = str(item).strip()
        if text in known:
            out.append(text)
            continue
        parts = [_repair(p) for p in re.split(r"[;,\s]+", text) if p]
        found = [p for p in parts if p in known]
        if found:
            audit.repaired.append(f"{where}:{text}")
            out.extend(found)
        if len(found) < len(parts) or not parts:
            audit.unresolved.append(f"{where}:{text}")
    return tuple(dict.fromkeys(out))


def _repair(token: str) -> str:
    """``D:11:26`` → ``D11:26``; anything else is returned as it is."""
    m = re.match(r"^D:?(\d+):(\d+)$", token.strip())
    return f"D{m.group(1)}:{m.group(2)}" if m else token.strip()


def session_of(dia_id: str) -> str:
    """The session a turn id belongs to: ``D3:5`` → ``D3`` (the id itself if it has no colon)."""
    m = _DIA_ID.match(dia_id)
    return f"D{m.group(1)}" if m else dia_id.split(":", 1)[0]
