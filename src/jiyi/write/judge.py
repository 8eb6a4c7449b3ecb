"""Resolution with an LLM judge: ADD / UPDATE / MERGE / SUPERSEDE / NONE for close calls.

The rules of :mod:`jiyi.write.resolve` are sure about two things: a near-duplicate
(cosine ≥ the duplicate threshold, same numbers) is the same memory, and a memory
far from everything is new. Between them lie the close calls: "用户喜欢猫" next to
"用户养了一只猫", a new value in a slot that may not be single-valued after all, a
detail added to a known fact. There a :class:`Judge` is asked, when one is set.

Who decides what:

* :func:`judged_decision` picks the neighbours worth showing (cosine ≥ ``min_cosine``
  and not a sure duplicate, or the same slot), asks the judge, and turns its verdict
  into the same :class:`~jiyi.write.resolve.Decision` the rules produce;
* a judge implements one primitive, :meth:`Judge.judge`; :class:`LLMJudge` asks an
  OpenAI-compatible model (:mod:`jiyi.extractors.prompts.judgment`);
* :func:`judged_ending` does the same for a statement of change (moved, quit, broke up…):
  the judge sees the standing memories the rules would close (write/resolve.py
  ``topic_targets``) and decides which one the change ends, or that it ends none;
* any provider failure or unusable reply falls back to the rule decision, logged and
  noted in the history reason. The judge can only act on the neighbours it was shown,
  one at a time, and has no delete: the worst a fooled judge can do is retire one
  memory that was already a close neighbour, and the history keeps it.
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timezone, tzinfo
from typing import TYPE_CHECKING, Protocol, runtime_checkable
from zoneinfo import ZoneInfo

from jiyi.errors import ProviderBadOutput, ProviderError
from jiyi.extractors.prompts.judgment import MemoryLine, judgment_messages, parse_judgment
from jiyi.extractors.prompts.repair import ReplyInvalid
from jiyi.extractors.protocol import Candidate
from jiyi.llms.protocol import LLM
from jiyi.records import EventType, HistoryEvent, MemoryRecord, Visibility
from jiyi.text.topics import families_of
from jiyi.trace import StageCounts
from jiyi.write.resolve import Decision, is_duplicate, lang_of, merge, supersede

if TYPE_CHECKING:
    from jiyi.config import Settings

log = logging.getLogger("jiyi.write.judge")

DEFAULT_MIN_COSINE = 0.80
MAX_NEIGHBOURS = 5
MAX_REASON_CHARS = 300


@dataclass(slots=True, frozen=True)
class JudgeCase:
    """What the judge sees: the candidate (as a record) and its close neighbours with their cosines."""

    candidate: Candidate
    new: MemoryRecord
    neighbours: tuple[tuple[MemoryRecord, float | None], ...]


@dataclass(slots=True, frozen=True)
class Verdict:
    """The judge's choice. ``target`` is a memory id from the case's neighbours (or None)."""

    action: EventType
    target: str | None
    reason: str
    judge: str = "llm"


@runtime_checkable
class Judge(Protocol):
    """Decides one close call. Raises ProviderError when it cannot; the caller falls back to the rules."""

    name: str
    min_cosine: float  # where close calls begin for the embedder in use (see min_cosine_for)

    def judge(self, case: JudgeCase) -> Verdict: ...


class LLMJudge:
    """A :class:`Judge` backed by an OpenAI-compatible chat model (one short JSON call per close call).

    ``min_cosine`` is where "close" begins for this embedder (see :func:`min_cosine_for`);
    ``tz`` is the zone the memories' dates are shown in. ``stats`` counts calls, failures
    (each one a fallback to the rules) and the actions chosen.
    """

    name = "llm"

    def __init__(self, llm: LLM, *, min_cosine: float = DEFAULT_MIN_COSINE, max_tokens: int = 300,
                 tz: tzinfo = timezone.utc) -> None:
        self.llm = llm
        self.min_cosine = min_cosine
        self.max_tokens = max_tokens
        self.tz = tz
        self._counts = StageCounts()

    @property
    def stats(self) -> dict[str, int]:
        """``asked``, ``failures`` and one count per action chosen (``ADD``, ``SUPERSEDE``…)."""
        return self._counts.snapshot()

    def _count(self, key: str) -> None:
        self._counts.add(key)

    def judge(self, case: JudgeCase) -> Verdict:
        """Ask the model; ProviderBadOutput if the reply is not a valid verdict about the memories shown."""
        self._count("asked")
        try:
            verdict = self._ask(case)
        except ProviderError:
            self._count("failures")
            raise
        self._count(verdict.action.value)
        return verdict

    def _ask(self, case: JudgeCase) -> Verdict:
        labels = {f"e{i}": rec.id for i, (rec, _) in enumerate(case.neighbours, start=1)}
        existing = [_line(label, rec, cos, self.tz) for (label, (rec, cos)) in zip(labels, case.neighbours)]
        cand = _line("new", case.new, None, self.tz, correction=case.candidate.corrects)
        completion = self.llm.complete(judgment_messages(cand, existing), json_mode=True, max_tokens=self.max_tokens)
        try:
            reply = parse_judgment(completion.text, list(labels))
        except ReplyInvalid as exc:
            log.debug("invalid judgment reply: %r", completion.text[:1000])
            raise ProviderBadOutput(f"the LLM judgment was invalid: {exc}") from exc
        return Verdict(EventType(reply.action), labels.get(reply.target or ""), reply.reason.strip(),
                       judge=f"llm:{completion.model}")


def _line(label: str, rec: MemoryRecord, cosine: float | None, tz: tzinfo, *,
          correction: bool = False) -> MemoryLine:
    when = (rec.valid_from or rec.created_at).astimezone(tz)
    return MemoryLine(label, rec.content, rec.kind.value, rec.slot, when, cosine, correction)


def min_cosine_for(embedder: object, setting: float | None) -> float:
    """Where close calls begin: the setting, else the embedder's ``related_threshold``, else 0.80.

    Embedders spread similarities differently: multilingual-e5 scores unrelated
    Chinese statements about the same user 0.89-0.95 and related ones 0.96-0.97, so
    0.80 would send every candidate to the judge. An embedder declares its own band
    with a ``related_threshold`` attribute, as it declares ``duplicate_threshold``.
    """
    if setting is not None:
        return setting
    declared = getattr(embedder, "related_threshold", None)
    return float(declared) if isinstance(declared, (int, float)) else DEFAULT_MIN_COSINE


def judged_decision(
    judge: Judge,
    cand: Candidate,
    new: MemoryRecord,
    *,
    similar: Sequence[tuple[MemoryRecord, float]],
    slot_holders: Sequence[MemoryRecord],
    rule: Decision,
    now: datetime,
    merge_threshold: float,
) -> Decision:
    """The judge's decision for a close call; ``rule`` when the case is clear-cut or the judge fails."""
    neighbours = close_neighbours(new, similar, slot_holders, merge_threshold=merge_threshold,
                                  min_cosine=judge.min_cosine)
    if not neighbours:
        return rule
    try:
        verdict = judge.judge(JudgeCase(cand, new, tuple(neighbours)))
        decision = decision_from_verdict(verdict, new, {r.id: r for r, _ in neighbours}, now)
    except ProviderError as exc:
        log.warning("LLM judgment failed (%s: %s); keeping the rule decision %s",
                    type(exc).__name__, exc, rule.event.value)
        return _noted(rule, f"LLM judge unavailable: {type(exc).__name__}")
    log.debug("judge %r → %s %s (%s)", new.content, verdict.action.value, verdict.target, verdict.reason)
    return decision


