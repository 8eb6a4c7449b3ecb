"""``jiyi doctor``: configuration, backends, model and store health at a glance."""

from __future__ import annotations

import json
import platform
import time
from importlib import metadata

import click

from jiyi import registry
from jiyi.cli.common import json_option, open_memory
from jiyi.config import Settings
from jiyi.maintain.schedule import status as gc_status
from jiyi.redact import redact


def register(cli: click.Group) -> None:
    cli.add_command(doctor)


@click.command()
@json_option
def doctor(as_json: bool) -> None:
    """Check configuration, the embedding model, the store and the reranker (one real call)."""
    report: dict[str, object] = {"python": platform.python_version(), "jiyi": metadata.version("jiyi")}
    obj = dict(click.get_current_context().find_root().obj or {})
    settings = Settings(**obj)
    report["settings"] = {"store": settings.store_backend(), "path": str(settings.sqlite_path()),
                          "embedder": settings.embedder, "extractor": settings.extractor,
                          "tenant": settings.tenant, "llm": settings.llm_base_url or "(none)",
                          "reranker": settings.reranker or "(none)"}
    report["backends"] = {role: registry.names(role) for role in registry.ROLES}
    report["gc_schedule"] = gc_status(settings)  # last and next scheduled gc (jiyi serve / jiyi worker run it)
    t0 = time.perf_counter()
    with open_memory() as mem:
        mem.embedder.embed_query("你好 hello")
        report["model"] = {"name": mem.embedder.model, "dim": mem.embedder.dim,
                           "load_and_embed_ms": round((time.perf_counter() - t0) * 1000, 1)}
        report["store"] = {"embedding": mem.store.embedding_info(), **mem.stats()}
        failed_jobs = mem.failed_jobs(20)
        report["failed_jobs"] = [f"{j.id} user={j.scope.user_id} {j.error}" for j in failed_jobs]
        if mem.reranker is not None:  # one tiny real rerank call, within the configured timeout
            report["reranker"] = {**mem.reranker.check(), "breaker": mem.reranker.breaker.snapshot()}
    checked = report.get("reranker")
    rerank_error = checked.get("error") if isinstance(checked, dict) else None
    if as_json:
        click.echo(redact(json.dumps(report, ensure_ascii=False, indent=2, default=str)))
    else:
        for key, value in report.items():
            if key != "failed_jobs":
                click.echo(redact(f"{key:10} {value}"))
        for line in report["failed_jobs"]:  # type: ignore[attr-defined]
            click.echo(redact(f"failed job {line}"))
    if rerank_error:
        raise click.ClickException(redact(f"the reranker check failed: {rerank_error}"))
    if report["failed_jobs"]:
        if not as_json:
            click.echo("some writes failed for good: `jiyi jobs retry --all` or `jiyi jobs drop --all`")
        return
    if not as_json:
        click.echo("ok")
