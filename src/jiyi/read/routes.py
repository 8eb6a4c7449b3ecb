"""Candidate routes. Each returns ``[(memory_id, score)]`` best first, bounded by ``k``.

The vector and keyword routes return a :class:`Ranking`: only the :data:`FUSE_DEPTH`
items fusion uses, with the store's statistics of every score, or (a store without
them) the deep list of :data:`ROUTE_K`, whose own statistics fusion then uses.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from jiyi.read.fuse import FUSE_DEPTH
from jiyi.records import Kind, Scope
from jiyi.stores.protocol import Ranking, RecordFilter, Store

#: Deep lists: without the store's statistics, fusion z-scores each route against all
#: the memories it ranked (and an unlisted one as the last of them).
ROUTE_K = {"vector": 1000, "context": 1000, "keyword": 1000, "recency": 10, "entity": 50}


def vector_route(store: Store, scope: Scope, qvec: np.ndarray, flt: RecordFilter) -> Ranking:
    return store.vector_ranking(scope, qvec, FUSE_DEPTH, flt, "content", deep=ROUTE_K["vector"])


def context_route(store: Store, scope: Scope, qvec: np.ndarray, flt: RecordFilter) -> Ranking:
    """Episodes embedded with the turn before them: answers that need the question they reply to."""
    if flt.kinds is not None and Kind.EPISODE not in flt.kinds:
        return Ranking([])
    return store.vector_ranking(scope, qvec, FUSE_DEPTH, flt, "context", deep=ROUTE_K["context"])


def keyword_route(store: Store, scope: Scope, tokens: Sequence[str], flt: RecordFilter) -> Ranking:
    if not tokens:
        return Ranking([])
    return store.keyword_ranking(scope, tokens, FUSE_DEPTH, flt, deep=ROUTE_K["keyword"])


def recency_route(store: Store, scope: Scope, flt: RecordFilter) -> list[tuple[str, float]]:
    return store.recent(scope, ROUTE_K["recency"], flt)


def entity_route(store: Store, scope: Scope, entities: Sequence[str], flt: RecordFilter) -> list[tuple[str, float]]:
    """Memories sharing an entity with the query or with the top hits."""
    if not entities:
        return []
    return store.entity_search(scope, list(dict.fromkeys(entities))[:20], ROUTE_K["entity"], flt)
