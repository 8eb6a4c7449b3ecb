"""Integration servers: ``jiyi mcp`` (MCP tools) and ``jiyi proxy`` (OpenAI-compatible memory proxy)."""

from __future__ import annotations

import logging
import sys

import click

from jiyi.cli.common import CliError, open_memory
from jiyi.errors import JiyiError
from jiyi.redact import redact


def register(cli: click.Group) -> None:
    for cmd in (mcp, proxy):
        cli.add_command(cmd)


@click.command()
@click.option("--transport", type=click.Choice(["stdio", "http"]), default="stdio", show_default=True,
              help="stdio for desktop clients; http serves MCP streamable HTTP.")
@click.option("--user", "user", envvar="JIYI_MCP_USER", default=None,
              help="Serve exactly this user: no tool takes a user_id (JIYI_MCP_USER). Use this when the "
                   "client is one person's assistant.")
@click.option("--default-user", envvar="JIYI_MCP_DEFAULT_USER", default=None,
              help="Trusted single-operator setups only: tools take any user_id, this one when none is "
                   "passed (JIYI_MCP_DEFAULT_USER).")
@click.option("--host", default="127.0.0.1", show_default=True, help="HTTP transport: address to bind.")
@click.option("--port", default=8766, show_default=True, help="HTTP transport: port (jiyi serve takes 8765, the proxy 8787).")
@click.option("--path", "http_path", default="/mcp", show_default=True, help="HTTP transport: endpoint path.")
def mcp(transport: str, user: str | None, default_user: str | None, host: str, port: int, http_path: str) -> None:
    """Serve memory as MCP tools (add/search/list/update/delete memories, get_context).

    \b
    Claude Desktop / Cursor config:
      {"command": "jiyi", "args": ["mcp", "--user", "me"]}
    """
    from jiyi.mcp.server import serve

    logging.basicConfig(stream=sys.stderr, level=logging.WARNING)  # stdout belongs to the protocol
    with open_memory() as mem:
        try:
            serve(mem, transport="stdio" if transport == "stdio" else "http", default_user=default_user,
                  user=user, host=host, port=port, path=http_path)
        except JiyiError as exc:
            raise click.ClickException(redact(exc)) from None


@click.command()
@click.option("--upstream", required=True, envvar="JIYI_PROXY_UPSTREAM",
              help="Base URL of the real API, as you would give an OpenAI SDK (e.g. https://api.deepseek.com/v1).")
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to bind.")
@click.option("--port", default=8787, show_default=True, help="Port to listen on.")
@click.option("--budget", default=800, show_default=True, help="Token budget of the injected memory block.")
@click.option("--recall-timeout", default=3.0, show_default=True,
              help="Seconds recall may take before the request goes out without memory.")
@click.option("--no-record", is_flag=True, help="Recall only; do not store conversation turns.")
@click.option("--allow-origin", "allow_origins", multiple=True, metavar="ORIGIN",
              help="A web origin (https://chat.example.com) whose browser requests are allowed; repeatable. "
                   "Without it every browser cross-origin request is refused.")
@click.option("--proxy-key", envvar="JIYI_PROXY_KEY", default=None,
              help="Clients must send this in the X-Jiyi-Proxy-Key header (JIYI_PROXY_KEY); separate from "
                   "the upstream API key they send as Authorization.")
@click.option("--max-body", "max_body", default=2 * 1024 * 1024, show_default=True,
              help="Largest request body in bytes (413 beyond); same default as jiyi serve.")
@click.option("--upstream-timeout", default=120.0, show_default=True,
              help="Seconds the upstream may take to answer (or between streamed chunks) before a 504.")
def proxy(upstream: str, host: str, port: int, budget: int, recall_timeout: float, no_record: bool,
          allow_origins: tuple[str, ...], proxy_key: str | None, max_body: int, upstream_timeout: float) -> None:
    """OpenAI-compatible proxy that adds memory: point any client's base URL at it.

    The user is the X-Jiyi-User header or the request's `user` field; requests with
    neither pass through untouched. Clients keep sending their own API key.
    """
    from jiyi.proxy.app import ProxyOptions, serve
    from jiyi.proxy.guard import origins

    try:
        allowed = origins(allow_origins)
    except JiyiError as exc:
        raise CliError(str(exc)) from None
    options = ProxyOptions(budget_tokens=budget, recall_timeout=recall_timeout, record=not no_record,
                           allow_origins=allowed, proxy_key=proxy_key or None, max_body_bytes=max_body,
                           upstream_timeout=upstream_timeout)
    with open_memory() as mem:
        click.echo(f"jiyi proxy on http://{host}:{port}/v1 → {upstream}", err=True)
        serve(mem, upstream, host=host, port=port, options=options)
