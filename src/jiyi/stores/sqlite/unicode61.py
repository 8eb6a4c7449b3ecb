"""FTS5's ``unicode61 remove_diacritics 2`` tokenizer, reproduced in Python, exactly.

The in-memory keyword index (:mod:`~jiyi.stores.sqlite.textindex`) must split stored
keywords and query tokens the way the FTS5 table does, or its matches would drift from
the durable index's (``Peanuts`` finds ``peanuts``, ``cafe`` finds ``café``). unicode61
works one code point at a time: each is a separator, is dropped (a diacritic) or folds
to a fixed string. So rather than re-deriving its tables (Unicode version, fold rules,
categories ``L* N* Co``), we ask SQLite once per distinct character, in an in-memory
FTS5 table, and keep the answer in a ``str.translate`` table: tokenizing is then one
C-level ``translate`` and ``split`` per text.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterable

_SEPARATOR = " "


class Unicode61:
    """``terms(text)``: the FTS5 tokens of ``text``, in order (duplicates kept)."""

    def __init__(self) -> None:
        self._table: dict[int, str] = {}
        self._known: set[str] = set(" ")
        self._lock = threading.Lock()
        self._conn: sqlite3.Connection | None = None
        self._ascii_known = False

    def terms(self, text: str) -> list[str]:
        if text.isascii():  # the common case: [A-Za-z0-9] are token characters, folded to lower case
            return text.lower().translate(self._ascii()).split()
        unknown = set(text).difference(self._known)
        if unknown:
            self._learn(unknown)
        return text.translate(self._table).split()

    def _ascii(self) -> dict[int, str]:
        if not self._ascii_known:
            self._learn(chr(c) for c in range(128))
            self._ascii_known = True
        return self._table

    def _learn(self, chars: Iterable[str]) -> None:
        """Ask SQLite how each character tokenizes inside a word: kept (folded), dropped, or a separator."""
        with self._lock:
            todo = sorted(set(chars).difference(self._known))
            if not todo:
                return
            if self._conn is None:
                self._conn = sqlite3.connect(":memory:", check_same_thread=False)
                self._conn.execute("CREATE VIRTUAL TABLE t USING fts5 (k, tokenize = 'unicode61 remove_diacritics 2')")
                self._conn.execute("CREATE VIRTUAL TABLE v USING fts5vocab (t, 'instance')")
            conn = self._conn
            conn.execute("DELETE FROM t")
            conn.executemany("INSERT INTO t (rowid, k) VALUES (?, ?)", [(ord(ch), f"a{ch}a") for ch in todo])
            found: dict[int, list[str]] = {}
            for doc, term in conn.execute("SELECT doc, term FROM v ORDER BY doc, offset"):
                found.setdefault(int(doc), []).append(str(term))
            for ch in todo:
                terms = found.get(ord(ch), [])
                if len(terms) == 1 and terms[0].startswith("a") and terms[0].endswith("a"):
                    folded = terms[0][1:-1]
                    if folded != ch:
                        self._table[ord(ch)] = folded
                else:
                    self._table[ord(ch)] = _SEPARATOR
            self._known.update(todo)


#: One per process: the table only grows, and each character is asked about once.
UNICODE61 = Unicode61()


def fts_terms(text: str) -> list[str]:
    """The tokens FTS5 stores for ``text`` (or matches for a query string)."""
    return UNICODE61.terms(text)
