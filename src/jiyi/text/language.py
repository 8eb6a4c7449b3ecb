"""Which language a text is in, for choosing patterns and output wording ("zh" or "en").

Counting scripts is enough for a chat message and costs nothing. One Chinese
character carries about as much as a four-letter English word, so Han characters
are weighted four times a Latin letter: ``我用iPhone15拍的`` is Chinese,
``I love 北京 duck`` is English. Text with neither (emoji, numbers) gets ``default``.
"""

from __future__ import annotations

import re
from typing import Literal

Language = Literal["zh", "en"]


_HAN = re.compile(r"[\u4e00-\u9fff\u3400-\u4dbf\uf900-\ufaff]")
_LATIN = re.compile(r"[A-Za-z]")


def detect_language(text: str, default: Language = "zh") -> Language:
    """``"zh"`` or ``"en"`` for ``text``; ``default`` when it has neither script."""
    han = len(_HAN.findall(text))
    latin = len(_LATIN.findall(text))
    if han == 0 and latin == 0:
        return default
    return "zh" if han * 4 >= latin else "en"
