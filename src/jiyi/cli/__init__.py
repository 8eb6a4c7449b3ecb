"""The ``jiyi`` command: one click group, one module per verb group."""

from __future__ import annotations

import click

from jiyi.cli import (
    bench,
    chat,
    demo,
    doctor,
    evaluate,
    integrations,
    jobs,
    memories,
    privacy,
    service,
    web,
)
from jiyi.cli.common import JiyiGroup


@click.group(cls=JiyiGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--store", default=None, help="'sqlite', a .db path, or a postgres:// URI (JIYI_STORE).")
@click.option("--home", default=None, type=click.Path(), help="Data directory (JIYI_HOME).")
@click.option("--tenant", default=None, help="Tenant name (JIYI_TENANT).")
@click.option("--debug", is_flag=True, help="Log every pipeline stage to stderr (also JIYI_DEBUG=1).")
@click.version_option(package_name="jiyi")
@click.pass_context
def cli(ctx: click.Context, store: str | None, home: str | None, tenant: str | None, debug: bool) -> None:
    """jiyi (记忆): long-term memory for chatbots and agents.

    Settings come from these options, then JIYI_* environment variables, then
    $JIYI_HOME/config.toml. Run `jiyi demo` for a tour.
    """
    ctx.obj = {k: v for k, v in {"store": store, "home": home, "tenant": tenant}.items() if v is not None}
    if debug:
        ctx.obj["debug"] = True


for module in (memories, demo, doctor, evaluate, integrations, service, chat, web, bench, privacy, jobs):
    module.register(cli)


def main() -> None:
    from jiyi.redact import install_log_redaction

    install_log_redaction()  # no log line of any command carries a password or an API key
    cli(prog_name="jiyi")
