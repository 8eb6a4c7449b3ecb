"""``jiyi ui-link``: a signed, expiring web-panel link for one end user."""

from __future__ import annotations

from typing import Any

import click

from jiyi.cli.common import emit_json
from jiyi.errors import JiyiError
from jiyi.redact import redact


def register(cli: click.Group) -> None:
    cli.add_command(ui_link)


@click.command(name="ui-link")
@click.option("--user", "-u", "user_id", required=True, help="The user the link shows (and nobody else).")
@click.option("--tenant", default=None, help="The user's tenant (default: the global --tenant / JIYI_TENANT).")
@click.option("--ttl", default="24h", show_default=True, help="Lifetime: 30m, 24h, 7d … (at most 90 days).")
@click.option("--base-url", default="http://127.0.0.1:8765", show_default=True, envvar="JIYI_UI_BASE_URL",
              help="Where `jiyi serve` is reachable for the user (JIYI_UI_BASE_URL).")
@click.option("--json", "as_json", is_flag=True, help="Print JSON (url, tenant, user_id, expires_at).")
def ui_link(user_id: str, tenant: str | None, ttl: str, base_url: str, as_json: bool) -> None:
    """Print a link that opens the web panel as USER: they see, edit, export and
    delete only their own memories, until the link expires.

    The link is signed with $JIYI_HOME/ui.secret, shared with `jiyi serve` on this
    host. Anyone holding it can use it until then: send it only to that user.
    """
    from jiyi.clock import SystemClock, format_iso
    from jiyi.config import Settings
    from jiyi.web.signing import SecretFile, make_user_link_token, parse_ttl

    obj: dict[str, Any] = dict(click.get_current_context().find_root().obj or {})
    try:
        settings = Settings(**obj)
        expires = SystemClock().now() + parse_ttl(ttl)
        tenant = tenant or settings.tenant
        token = make_user_link_token(SecretFile.in_home(settings.home)(), tenant=tenant, user_id=user_id,
                                     expires_at=expires)
    except (JiyiError, ValueError) as exc:
        raise click.ClickException(redact(exc)) from None
    url = f"{base_url.rstrip('/')}/ui/u/{token}"
    if as_json:
        emit_json({"url": url, "tenant": tenant, "user_id": user_id, "expires_at": format_iso(expires)})
        return
    click.echo(url)
    click.echo(f"opens the panel as user {user_id!r} of tenant {tenant!r} until {format_iso(expires)}", err=True)
