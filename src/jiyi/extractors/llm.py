"""The ``llm`` extractor: memories from an OpenAI-compatible chat model, never worse than rules.

Per batch of messages (split at ``max_batch_chars``):

1. ask the model with the fenced extraction prompt (:mod:`.prompts.extraction`), JSON mode on;
2. a reply that is not the JSON we asked for gets one repair request (:mod:`.prompts.repair`);
3. if the repair fails too, or the provider is unreachable or refuses, the batch goes to
   the offline ``rules`` extractor and the failure is logged: nothing is lost.

What comes back is only :class:`~jiyi.extractors.protocol.Candidate` objects of the five
extractable kinds; source ids the model cites are kept only if they name a message of
the batch. Extractors never choose the owner: the pipeline scopes the candidates.
"""

from __future__ import annotations

import dataclasses
import logging
import threading
from collections.abc import Mapping, Sequence
from datetime import datetime, timezone, tzinfo
from typing import TYPE_CHECKING
from zoneinfo import ZoneInfo

from jiyi.errors import ProviderBadOutput, ProviderError
from jiyi.extractors.prompts.extraction import (
    OUTPUT_FORMAT,
    ConversationLine,
    ExtractedMemory,
    ExtractionReply,
    extraction_messages,
    parse_extraction,
)
from jiyi.extractors.prompts.repair import ReplyInvalid, repair_messages
from jiyi.extractors.protocol import Candidate, Extractor
from jiyi.llms.protocol import LLM
from jiyi.records import Kind, Message, Visibility

if TYPE_CHECKING:
    from jiyi.config import Settings

log = logging.getLogger("jiyi.extractors.llm")


@dataclasses.dataclass(slots=True, frozen=True)
class ExtractionStats:
    """Counters since the extractor was built: batches asked, repairs tried, fallbacks, items dropped."""

    batches: int = 0
    repairs: int = 0
    fallbacks: int = 0
    dropped_items: int = 0


