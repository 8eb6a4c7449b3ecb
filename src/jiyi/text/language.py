"""Which language a text is in, for choosing patterns and output wording ("zh" or "en").

Counting scripts is enough for a chat message and costs nothing. One Chinese
character carries about as much as a four-letter English word, so Han characters
are weighted four times a Latin letter: ``我用iPhone15拍的`` is Chinese,
``I love 北京 duck`` is English. Text with neither (emoji, numbers) gets ``default``.
"""

from __future__ import annotations

from typing import Literal

Language = Literal["zh", "en"]


def _is_han(ch: str) -> bool:
    o = ord(ch)
    return 0x4E00 <= o <= 0x9FFF or 0x3400 <= o <= 0x4DBF or 0xF900 <= o <= 0xFAFF


def detect_language(text: str, default: Language = "zh") -> Language:
    """``"zh"`` or ``"en"`` for ``text``; ``default`` when it has neither script."""
    han = latin = 0
    for ch in text:
        if _is_han(ch):
            han += 1
        elif ("a" <= ch <= "z") or ("A" <= ch <= "Z"):
            latin += 1
    if han == 0 and latin == 0:
        return default
    return "zh" if han * 4 >= latin else "en"
