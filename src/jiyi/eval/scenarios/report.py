"""The scenario report: pass rate per category, per language and overall, and every failing probe."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from jiyi.eval.scenarios.format import Probe

_HAN = re.compile(r"[\u3400-\u9fff]")
#: The categories of the issue, reported in this order; others follow alphabetically.
CATEGORY_ORDER = ("profile", "latest", "expiry", "temporal", "people", "noise", "injection", "dates")


def probe_lang(probe: Probe) -> str:
    """The probe's ``lang``, else ``zh`` when the query has Chinese characters, else ``en``."""
    return probe.lang or ("zh" if _HAN.search(probe.query) else "en")


@dataclass(slots=True)
class ProbeResult:
    scenario: str
    probe: Probe
    block: str
    hits: list[str]
    failures: list[str]

    @property
    def passed(self) -> bool:
        return not self.failures

    def to_dict(self) -> dict[str, Any]:
        p = self.probe
        return {"scenario": self.scenario, "id": p.id, "category": p.category, "lang": probe_lang(p),
                "user": p.user, "at": p.at.isoformat(), "query": p.query, "passed": self.passed,
                "failures": list(self.failures), "block": self.block, "hits": list(self.hits), "note": p.note}


@dataclass(slots=True)
class Rate:
    passed: int = 0
    total: int = 0

    @property
    def rate(self) -> float:
        return self.passed / self.total if self.total else 0.0

    def add(self, ok: bool) -> None:
        self.passed += ok
        self.total += 1

    def to_dict(self) -> dict[str, Any]:
        return {"passed": self.passed, "total": self.total, "rate": round(self.rate, 4)}


@dataclass(slots=True)
class ScenarioReport:
    name: str
    scenarios: int = 0
    results: list[ProbeResult] = field(default_factory=list)
    messages: int = 0
    rejected: int = 0  # messages the engine refused as invalid (a bot gets the error and chats on)
    ingest_seconds: float = 0.0
    setup_seconds: float = 0.0

    @property
    def failed(self) -> list[ProbeResult]:
        return [r for r in self.results if not r.passed]

    @property
    def overall(self) -> Rate:
        return _rate(self.results)

    def by_category(self) -> dict[str, Rate]:
        cats = {r.probe.category for r in self.results}
        order = [c for c in CATEGORY_ORDER if c in cats] + sorted(cats - set(CATEGORY_ORDER))
        return {c: _rate(r for r in self.results if r.probe.category == c) for c in order}

    def by_language(self) -> dict[str, Rate]:
        langs = sorted({probe_lang(r.probe) for r in self.results}, key=lambda x: (x != "zh", x))
        return {lang: _rate(r for r in self.results if probe_lang(r.probe) == lang) for lang in langs}

    def to_dict(self) -> dict[str, Any]:
        return {"file": self.name, "scenarios": self.scenarios, "probes": len(self.results),
                "messages": self.messages, "rejected": self.rejected, "ingest_seconds": round(self.ingest_seconds, 2),
                "overall": self.overall.to_dict(),
                "categories": {c: r.to_dict() for c, r in self.by_category().items()},
                "languages": {lang: r.to_dict() for lang, r in self.by_language().items()},
                "results": [r.to_dict() for r in self.results]}

    def format(self, *, show_blocks: bool = True) -> str:
        return format_report(self, show_blocks=show_blocks)


def _rate(results: Iterable[ProbeResult]) -> Rate:
    rate = Rate()
    for r in results:
        rate.add(r.passed)
    return rate


def _row(label: str, rate: Rate) -> str:
    return f"  {label:<12} {rate.passed:>4}/{rate.total:<4} {100 * rate.rate:6.1f}%"


def format_report(report: ScenarioReport, *, show_blocks: bool = True) -> str:
    """Plain text: the table first, then each failing probe with its reasons and the block it got."""
    lines = [(f"scenarios: {report.name} — {report.scenarios} scenarios, {len(report.results)} probes, "
              f"{report.messages} messages ingested in {report.ingest_seconds:.1f} s"
              + (f", {report.rejected} refused as invalid" if report.rejected else "")), "",
             f"  {'category':<12} {'passed':>9} {'rate':>7}"]
    lines += [_row(c, r) for c, r in report.by_category().items()]
    lines += [_row(f"[{lang}]", r) for lang, r in report.by_language().items()]
    lines.append(_row("overall", report.overall))
    for res in report.failed:
        p = res.probe
        lines += ["", f"FAIL {p.category} {p.id}  ({p.user} @ {p.at.isoformat()})  {p.query}"]
        if p.note:
            lines.append(f"  why: {p.note}")
        lines += [f"  - {f}" for f in res.failures]
        if show_blocks:
            if p.block is not None:
                lines.append("  block:" if res.block else "  block: (empty)")
                lines += [f"    | {ln}" for ln in res.block.splitlines()]
            if p.hits is not None:
                lines.append(f"  top {p.hits.k} hits:" if res.hits else "  hits: (none)")
                lines += [f"    {i}. {h}" for i, h in enumerate(res.hits, 1)]
    return "\n".join(lines)