def judged_ending(judge: Judge, cand: Candidate, new: MemoryRecord, *, olds: Sequence[MemoryRecord],
                  rule: Decision, now: datetime, similar: Sequence[tuple[MemoryRecord, float]] = ()) -> Decision:
    """The judge's decision on a statement of change, shown the old memories ``rule`` closes.

    SUPERSEDE of one of them closes it and the others of its topic (a job left ends the
    employer and the role); ADD keeps them all current (the judge saw no change of them);
    UPDATE / MERGE / NONE act on their target as in :func:`judged_decision`. A failure
    keeps ``rule``.
    """
    shown = list(olds)[:MAX_NEIGHBOURS]
    if not shown:
        return rule
    cosine: dict[str, float] = {}
    for rec, cos in similar:
        cosine[rec.id] = max(cos, cosine.get(rec.id, cos))
    try:
        verdict = judge.judge(JudgeCase(cand, new, tuple((r, cosine.get(r.id)) for r in shown)))
        by_id = {r.id: r for r in shown}
        target = by_id.get(verdict.target or "")
        if verdict.action is EventType.SUPERSEDE and target is not None:
            family = families_of(target.content, target.slot, lang_of(target))
            closed = [r for r in shown if r.id == target.id or families_of(r.content, r.slot, lang_of(r)) & family]
            reason = f"{verdict.judge}: {verdict.reason or 'no reason given'}"[:MAX_REASON_CHARS]
            decision = supersede(closed, new, now, reason=reason)
            actor = verdict.judge.split(":", 1)[0]
            return dataclasses.replace(decision, history=[dataclasses.replace(h, actor=actor)
                                                          for h in decision.history])
        decision = decision_from_verdict(verdict, new, by_id, now)
    except ProviderError as exc:
        log.warning("LLM judgment of a change failed (%s: %s); keeping the rule decision %s",
                    type(exc).__name__, exc, rule.event.value)
        return _noted(rule, f"LLM judge unavailable: {type(exc).__name__}")
    log.debug("judge change %r → %s %s (%s)", new.content, verdict.action.value, verdict.target, verdict.reason)
    return decision


