"""The entity graph: people, places and things, linked to the memories that mention them.

Two kinds of node: entities (typed by a guess: person, place, organisation, number,
thing) and memories; an edge joins a memory to each entity it mentions. Entities
mentioned by only one memory are kept (they are often the interesting ones: a
doctor's name), but the graph is capped to the most-mentioned entities so that a
long history stays readable. The same data feeds the accessible list under the
canvas.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from jiyi.records import Kind, MemoryRecord, Status

MAX_ENTITIES = 60
_DIGITS = re.compile(r"^[\d\s+\-().]+$")
_TAG_TYPES = {"nr": "person", "nrfg": "person", "nrt": "person", "ns": "place", "nt": "org"}


@dataclass(slots=True, frozen=True)
class Entity:
    name: str
    type: str
    memories: tuple[MemoryRecord, ...]


def entity_type(name: str, mentions: Sequence[MemoryRecord]) -> str:
    """A best guess from the word itself (jieba's tags) and the memories that mention it."""
    if _DIGITS.match(name):
        return "number"
    if any(m.kind is Kind.RELATION for m in mentions):
        return "person"
    if re.search(r"[\u4e00-\u9fff]", name):
        from jiyi.text.zh import pos_tags

        tags = pos_tags(name)
        if len(tags) == 1 and tags[0][1] in _TAG_TYPES:
            return _TAG_TYPES[tags[0][1]]
    return "thing"


def collect_entities(records: Sequence[MemoryRecord], *, include_inactive: bool = False,
                     limit: int = MAX_ENTITIES) -> list[Entity]:
    """The most-mentioned entities (ties by name), each with the memories mentioning it."""
    recs = [r for r in records if include_inactive or r.status is Status.ACTIVE]
    counts = Counter(e for r in recs for e in dict.fromkeys(r.entities))
    top = sorted(counts, key=lambda e: (-counts[e], e))[:limit]
    out = []
    for name in top:
        mentions = tuple(r for r in recs if name in r.entities)
        out.append(Entity(name, entity_type(name, mentions), mentions))
    return out


def graph_elements(entities: Sequence[Entity]) -> dict[str, list[dict[str, Any]]]:
    """Cytoscape elements: ``{"nodes": [...], "edges": [...]}`` (ids prefixed so they never clash)."""
    nodes: list[dict[str, Any]] = []
    edges: list[dict[str, Any]] = []
    seen: set[str] = set()
    for i, ent in enumerate(entities):
        eid = f"e{i}"
        nodes.append({"data": {"id": eid, "label": ent.name, "type": ent.type, "group": "entity",
                               "weight": len(ent.memories)}})
        for rec in ent.memories:
            mid = f"m-{rec.id}"
            if mid not in seen:
                seen.add(mid)
                label = rec.content if len(rec.content) <= 18 else rec.content[:17] + "…"
                nodes.append({"data": {"id": mid, "label": label, "full": rec.content, "group": "memory",
                                       "kind": rec.kind.value, "status": rec.status.value}})
            edges.append({"data": {"id": f"{eid}-{mid}", "source": mid, "target": eid}})
    return {"nodes": nodes, "edges": edges}
