"""A secret or an unasked-for sensitive memory in a prompt: its line with every value hidden, or nothing.

"我家小米密码锁改成 [已隐藏:门锁密码] 了" tells a bot what it needs for "门锁好像没电了 咋换电池" (the lock is
a Xiaomi) without the code; "研招网账号 lin_88 密码 [已隐藏:密码]" which site the user logs in to. So
``build_context`` may show such a line — the value replaced by its placeholder — where ``search`` never
returns it. A line is shown only when every value it holds is behind a placeholder: the detector finds
none left, and nothing that looks like one (a run of digits, a token of letters and digits) stays beside
the placeholders. A fact whose value was found only in the message it came from ("User: R5520913K,
expires in April 2027") has no placeholder to show and stays out.
"""

from __future__ import annotations

import re

from jiyi.privacy.detect import PLACEHOLDER, find_values
from jiyi.privacy.mask import mask_values
from jiyi.privacy.protect import MASKED_KEY
from jiyi.read.noise import EN_STOP, ZH_STOP
from jiyi.records import MemoryRecord
from jiyi.text.ended import OVER_KEY
from jiyi.text.script import simplified

#: the fused relevance (read/fuse.py) a hidden value's line needs: more than a turn needs to stay in a block
#: (read/curate.RELEVANT), so that it comes for what it is for (门锁 for the lock's line, 医院 for 医保卡), not for any
#: question (a Go question brought "my env: OPENAI_API_KEY=[secret: API key]", a plan for the year a mistyped code)
MASKED_RELEVANCE = 2.0
#: … and what its rank gives up: as relevant as another line, it comes after it
MASKED_RANK = -1.0
#: what may be a value the detector did not name: three digits in a row, or a word mixing letters and digits
_RESIDUE = re.compile(r"\d{3,}|(?<![A-Za-z0-9])(?=[A-Za-z0-9!@#$%^&*_+=.\-]*\d)(?=[A-Za-z0-9!@#$%^&*_+=.\-]*[A-Za-z])"
                      r"[A-Za-z0-9!@#$%^&*_+=.\-]{5,}")

#: … unless it is a name, said as one ("wifi叫 ZXO-5G", "network called Kiwi-5G"): no one names a secret
_NAMING = re.compile(r"(?:叫做?|名字?(?:是|叫)?|(?i:named|called|ssid(?:\s+is)?|name\s+is))\s*[:：]?\s*$")


#: what says nothing beside a placeholder: the user, "my", "is", punctuation
_FILLER = re.compile(r"(?i)用户|我的|我|的|是|为|了|\buser'?s?\b|\bmy\b|\bis\b|\bthe\b|[\s\W_]")


def hidden(text: str, owner: str | None = None) -> str | None:
    """``text`` with every value it holds behind its placeholder, or None when one may be left in clear or it
    says nothing but that a value was given ("用户的密码是[已隐藏:密码]", "Ethan's PIN is [secret: PIN]" with
    ``owner`` Ethan: nothing a bot can use)."""
    found = find_values(text)
    masked = mask_values(text, found)[0] if found else text
    rest = PLACEHOLDER.sub(" ", masked)
    if rest == masked or any(not _NAMING.search(rest, 0, r.start()) for r in _RESIDUE.finditer(rest)) \
            or find_values(masked):
        return None
    rest = simplified(rest)
    if owner:  # "子涵的…", "Ethan's …": whose it is says nothing of it
        rest = re.sub(rf"^\s*{re.escape(simplified(owner))}(?:的|'s\b)?", "", rest, count=1)
    for m in PLACEHOLDER.finditer(masked):  # nor what the placeholder says (用户的证件号是[已隐藏:身份证号])
        label = simplified(m.group("label").strip())
        parts = label.split() if label.isascii() else list(label)
        rest = re.sub("|".join(map(re.escape, parts)), " ", rest, flags=re.IGNORECASE)
    return masked if len(_FILLER.sub("", rest)) >= 2 else None


def speaks_of(query: str, text: str) -> bool:
    """Does ``query`` name something ``text`` says besides its placeholders (a character of a Chinese word, an English
    word)? "门锁好像没电了" and "小米密码锁 …" share 锁; "推荐个护眼台灯" and "中行U盾密码 […]" nothing."""
    return bool(_units(simplified(query)) & _units(simplified(PLACEHOLDER.sub(" ", text))))


def _units(text: str) -> set[str]:
    low = text.lower()
    return {c for c in _CJK.findall(low) if c not in ZH_STOP} | {
        w for w in _WORD.findall(low) if len(w) > 2 and w not in EN_STOP}


_CJK = re.compile(r"[\u4e00-\u9fff]")
_WORD = re.compile(r"[a-z][a-z0-9]+")


def masked_line(rec: MemoryRecord) -> MemoryRecord | None:
    """``rec`` as a prompt may show it without its values (flagged :data:`MASKED_KEY`), or None."""
    text = hidden(rec.content, rec.speaker)
    if text is None:
        return None
    meta = {k: v for k, v in rec.metadata.items() if k != OVER_KEY}
    over = [t for t in rec.metadata.get(OVER_KEY) or () if isinstance(t, str) and not find_values(t)
            and not _RESIDUE.search(t)]
    if over:
        meta[OVER_KEY] = over
    return rec.replace(content=text, metadata={**meta, MASKED_KEY: True}, entities=())
