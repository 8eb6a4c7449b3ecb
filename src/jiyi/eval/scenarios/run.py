"""``run_scenarios``: replay each scenario's history through ``Memory`` and check every probe.

Each scenario gets a fresh store in a temporary folder and a frozen clock. Messages go
in through the normal write path, in time order: each run of consecutive messages of one
user in one session is one ``add(..., sync=True)`` with the clock at its last message.
Before a probe, everything said up to its ``at`` is in; then the clock is set to ``at``
and the probe asks ``build_context`` and ``search`` as a bot would at that moment. So a
probe can ask "as of" a moment between sessions. Settings are the defaults (rules
extractor, e5 embedder) plus JIYI_* variables plus ``memory_options``; one embedder is
loaded once and shared by every scenario's Memory.
"""

from __future__ import annotations

import tempfile
import time
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from jiyi.clock import FrozenClock
from jiyi.errors import InvalidInput
from jiyi.eval.scenarios.format import (
    Probe,
    Scenario,
    ScenarioFile,
    ScenarioMessage,
    load_scenarios,
)
from jiyi.eval.scenarios.match import (
    describe_group,
    excluded_in_block,
    group_found,
    hit_is_past,
    malformed,
)
from jiyi.eval.scenarios.report import ProbeResult, ScenarioReport
from jiyi.eval.split import check_split, scenario_in
from jiyi.memory import Memory
from jiyi.records import Hit

Progress = Callable[[str], None]


@dataclass(slots=True)
class ScenarioOptions:
    categories: Sequence[str] | None = None  # run only probes of these categories
    probes: Sequence[str] | None = None  # run only these probe ids
    memory_options: Mapping[str, Any] = field(default_factory=dict)  # extra Memory(**config)
    embedder: Any = None  # an embedder instance to share (default: built once from the settings)
    split: str | None = None  # "tune" or "check": only the scenarios of that part (jiyi.eval.split)
    use_recent: bool = True  # pass each probe's recent turns to search/build_context (False: the query alone)


def run_scenarios(data: str | Path | ScenarioFile, options: ScenarioOptions | None = None,
                  progress: Progress | None = None) -> ScenarioReport:
    """Run a scenario file (a path, a bundled name such as ``"dev"``, or a loaded file)."""
    opts = options or ScenarioOptions()
    sfile = data if isinstance(data, ScenarioFile) else load_scenarios(data)
    config: dict[str, Any] = dict(opts.memory_options)
    if sfile.timezone and "timezone" not in config:
        config["timezone"] = sfile.timezone
    scenarios = sfile.scenarios
    if opts.split is not None:
        part = check_split(opts.split)
        scenarios = [s for s in scenarios if scenario_in(part, s.id)]
    chosen = [(s, [p for p in s.probes if _wanted(p, opts)]) for s in scenarios]
    chosen = [(s, ps) for s, ps in chosen if ps]
    report = ScenarioReport(name=sfile.name, scenarios=len(chosen))
    if not chosen:
        return report
    t0 = time.perf_counter()
    embedder = opts.embedder or _shared_embedder(config)
    report.setup_seconds = time.perf_counter() - t0
    for scenario, probes in chosen:
        if progress:
            progress(f"{scenario.id}: {len(scenario.messages)} messages, {len(probes)} probes")
        report.results.extend(run_scenario(scenario, probes, config, embedder, sfile.extra_past_markers, report,
                                           use_recent=opts.use_recent))
    return report


def _wanted(p: Probe, opts: ScenarioOptions) -> bool:
    return (opts.categories is None or p.category in opts.categories) and (opts.probes is None or p.id in opts.probes)


def _shared_embedder(config: Mapping[str, Any]) -> Any:
    from jiyi import registry
    from jiyi.config import load_settings

    with tempfile.TemporaryDirectory(prefix="jiyi-scen-") as tmp:
        settings = load_settings(home=tmp, **config)
        return registry.create("embedder", settings.embedder, settings)


def run_scenario(scenario: Scenario, probes: Iterable[Probe], config: Mapping[str, Any], embedder: Any,
                 past_markers: Sequence[str] = (), report: ScenarioReport | None = None, *,
                 use_recent: bool = True) -> list[ProbeResult]:
    """One scenario in a fresh store; results in the file's probe order."""
    ordered = sorted(enumerate(probes), key=lambda ip: ip[1].at)
    results: dict[int, ProbeResult] = {}
    pending = list(scenario.messages)
    with tempfile.TemporaryDirectory(prefix="jiyi-scen-") as tmp:
        folder = Path(tmp)
        first = scenario.messages[0].timestamp if scenario.messages else ordered[0][1].at
        clock = FrozenClock(first)
        groups = group_chats(scenario.messages)
        settings = {"home": str(folder), "background_worker": False, **config}
        with Memory(path=folder / "scenario.db", clock=clock, embedder=embedder, **settings) as mem:
            for index, probe in ordered:
                due = [m for m in pending if m.timestamp <= probe.at]
                pending = pending[len(due):]
                t0 = time.perf_counter()
                refused = ingest(mem, clock, due, groups)
                if report is not None:
                    report.ingest_seconds += time.perf_counter() - t0
                    report.messages += len(due) - refused
                    report.rejected += refused
                clock.set(probe.at)
                results[index] = ask(mem, scenario.id, probe, past_markers, use_recent=use_recent)
    return [results[i] for i in sorted(results)]


