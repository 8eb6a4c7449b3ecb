"""``run_eval``: replay each conversation into a fresh Memory and score every question.

Only the public API is used, exactly as a chatbot would: each session is one
``add(..., sync=True)`` of its turns (id = ``dia_id``, timestamp = the session date,
name = the speaker), then every question is one ``search``. The clock is replayed
too: it reads the session's date while that session is added, and one day after the
last session while questions are asked, so results do not drift with the wall clock.
"""

from __future__ import annotations

import contextlib
import json
import re
import tempfile
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

from jiyi.clock import FrozenClock
from jiyi.eval.locomo import APART_CATEGORIES, Conversation, Dataset, Session, load_dataset
from jiyi.eval.metrics import (
    QuestionResult,
    abstention,
    by_category,
    describe,
    knowledge_update,
    percentile,
    summarize,
)
from jiyi.eval.simulated import SimulatedReranker
from jiyi.memory import Memory

DEFAULT_KS = (1, 5, 10, 20)
#: A hit tracing back to more turns than this (a session digest) points at no turn in particular:
#: it counts as covering none, so one summary cannot "find" twenty evidence turns at once.
MAX_SOURCES_PER_HIT = 5
ASK_DELAY = timedelta(days=1)
_EPOCH = datetime(2000, 1, 1, tzinfo=timezone.utc)


@dataclass(slots=True)
class EvalOptions:
    ks: tuple[int, ...] = DEFAULT_KS
    conversations: Sequence[int] | None = None  # indexes into the file; None = all
    limit_questions: int | None = None  # per conversation
    memory_options: Mapping[str, Any] = field(default_factory=dict)  # extra Memory(**config)
    #: Keep each conversation's store here and reuse it when present (ingest skipped): for tuning
    #: read-side settings only, since a reused store holds what the write path did when it was made.
    stores_dir: Path | None = None
    #: A simulated reranker of this AUC in the read path (eval/simulated.py), seeded with ``seed``.
    simulate_reranker: float | None = None
    seed: int = 0


@dataclass(slots=True)
class ConversationRun:
    sample_id: str
    turns: int
    sessions: int
    ingest_seconds: float
    results: list[QuestionResult]


@dataclass(slots=True)
class EvalResult:
    dataset: str
    schema: str
    ks: tuple[int, ...]
    runs: list[ConversationRun]
    repaired_evidence: list[str]
    unresolved_evidence: list[str]

    @property
    def results(self) -> list[QuestionResult]:
        return [r for run in self.runs for r in run.results]

    def to_dict(self, *, questions: bool = True) -> dict[str, Any]:
        """Everything as JSON-ready data: overall, per category, special reports, timings."""
        res = self.results
        main = [r for r in res if r.category not in APART_CATEGORIES]
        latencies = [r.latency_ms for r in res]
        out: dict[str, Any] = {
            "dataset": self.dataset,
            "schema": self.schema,
            "ks": list(self.ks),
            "overall": summarize(main, self.ks).to_dict(),
            "categories": {c: summarize(rs, self.ks).to_dict() for c, rs in by_category(res).items()},
            "apart": sorted({r.category for r in res} & APART_CATEGORIES),
            "knowledge_update": knowledge_update(res),
            "abstention": abstention(res),
            "search_ms": {"p50": describe(latencies).get("p50", 0.0), "p95": percentile(latencies, 95),
                          "mean": describe(latencies).get("mean", 0.0)},
            "ingest": {"seconds": sum(r.ingest_seconds for r in self.runs),
                       "turns": sum(r.turns for r in self.runs),
                       "per_conversation": {r.sample_id: round(r.ingest_seconds, 2) for r in self.runs}},
            "broad_hits": sum(1 for r in res for h in r.ranked if not h),
            "questions_total": len(res),
            "questions_without_evidence": sum(1 for r in res if not r.evidence),
            "evidence_repaired": list(self.repaired_evidence),
            "evidence_unresolved": list(self.unresolved_evidence),
        }
        if questions:
            out["questions"] = [{"conversation": r.conversation, "question": r.question, "category": r.category,
                                 "evidence": list(r.evidence), "ranked": [list(h) for h in r.ranked],
                                 "top_score": r.top_score, "ms": round(r.latency_ms, 2)} for r in res]
        return out


def run_eval(data: str | Path | Dataset, options: EvalOptions | None = None,
             progress: Callable[[str], None] | None = None) -> EvalResult:
    """Evaluate retrieval on a LoCoMo-schema file (or a loaded :class:`Dataset`)."""
    opts = options or EvalOptions()
    dataset = data if isinstance(data, Dataset) else load_dataset(data)
    chosen = _select(dataset.conversations, opts.conversations)
    runs = []
    for conv in chosen:
        if progress:
            progress(f"{conv.sample_id}: {conv.turn_count()} turns, {len(conv.questions)} questions")
        runs.append(run_conversation(conv, opts))
    return EvalResult(dataset.name, dataset.schema, tuple(opts.ks), runs,
                      dataset.audit.repaired, dataset.audit.unresolved)


