"""Does a later message end a standing memory? Pairs run through the whole write path.

A pair file is TSV, one pair a line: ``label<TAB>family<TAB>standing statement<TAB>later
message`` (``#`` lines are comments). ``label`` is 1 when the later message means the
standing statement no longer holds (a move, a job left, a breakup, a pet lost, a car sold, a
habit quit, a preparation ended by an admission, a number replaced, a diet dropped) and 0
when it does not (the same thing mentioned in passing, someone else's change, a hedge, another
sense of the verb). ``family`` only groups the report.

Each pair gets a fresh store: the statement is added, three days later the message, and the
pair counts as *closed* when any memory made from the statement is no longer active or has
its valid window closed. A change that closes is found; a non-change that closes is a wrong
close (a true fact hidden from every later prompt). Bundled files (``bundled``):
``written.tsv`` (78 pairs written to measure, never tuned on) and ``blind.tsv`` (655 pairs
written blind from a brief by writers who saw no code). See docs/lab-notes.md.
"""

from __future__ import annotations

import tempfile
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from importlib import resources
from pathlib import Path

from jiyi.errors import InvalidInput
from jiyi.text.ended import ENDED_KEY

BUNDLED = ("written.tsv", "blind.tsv")
_T0 = datetime(2026, 10, 1, 12, 0, tzinfo=timezone.utc)


@dataclass(slots=True, frozen=True)
class Pair:
    label: int
    family: str
    statement: str
    message: str


@dataclass(slots=True)
class Tally:
    found: int = 0  # changes that closed the statement
    missed: int = 0  # changes that did not
    wrong: int = 0  # non-changes that closed it
    kept: int = 0  # non-changes that did not

    def add(self, label: int, closed: bool) -> None:
        if label:
            self.found, self.missed = self.found + closed, self.missed + (not closed)
        else:
            self.wrong, self.kept = self.wrong + closed, self.kept + (not closed)

    def row(self, name: str) -> str:
        changes, others = self.found + self.missed, self.wrong + self.kept
        recall = f"{self.found / changes:.2f}" if changes else "  - "
        closes = self.found + self.wrong
        precision = f"{self.found / closes:.2f}" if closes else "  - "
        return (f"  {name:<12} {self.found:>4}/{changes:<4} {recall:>7}   {self.wrong:>4}/{others:<4}"
                f"   {precision:>9}")


@dataclass(slots=True)
class ChangeReport:
    name: str
    total: Tally = field(default_factory=Tally)
    by_family: dict[str, Tally] = field(default_factory=dict)
    misses: list[Pair] = field(default_factory=list)
    wrong: list[Pair] = field(default_factory=list)
    marked: list[int] = field(default_factory=lambda: [0, 0])  # [non-changes, changes] ended by words only

    def format(self, *, show: int = 10) -> str:
        lines = [f"changes: {self.name}", "  family       found/changes recall   wrong/non-changes precision"]
        lines += [t.row(f) for f, t in sorted(self.by_family.items())]
        lines.append(self.total.row("overall"))
        lines.append(f"  of these, marked past by the ending's words (not closed): {self.marked[1]} found, "
                     f"{self.marked[0]} wrong")
        for title, pairs in (("wrong closes", self.wrong), ("missed changes", self.misses)):
            if pairs:
                lines.append(f"{title} (first {min(show, len(pairs))} of {len(pairs)}):")
                lines += [f"  [{p.family}] {p.statement} → {p.message}" for p in pairs[:show]]
        return "\n".join(lines)


def load_pairs(spec: str | Path) -> tuple[str, list[Pair]]:
    """A pair file by path, or a bundled one by name (``written.tsv`` / ``blind.tsv``)."""
    if str(spec) in BUNDLED:
        text = resources.files(__package__).joinpath(str(spec)).read_text("utf-8")
        name = str(spec)
    else:
        path = Path(spec)
        if not path.is_file():
            raise InvalidInput(f"{spec}: no such pair file (give a TSV path or one of {', '.join(BUNDLED)})")
        text, name = path.read_text("utf-8"), path.name
    pairs: list[Pair] = []
    for n, line in enumerate(text.splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        parts = line.split("\t")
        if len(parts) != 4 or parts[0] not in ("0", "1") or not all(p.strip() for p in parts[1:]):
            raise InvalidInput(f"{name}:{n}: expected label (0 or 1), family, statement, message separated by tabs")
        pairs.append(Pair(int(parts[0]), parts[1].strip(), parts[2].strip(), parts[3].strip()))
    if not pairs:
        raise InvalidInput(f"{name}: no pairs")
    return name, pairs


def closes(pair: Pair, **settings: object) -> str | None:
    """Does ``pair.message`` end a memory made from ``pair.statement`` (fresh store, default engine)?
    ``"closed"`` (superseded, or its validity ended), ``"marked"`` (left active but marked ended by the
    message's words, write/endings.py: shown as past), or None."""
    from jiyi.clock import FrozenClock
    from jiyi.memory import Memory
    from jiyi.records import Kind, Status

    with tempfile.TemporaryDirectory() as home:
        clock = FrozenClock(_T0)
        with Memory(path=Path(home) / "jiyi.db", home=home, clock=clock, background_worker=False,
                    **settings) as mem:  # type: ignore[arg-type]
            mem.add(pair.statement, user_id="u", session_id="s1", sync=True)
            made = [r.id for r in mem.get_all(user_id="u", limit=100) if r.kind is not Kind.EPISODE]
            clock.set(_T0 + timedelta(days=3))
            mem.add(pair.message, user_id="u", session_id="s2", sync=True)
            after = [mem.get(i, user_id="u") for i in made]
            if any(r is None or r.status is not Status.ACTIVE or r.valid_until is not None for r in after):
                return "closed"
            return "marked" if any(r is not None and r.metadata.get(ENDED_KEY) for r in after) else None


def run_pairs(name: str, pairs: Iterable[Pair], **settings: object) -> ChangeReport:
    report = ChangeReport(name)
    for pair in pairs:
        how = closes(pair, **settings)
        closed = how is not None
        if how == "marked":
            report.marked[pair.label] += 1
        report.total.add(pair.label, closed)
        report.by_family.setdefault(pair.family, Tally()).add(pair.label, closed)
        if pair.label and not closed:
            report.misses.append(pair)
        elif closed and not pair.label:
            report.wrong.append(pair)
    return report


def in_split(pair: Pair, split: str) -> bool:
    """The fixed tune/check part of a pair, by its text (jiyi.eval.split: a third is ``check``)."""
    from jiyi.eval.split import check_split, scenario_in

    return scenario_in(check_split(split), f"{pair.statement}\t{pair.message}")


def run_specs(specs: Sequence[str], *, split: str | None = None, **settings: object) -> list[ChangeReport]:
    """Each file of ``specs`` (``bundled``: both bundled files), or only its ``split`` part."""
    names = [b for s in specs for b in (BUNDLED if s == "bundled" else (s,))]
    reports = []
    for spec in names:
        name, pairs = load_pairs(spec)
        if split is not None:
            name, pairs = f"{name} ({split})", [p for p in pairs if in_split(p, split)]
        reports.append(run_pairs(name, pairs, **settings))
    return reports
