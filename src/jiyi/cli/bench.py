"""``jiyi bench``: latency, throughput, memory and disk on synthetic stores of N memories per user."""

from __future__ import annotations

from pathlib import Path

import click

from jiyi.cli.common import emit_json, json_option


def register(cli: click.Group) -> None:
    cli.add_command(bench)


def parse_sizes(text: str) -> tuple[int, ...]:
    """``1k,10k,100k`` / ``1000,1M`` → sizes; each at least 10."""
    out = []
    for part in text.split(","):
        part = part.strip().lower()
        if not part:
            continue
        mult = {"k": 1_000, "m": 1_000_000}.get(part[-1], 1)
        digits = part[:-1] if mult > 1 else part
        try:
            value = int(float(digits) * mult)
        except ValueError:
            raise click.BadParameter(f"{part!r} is not a size like 1000, 10k or 1M") from None
        if value < 10:
            raise click.BadParameter("each size must be at least 10")
        out.append(value)
    if not out:
        raise click.BadParameter("give at least one size")
    return tuple(out)


@click.command("bench")
@click.option("--sizes", default="1k,10k,100k", show_default=True,
              help="Memories of the large user, one store per size (1M fits in 24 GB; it takes a while).")
@click.option("--users", "others", type=click.IntRange(min=0), default=100, show_default=True,
              help="Other users of uneven size in each store (plus a 1,000-memory probe user).")
@click.option("--queries", type=click.IntRange(min=5), default=1000, show_default=True,
              help="Searches per user (distinct questions, each embedded for real).")
@click.option("--pool", "pool_size", type=click.IntRange(min=20), default=2000, show_default=True,
              help="Texts embedded for real to make the bulk rows' vectors.")
@click.option("--embedder", default="e5", show_default=True, help="Embedder for the pool and queries (e5, hash).")
@click.option("--compare", type=click.Choice(["numpy"]), multiple=True,
              help="Also time plain numpy brute force and print every figure as a ratio to it.")
@click.option("--no-writes", is_flag=True, help="Skip the write-throughput scenarios.")
@click.option("--no-cold-open", is_flag=True, help="Skip the fresh-process cold open and RSS measurement.")
@click.option("--paused", type=click.IntRange(min=0), default=40, show_default=True,
              help="Searches with a 0.2 s pause before each (a bot's rhythm: caches cold); 0 skips them.")
@click.option("--dir", "workdir", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Keep the stores here (default: a temporary folder, removed afterwards).")
@click.option("--cache", "cache_dir", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Folder for the embedded vector pool, reused across runs (default: the work folder).")
@click.option("--out", "json_out", default=None, type=click.Path(dir_okay=False, path_type=Path),
              help="Also write the full report as JSON to this file.")
@json_option
def bench(sizes: str, others: int, queries: int, pool_size: int, embedder: str, compare: tuple[str, ...],
          no_writes: bool, no_cold_open: bool, paused: int, workdir: Path | None, cache_dir: Path | None,
          json_out: Path | None, as_json: bool) -> None:
    """Build synthetic stores (Chinese and English memories) and time searches and writes.

    Per size: search p50/p95 split by route, fusion+ranking and hit recording (query
    embedding timed apart), vector recall against exact, bulk-write rate, disk and RSS
    per memory, and cold-open time; then add throughput for the episode and extraction
    paths, single and batched, with and without embedding. Run it with `nice` on a
    shared machine; 1k,10k,100k takes a few minutes plus one-off pool embedding.
    """
    from jiyi.eval.bench import BenchOptions, run_bench, write_json
    from jiyi.eval.benchreport import format_report
    from jiyi.eval.benchwrite import WritePlan

    opts = BenchOptions(sizes=parse_sizes(sizes), others=others, queries=queries, pool_size=pool_size,
                        embedder=embedder, compare=compare, workdir=workdir, cache_dir=cache_dir,
                        writes=None if no_writes else WritePlan(), cold_open=not no_cold_open, paused=paused)
    report = run_bench(opts, progress=lambda msg: click.echo(msg, err=True))
    if json_out is not None:
        write_json(report, json_out)
    if as_json:
        emit_json(report)
    else:
        click.echo(format_report(report))
