"""Memory verbs: add, search, context, list, show, update, delete, forget, history, export, import, gc, reembed."""

from __future__ import annotations

import json
from datetime import datetime, tzinfo
from typing import Any
from zoneinfo import ZoneInfo

import click

from jiyi.cli.common import (
    cli_settings,
    console,
    emit_json,
    json_option,
    open_backends,
    open_memory,
    user_option,
)
from jiyi.clock import to_local
from jiyi.records import Hit, MemoryRecord


def register(cli: click.Group) -> None:
    for cmd in (add, search, context, list_, show, update, delete, purge, forget, history, export, import_, gc, reembed,
                remember):
        cli.add_command(cmd)


@click.command()
@user_option
@click.argument("text", nargs=-1, required=True)
@click.option("--role", default="user", type=click.Choice(["user", "assistant", "system"]))
@click.option("--session", "session_id", default=None, help="Session id.")
@click.option("--timestamp", default=None, help="ISO 8601 time of the message (default now).")
@json_option
def add(user_id: str, text: tuple[str, ...], role: str, session_id: str | None, timestamp: str | None,
        as_json: bool) -> None:
    """Add a message for a user and wait until it is processed."""
    msg: dict[str, Any] = {"role": role, "content": " ".join(text)}
    if timestamp:
        msg["timestamp"] = timestamp
    with open_memory() as mem:
        result = mem.add([msg], user_id=user_id, session_id=session_id, sync=True)
    if as_json:
        emit_json(result.to_dict())
        return
    for ev in result.events:
        click.echo(f"{ev.event.value:9} {ev.kind.value:10} {ev.memory}  [{ev.id}]")


@click.command()
@user_option
@click.argument("text")
@click.option("--kind", default=None, help="fact, preference, event, relation, behavior …")
@click.option("--importance", type=float, default=None)
@json_option
def remember(user_id: str, text: str, kind: str | None, importance: float | None, as_json: bool) -> None:
    """Store one statement as a memory, now."""
    with open_memory() as mem:
        rec = mem.remember(text, user_id=user_id, kind=kind, importance=importance)
    emit_json(rec.to_dict()) if as_json else click.echo(f"{rec.kind.value} {rec.content} [{rec.id}]")


@click.command()
@user_option
@click.argument("query")
@click.option("--limit", "-n", default=10, show_default=True)
@click.option("--at", default=None, help="Recall as of this ISO 8601 time.")
@click.option("--sensitive", is_flag=True, help="Include sensitive memories.")
@json_option
def search(user_id: str, query: str, limit: int, at: str | None, sensitive: bool, as_json: bool) -> None:
    """Search a user's memories, with the score of each part."""
    with open_memory() as mem:
        hits = mem.search(query, user_id=user_id, limit=limit, at=at, include_sensitive=sensitive)
    if as_json:
        emit_json([h.to_dict() for h in hits])
        return
    print_hits(hits)


@click.command()
@user_option
@click.argument("query")
@click.option("--budget", default=800, show_default=True, help="Token budget.")
def context(user_id: str, query: str, budget: int) -> None:
    """Print the memory block build_context would put in a prompt."""
    with open_memory() as mem:
        click.echo(mem.build_context(query, user_id=user_id, budget_tokens=budget))


@click.command(name="list")
@user_option
@click.option("--kind", "kinds", multiple=True, help="Only these kinds (repeatable).")
@click.option("--status", default="active", show_default=True, help="active, superseded, deleted … or 'all'.")
@click.option("--limit", "-n", default=50, show_default=True)
@json_option
def list_(user_id: str, kinds: tuple[str, ...], status: str, limit: int, as_json: bool) -> None:
    """List a user's memories, newest first (times in the `timezone` setting; --json: UTC ISO 8601)."""
    with open_memory() as mem:
        recs = mem.get_all(user_id=user_id, kinds=kinds or None, status=None if status == "all" else status,
                           limit=limit)
        zone = ZoneInfo(mem.settings.timezone)
    if as_json:
        emit_json([r.to_dict() for r in recs])
        return
    print_records(recs, zone)


