"""``jiyi eval``: evidence recall on a LoCoMo-schema file (LoCoMo, or our Chinese set), or a scenario file."""

from __future__ import annotations

import json
from pathlib import Path

import click

from jiyi.cli.common import CliError


def register(cli: click.Group) -> None:
    cli.add_command(eval_)


def parse_indexes(text: str | None) -> list[int] | None:
    """``0-4`` / ``0,2,3`` / ``1-2,4`` → sorted unique indexes; None or empty → all."""
    if not text:
        return None
    out: set[int] = set()
    for part in text.split(","):
        part = part.strip()
        if not part:
            continue
        lo, sep, hi = part.partition("-")
        if not (lo.isdigit() and (not sep or hi.isdigit())):
            raise click.BadParameter(f"{part!r} is not N or N-M")
        a, b = int(lo), int(hi) if sep else int(lo)
        if b < a:
            raise click.BadParameter(f"{part!r}: range goes backwards")
        out.update(range(a, b + 1))
    return sorted(out)


def parse_ks(text: str) -> tuple[int, ...]:
    try:
        ks = tuple(sorted({int(x) for x in text.split(",") if x.strip()}))
    except ValueError:
        raise click.BadParameter(f"{text!r} is not a comma-separated list of integers") from None
    if not ks or ks[0] < 1 or ks[-1] > 1000:
        raise click.BadParameter("each k must be between 1 and 1000")
    return ks


@click.command("eval")
@click.option("--data", "data", default=None, type=click.Path(exists=True, dir_okay=False, path_type=Path),
              help="A LoCoMo-schema JSON file (e.g. shared/bench/locomo_dev.json or zh_dev.json).")
@click.option("--scenarios", "scenarios", default=None, metavar="FILE|dev",
              help="A scenario file (docs/scenarios.md), or 'dev' for the bundled one: checks what the "
                   "build_context block and search return for each probe.")
@click.option("--changes", "changes", default=None, metavar="FILE|bundled",
              help="A TSV of (label, family, standing statement, later message) pairs, or 'bundled': how many "
                   "changes close the standing memory and how many non-changes close it wrongly.")
@click.option("--category", "categories", default=None,
              help="With --scenarios: only probes of these categories (comma-separated).")
@click.option("--probe", "probe_ids", default=None, help="With --scenarios: only these probe ids (comma-separated).")
@click.option("--min-pass", type=click.FloatRange(0.0, 1.0), default=None,
              help="With --scenarios: exit with status 1 when the overall pass rate is below this (0-1).")
@click.option("--brief", is_flag=True, help="With --scenarios: list failing probes without their blocks.")
@click.option("--split", "split", type=click.Choice(["tune", "check"]), default=None,
              help="Only the tuning or the checking part of the file (docs/scenarios.md#splits): "
                   "a data file's last third of conversations is 'check'; a scenario is 'check' by its id.")
@click.option("--no-recent", "no_recent", is_flag=True,
              help="With --scenarios: ask each probe's query alone, without its recent turns (what "
                   "conversation-aware recall buys).")
@click.option("--conversations", default=None, help="Which conversations, by index: 0-4, 0,2 (default all).")
@click.option("--k", "ks", default="1,5,10,20", show_default=True, help="Cut-offs for recall@k.")
@click.option("--json", "json_out", default=None, type=click.Path(dir_okay=False, path_type=Path),
              help="Also write the full results (per question) as JSON to this file.")
@click.option("--limit-questions", type=click.IntRange(min=1), default=None,
              help="Ask only the first N questions of each conversation (quick checks).")
@click.option("--stores", "stores_dir", default=None, type=click.Path(file_okay=False, path_type=Path),
              help="Keep each conversation's store in this folder and reuse it on later runs (ingest "
                   "skipped): for tuning read-side settings. Delete it after changing the write path.")
@click.option("--simulate-reranker", "simulate", default=None, metavar="AUC[,AUC…]",
              help="With --data: run once per AUC with a simulated reranker of that quality (the evidence label "
                   "plus seeded noise; 'none' = no reranker) and print a table: what a reranker would buy.")
