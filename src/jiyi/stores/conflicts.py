"""Redo a read-modify-write whose records another writer changed in between (``Upsert.expect``)."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import TypeVar

from jiyi.errors import WriteConflict

log = logging.getLogger("jiyi.stores.conflicts")
T = TypeVar("T")
#: Tries of one read-modify-write, each on a fresh read; then the conflict reaches the caller.
TRIES = 3


def redo_on_conflict(attempt: Callable[[], T], what: str, tries: int = TRIES) -> T:
    """``attempt()`` (read, derive the change, ``Store.apply`` it with ``expect``) until it meets
    no :class:`~jiyi.errors.WriteConflict`, at most ``tries`` times."""
    for n in range(tries):
        try:
            return attempt()
        except WriteConflict:
            if n == tries - 1:
                raise
            log.info("%s: a memory changed between its read and this write; reading it again", what)
    raise AssertionError("unreachable")
