"""Applying detection to what jiyi stores: messages, memories, and reading them back.

Policy (docs/privacy.md):

* a ``secret`` value is always masked; with a key it is also sealed into the record,
  without one it is not kept at all;
* a ``sensitive`` value is masked and sealed when a key is set, and kept as typed
  (recalled only when asked for) when none is, unless only the message before says what it is;
* a text carries the strictest level among its values, placeholders included, so a
  turn inherits the level of what it said and a fact the level of its values.
"""

from __future__ import annotations

import logging
import re
from collections import defaultdict, deque
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from jiyi.privacy.detect import PLACEHOLDER, find_values
from jiyi.privacy.findings import KINDS, SECRET, Finding, strip_value
from jiyi.privacy.grouped import GROUPS, plain_value
from jiyi.privacy.keyed import continued
from jiyi.privacy.mask import higher, level_of, mask_values, placeholder_level, unmask
from jiyi.privacy.seal import SEALED_KEY, Keyring, SealError
from jiyi.records import MemoryRecord, Message, Visibility
from jiyi.text.script import simplified

log = logging.getLogger("jiyi.privacy")


@dataclass(slots=True, frozen=True)
class Protected:
    """A text as stored: values masked, its level, and the masked ``[placeholder, value]`` pairs."""

    text: str
    level: Visibility
    pairs: tuple[tuple[str, str], ...] = ()


def protect_text(text: str, keyring: Keyring | None, *, before: str | None = None) -> Protected:
    """Mask what must not be stored in clear (see the module's policy). ``before``, the speaker's message just
    before, may name what a short one is: "wifi密码" then "是 mengmeng1314" (:func:`told_after`). A value only
    ``before`` names is masked whatever its level: the text alone could not tell it again, so a fact or an
    episode made from it later would lose its level ("身份证 前半截120105 1979" then "后半截 0812 3317")."""
    findings = find_values(text)
    named = told_after(before, text, findings) if before is not None else _first_part("", text, findings)
    findings = sorted([*findings, *named], key=lambda f: f.start)
    masked_now = [f for f in findings if f.level is SECRET or keyring is not None or f in named]
    kept = [f for f in findings if f not in masked_now]
    masked, pairs = mask_values(text, masked_now)
    level = level_of(masked, kept)
    return Protected(masked, level, tuple((p, v) for p, v in pairs) if keyring is not None else ())


#: a message short enough to be the value its speaker's last message named
ANSWER_CHARS = 48


def told_after(before: str, text: str, found: Sequence[Finding] = ()) -> list[Finding]:
    """The values of ``text`` that the words ending ``before`` name: in a short message, read as one text, a space
    apart, as if said in one breath (so the gap rules of privacy/detect.py hold); else the rest of a value
    ``before`` told in part (:func:`_rest_of`)."""
    if not before.strip():
        return []
    named = [] if len(text) > ANSWER_CHARS else _found_after(f"{before} ", text, found)
    return named or _rest_of(before, text, found) or _first_part(before, text, found) or _said_of(before, text, found)


def _found_after(lead: str, text: str, found: Sequence[Finding]) -> list[Finding]:
    """The values of ``text`` read with ``lead`` before it (as if said in one breath), placed in ``text``, that none
    of ``found`` overlaps."""
    at = len(lead)
    return [replace(f, start=f.start - at, end=f.end - at) for f in find_values(lead + text)
            if f.start >= at and all(f.end - at <= g.start or f.start - at >= g.end for g in found)]


#: a word for the first part of a value ("前半截系 Zj_xr", "first half is 9Kd8"), then a token with a digit or a sign
_FIRST_PART = re.compile(r"(?:前半截|前半部分|前半段|前半|前面|前头|前边|开头|(?i:first\s+half|first\s+part|part\s*(?:1|one)))"
                         r"\s*(?:是|为|係|系|:|：|=|(?i:is))?\s*(?P<v>(?=[!-~]*[\d#_*@$%&!-])[!-~]{2,40})")
