"""Synthetic benchmark stores: one large user, a fixed 1,000-memory probe user, 100 users of uneven size.

Rows go straight through ``Store.apply`` in big change sets (records, both vector
channels, keywords, an ADD history event each), exactly what the write pipeline
commits, minus extraction and embedding. The 100 other users' sizes are
log-uniform between 10 and ``max(200, N/20)`` (capped at 5,000), so a bigger level
also has more *other* memories: the probe user's search time across levels shows
whether anything grows with other users' data.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone

import numpy as np

from jiyi.eval.synth import SynthMemory, VectorPool, generate
from jiyi.records import EventType, HistoryEvent, Kind, MemoryRecord, Scope
from jiyi.stores.protocol import ChangeSet, Store, Upsert
from jiyi.text.tokens import keywords_text

TENANT = "bench"
LARGE_USER = "large"
PROBE_USER = "probe"
PROBE_SIZE = 1_000
OTHER_USERS = 100
BATCH = 2_000
#: Bench memories were created over the two years before this instant.
NOW = datetime(2025, 6, 1, 12, 0, tzinfo=timezone.utc)
SPAN = timedelta(days=730)


@dataclass(slots=True)
class BuiltStore:
    """What was written, and how long it took."""

    sizes: dict[str, int]
    seconds: float
    rows_per_second: float
    others_total: int = 0
    notes: list[str] = field(default_factory=list)


def user_sizes(n_large: int, seed: int, others: int = OTHER_USERS) -> dict[str, int]:
    """``large`` → N, ``probe`` → 1,000, ``u000``…``u099`` → log-uniform sizes."""
    r = random.Random(seed)
    top = min(5_000, max(200, n_large // 20))
    sizes = {LARGE_USER: n_large, PROBE_USER: PROBE_SIZE}
    for i in range(others):
        sizes[f"u{i:03d}"] = round(math.exp(r.uniform(math.log(10), math.log(top))))
    return sizes


def build_store(store: Store, pool: VectorPool, sizes: dict[str, int], *, model: str, seed: int = 1,
                progress: Callable[[str], None] | None = None) -> BuiltStore:
    """Fill ``store`` with ``sizes[user]`` synthetic memories per user, in batches of :data:`BATCH`."""
    store.check_embedding(model, pool.dim)
    rng = np.random.default_rng(seed)
    started = time.perf_counter()
    written = 0
    total = sum(sizes.values())
    for u, (user, n) in enumerate(sizes.items()):
        scope = Scope(TENANT, user)
        for start in range(0, n, BATCH):
            mems = generate(min(BATCH, n - start), seed=hash((seed, u, start)) & 0xFFFFFFFF)
            store.apply(_change_set(scope, mems, pool, rng, offset=start, model=model))
            written += len(mems)
            if progress is not None and (written % 20_000 < len(mems) or written == total):
                progress(f"  wrote {written:,}/{total:,} memories")
    seconds = time.perf_counter() - started
    others = sum(v for k, v in sizes.items() if k not in (LARGE_USER, PROBE_USER))
    return BuiltStore(dict(sizes), seconds, written / max(seconds, 1e-9), others)


def _change_set(scope: Scope, mems: list[SynthMemory], pool: VectorPool, rng: np.random.Generator,
                *, offset: int, model: str) -> ChangeSet:
    content = pool.vectors_for(mems, rng)
    context = pool.vectors_for(mems, rng)
    changes = ChangeSet(scope)
    for i, m in enumerate(mems):
        rec = _record(scope, m, offset + i, rng, model)
        vectors = {"content": content[i], "context": context[i]} if m.kind is Kind.EPISODE else {"content": content[i]}
        text = m.content if m.kind is Kind.EPISODE else " ".join((m.content, *m.entities))
        changes.upserts.append(Upsert(rec, vectors, keywords_text(text)))
        changes.history.append(HistoryEvent(EventType.ADD, rec.id, rec.created_at, new=rec.content))
    return changes


def _record(scope: Scope, m: SynthMemory, i: int, rng: np.random.Generator, model: str) -> MemoryRecord:
    created = NOW - SPAN * float(rng.random())
    episode = m.kind is Kind.EPISODE
    return MemoryRecord(
        id=f"{scope.user_id}-{i:07d}",
        tenant=scope.tenant,
        user_id=scope.user_id,
        content=m.content,
        kind=m.kind,
        created_at=created,
        updated_at=created,
        entities=m.entities,
        importance=0.3 if episode else float(rng.uniform(0.4, 0.9)),
        confidence=1.0 if episode else 0.8,
        valid_from=created,
        source_ids=(f"{scope.user_id}-m{i:07d}",),
        session_id=f"s{i // 40:05d}",
        speaker=("User" if m.lang == "en" else "用户") if episode else None,
        embedding_model=model,
        metadata={"role": "user"} if episode else {},
    )
