"""The short-term buffer as a route: turns accepted but not yet processed are recallable at once.

Only used while the user has queued jobs; once the worker has stored a turn as an
episode, the episode (with its vectors) takes over and the buffered copy is skipped.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from jiyi.clock import parse_iso
from jiyi.read.rank import squash
from jiyi.records import Hit, Kind, MemoryRecord, Scope
from jiyi.text.tokens import tokenize


def buffer_hits(items: Sequence[dict[str, Any]], scope: Scope, tokens: Sequence[str], *, known_sources: set[str],
                weight: float, top_total: float, now: datetime) -> list[Hit]:
    """Buffered turns sharing tokens with the query, as episode hits on the stored hits' scale.

    They have no vectors yet, only word overlap: a turn holding every query word scores
    ``2.5·weight`` times the best stored hit's total (with the default weight 0.5, a quarter
    above it: the user said it moments ago, in the query's own words).
    """
    wanted = set(tokens)
    scored: list[tuple[float, dict[str, Any]]] = []
    for item in items:
        if item.get("id") in known_sources or item.get("role") == "system":
            continue
        overlap = len(wanted & set(tokenize(item["content"]))) / max(1, len(wanted))
        if overlap > 0:
            scored.append((overlap, item))
    scored.sort(key=lambda pair: -pair[0])
    hits = []
    for overlap, item in scored:
        ts = parse_iso(item["timestamp"])
        rec = MemoryRecord(id=f"buffer:{item['id']}", tenant=scope.tenant, user_id=scope.user_id,
                           content=item["content"], kind=Kind.EPISODE, created_at=now, updated_at=now,
                           valid_from=ts, source_ids=(item["id"],), speaker=item.get("name"),
                           importance=0.3, confidence=1.0, metadata={"buffered": True, "role": item.get("role")})
        total = 2.5 * weight * overlap * max(top_total, 1.0)
        hits.append(Hit(rec, squash(total), {"buffer_raw": overlap, "total": total}))
    return hits
