"""One typed filter, compiled by each backend.

:class:`~jiyi.stores.protocol.RecordFilter` is turned into a list of plain
:class:`Condition` triples here, once, so that every backend agrees on what a filter
means and only has to render ``column op value`` in its own SQL dialect (SQLite
``?``, PostgreSQL ``%s``). Backends that filter in memory (the SQLite vector matrix)
use :func:`record_matches` semantics, which the contract tests pin down.

Semantics:
- ``kinds`` / ``statuses``: ``None`` means any; an empty tuple matches nothing.
- ``created_after`` is inclusive and ``created_before`` exclusive (a half-open
  window, so adjacent windows never count a memory twice).
- ``include_sensitive=False`` drops ``sensitive`` and ``secret`` memories.
- ``text`` is a case-insensitive substring of ``content`` (listings only; search
  routes ignore it).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any, Literal

from jiyi.clock import ensure_utc
from jiyi.records import MemoryRecord, Visibility
from jiyi.stores.protocol import RecordFilter

Op = Literal["in", "=", "!=", ">=", "<", "contains"]


@dataclass(slots=True, frozen=True)
class Condition:
    """``column op value``; ``in`` takes a tuple, ``contains`` a substring."""

    column: str
    op: Op
    value: object


def filter_conditions(flt: RecordFilter, *, with_text: bool = True) -> list[Condition]:
    """The conditions a record must satisfy, ANDed. Values are enum values or aware datetimes."""
    out: list[Condition] = []
    if flt.kinds is not None:
        out.append(Condition("kind", "in", tuple(k.value for k in flt.kinds)))
    if flt.statuses is not None:
        out.append(Condition("status", "in", tuple(s.value for s in flt.statuses)))
    if flt.session_id is not None:
        out.append(Condition("session_id", "=", flt.session_id))
    if flt.agent_id is not None:
        out.append(Condition("agent_id", "=", flt.agent_id))
    if not flt.include_sensitive:
        out.append(Condition("visibility", "=", Visibility.NORMAL.value))  # neither sensitive nor secret
    if flt.created_after is not None:
        out.append(Condition("created_at", ">=", ensure_utc(flt.created_after)))
    if flt.created_before is not None:
        out.append(Condition("created_at", "<", ensure_utc(flt.created_before)))
    if with_text and flt.text:
        out.append(Condition("content", "contains", flt.text))
    return out


def record_matches(record: MemoryRecord, flt: RecordFilter, *, with_text: bool = True) -> bool:
    """Reference semantics of a filter for one record (in-memory backends, tests)."""
    for cond in filter_conditions(flt, with_text=with_text):
        value = _field(record, cond.column)
        if not _holds(value, cond):
            return False
    return True


def _field(record: MemoryRecord, column: str) -> object:
    value = getattr(record, column)
    if isinstance(value, datetime):
        return ensure_utc(value)
    return getattr(value, "value", value)


def _holds(value: object, cond: Condition) -> bool:
    target: Any = cond.value
    if cond.op == "in":
        return bool(value in target)
    if cond.op == "=":
        return bool(value == target)
    if cond.op == "!=":
        return bool(value != target)
    if value is None:  # an unset field is outside every range
        return False
    if cond.op == ">=":
        return bool(value >= target)
    if cond.op == "<":
        return bool(value < target)
    return str(target).casefold() in str(value).casefold()
