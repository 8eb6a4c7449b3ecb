"""jieba, initialised once, lazily and quietly.

Importing jiyi must not load jieba's 20 MB dictionary or print "Building prefix
dict..." to stderr: the first call to any function here does that, under a lock,
and later calls reuse the same tokenizer. Words added through :func:`add_words` or
:func:`load_userdict` before the first call are queued and applied at
initialisation, so an application can register product or pet names at start-up
without paying for jieba until it is needed.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Iterable
from pathlib import Path
from typing import Any

_lock = threading.Lock()
_ready = False
_pending_words: list[tuple[str, int | None, str | None]] = []
_pending_dicts: list[str] = []

#: Words jieba's default dictionary splits or glues badly in the sentences jiyi cares
#: about (relations, allergies, dates). Frequencies only need to beat the neighbours.
_BUILTIN_WORDS: tuple[tuple[str, str], ...] = (
    ("女朋友", "n"),
    ("男朋友", "n"),
    ("老公", "n"),
    ("老婆", "n"),
    ("过敏", "v"),
    ("高血压", "n"),
    ("糖尿病", "n"),
    ("程序员", "n"),
    ("产品经理", "n"),
    ("字节跳动", "nt"),
    ("站内信", "n"),
)


def _jieba() -> Any:
    """The initialised ``jieba`` module (first call pays for the dictionary)."""
    global _ready
    import jieba  # type: ignore[import-untyped]

    if _ready:
        return jieba
    with _lock:
        if not _ready:
            jieba.setLogLevel(logging.WARNING)
            jieba.initialize()
            for builtin, flag in _BUILTIN_WORDS:
                jieba.add_word(builtin, freq=None, tag=flag)
            for path in _pending_dicts:
                jieba.load_userdict(path)
            for word, freq, tag in _pending_words:
                jieba.add_word(word, freq=freq, tag=tag)
            _pending_dicts.clear()
            _pending_words.clear()
            _ready = True
    return jieba


def ensure_initialized() -> None:
    """Load jieba's dictionary now (e.g. at server start) instead of on first use."""
    _jieba()


def add_words(words: Iterable[str], *, freq: int | None = None, tag: str | None = None) -> None:
    """Teach the segmenter words it should keep whole (names, products, places).

    Safe to call before jieba is loaded: the words are applied at initialisation.
    """
    items = [(w.strip(), freq, tag) for w in words if w and w.strip()]
    with _lock:
        if not _ready:
            _pending_words.extend(items)
            return
    jieba = _jieba()
    for word, f, t in items:
        jieba.add_word(word, freq=f, tag=t)


def load_userdict(path: str | Path) -> None:
    """Load a jieba user dictionary file (``word [freq] [tag]`` per line)."""
    with _lock:
        if not _ready:
            _pending_dicts.append(str(path))
            return
    _jieba().load_userdict(str(path))


def cut(text: str, *, hmm: bool = True) -> list[str]:
    """Accurate-mode segmentation (one reading of the sentence)."""
    return list(_jieba().cut(text, HMM=hmm))


def cut_for_search(text: str, *, hmm: bool = True) -> list[str]:
    """Search-mode segmentation: long words also yield their sub-words (better recall)."""
    return list(_jieba().cut_for_search(text, HMM=hmm))


def in_dictionary(word: str) -> bool:
    """Is ``word`` a dictionary word (as opposed to one jieba's HMM guessed, like 苏琳)?"""
    return (_jieba().get_FREQ(word) or 0) > 0


def pos_tags(text: str) -> list[tuple[str, str]]:
    """``(word, part-of-speech)`` pairs; ``nr`` person, ``ns`` place, ``nt`` organisation."""
    _jieba()
    import jieba.posseg  # type: ignore[import-untyped]

    return [(p.word, p.flag) for p in jieba.posseg.cut(text)]
