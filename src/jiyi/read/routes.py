"""Candidate routes. Each returns ``[(memory_id, score)]`` best first, bounded by ``k``."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from jiyi.records import Kind, Scope
from jiyi.stores.protocol import RecordFilter, Store

#: Deep lists: fusion z-scores each route against all the memories it ranked.
ROUTE_K = {"vector": 1000, "context": 1000, "keyword": 1000, "recency": 10, "entity": 50}


def vector_route(store: Store, scope: Scope, qvec: np.ndarray, flt: RecordFilter) -> list[tuple[str, float]]:
    return store.vector_search(scope, qvec, ROUTE_K["vector"], flt, "content")


def context_route(store: Store, scope: Scope, qvec: np.ndarray, flt: RecordFilter) -> list[tuple[str, float]]:
    """Episodes embedded with the turn before them: answers that need the question they reply to."""
    if flt.kinds is not None and Kind.EPISODE not in flt.kinds:
        return []
    return store.vector_search(scope, qvec, ROUTE_K["context"], flt, "context")


def keyword_route(store: Store, scope: Scope, tokens: Sequence[str], flt: RecordFilter) -> list[tuple[str, float]]:
    if not tokens:
        return []
    return store.keyword_search(scope, tokens, ROUTE_K["keyword"], flt)


def recency_route(store: Store, scope: Scope, flt: RecordFilter) -> list[tuple[str, float]]:
    return store.recent(scope, ROUTE_K["recency"], flt)


def entity_route(store: Store, scope: Scope, entities: Sequence[str], flt: RecordFilter) -> list[tuple[str, float]]:
    """Memories sharing an entity with the query or with the top hits."""
    if not entities:
        return []
    return store.entity_search(scope, list(dict.fromkeys(entities))[:20], ROUTE_K["entity"], flt)
