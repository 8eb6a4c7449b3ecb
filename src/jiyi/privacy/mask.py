"""Placeholders for masked values, and the level a text carries.

A masked value becomes a placeholder that still says what it was, so the memory stays
findable and readable: ``用户的支付密码是[已隐藏:支付密码]``, ``User's PIN is [secret: PIN]``,
``my phone is [private: phone number]``. The placeholder is what the keyword index and
the embedding see; the value itself, when kept at all, is sealed (:mod:`.seal`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from jiyi.privacy.detect import PLACEHOLDER, find_values
from jiyi.privacy.findings import KINDS, SECRET, SENSITIVE, Finding
from jiyi.records import Visibility

_SECRET_LABELS = {zh for zh, _, lvl in KINDS.values() if lvl is SECRET} | {
    en for _, en, lvl in KINDS.values() if lvl is SECRET}
_SECRET_WORDS = re.compile(r"(?i)密码|口令|码$|密钥|卡号|账号|帐号|password|passcode|\bpin\b|code|key|card|token")

_RANK = {Visibility.NORMAL: 0, SENSITIVE: 1, SECRET: 2}


def placeholder(f: Finding, zh: bool) -> str:
    """How ``f`` reads once masked."""
    if zh:
        return f"[已隐藏:{f.label}]"
    return f"[secret: {f.label}]" if f.level is SECRET else f"[private: {f.label}]"


def placeholder_level(text: str) -> Visibility:
    """The highest level among the placeholders already in ``text`` (NORMAL when none)."""
    level = Visibility.NORMAL
    for m in PLACEHOLDER.finditer(text):
        label = m.group("label").strip()
        secret = m.group(0).startswith("[secret") or label in _SECRET_LABELS or bool(_SECRET_WORDS.search(label))
        level = higher(level, SECRET if secret else SENSITIVE)
    return level


def higher(a: Visibility, b: Visibility) -> Visibility:
    """The stricter of two levels (secret > sensitive > normal)."""
    return a if _RANK[a] >= _RANK[b] else b


def level_of(text: str, findings: Sequence[Finding] | None = None) -> Visibility:
    """The level of a text: its strictest value, masked (placeholder) or not."""
    found = find_values(text) if findings is None else findings
    level = placeholder_level(text)
    for f in found:
        level = higher(level, f.level)
    return level


def mask_values(text: str, findings: Sequence[Finding], *, zh: bool | None = None) -> tuple[str, list[list[str]]]:
    """``text`` with each of ``findings`` replaced by its placeholder, and the ``[placeholder, value]``
    pairs in text order (what :mod:`.seal` keeps, when a key is set)."""
    if zh is None:
        zh = bool(re.search(r"[\u4e00-\u9fff]", text))
    parts: list[str] = []
    pairs: list[list[str]] = []
    at = 0
    for f in sorted(findings, key=lambda f: f.start):
        ph = placeholder(f, zh)
        parts.append(text[at:f.start])
        parts.append(ph)
        pairs.append([ph, f.value])
        at = f.end
    parts.append(text[at:])
    return "".join(parts), pairs


def unmask(text: str, pairs: Sequence[Sequence[str]]) -> str:
    """Put the values back, each into the first placeholder of its kind not yet filled."""
    for ph, value in pairs:
        text = text.replace(ph, value, 1)
    return text
