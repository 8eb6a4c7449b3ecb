"""Garbage collection and decay (SPEC §4). Dry run by default; every change is in the history.

Rules, each reported separately:
- ``expire_events``: memories a week past ``expires_at`` ("lunch today"; recall keeps them
  that week, as past, for "what was that interview yesterday") and events past their
  ``valid_until`` (a trip that is over) → expired. They stop being recalled as current;
  a search with ``at=`` inside their time still finds them, and their turns stay searchable;
- ``purge_replaced``: merged/superseded memories untouched for 30 days → purged (hard delete);
- ``purge_deleted``: deleted memories past the 7-day restore window → erased (text, vectors,
  keyword index, embedding cache, history texts; see :mod:`jiyi.maintain.erase`);
- ``forget_unused``: unimportant memories (importance < 0.4) not hit for 90 days → soft-deleted;
- ``archive_weak``: strength decayed below 0.05 → archived (kept, not searched by default).
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from datetime import datetime, timedelta

from jiyi.maintain.erase import RESTORE_WINDOW, erase_changes
from jiyi.read.gate import EXPIRY_GRACE
from jiyi.records import EventType, GcReport, HistoryEvent, Kind, MemoryRecord, Scope, Status
from jiyi.stores.conflicts import redo_on_conflict
from jiyi.stores.protocol import ChangeSet, RecordFilter, Store, Upsert

PURGE_AFTER = timedelta(days=30)
UNUSED_AFTER = timedelta(days=90)
UNIMPORTANT = 0.4
ARCHIVE_BELOW = 0.05
STRENGTH_HALF_LIFE_DAYS = 60.0
RULES = ("expire_events", "purge_replaced", "purge_deleted", "forget_unused", "archive_weak")


def effective_strength(rec: MemoryRecord, now: datetime) -> float:
    """Strength decays with disuse (half-life 60 days × importance boost) and grows with hits."""
    last = rec.last_hit_at or rec.created_at
    days = max(0.0, (now - last).total_seconds() / 86400.0)
    half_life = STRENGTH_HALF_LIFE_DAYS * (1.0 + 4.0 * rec.importance)
    return rec.strength * math.exp(-days * math.log(2) / half_life)


def classify(rec: MemoryRecord, now: datetime) -> str | None:
    """The gc rule that applies to ``rec`` now, if any (first match wins)."""
    if rec.status in (Status.MERGED, Status.SUPERSEDED):
        return "purge_replaced" if now - rec.updated_at >= PURGE_AFTER else None
    if rec.status is Status.DELETED:
        return "purge_deleted" if now - rec.updated_at >= RESTORE_WINDOW else None
    if rec.status is not Status.ACTIVE:
        return None
    if rec.expires_at is not None and rec.expires_at + EXPIRY_GRACE <= now:
        return "expire_events"
    if rec.kind is Kind.EVENT and rec.valid_until is not None and rec.valid_until <= now:
        return "expire_events"
    last_use = rec.last_hit_at or rec.created_at
    if rec.importance < UNIMPORTANT and now - last_use >= UNUSED_AFTER:
        return "forget_unused"
    if effective_strength(rec, now) < ARCHIVE_BELOW:
        return "archive_weak"
    return None


def gc_scope(store: Store, scope: Scope, now: datetime, *, dry_run: bool) -> dict[str, list[str]]:
    """Apply (or only report) the rules for one user; returns rule → memory ids."""
    flt = RecordFilter(statuses=(Status.ACTIVE, Status.MERGED, Status.SUPERSEDED, Status.DELETED))

    def judge_and_write() -> dict[str, list[MemoryRecord]]:
        found: dict[str, list[MemoryRecord]] = {rule: [] for rule in RULES}
        for rec in store.list(scope, flt):
            rule = classify(rec, now)
            if rule:
                found[rule].append(rec)
        if not dry_run:
            store.apply(_changes(scope, found, now))
        return found

    # a memory may change after it was listed (a user edit, the worker): judge it again
    found = redo_on_conflict(judge_and_write, f"gc of {scope.tenant}/{scope.user_id}")
    return {rule: [r.id for r in recs] for rule, recs in found.items()}


def _changes(scope: Scope, found: dict[str, list[MemoryRecord]], now: datetime) -> ChangeSet:
    changes = ChangeSet(scope)
    transitions = {"expire_events": (Status.EXPIRED, EventType.EXPIRE),
                   "forget_unused": (Status.DELETED, EventType.DELETE),
                   "archive_weak": (Status.ARCHIVED, EventType.ARCHIVE)}
    for rule, (status, event) in transitions.items():
        for rec in found[rule]:
            changes.upserts.append(Upsert(rec.replace(status=status, updated_at=now), expect=rec.updated_at))
            changes.history.append(HistoryEvent(event, rec.id, now, old=rec.content, reason=f"gc:{rule}"))
    for rec in found["purge_replaced"]:
        changes.purge_ids.append(rec.id)
        changes.history.append(HistoryEvent(EventType.PURGE, rec.id, now, old=rec.content, reason="gc:purge_replaced"))
    erased = erase_changes(scope, found["purge_deleted"], now, reason="gc:purge_deleted")
    changes.purge_ids += erased.purge_ids
    changes.history += erased.history
    changes.uncache = erased.uncache
    return changes


def run_gc(store: Store, scopes: Iterable[Scope], now: datetime, *, dry_run: bool) -> GcReport:
    """gc over many users, one transaction per user."""
    ids: dict[str, list[str]] = {rule: [] for rule in RULES}
    for scope in scopes:
        for rule, found in gc_scope(store, scope, now, dry_run=dry_run).items():
            ids[rule].extend(found)
    return GcReport(dry_run=dry_run, counts={r: len(v) for r, v in ids.items()}, ids=ids)
