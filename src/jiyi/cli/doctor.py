"""``jiyi doctor``: configuration, backends, model and store health at a glance."""

from __future__ import annotations

import platform
import time
from importlib import metadata

import click

from jiyi import registry
from jiyi.cli.common import emit_json, json_option, open_memory
from jiyi.config import Settings


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
    t0 = time.perf_counter()
    with open_memory() as mem:
        mem.embedder.embed_query("你好 hello")
        report["model"] = {"name": mem.embedder.model, "dim": mem.embedder.dim,
                           "load_and_embed_ms": round((time.perf_counter() - t0) * 1000, 1)}
        report["store"] = {"embedding": mem.store.embedding_info(), **mem.stats()}
        if mem.reranker is not None:  # one tiny real rerank call, within the configured timeout
            report["reranker"] = mem.reranker.check()
    checked = report.get("reranker")
    failed = checked.get("error") if isinstance(checked, dict) else None
    if as_json:
        emit_json(report)
    else:
        for key, value in report.items():
            click.echo(f"{key:10} {value}")
    if failed:
        raise click.ClickException(f"the reranker check failed: {failed}")
    if not as_json:
        click.echo("ok")