@click.command()
@user_option
@click.argument("memory_id")
@json_option
def show(user_id: str, memory_id: str, as_json: bool) -> None:
    """Show one memory with every field (times in the `timezone` setting; --json: UTC ISO 8601)."""
    with open_memory() as mem:
        rec = mem.get(memory_id, user_id=user_id)
        zone = ZoneInfo(mem.settings.timezone)
    if rec is None:
        raise click.ClickException(f"no memory {memory_id!r} for user {user_id!r}")
    data = rec.to_dict()
    if as_json:
        emit_json(data)
        return
    for key, value in data.items():
        field = getattr(rec, key, None)
        click.echo(f"{key:15} {local_time(field, zone) if isinstance(field, datetime) else value}")


@click.command()
@user_option
@click.argument("memory_id")
@click.argument("content")
@json_option
def update(user_id: str, memory_id: str, content: str, as_json: bool) -> None:
    """Replace the content of a memory."""
    with open_memory() as mem:
        rec = mem.update(memory_id, content, user_id=user_id)
    emit_json(rec.to_dict()) if as_json else click.echo(f"updated {rec.id}: {rec.content}")


@click.command()
@user_option
@click.argument("memory_id")
@click.option("--purge", is_flag=True, help="Erase it now instead of keeping it restorable for 7 days.")
def delete(user_id: str, memory_id: str, purge: bool) -> None:
    """Delete one memory (restorable for 7 days, then erased; --purge erases it now)."""
    with open_memory() as mem:
        mem.delete(memory_id, user_id=user_id, purge=purge)
    click.echo(f"{'erased' if purge else 'deleted'} {memory_id}")


@click.command()
@user_option
@click.argument("memory_id", required=False)
@click.option("--vacuum", is_flag=True, help="Also rewrite the database (SQLite VACUUM, PostgreSQL VACUUM FULL) "
                                             "so no erased byte is left in free space.")
def purge(user_id: str, memory_id: str | None, vacuum: bool) -> None:
    """Erase now: MEMORY_ID (any status), or every deleted memory of the user.

    Text, vectors, keyword-index tokens, embedding-cache rows and history texts go; see
    docs/erasure.md.
    """
    with open_memory() as mem:
        n = mem.purge(memory_id, user_id=user_id, vacuum=vacuum)
    click.echo(f"erased {n} memories of {user_id}")


@click.command()
@user_option
@click.option("--yes", is_flag=True, help="Do not ask for confirmation.")
def forget(user_id: str, yes: bool) -> None:
    """Forget a user entirely: every memory, vector and history line."""
    if not yes:
        click.confirm(f"Forget everything about {user_id!r}?", abort=True)
    with open_memory() as mem:
        n = mem.delete_all(user_id=user_id)
    click.echo(f"forgot {n} memories of {user_id}")


@click.command()
@user_option
@click.argument("memory_id")
@json_option
def history(user_id: str, memory_id: str, as_json: bool) -> None:
    """The audit history of a memory (times in the `timezone` setting; --json: UTC ISO 8601)."""
    with open_memory() as mem:
        events = mem.history(memory_id, user_id=user_id)
        zone = ZoneInfo(mem.settings.timezone)
    if as_json:
        emit_json([e.to_dict() for e in events])
        return
    for e in events:
        click.echo(f"{local_time(e.at, zone)} {e.event.value:9} {e.old or ''} → {e.new or ''} ({e.reason or ''})")


@click.command()
@user_option
@click.option("--output", "-o", type=click.File("w", encoding="utf-8"), default="-", help="File (default stdout).")
def export(user_id: str, output: Any) -> None:
    """Export a user's memories with history as JSONL."""
    with open_memory() as mem:
        for row in mem.export(user_id=user_id):
            output.write(json.dumps(row, ensure_ascii=False) + "\n")