#: a password named in a message ("帮我记住抖音小店后台个密码", "remember my router password for me")
_NAMES_PASSWORD = re.compile(r"密码|口令|(?i:\bpass(?:word|code)\b|\bpw\b|\bpin\b)")
#: … or a key's ("app secret 前半段 9f3Kp2", "token 前半截 …")
_NAMES_KEY = re.compile(r"密钥|秘钥|令牌|(?i:\bsecret\b|\btoken\b|\bapi\s*key\b|\bkey\b)")


def _first_part(before: str, text: str, found: Sequence[Finding]) -> list[Finding]:
    """The first part of a password or a key named before it, in this message ("app secret 前半段 9f3Kp2") or in a
    short one opening with it after the message that named it ("帮我记住抖音小店后台个密码 我成日唔记得" then "前半截系
    Zj_xr")."""
    read = simplified(text)
    if (m := _FIRST_PART.search(read)) is None:
        return []
    kind = _secret_named(read[:m.start()])
    if kind is None and len(text) <= ANSWER_CHARS and not read[:m.start()].strip():
        kind = _secret_named(simplified(before))  # (a short message opening with the first part: the one before)
    start, end = strip_value(text, *m.span("v"))
    if kind is None or any(start < g.end and end > g.start for g in found) \
            or text[start:end].replace(" ", "").isdigit() and plain_value(text, start, end):
        return []  # ("前面是 30 个人": a quantity)
    label, _en, level = KINDS[kind]
    return [Finding(start, end, kind, label, level, text[start:end])]


def _secret_named(text: str) -> str | None:
    """The kind of secret ``text`` names: a password, a key, or None."""
    return "password" if _NAMES_PASSWORD.search(text) else "api_key" if _NAMES_KEY.search(text) else None


#: a short message that says what the password the message before named is ("就是店名拼音首字母小写 加开业那年2009")
_IT_IS = re.compile(r"\s*(?:就是|就係|就系|其实是|即係|即系|即是|也就是|係|系|是|(?i:it'?s|it\s+is|that'?s|that\s+is|i\.e\.)\s)")


def _said_of(before: str, text: str, found: Sequence[Finding]) -> list[Finding]:
    """What a short message opening with "就是" / "it's" says the password named in the message before is, read as
    if the password word stood before it (its value, or a hint of how it is made)."""
    if len(text) > ANSWER_CHARS or not _IT_IS.match(text) or not _tells_password(before):
        return []
    lead = "密码" if re.search(r"[\u4e00-\u9fff]", text) else "password "
    return [f for f in _found_after(lead, text, found) if f.kind == "password"]


def _tells_password(before: str) -> bool:
    """Does ``before`` name a password, hold one masked, or tell how one is made ("係我哋 brand 名頭四個字母 + 公司成立
    年份 + #", the message naming the password before it)?"""
    if _NAMES_PASSWORD.search(simplified(before)):
        return True
    if any(placeholder_level(m.group(0)) is SECRET for m in PLACEHOLDER.finditer(before)):
        return True
    return _IT_IS.match(before) is not None and any(f.kind == "password" for f in _found_after("密码", before, ()))


#: the words for what follows a value told in part ("后半截是", "后头是", "second half:")
_REST_WORDS = (r"(?:后半截|后半部分|后半段|后半|后面|后头|后边|后几位|剩下的|余下的|下半截|(?i:second\s+half|other\s+half|"
               r"the\s+rest|rest\s+of\s+it|last\s+part|part\s*(?:2|two)))")
_SAY = r"\s*(?:是|为|係|系|:|：|=|(?i:is))?\s*"
#: the rest of a value the last message began ("后半截是 _p0o9TTm4", "后头是#91", "后面是 8 8 #"): groups of digits, or
#: a token with a digit or a sign, after a word for what follows
_REST = re.compile(_REST_WORDS + _SAY + rf"(?P<v>{GROUPS}|(?=[!-~]*[\d#_*@$%&!-])[!-~]{{2,40}})")
#: … or opening the message, maybe after "then" ("then 117 305.", "然後 56789", "5678 CD 区役所的表老要填")
_OPENING_REST = re.compile(r"\s*(?:(?:" + _REST_WORDS + r"|然后|接着|再来|还有|(?i:and\s+then|then|and|next|plus))"
                           + _SAY + r"[,，:：]?\s*)?" + rf"(?P<v>{GROUPS})")
