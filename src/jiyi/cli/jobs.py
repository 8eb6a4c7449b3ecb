"""``jiyi jobs``: writes that failed for good (past their retries): list, retry or drop them."""

from __future__ import annotations

import click

from jiyi.cli.common import emit_json, json_option, open_memory


def register(cli: click.Group) -> None:
    cli.add_command(jobs)


@click.group()
def jobs() -> None:
    """Queued writes that failed for good: list, retry or drop them (this tenant's)."""


@jobs.command(name="list")
@click.option("--limit", type=click.IntRange(1, 1000), default=100, show_default=True)
@json_option
def list_(limit: int, as_json: bool) -> None:
    """Failed writes, oldest first, with their last error."""
    with open_memory(background_worker=False) as mem:
        failed = mem.failed_jobs(limit)
    rows = [{"id": j.id, "user_id": j.scope.user_id, "kind": j.kind, "attempts": j.attempts,
             "failed_at": j.failed_at.isoformat(), "error": j.error} for j in failed]
    if as_json:
        emit_json(rows)
        return
    for r in rows:
        click.echo(f"{r['id']}  user={r['user_id']}  attempts={r['attempts']}  {r['failed_at']}  {r['error']}")
    click.echo(f"{len(rows)} failed job(s)", err=True)


@jobs.command()
@click.argument("ids", nargs=-1)
@click.option("--all", "every", is_flag=True, help="Every failed job of the tenant.")
def retry(ids: tuple[str, ...], every: bool) -> None:
    """Queue failed writes again (a running worker or server picks them up)."""
    _need_ids(ids, every)
    with open_memory(background_worker=False) as mem:
        n = mem.retry_failed(None if every else list(ids))
    click.echo(f"{n} job(s) queued again")


@jobs.command()
@click.argument("ids", nargs=-1)
@click.option("--all", "every", is_flag=True, help="Every failed job of the tenant.")
def drop(ids: tuple[str, ...], every: bool) -> None:
    """Delete failed writes on purpose: their messages are not stored."""
    _need_ids(ids, every)
    with open_memory(background_worker=False) as mem:
        n = mem.drop_failed(None if every else list(ids))
    click.echo(f"{n} job(s) dropped")


def _need_ids(ids: tuple[str, ...], every: bool) -> None:
    if bool(ids) == every:
        raise click.UsageError("give job ids or --all (not both)")