class LLMExtractor:
    """Extractor backed by an :class:`~jiyi.llms.protocol.LLM`.

    ``fallback`` defaults to ``jiyi.extractors.rules.RulesExtractor(tz=tz)``, built on first
    need. ``tz`` is the zone message times are shown in, so that "明天" after 23:00 in
    Shanghai means the right day (dates the model writes without an offset are read
    in it too).
    """

    name = "llm"

    def __init__(
        self,
        llm: LLM,
        *,
        fallback: Extractor | None = None,
        tz: tzinfo = timezone.utc,
        max_batch_chars: int = 6000,
        max_tokens: int = 2048,
    ) -> None:
        self.llm = llm
        self.tz = tz
        self.max_batch_chars = max_batch_chars
        self.max_tokens = max_tokens
        self._fallback = fallback
        self._lock = threading.Lock()
        self._stats = ExtractionStats()

    @property
    def stats(self) -> ExtractionStats:
        return self._stats

    def extract(
        self, messages: Sequence[Message], *, language_hint: str | None = None
    ) -> list[Candidate]:
        """Candidates from ``messages`` (oldest first), batch by batch."""
        out: list[Candidate] = []
        for batch in self._batches(messages):
            out.extend(self._extract_batch(batch, language_hint))
        return out

    def _extract_batch(
        self, batch: Sequence[Message], language_hint: str | None
    ) -> list[Candidate]:
        lines, sources = _conversation(batch)
        self._count(batches=1)
        try:
            reply, model = self._ask(
                extraction_messages(lines, tz=self.tz, language_hint=language_hint)
            )
        except ProviderError as exc:
            return self._use_fallback(batch, language_hint, exc)
        if reply.dropped:
            self._count(dropped_items=len(reply.dropped))
            log.warning(
                "dropped %d invalid item(s) from the LLM reply: %s",
                len(reply.dropped),
                " | ".join(reply.dropped)[:500],
            )
        forget = [Candidate(content=what, kind=Kind.FACT, metadata={"forget": what, "extractor": "llm"},
                            source_ids=tuple(s for label in ids if (s := sources.get(label))))
                  for what, ids in reply.forget]  # a request, not a memory: the write path acts on it
        return [self._candidate(item, sources, model) for item in reply.memories] + forget

    def _ask(self, prompt: list[dict[str, str]]) -> tuple[ExtractionReply, str]:
        completion = self.llm.complete(prompt, json_mode=True, max_tokens=self.max_tokens)
        try:
            return parse_extraction(completion.text), completion.model
        except ReplyInvalid as exc:
            log.info("LLM extraction reply invalid (%s); asking the model to repair it", exc)
            log.debug("invalid reply: %r", completion.text[:2000])
            error = str(exc)
        self._count(repairs=1)
        fixed = self.llm.complete(
            repair_messages(completion.text, error, OUTPUT_FORMAT),
            json_mode=True,
            max_tokens=self.max_tokens,
        )
        try:
            return parse_extraction(fixed.text), fixed.model
        except ReplyInvalid as exc:
            log.debug("invalid repaired reply: %r", fixed.text[:2000])
            raise ProviderBadOutput(
                f"the LLM reply was invalid, and so was its repair: {exc}"
            ) from exc

    def _use_fallback(
        self, batch: Sequence[Message], language_hint: str | None, error: ProviderError
    ) -> list[Candidate]:
        self._count(fallbacks=1)
        log.warning(
            "LLM extraction failed for %d message(s) (%s: %s); using the rules extractor",
            len(batch),
            type(error).__name__,
            error,
        )
        reason = type(error).__name__
        return [
            dataclasses.replace(c, metadata={**c.metadata, "llm_fallback": reason})
            for c in self._fallback_extractor().extract(batch, language_hint=language_hint)
        ]

    def _fallback_extractor(self) -> Extractor:
        if self._fallback is None:
            from jiyi.extractors.rules import RulesExtractor  # lazy: only the failure path needs it

            self._fallback = RulesExtractor(tz=self.tz)
        return self._fallback

    def _candidate(
        self, item: ExtractedMemory, sources: Mapping[str, str | None], model: str
    ) -> Candidate:
        cited = (sources.get(label) for label in item.source_ids)
        return Candidate(
            content=item.content,
            kind=Kind(item.kind),
            slot=item.slot,
            entities=tuple(item.entities),
            importance=item.importance,
            confidence=item.confidence,
            valid_from=self._utc(item.valid_from),
            valid_until=self._utc(item.valid_until),
            expires_at=self._utc(item.expires_at),
            visibility=Visibility.SENSITIVE if item.sensitive else Visibility.NORMAL,
            source_ids=tuple(dict.fromkeys(s for s in cited if s)),
            corrects=item.corrects,
            metadata={"extractor": "llm", "model": model},
        )

    def _utc(self, when: datetime | None) -> datetime | None:
        if when is None:
            return None
        if when.tzinfo is None:
            when = when.replace(tzinfo=self.tz)
        return when.astimezone(timezone.utc)

    def _batches(self, messages: Sequence[Message]) -> list[list[Message]]:
        batches: list[list[Message]] = []
        current: list[Message] = []
        size = 0
        for message in messages:
            cost = len(message.content) + 100  # JSON line overhead
            if current and size + cost > self.max_batch_chars:
                batches.append(current)
                current, size = [], 0
            current.append(message)
            size += cost
        if current:
            batches.append(current)
        return batches

    def _count(self, **deltas: int) -> None:
        with self._lock:
            s = self._stats
            self._stats = dataclasses.replace(
                s, **{k: getattr(s, k) + v for k, v in deltas.items()}
            )


def _conversation(batch: Sequence[Message]) -> tuple[list[ConversationLine], dict[str, str | None]]:
    """Prompt lines labelled m1..mN, and label → real message id (None for messages without one).

    Real ids are accepted too when the model cites them, as long as they are in the batch.
    """
    lines: list[ConversationLine] = []
    sources: dict[str, str | None] = {}
    for number, message in enumerate(batch, start=1):
        label = f"m{number}"
        lines.append(
            ConversationLine(label, message.role, message.timestamp, message.content, message.name)
        )
        sources[label] = message.id
        if message.id:
            sources.setdefault(message.id, message.id)
    return lines, sources


def from_settings(settings: Settings) -> LLMExtractor:
    """``JIYI_EXTRACTOR=llm``: the OpenAI-compatible client from ``JIYI_LLM_*`` (ConfigError if unset)."""
    from jiyi.llms.openai_compat import from_settings as llm_from_settings

    return LLMExtractor(llm_from_settings(settings), tz=ZoneInfo(settings.timezone))