#: the kinds of value a message may tell in part (a phone, an email or an address is told whole)
_TOLD_IN_PART = frozenset({"password", "code", "api_key", "bank_card", "id_number"})
#: the placeholder labels of values told whole
_WHOLE_LABELS = frozenset(label for kind in ("phone", "email", "address") for label in KINDS[kind][:2])


def _last_told(before: str) -> tuple[Finding, bool] | None:
    """The last secret or ID ``before`` told (a placeholder, if it was masked already), and whether it ends
    ``before`` (only signs, spaces or an emoji after it)."""
    told = [f for f in find_values(before) if f.kind in _TOLD_IN_PART]
    told = sorted([*told, *_first_part("", before, told)], key=lambda f: f.start)  # ("app secret 前半段 9f3Kp2")
    told = told or _begun(before)
    masked = [m for m in PLACEHOLDER.finditer(before) if m.group("label").strip() not in _WHOLE_LABELS]
    last: Finding | None = told[-1] if told else None
    if masked and (last is None or masked[-1].start() > last.start):
        m = masked[-1]
        level = placeholder_level(m.group(0))
        last = Finding(m.start(), m.end(), "password" if level is SECRET else "id_number", m.group("label").strip(),
                       level, "")
    if last is None:
        return None
    return last, _WORD.search(before, last.end) is None


#: an ID's word ending a message with the first few characters of its number ("我身分證字號 F22")
_ID_BEGUN = re.compile(r"(?:身份证|身分证|证件|护照|居留证|居留卡|在留卡|(?i:\bID\b|passport))\s*(?:字号|号码|号|(?i:no\.?|number))?"
                       r"\s*(?:是|为|系|係|:|：)?\s*(?P<v>[A-Za-z0-9]{1,8})\s*$")


def _begun(before: str) -> list[Finding]:
    """The first part of a value ``before`` began and named only by a word for its first part in that message
    ("前半截系 Zj_xr": a password's, the message naming it further back) or an ID's word ("我身分證字號 F22")."""
    read = simplified(before)
    if (m := _FIRST_PART.search(read)) is not None and len(v := m.group("v")) >= 4 \
            and re.search(r"[A-Za-z]", v) and re.search(r"[\d#_*@$%&!]", v):
        label, _en, level = KINDS["password"]
        return [Finding(m.start("v"), m.end("v"), "password", label, level, before[m.start("v"):m.end("v")])]
    if (m := _ID_BEGUN.search(read)) is not None:
        label, _en, level = KINDS["id_number"]
        return [Finding(m.start("v"), m.end("v"), "id_number", label, level, before[m.start("v"):m.end("v")])]
    return []


_WORD = re.compile(r"[0-9A-Za-z\u4e00-\u9fff]")
_DIGITS = re.compile(r"\d")
#: a number a sentence is about is no value's rest: "555 1234 is the shop", "1990 1995 2000 were good years"
_SUBJECT = re.compile(r"[\s,]*(?:是|为|(?i:is|are|was|were|'s|=)(?![A-Za-z]))")
#: a number said to be the rest of the value after it: "037 is the end", "22 are the last digits", "3317是最后几位"
_SAID_THE_REST = re.compile(r"\s*(?:(?i:is|are|'s)\s+(?:the\s+)?(?i:end|rest|last\s+(?:part|bit|bits|digits?|few|\w+\s+digits?))\b|"
                            r"是(?:最)?(?:后面|后几位|后半截|结尾|末尾|后头))")
#: two short groups a dash apart opening a message are a day, a score or a range ("and then 11-02", "3-1"), unless a
#: word for what follows names them the rest ("后头是 3-1")
_PAIR = re.compile(r"\d{1,2}\s?-\s?\d{1,2}")


