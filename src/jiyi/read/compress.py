"""Optional LLM compression for ``build_context``: fewer, denser lines instead of dropped ones.

Without it, a block over budget loses its lowest-ranked lines. With it
(``build_context(..., compress=True)`` or ``JIYI_CONTEXT_COMPRESS=1``), the chosen
memories go to the model (:mod:`jiyi.extractors.prompts.compression`), which folds
them into fewer lines, each citing the memories it restates. Each compressed line
is rendered like a memory line: under the kind of its first source, with the newest
date and the lowest confidence among its sources, so the block keeps its format and
its "newer wins" promise. If the compressed block is still too long its last lines
go; if the model fails, answers badly, or nothing fits, the normal block is returned.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from datetime import datetime, timezone, tzinfo

from jiyi.errors import ProviderError
from jiyi.extractors.prompts.compression import (
    CompressedLine,
    ContextItem,
    compression_messages,
    parse_compression,
)
from jiyi.extractors.prompts.repair import ReplyInvalid
from jiyi.llms.protocol import LLM
from jiyi.read.context import (
    Block,
    TokenCounter,
    build_context_block,
    drop_covered_episodes,
    render,
)
from jiyi.records import Hit

log = logging.getLogger("jiyi.read.compress")


def compress_context(hits: Sequence[Hit] | Block, *, llm: LLM, budget_tokens: int, count_tokens: TokenCounter,
                     lang: str, max_tokens: int = 1500, tz: tzinfo = timezone.utc, at: datetime | None = None) -> str:
    """The context block for ``hits`` within ``budget_tokens``, compressed by ``llm`` if it would not fit.

    ``hits`` is a :class:`~jiyi.read.context.Block` or a ranked list; compressed lines
    keep the kind of their first source (the profile and past headings are not kept; other group
    members' lines, which must stay theirs, are left out of a compressed block).
    """
    block = hits if isinstance(hits, Block) else Block(found=drop_covered_episodes(hits))
    chosen = [*block.profile, *block.found, *block.past]
    full = render(block.found, lang, tz=tz, profile=block.profile, past=block.past, group=block.group, at=at)
    if not chosen or count_tokens(full) <= budget_tokens:
        return full
    labels = {f"h{i}": hit for i, hit in enumerate(chosen, start=1)}
    items = [ContextItem(label, h.record.kind.value, h.record.content, _date(h), h.record.confidence)
             for label, h in labels.items()]
    try:
        completion = llm.complete(compression_messages(items, budget_tokens=budget_tokens), json_mode=True,
                                  max_tokens=max_tokens)
        reply = parse_compression(completion.text, list(labels))
    except (ProviderError, ReplyInvalid) as exc:
        log.warning("context compression failed (%s: %s); dropping the lowest-ranked lines instead",
                    type(exc).__name__, exc)
        return build_context_block(block, budget_tokens=budget_tokens, count_tokens=count_tokens, lang=lang, tz=tz,
                                   at=at)
    if reply.dropped:
        log.info("context compression: %d line(s) without a valid source dropped", reply.dropped)
    text = _fit([_as_hit(line, labels) for line in reply.lines], budget_tokens, count_tokens, lang, tz)
    if not text:
        log.warning("the compressed context does not fit %d tokens; dropping lines instead", budget_tokens)
        return build_context_block(block, budget_tokens=budget_tokens, count_tokens=count_tokens, lang=lang, tz=tz,
                                   at=at)
    return text


def _as_hit(line: CompressedLine, labels: dict[str, Hit]) -> Hit:
    """A compressed line dressed as a hit, so that :func:`render` formats it like any memory."""
    sources = [labels[s] for s in line.sources]
    first = sources[0]
    newest = max(sources, key=_date)
    rec = first.record.replace(content=line.text, speaker=None,
                               confidence=min(s.record.confidence for s in sources),
                               valid_from=_date(newest),
                               source_ids=tuple(dict.fromkeys(i for s in sources for i in s.record.source_ids)))
    return Hit(rec, max(s.score for s in sources), {"compressed_from": float(len(sources))})


def _fit(lines: list[Hit], budget_tokens: int, count_tokens: TokenCounter, lang: str, tz: tzinfo) -> str:
    while lines:
        block = render(lines, lang, tz=tz)
        if count_tokens(block) <= budget_tokens:
            return block
        lines.pop()
    return ""


def _date(hit: Hit) -> datetime:
    return hit.record.valid_from or hit.record.created_at
