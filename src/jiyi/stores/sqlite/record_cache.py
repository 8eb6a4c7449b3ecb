"""Decoded :class:`MemoryRecord` objects per user, so ``get_many`` of hot candidates is dict lookups.

Decoding a row (times, JSON lists, enums, the dataclass) costs ~20 µs; a search asks
for ~50 candidates, most of them the same from one search to the next. Entries are
valid for one per-user generation (the number every write bumps, see
``writes.bump_generation``): a write by any process makes the whole user stale. This
process's own ``apply`` instead advances the entry to the new generation and drops
only the ids it wrote or purged.

A search's ~50 candidates differ from query to query, so caching only what was asked
would keep missing; the first miss of a user at a generation therefore *warms* the
entry: one read and decode of all the user's records (~0.15 s at 10k rows, once per
generation another process causes; users above ``warm_max`` rows are not warmed and
cache only what they were asked). A complete entry answers an unknown id as absent
without asking the file. Hit counts (``record_hits``) do not bump the
generation: this process's own are noted per id and applied when a record is next
looked up (noting a batch of ~1,200 ids takes ~0.1 ms, where copying the records took
~6 ms holding the GIL against the searches); another process's show up here after the
user's next write.

Bounded by the number of records held (LRU over users); records are frozen, shared
objects, so callers must not mutate their ``metadata`` dict.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Iterable, Sequence
from datetime import datetime
from typing import Any

from jiyi.records import MemoryRecord
from jiyi.stores.protocol import HIT_STRENGTH_STEP, MAX_STRENGTH

Owner = tuple[str, str]

MAX_RECORDS = 120_000  # all users together; ~1-2 KB each
WARM_MAX = 20_000  # rows of one user read whole on a miss (~0.3 s); larger users are cached per id


class _UserRecords:
    __slots__ = ("cold", "complete", "gen", "hits", "records", "stale")

    def __init__(self, gen: int) -> None:
        self.gen = gen
        self.records: dict[str, MemoryRecord] = {}
        self.complete = False  # every record of the user at ``gen`` is here, but for ``stale``
        self.stale: set[str] = set()  # ids this process rewrote since: read them again
        self.cold = False  # too many rows to warm at this generation
        # hits written to the file, not yet applied to ``records``: [last hit time, count of each batch, …]
        self.hits: dict[str, list[Any]] = {}

    def take(self, mid: str) -> MemoryRecord | None:
        """The cached record of ``mid`` with its pending hits applied."""
        rec = self.records.get(mid)
        if rec is not None and self.hits:
            pending = self.hits.pop(mid, None)
            if pending is not None:
                rec = self.records[mid] = _with_hits(rec, pending[0], pending[1:])
        return rec

    def drop(self, mid: str) -> bool:
        """Forget ``mid`` (True if a record was held)."""
        self.hits.pop(mid, None)
        return self.records.pop(mid, None) is not None


def _with_hits(rec: MemoryRecord, at: datetime, batches: Sequence[int]) -> MemoryRecord:
    """``rec`` as ``writes.record_hits`` left it after these batches (each one capped strength step,
    as the UPDATEs did), last hit at ``at``."""
    strength = rec.strength
    for times in batches:
        strength = min(strength + times * HIT_STRENGTH_STEP, MAX_STRENGTH)
    return rec.replace(hit_count=rec.hit_count + sum(batches), last_hit_at=at, strength=strength)


class RecordCache:
    def __init__(self, max_records: int = MAX_RECORDS, warm_max: int = WARM_MAX) -> None:
        self.max_records = max_records
        self.warm_max = min(warm_max, max_records // 2)
        self.lock = threading.Lock()
        self._users: OrderedDict[Owner, _UserRecords] = OrderedDict()
        self._warming: set[Owner] = set()
        self._size = 0

    def lookup(self, owner: Owner, gen: int, ids: Sequence[str], *, claim_warm: bool = True
               ) -> tuple[dict[str, MemoryRecord], list[str], bool]:
        """Cached records of ``ids`` at generation ``gen``, the ids to read, and whether to warm the user.

        A True answer claims the warm: the caller must end it with ``store(complete=True)``
        or ``warm_failed``.
        """
        with self.lock:
            entry = self._users.get(owner)
            if entry is None or entry.gen != gen:
                if entry is not None:
                    self._size -= len(entry.records)
                entry = self._users[owner] = _UserRecords(gen)
            self._users.move_to_end(owner)
            take = entry.take
            found: dict[str, MemoryRecord] = {}
            missing: list[str] = []
            for i in ids:
                rec = take(i)
                if rec is None:
                    missing.append(i)
                else:
                    found[i] = rec
            if entry.complete:  # the others are not the user's (or purged): the file has none of them
                missing = [i for i in missing if i in entry.stale]
            warm = claim_warm and not (entry.complete or entry.cold or owner in self._warming)
            if warm:
                self._warming.add(owner)
            return found, missing, warm

    def store(self, owner: Owner, gen: int, records: Iterable[MemoryRecord], *, complete: bool = False) -> None:
        """Remember records read at generation ``gen`` (ignored if the entry has moved on).

        ``complete``: these are all the user's records at ``gen`` (a warm).
        """
        with self.lock:
            if complete:
                self._warming.discard(owner)
            entry = self._users.get(owner)
            if entry is None:
                entry = self._users[owner] = _UserRecords(gen)
            elif entry.gen != gen:
                if gen < entry.gen:
                    return  # read before a write this process already saw
                self._size -= len(entry.records)
                entry = self._users[owner] = _UserRecords(gen)
            self._users.move_to_end(owner)
            recs = entry.records
            before = len(recs)
            stale, hits = entry.stale, entry.hits
            for rec in records:  # read from the file: its hit counts are the file's
                recs[rec.id] = rec
                stale.discard(rec.id)
                if hits:
                    hits.pop(rec.id, None)
            self._size += len(recs) - before
            if complete:
                entry.complete = True
            self._evict(owner)

    def warm_failed(self, owner: Owner, gen: int, *, too_big: bool = False) -> None:
        with self.lock:
            self._warming.discard(owner)
            entry = self._users.get(owner)
            if too_big and entry is not None and entry.gen == gen:
                entry.cold = True

    def advance(self, owner: Owner, old_gen: int, new_gen: int, upserted: Iterable[str],
                purged: Iterable[str]) -> None:
        """This process committed ``old_gen -> new_gen`` writing ``upserted``, purging ``purged``: keep the rest."""
        with self.lock:
            entry = self._users.get(owner)
            if entry is None:
                return
            if entry.gen != old_gen:
                self._size -= len(entry.records)
                del self._users[owner]
                return
            entry.gen = new_gen
            for i in purged:
                if entry.drop(i):
                    self._size -= 1
            for i in upserted:
                entry.stale.add(i)  # read again (the file's copy is the truth), never taken as absent
                if entry.drop(i):
                    self._size -= 1

    def patch_hits(self, owner: Owner, groups: Sequence[tuple[int, list[str]]], at: datetime) -> None:
        """Note ``writes.record_hits`` of these groups for the cached copies (``at`` as read back from the
        file); a copy takes them when it is next looked up."""
        with self.lock:
            entry = self._users.get(owner)
            if entry is None:
                return
            recs, hits = entry.records, entry.hits
            for times, group in groups:  # (plain lists: ~0.1 ms for 1,200 ids, a third of objects')
                for i in group:
                    if i in recs:
                        pending = hits.get(i)
                        if pending is None:
                            hits[i] = [at, times]
                        else:
                            pending[0] = at
                            pending.append(times)

    def invalidate(self, owner: Owner | None = None) -> None:
        with self.lock:
            if owner is None:
                self._users.clear()
                self._size = 0
            else:
                entry = self._users.pop(owner, None)
                if entry is not None:
                    self._size -= len(entry.records)

    def __len__(self) -> int:
        return self._size

    def _evict(self, keep: Owner) -> None:
        while self._size > self.max_records:
            owner, entry = next(iter(self._users.items()))
            if owner == keep:
                if len(self._users) == 1:
                    # one user larger than the whole budget: start that user over
                    self._size -= len(entry.records)
                    entry.records, entry.hits = {}, {}
                    entry.complete, entry.cold = False, True
                    return
                self._users.move_to_end(owner)
                continue
            del self._users[owner]
            self._size -= len(entry.records)