def close_neighbours(
    new: MemoryRecord,
    similar: Sequence[tuple[MemoryRecord, float]],
    slot_holders: Sequence[MemoryRecord],
    *,
    merge_threshold: float,
    min_cosine: float,
) -> list[tuple[MemoryRecord, float | None]]:
    """Neighbours worth a judgment, closest first; empty when the rules are sure.

    The rules are sure when the candidate is a near-duplicate of a memory or says
    exactly what its slot already holds (a merge), or when nothing is close.
    """
    best: dict[str, tuple[MemoryRecord, float]] = {}
    for rec, cos in similar:
        if rec.id not in best or cos > best[rec.id][1]:
            best[rec.id] = (rec, cos)
    if any(is_duplicate(r.content, new.content, c, merge_threshold) for r, c in best.values()):
        return []
    if any(h.content.strip() == new.content.strip() for h in slot_holders):
        return []
    close: list[tuple[MemoryRecord, float | None]] = sorted(
        ((r, c) for r, c in best.values() if c >= min_cosine), key=lambda rc: -(rc[1] or 0.0))
    close = close[:MAX_NEIGHBOURS]
    shown = {r.id for r, _ in close}
    close += [(h, best[h.id][1] if h.id in best else None) for h in slot_holders if h.id not in shown]
    return close


def decision_from_verdict(verdict: Verdict, new: MemoryRecord, shown: dict[str, MemoryRecord],
                          now: datetime) -> Decision:
    """The write a verdict means. Targets outside ``shown`` were already refused by the judge."""
    reason = f"{verdict.judge}: {verdict.reason or 'no reason given'}"[:MAX_REASON_CHARS]
    target = shown.get(verdict.target or "")
    action = verdict.action
    if action in (EventType.UPDATE, EventType.MERGE, EventType.SUPERSEDE) and target is None:
        raise ProviderBadOutput(f"{action.value} without a target")  # a Judge broke its contract
    if action is EventType.UPDATE and target is not None:
        decision = update(target, new, now, reason=reason)
    elif action is EventType.MERGE and target is not None:
        decision = merge(target, new, now, reason=reason)
    elif action is EventType.SUPERSEDE and target is not None:
        decision = supersede([target], new, now, reason=reason)
    elif action is EventType.NONE:
        kept = target or next(iter(shown.values()))
        decision = Decision(EventType.NONE, kept, reason=reason)
    else:
        decision = Decision(EventType.ADD, new, is_new=True,
                            history=[HistoryEvent(EventType.ADD, new.id, now, new=new.content, reason=reason)])
    actor = verdict.judge.split(":", 1)[0]
    return dataclasses.replace(decision, history=[dataclasses.replace(h, actor=actor) for h in decision.history])


def update(old: MemoryRecord, new: MemoryRecord, now: datetime, *, reason: str) -> Decision:
    """Rewrite ``old`` with ``new``'s content: same id, sources and entities accumulate.

    ``is_new`` is set because the content changed: the candidate's vector (and
    keywords) must replace the stored ones.
    """
    updated = old.replace(
        content=new.content,
        slot=old.slot or new.slot,
        entities=tuple(dict.fromkeys((*old.entities, *new.entities))),
        source_ids=tuple(dict.fromkeys((*old.source_ids, *new.source_ids))),
        importance=max(old.importance, new.importance),
        confidence=new.confidence,
        valid_from=new.valid_from or old.valid_from,
        valid_until=new.valid_until or old.valid_until,
        expires_at=new.expires_at or old.expires_at,
        visibility=Visibility.SENSITIVE if Visibility.SENSITIVE in (old.visibility, new.visibility)
        else Visibility.NORMAL,
        updated_at=now,
    )
    hist = HistoryEvent(EventType.UPDATE, old.id, now, old=old.content, new=new.content, reason=reason)
    return Decision(EventType.UPDATE, updated, history=[hist], previous=old.content, is_new=True, reason=reason)


def _noted(rule: Decision, note: str) -> Decision:
    """``rule`` with ``note`` appended to its reasons, so the history shows why no judge spoke."""
    history = [dataclasses.replace(h, reason=f"{h.reason or ''} [{note}]".strip()) for h in rule.history]
    return dataclasses.replace(rule, history=history, reason=f"{rule.reason} [{note}]")


def from_settings(settings: Settings, llm: LLM | None, embedder: object = None) -> LLMJudge | None:
    """The judge Memory uses: an LLMJudge when an LLM is configured and ``llm_resolve`` is on."""
    if llm is None or not settings.llm_resolve:
        return None
    return LLMJudge(llm, min_cosine=min_cosine_for(embedder, settings.llm_resolve_min_cosine),
                    tz=ZoneInfo(settings.timezone))