def _select(convs: list[Conversation], indexes: Sequence[int] | None) -> list[Conversation]:
    if indexes is None:
        return list(convs)
    bad = [i for i in indexes if not 0 <= i < len(convs)]
    if bad:
        raise ValueError(f"conversation index {bad} out of range 0-{len(convs) - 1}")
    return [convs[i] for i in indexes]


def run_conversation(conv: Conversation, opts: EvalOptions) -> ConversationRun:
    """A fresh store and user (or the kept one, see ``stores_dir``); add every session, ask every question."""
    limit = max(opts.ks)
    questions = conv.questions[: opts.limit_questions] if opts.limit_questions else conv.questions
    user = f"eval-{conv.sample_id or 'conversation'}"
    with _store_folder(conv, opts.stores_dir) as (folder, kept):
        clock = FrozenClock(conv.sessions[0].date if conv.sessions else _EPOCH)
        config = {"home": str(folder), "background_worker": False, **opts.memory_options}
        sim = _simulated(conv, opts)
        with Memory(path=folder / "eval.db", clock=clock, reranker=sim, **config) as mem:
            if kept is None:
                t0 = time.perf_counter()
                for session in conv.sessions:
                    clock.set(session.date)
                    mem.add(session_messages(session), user_id=user, session_id=f"session_{session.number}",
                            sync=True)
                ingest = time.perf_counter() - t0
                if opts.stores_dir is not None:
                    (folder / INGESTED).write_text(json.dumps({"turns": conv.turn_count(), "seconds": ingest}))
            else:
                ingest = kept
            if sim is not None:
                sim.index(mem.get_all(user_id=user, status=None))
            if conv.sessions:
                clock.set(conv.sessions[-1].date + ASK_DELAY)
            results = [ask(mem, user, q.question, q.category, q.evidence, limit, conv.sample_id)
                       for q in questions]
    return ConversationRun(conv.sample_id, conv.turn_count(), len(conv.sessions), ingest, results)


def _simulated(conv: Conversation, opts: EvalOptions) -> SimulatedReranker | None:
    if opts.simulate_reranker is None:
        return None
    evidence: dict[str, list[str]] = {}
    for q in conv.questions:
        evidence.setdefault(q.question.strip(), []).extend(q.evidence)
    return SimulatedReranker(opts.simulate_reranker, evidence, seed=opts.seed, max_sources=MAX_SOURCES_PER_HIT)


#: Written beside a kept store once every session is in: the store is complete and reusable.
INGESTED = "ingested.json"


@contextlib.contextmanager
def _store_folder(conv: Conversation, stores_dir: Path | None) -> Iterator[tuple[Path, float | None]]:
    """The conversation's store folder, and the recorded ingest seconds when a complete store is reused."""
    if stores_dir is None:
        with tempfile.TemporaryDirectory(prefix="jiyi-eval-") as tmp:
            yield Path(tmp), None
        return
    folder = Path(stores_dir) / (re.sub(r"[^\w.-]+", "_", conv.sample_id) or "conversation")
    marker = folder / INGESTED
    if marker.exists():
        done = json.loads(marker.read_text())
        if done.get("turns") == conv.turn_count():
            yield folder, float(done.get("seconds", 0.0))
            return
    folder.mkdir(parents=True, exist_ok=True)
    for old in folder.glob("eval.db*"):  # an incomplete store from an interrupted run: start again
        old.unlink()
    marker.unlink(missing_ok=True)
    yield folder, None


def session_messages(session: Session) -> list[dict[str, str]]:
    """One session as ``add()`` messages: id = dia_id, timestamp = session date, name = speaker."""
    when = session.date.isoformat()
    return [{"role": t.role, "content": t.text, "id": t.dia_id, "timestamp": when, "name": t.speaker}
            for t in session.turns if t.text]


def ask(mem: Memory, user: str, question: str, category: str, evidence: tuple[str, ...], limit: int,
        conversation: str = "") -> QuestionResult:
    """One timed ``search``; the ranking is kept as each hit's source ids (see MAX_SOURCES_PER_HIT)."""
    t0 = time.perf_counter()
    hits = mem.search(question, user_id=user, limit=limit)
    ms = (time.perf_counter() - t0) * 1000.0
    ranked = [tuple(h.source_ids) if len(h.source_ids) <= MAX_SOURCES_PER_HIT else () for h in hits]
    return QuestionResult(category=category, evidence=evidence, ranked=ranked,
                          top_score=hits[0].score if hits else None, latency_ms=ms, question=question,
                          conversation=conversation)