def _rest_of(before: str, text: str, found: Sequence[Finding]) -> list[Finding]:
    """The rest of a secret or an ID ``before`` told in part, as that value: after a word for what follows in a
    short message ("门锁密码 前面是2580" then "后头是#91"), or opening the message when ``before`` ended on the
    first part ("居留卡号 记一下 AB 1234" then "5678 CD 区役所的表老要填", "my SIN starts 482" then "then 117 305.")."""
    last = _last_told(before)
    if last is None:
        return []
    told, ended = last
    read = simplified(text)
    rested = [m.span("v") for m in _REST.finditer(read)] if len(text) <= ANSWER_CHARS else []
    spans = list(rested)
    if ended and (m := _OPENING_REST.match(read)) is not None and (
            len(_DIGITS.findall(m.group("v"))) >= 4 and not _SUBJECT.match(read, m.end("v"))
            or _SAID_THE_REST.match(read, m.end("v"))):
        spans.append(m.span("v"))  # (four digits at least: "3 2 1 go!" after a PIN is a countdown; "037 is the end")
    # (fewer after a "then" word, typed as the value was: "4-8-2-6" then "tapos 1-1.", "is 58" then "and then 07")
    shaped = continued(told.value, read) if ended and told.kind != "id_number" else None
    out: list[Finding] = []
    for span in sorted({*spans, *([shaped] if shaped else [])}):
        start, end = strip_value(read, *span)
        value = read[start:end]
        grouped = not re.search(r"[#_*@$%&!]|[a-z]", value) and (
            "-" not in value or (span not in rested and _PAIR.fullmatch(value) is not None))
        if (grouped and span != shaped and plain_value(read, start, end)) \
                or any(start < g.end and end > g.start for g in [*found, *out]):
            continue
        out.append(Finding(start, end, told.kind, told.label, told.level, text[start:end]))
    return out


def opens_short(msgs: Sequence[Message]) -> bool:
    """Do ``msgs`` open with a user message short enough to be the value the user's last message named?"""
    first = next((m for m in msgs if m.role == "user"), None)
    return first is not None and len(first.content) <= ANSWER_CHARS


def protect_batch(msgs: Sequence[Message], keyring: Keyring | None,
                  before: str | None = None) -> list[tuple[Message, dict[str, str] | None]]:
    """:func:`protect_message` for each of ``msgs``, a user's message read after the user's message before it
    (``before`` for the first: the session's last, already stored)."""
    out = []
    for m in msgs:
        out.append(protect_message(m, keyring, before=before if m.role == "user" else None))
        if m.role == "user":
            before = m.content
    return out


def protect_message(m: Message, keyring: Keyring | None,
                    before: str | None = None) -> tuple[Message, dict[str, str] | None]:
    """The message as the queue, the buffer and the episode keep it, and its sealed values."""
    p = protect_text(m.content, keyring, before=before)
    if p.text == m.content:
        return m, None
    sealed = keyring.seal(p.pairs) if keyring is not None and p.pairs else None
    return Message(m.role, p.text, m.timestamp, m.id, m.name), sealed


def open_pairs(blobs: Iterable[object], keyring: Keyring | None) -> list[tuple[str, str]]:
    """Every ``[placeholder, value]`` pair sealed in ``blobs`` that our keys open (others are skipped)."""
    out: list[tuple[str, str]] = []
    if keyring is None:
        return out
    for blob in blobs:
        if blob is None:
            continue
        try:
            out.extend((a, b) for a, b in keyring.open(blob))
        except SealError as exc:
            log.warning("a sealed value stays masked: %s", exc)
    return out


def pairs_for(text: str, pool: Sequence[tuple[str, str]]) -> list[tuple[str, str]]:
    """The values for ``text``'s placeholders, in text order, each taken once from ``pool``."""
    by_ph: dict[str, deque[str]] = defaultdict(deque)
    for ph, value in pool:
        by_ph[ph].append(value)
    out = []
    for m in PLACEHOLDER.finditer(text):
        if by_ph[m.group(0)]:
            out.append((m.group(0), by_ph[m.group(0)].popleft()))
    return out