def ingest(mem: Memory, clock: FrozenClock, messages: Sequence[ScenarioMessage],
           groups: Collection[str | None] | None = None) -> int:
    """Consecutive messages of one user in one session form one ``add``, at its last message's time.

    A session in ``groups`` (default: those of ``messages`` with several users) is a group chat
    stored per sender, added with ``group=True``. A batch the engine refuses as invalid (a display
    name too long, say) is added message by message, and those it refuses are left out, as a bot
    that got the error would chat on: how many were, is returned."""
    groups = group_chats(messages) if groups is None else groups
    refused = 0
    for batch in _batches(messages):
        clock.set(batch[-1].timestamp)
        options = {"user_id": batch[0].user, "session_id": batch[0].session, "sync": True,
                   "group": batch[0].session in groups}
        try:
            mem.add([_as_message(m) for m in batch], **options)
        except InvalidInput:
            for m in batch:
                try:
                    mem.add([_as_message(m)], **options)
                except InvalidInput:
                    refused += 1
    return refused


def group_chats(messages: Sequence[ScenarioMessage]) -> set[str | None]:
    """The sessions whose messages come from more than one user."""
    speakers: dict[str | None, set[str]] = {}
    for m in messages:
        speakers.setdefault(m.session, set()).add(m.user)
    return {s for s, users in speakers.items() if s is not None and len(users) > 1}


def _batches(messages: Sequence[ScenarioMessage]) -> list[list[ScenarioMessage]]:
    out: list[list[ScenarioMessage]] = []
    for m in messages:
        if out and (out[-1][-1].user, out[-1][-1].session) == (m.user, m.session):
            out[-1].append(m)
        else:
            out.append([m])
    return out


def _as_message(m: ScenarioMessage) -> dict[str, str | int]:
    msg: dict[str, str | int] = {"role": m.role, "content": m.content, "timestamp": m.timestamp.isoformat()}
    if m.utc_offset is not None:  # a scenario's offset is its speaker's, +00:00 (London) too; Z is UTC's clock
        msg["utc_offset"] = m.utc_offset
    if m.name:
        msg["name"] = m.name
    if m.id:
        msg["id"] = m.id
    return msg


def ask(mem: Memory, scenario_id: str, probe: Probe, past_markers: Sequence[str] = (), *,
        use_recent: bool = True) -> ProbeResult:
    """Ask one probe (the clock already at its moment) and check its expectations.

    The probe's ``recent`` turns go with the query unless ``use_recent`` is False.
    """
    recent = [{"role": m.role, "content": m.content} for m in probe.recent] if use_recent and probe.recent else None
    block = mem.build_context(probe.query, user_id=probe.user, budget_tokens=probe.budget_tokens,
                              include_sensitive=probe.include_sensitive, recent=recent)
    k = probe.hits.k if probe.hits else 0
    hits = mem.search(probe.query, user_id=probe.user, limit=k, include_sensitive=probe.include_sensitive,
                      recent=recent) if k else []
    failures = check_block(probe, block, past_markers) + check_hits(probe, hits)
    return ProbeResult(scenario=scenario_id, probe=probe, block=block, hits=[h.content for h in hits],
                       failures=failures)


def check_block(probe: Probe, block: str, past_markers: Sequence[str] = ()) -> list[str]:
    exp = probe.block
    if exp is None:
        return []
    out = []
    if exp.nonempty and not block.strip():
        out.append("block is empty")
    for group in exp.include:
        if not group_found(group, block):
            out.append(f"block lacks {describe_group(group)}")
    for ex in exp.exclude:
        bad = excluded_in_block(ex.needles, block, ex.unless_marked_past, past_markers)
        if bad:
            where = "unmarked" if ex.unless_marked_past else "in block"
            out.append(f"block has {describe_group(ex.needles)} ({where}): {bad.strip()[:120]}")
    if exp.well_formed:
        why = malformed(block)
        if why:
            out.append(f"block not well formed: {why}")
    return out


def check_hits(probe: Probe, hits: Sequence[Hit]) -> list[str]:
    exp = probe.hits
    if exp is None:
        return []
    texts = [h.content for h in hits]
    out = []
    for group in exp.include:
        if not any(group_found(group, t) for t in texts):
            out.append(f"top {exp.k} hits lack {describe_group(group)}")
    for ex in exp.exclude:
        for rank, h in enumerate(hits, 1):
            if group_found(ex.needles, h.content) and not (ex.unless_marked_past and _past(h, probe.at)):
                out.append(f"hit #{rank} has {describe_group(ex.needles)}: {h.content[:120]}")
                break
    for pair in exp.ranks_above:
        a = _first_rank(pair.above, texts)
        b = _first_rank(pair.below, texts)
        if a is None:
            out.append(f"ranks_above: nothing matching {describe_group(pair.above)} in the top {exp.k}")
        elif b is not None and b < a:
            out.append(f"ranks_above: {describe_group(pair.below)} at #{b} is above "
                       f"{describe_group(pair.above)} at #{a}")
    return out


def _past(h: Hit, at: datetime) -> bool:
    return hit_is_past(h.record.valid_until, h.record.expires_at, at)


def _first_rank(group: tuple[Any, ...], texts: Sequence[str]) -> int | None:
    return next((i for i, t in enumerate(texts, 1) if group_found(group, t)), None)
