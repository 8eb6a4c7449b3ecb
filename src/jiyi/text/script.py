"""Chinese typed in traditional characters, read as simplified: 我對花生過敏 → 我对花生过敏.

Users in Taiwan, Hong Kong and Macau (and many elsewhere) type traditional characters. The rules that read
a statement (what is extracted, what a change is, what is a secret: 提款卡密碼) are written in simplified
characters; they read :func:`simplified` of a text. What is stored and shown keeps the characters the user
typed (:func:`restore`).

The reading is one character for one, so every index into it is an index into the text as typed (a found
secret's span masks the same characters of the original). The table, ``data/t2s_chars.tsv.gz`` (one
``traditional<TAB>simplified`` line each), is OpenCC's character conversion (``t2s``, with
the Taiwan and Hong Kong variants of ``tw2s`` and ``hk2s``), each CJK character converted alone, except those
simplified writing uses too (t2s reads 么 as 幺; simplified text is left as it is). Regenerate it with
``python -m jiyi.text.script`` after ``pip install opencc``. The package is not needed at run time.
"""

from __future__ import annotations

import gzip
import re
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path

from jiyi.text.mixed import JOINER, Reading, tight

_TABLE = Path(__file__).with_name("data") / "t2s_chars.tsv.gz"
#: texts longer than this are restored only where they match whole (a long text's pieces are searched in it)
_MAX_RESTORE = 4000


@lru_cache(maxsize=1)
def _table() -> dict[int, int]:
    with gzip.open(_TABLE, "rt", encoding="utf-8") as f:
        pairs = (line.rstrip("\n").split("\t") for line in f if "\t" in line)
        return {ord(t): ord(s) for t, s in pairs if len(t) == 1 and len(s) == 1}


@lru_cache(maxsize=1)
def _traditional() -> re.Pattern[str]:
    """Any character of the table: most texts (simplified, English) have none and are returned as they are."""
    return re.compile("[" + "".join(sorted(chr(c) for c in _table())) + "]")


def simplified(text: str) -> str:
    """``text`` with each traditional character as its simplified one; same length, same positions. (It is
    read on the hot paths of both sides: a text without one is found so by one regex scan, 15 times faster
    than translating it.)"""
    return text.translate(_table()) if _traditional().search(text) else text


def rules_reading(text: str) -> Reading:
    """What the rules read for ``text``: traditional characters as simplified, then :func:`jiyi.text.mixed.tight`
    (Latin names in Chinese as one value); positions index ``text`` as typed (:func:`simplified` is one character
    for one)."""
    r = tight(simplified(text))
    return Reading(r.text, text, r.positions)


def restore(content: str, sources: Sequence[tuple[str, str] | Reading]) -> str:
    """``content``, written from readings, in the characters of the texts it came from.

    ``sources`` are readings (:class:`jiyi.text.mixed.Reading`), or ``(reading, original)`` pairs of the same
    length (:func:`simplified` of each original): every stretch of ``content`` found in a reading, longest
    first, takes the original's characters at that place (the spaces a reading left out, included). What no
    source holds (用户, a template's words) stays as it is.
    """
    readings = [s if isinstance(s, Reading) else Reading(s[0], s[1], tuple(range(len(s[0])))) for s in sources]
    readings = [r for r in readings if r.text != r.original]
    if not readings or len(content) > _MAX_RESTORE:
        return content.replace(JOINER, " ")
    out: list[str] = []
    i = 0
    while i < len(content):
        best = ("", 0)
        for r in readings:
            n = _longest_at(content, i, r.text)
            if n > best[1]:
                at = r.text.find(content[i:i + n])
                best = (r.span(at, at + n), n)
        if best[1] == 0:
            out.append(content[i])
            i += 1
        else:
            out.append(best[0])
            i += best[1]
    return "".join(out).replace(JOINER, " ")


def _longest_at(content: str, i: int, reading: str) -> int:
    """How many characters of ``content`` from ``i`` on occur together in ``reading``."""
    lo, hi = 0, min(len(content) - i, len(reading))
    while lo < hi:  # occurrence of a prefix is monotone in its length
        mid = (lo + hi + 1) // 2
        if content[i:i + mid] in reading:
            lo = mid
        else:
            hi = mid - 1
    return lo


def _build() -> dict[str, str]:  # pragma: no cover - needs opencc, run by hand
    import opencc  # type: ignore[import-not-found]

    out: dict[str, str] = {}
    blocks = [range(0x3400, 0x4DC0), range(0x4E00, 0xA000), range(0xF900, 0xFB00)]
    to_traditional = opencc.OpenCC("s2t")
    for config in ("t2s", "tw2s", "hk2s"):
        converter = opencc.OpenCC(config)
        for block in blocks:
            for cp in block:
                ch = chr(cp)
                conv = converter.convert(ch)
                # a character simplified writing uses itself (么, which t2s reads as 幺) is left as it is
                if conv != ch and len(conv) == 1 and to_traditional.convert(ch) == ch:
                    out.setdefault(ch, conv)
    return out


if __name__ == "__main__":  # pragma: no cover
    table = _build()
    with gzip.open(_TABLE, "wt", encoding="utf-8", compresslevel=9) as f:
        f.writelines(f"{t}\t{s}\n" for t, s in sorted(table.items()))
    print(f"{len(table)} characters → {_TABLE}")