def protect_record(rec: MemoryRecord, keyring: Keyring | None,
                   inherited: Sequence[tuple[str, str]] = ()) -> MemoryRecord:
    """``rec`` with its content masked, its level raised to its values' and its values sealed.

    ``inherited`` are the values of the placeholders it may already carry (from the turns
    it was extracted from).
    """
    p = protect_text(rec.content, keyring)
    meta = {k: v for k, v in rec.metadata.items() if k != SEALED_KEY}
    if keyring is not None:
        pairs = pairs_for(p.text, [*inherited, *open_pairs([rec.metadata.get(SEALED_KEY)], keyring), *p.pairs])
        if pairs:
            meta[SEALED_KEY] = keyring.seal(pairs)
    visibility = higher(rec.visibility, p.level)
    entities = safe_entities(rec.entities, rec.content, keyring)
    meta = {k: (protect_text(v, keyring).text if isinstance(v, str) and k != SEALED_KEY else v)
            for k, v in meta.items()}
    if p.text == rec.content and visibility is rec.visibility and meta == rec.metadata and entities == rec.entities:
        return rec
    return rec.replace(content=p.text, visibility=visibility, metadata=meta, entities=entities)


def safe_entities(entities: Sequence[str], text: str, keyring: Keyring | None) -> tuple[str, ...]:
    """``entities`` without any that is, holds or is part of a value masked in ``text`` (or is one itself):
    the entity table and the keyword index would otherwise keep the value in clear."""
    hidden = [f.value for f in find_values(text) if f.level is SECRET or keyring is not None]
    return tuple(e for e in entities
                 if not any(e in v or v in e for v in hidden)
                 and not any(f.level is SECRET or keyring is not None for f in find_values(e)))


#: ``metadata`` flag of a record a prompt shows with its values hidden (read/masked.py): never opened
MASKED_KEY = "masked_for_prompt"


def open_record(rec: MemoryRecord, keyring: Keyring | None) -> MemoryRecord:
    """``rec`` as its owner reads it: values put back when a key of ours sealed them.

    Without a key (or with the wrong one) the record stays masked; it never fails a read. A line a prompt shows
    with its values hidden (:data:`MASKED_KEY`, read/masked.py) stays hidden.
    """
    blob = rec.metadata.get(SEALED_KEY)
    if blob is None or keyring is None or rec.metadata.get(MASKED_KEY):
        return rec
    pairs = open_pairs([blob], keyring)
    if not pairs:
        return rec
    meta = {k: v for k, v in rec.metadata.items() if k != SEALED_KEY}
    return rec.replace(content=unmask(rec.content, pairs), metadata=meta)


def open_row(row: dict[str, Any], keyring: Keyring | None) -> dict[str, Any]:
    """An exported memory (``MemoryRecord.to_dict`` form) with its values put back, for its owner."""
    meta = row.get("metadata")
    if keyring is None or not isinstance(meta, dict) or SEALED_KEY not in meta or not isinstance(row.get("content"), str):
        return row
    pairs = open_pairs([meta[SEALED_KEY]], keyring)
    if not pairs:
        return row
    return {**row, "content": unmask(row["content"], pairs),
            "metadata": {k: v for k, v in meta.items() if k != SEALED_KEY}}


def protect_row(row: dict[str, Any], keyring: Keyring | None) -> dict[str, Any]:
    """A memory to import, masked, levelled and sealed as the write path would store it."""
    content, meta = row.get("content"), row.get("metadata")
    if not isinstance(content, str) or (meta is not None and not isinstance(meta, dict)):
        return row  # the importer's validation reports it
    p = protect_text(content, keyring)
    out = {**row, "content": p.text}
    try:
        stated = Visibility(row.get("visibility") or Visibility.NORMAL.value)
    except ValueError:
        return row
    out["visibility"] = higher(stated, p.level).value
    if p.pairs and keyring is not None:
        out["metadata"] = {**(meta or {}), SEALED_KEY: keyring.seal(p.pairs)}
    return out