@click.command(name="import")
@click.argument("source", type=click.File("r", encoding="utf-8"))
def import_(source: Any) -> None:
    """Import JSONL produced by `jiyi export`."""
    rows = []
    for n, line in enumerate(source, 1):
        if line.strip():
            try:
                rows.append(json.loads(line))
            except json.JSONDecodeError as exc:
                raise click.ClickException(f"line {n} is not JSON: {exc}") from None
    with open_memory() as mem:
        count = mem.import_(rows)
    click.echo(f"imported {count} memories")


@click.command()
@click.option("--apply", "apply_", is_flag=True, help="Act (default: dry run that only reports).")
@json_option
def gc(apply_: bool, as_json: bool) -> None:
    """Expire, purge, forget and archive per the maintenance rules."""
    with open_memory() as mem:
        report = mem.gc(dry_run=not apply_)
    if as_json:
        emit_json(report.to_dict())
        return
    verb = "would change" if report.dry_run else "changed"
    for rule, count in report.counts.items():
        click.echo(f"{rule:16} {verb} {count}")


@click.command()
@click.option("--yes", is_flag=True, help="Switch models without asking (the old vectors are deleted first).")
@json_option
def reembed(yes: bool, as_json: bool) -> None:
    """Embed every memory again with the configured embedder (after changing models).

    Every tenant's memories get new vectors; text and history stay. An interrupted run
    resumes where it stopped when run again.
    """
    from jiyi.maintain.reembed import reembed as run
    from jiyi.write.embed import CachedEmbedder

    settings = cli_settings()
    with open_backends(settings) as (store, embedder):
        held = store.embedding_info()
        if held is not None and held != (embedder.model, embedder.dim) and not yes:
            click.confirm(f"The store holds vectors of {held[0]} (dim {held[1]}); delete them and embed every "
                          f"memory with {embedder.model} (dim {embedder.dim})?", abort=True, err=True)
        report = run(store, CachedEmbedder(embedder, store), context_mode=settings.episode_context,
                     progress=None if as_json else lambda scope, done, total: click.echo(
                         f"  {scope.tenant}/{scope.user_id}: {done}/{total}", err=True))
    if as_json:
        emit_json(report.to_dict())
        return
    click.echo(f"{report.embedded} memories of {report.users} users embedded with {report.model} "
               f"(dim {report.dim}); {report.kept} already had its vectors")


def print_hits(hits: list[Hit]) -> None:
    from rich.table import Table

    table = Table("score", "kind", "memory", "why", show_lines=False)
    for h in hits:
        table.add_row(f"{h.score:.3f}", h.kind.value, h.content, explain(h.scores))
    console().print(table)


_SHORT = {"vector_raw": "cos", "context_raw": "cos+prev", "keyword_raw": "bm25", "entity_raw": "entity",
          "buffer_raw": "buffer", "freshness": "fresh", "time_match": "time", "outdated": "outdated"}


def explain(scores: dict[str, float]) -> str:
    """The score parts worth reading, short: cos=0.89 bm25=3.5 fresh=0.34."""
    return " ".join(f"{short}={scores[key]:.2f}" for key, short in _SHORT.items() if scores.get(key))


def local_time(at: datetime, zone: tzinfo) -> str:
    """``2026-12-02 01:30:00+08:00``: a stored time as wall-clock time in ``zone``, offset shown."""
    return to_local(at, zone).isoformat(sep=" ", timespec="seconds")


def print_records(recs: list[MemoryRecord], zone: tzinfo) -> None:
    from rich.table import Table

    table = Table("id", "kind", "status", "memory", "slot", "created")
    for r in recs:
        table.add_row(r.id[:8], r.kind.value, r.status.value, r.content, r.slot or "",
                      to_local(r.created_at, zone).strftime("%Y-%m-%d %H:%M"))
    console().print(table)


