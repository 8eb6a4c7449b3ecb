"""``jiyi ui-link``: a signed, expiring web-panel link for one end user."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from jiyi.cli.common import emit_json
from jiyi.errors import JiyiError
from jiyi.redact import redact

DEFAULT_BASE = "http://127.0.0.1:8765"  # jiyi serve's default address


def register(cli: click.Group) -> None:
    cli.add_command(ui_link)


@click.command(name="ui-link")
@click.option("--user", "-u", "user_id", required=True, help="The user the link shows (and nobody else).")
@click.option("--tenant", default=None, help="The user's tenant (default: the global --tenant / JIYI_TENANT).")
@click.option("--ttl", default="24h", show_default=True, help="Lifetime: 30m, 24h, 7d … (at most 90 days).")
@click.option("--base-url", default=DEFAULT_BASE, show_default=True, envvar="JIYI_UI_BASE_URL",
              help="Where `jiyi serve` is reachable for the user (JIYI_UI_BASE_URL).")
@click.option("--keys-db", envvar="JIYI_KEYS_DB", default=None, type=click.Path(dir_okay=False),
              help="API key file `jiyi serve` uses (JIYI_KEYS_DB; default $JIYI_HOME/keys.db): checked for a key "
                   "of the tenant.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON (url, tenant, user_id, expires_at, base_url, warning).")
def ui_link(user_id: str, tenant: str | None, ttl: str, base_url: str, keys_db: str | None, as_json: bool) -> None:
    """Print a link that opens the web panel as USER: they see, edit, export and
    delete only their own memories, until the link expires.

    The link is signed with $JIYI_HOME/ui.secret, shared with `jiyi serve` on this
    host. Anyone holding it can use it until then: send it only to that user.
    """
    from jiyi.clock import SystemClock, format_iso
    from jiyi.config import Settings
    from jiyi.web.signing import SecretFile, make_user_link_token, parse_ttl

    ctx = click.get_current_context()
    obj: dict[str, Any] = dict(ctx.find_root().obj or {})
    try:
        settings = Settings(**obj)
        expires = SystemClock().now() + parse_ttl(ttl)
        chosen = tenant or settings.tenant
        token = make_user_link_token(SecretFile.in_home(settings.home)(), tenant=chosen, user_id=user_id,
                                     expires_at=expires)
    except (JiyiError, ValueError) as exc:
        raise click.ClickException(redact(exc)) from None
    base = base_url.rstrip("/")
    url = f"{base}/ui/u/{token}"
    problem = _tenant_key_problem(Path(keys_db) if keys_db else settings.home / "keys.db", chosen)
    if as_json:
        emit_json({"url": url, "tenant": chosen, "user_id": user_id, "expires_at": format_iso(expires),
                   "base_url": base, "warning": problem})
        return
    click.echo(url)
    from_where = "--tenant" if tenant else "JIYI_TENANT / --tenant before the verb / config"
    base_from = ctx.get_parameter_source("base_url")
    base_note = " (the default: pass --base-url or set JIYI_UI_BASE_URL if the server is elsewhere)" \
        if base_from is click.core.ParameterSource.DEFAULT else ""
    click.echo(f"opens the panel as user {user_id!r} of tenant {chosen!r} (from {from_where}) at {base}{base_note}, "
               f"until {format_iso(expires)}", err=True)
    if problem:
        click.echo(f"warning: {problem}", err=True)


def _tenant_key_problem(path: Path, tenant: str) -> str | None:
    """Why a server using the keys in ``path`` likely shows no memories of ``tenant``, or None."""
    from jiyi.server.keys import KeyStore

    if not path.is_file():
        return (f"no API key file at {path}: `jiyi serve` needs a key (`jiyi keys create --tenant {tenant}`), "
                "or runs --insecure-no-auth as the default tenant")
    tenants = sorted({k.tenant for k in KeyStore(path).list()})
    if tenant not in tenants:
        return (f"no active API key of tenant {tenant!r} in {path} (tenants with keys: "
                f"{', '.join(map(repr, tenants)) or 'none'}): is this the tenant the bot writes to? "
                f"`jiyi keys create --tenant {tenant}` makes one")
    return None
