"""A wedding keeps the partner's name: "my fiancé is teodor" then "married 💍" is a husband called teodor.

A wedding supersedes what called the partner a boyfriend, a girlfriend or a fiancé(e)
(write/resolve.py): they are no longer that. But it is the same person, and the wedding's own
words rarely name them ("我们领证了", "WE'RE MARRIED"): the name would be lost with the old
memories. The new memory takes it from them, or from the turns they were told in:

- "User married 💍" + "User's fiancé is teodor" → "User married 💍 (spouse: teodor)"
- "用户领证了" + "用户的男朋友叫阿晟" → "用户领证了（配偶：阿晟）"
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from jiyi.records import MemoryRecord
from jiyi.text.language import detect_language
from jiyi.text.relations import EN_NAME_DENY, en_relation_names, zh_relation_names

_PARTNER_KEYS = frozenset({"boyfriend", "girlfriend", "fiance", "partner"})
#: lowercase chat: "my fiancé is teodor, he's…": one word right after, and the clause ends with it
_EN_LOWER = re.compile(r"(?i)\bmy\s+(?:fianc[ée]e?|boyfriend|girlfriend|partner|bf|gf)(?:'s\s+name)?\s+is\s+"
                       r"(?:named\s+|called\s+)?(?P<name>[a-z][a-z'-]{1,20})(?=\s*(?:[,.;!]|$|\s+(?:he|she|they)\b))")
_DENY = frozenset(w.lower() for w in EN_NAME_DENY)


def partner_name(texts: Sequence[str]) -> str | None:
    """The partner's name as ``texts`` (old memories, their turns) give it, or None."""
    for text in texts:
        lang = detect_language(text)
        found = zh_relation_names(text) if lang == "zh" else en_relation_names(text)
        for _, key, name in found:
            if key in _PARTNER_KEYS:
                return name
        if lang == "en" and (m := _EN_LOWER.search(text)) and m.group("name").lower() not in _DENY:
            return m.group("name")
    return None


def with_spouse(rec: MemoryRecord, name: str | None) -> MemoryRecord:
    """``rec`` (a wedding) naming the spouse, unless it names them already."""
    if not name or name.lower() in rec.content.lower():
        return rec
    zh = detect_language(rec.content) == "zh"
    return rec.replace(content=f"{rec.content}（配偶：{name}）" if zh else f"{rec.content} (spouse: {name})",
                       entities=tuple(dict.fromkeys((*rec.entities, name))))