@click.option("--seed", default=0, show_default=True, help="Seed of the simulated reranker's noise.")
def eval_(data: Path | None, scenarios: str | None, changes: str | None, categories: str | None, probe_ids: str | None,
          min_pass: float | None, brief: bool, split: str | None, no_recent: bool, conversations: str | None, ks: str,
          json_out: Path | None, limit_questions: int | None, stores_dir: Path | None, simulate: str | None, seed: int) -> None:
    """Evidence recall of search (--data), or the scenario evaluation (--scenarios).

    --data: every turn added with its dia_id, every question searched, each conversation
    in a fresh temporary store. Prints recall@k, all@k, session recall, nDCG@10 and MRR
    per category, search latency and ingest time. --simulate-reranker adds a table of what
    a reranker of a given quality would buy.

    --scenarios: chat histories replayed through the write path, then each probe asks
    build_context and search at its moment. Prints the pass rate per category and every
    failing probe with the reason and the block it got.

    --changes: each pair's standing statement, then its later message, in a fresh store;
    prints per family how many changes closed the statement and how many non-changes did.

    Engine settings come from JIYI_* variables as usual (e.g. JIYI_WEIGHTS='{"keyword": 0.5}').
    """
    if sum(x is not None for x in (data, scenarios, changes)) != 1:
        raise click.UsageError("give one of --data FILE, --scenarios FILE or --changes FILE")
    if changes is not None:
        from jiyi.eval.changes import run_specs

        for report in run_specs([changes], split=split):
            click.echo(report.format())
        return
    if scenarios is not None:
        _eval_scenarios(scenarios, _csv(categories), _csv(probe_ids), json_out, min_pass, brief, split,
                        use_recent=not no_recent)
        return
    assert data is not None
    from jiyi.eval.report import format_report
    from jiyi.eval.run import EvalOptions, run_eval

    chosen = parse_indexes(conversations)
    if split is not None:
        if chosen is not None:
            raise click.UsageError("give --split or --conversations, not both")
        chosen = split_conversations(data, split)
    opts = EvalOptions(ks=parse_ks(ks), conversations=chosen, limit_questions=limit_questions,
                       stores_dir=stores_dir)
    if simulate:
        from jiyi.eval.simulated import run_simulations

        try:
            click.echo(run_simulations(data, opts, simulate, seed=seed, json_out=json_out))
        except ValueError as exc:
            raise click.BadParameter(str(exc), param_hint="--simulate-reranker") from None
        return
    result = run_eval(data, opts, progress=lambda msg: click.echo(msg, err=True))
    report = result.to_dict()
    if json_out is not None:
        json_out.write_text(json.dumps(report, ensure_ascii=False, indent=1), encoding="utf-8")
    click.echo(format_report(report))


def split_conversations(data: Path, split: str) -> list[int]:
    """The conversation indexes of ``split`` in a LoCoMo-schema file."""
    from jiyi.eval.split import check_split, conversations_of

    try:
        count = len(json.loads(data.read_text(encoding="utf-8")))
    except (OSError, ValueError) as exc:
        raise CliError(f"{data}: not a readable JSON list of conversations ({exc})") from None
    return conversations_of(check_split(split), count)


def _csv(text: str | None) -> list[str] | None:
    return [x.strip() for x in text.split(",") if x.strip()] if text else None


def _eval_scenarios(spec: str, categories: list[str] | None, probe_ids: list[str] | None, json_out: Path | None,
                    min_pass: float | None, brief: bool, split: str | None = None, *, use_recent: bool = True) -> None:
    from jiyi.errors import JiyiError
    from jiyi.eval.scenarios import ScenarioOptions, run_scenarios

    try:
        report = run_scenarios(spec, ScenarioOptions(categories=categories, probes=probe_ids, split=split,
                                                     use_recent=use_recent),
                               progress=lambda msg: click.echo(msg, err=True))
    except JiyiError as exc:
        raise CliError(str(exc)) from None
    if not report.results:
        raise click.ClickException("no probe matched --category/--probe")
    if json_out is not None:
        json_out.write_text(json.dumps(report.to_dict(), ensure_ascii=False, indent=1), encoding="utf-8")
    click.echo(report.format(show_blocks=not brief))
    if min_pass is not None and report.overall.rate < min_pass:
        raise click.ClickException(f"overall pass rate {report.overall.rate:.1%} is below --min-pass {min_pass:.0%}")
