"""Shared CLI plumbing: global options, opening Memory, printing (rich or --json), errors."""

from __future__ import annotations

import json
import os
import re
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

import click

from jiyi.errors import JiyiError
from jiyi.redact import redact

F = TypeVar("F", bound=Callable[..., Any])
_SPACE = re.compile(r"\s+")


def one_line(message: str, limit: int = 500) -> str:
    """``message`` as one printable line, credentials masked (an error from argv may hold undecodable bytes)."""
    text = _SPACE.sub(" ", redact(message)).strip().encode("utf-8", "backslashreplace").decode("utf-8")
    return text if len(text) <= limit else text[: limit - 1] + "…"


class CliError(click.ClickException):
    """One line on stderr, exit status 1."""

    def __init__(self, message: str) -> None:
        super().__init__(one_line(message))


class JiyiGroup(click.Group):
    """The root group: any error a command raises is one line and exit status 1, the
    traceback only with ``--debug`` (or ``JIYI_DEBUG=1``)."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except (click.ClickException, click.exceptions.Exit, click.Abort):
            raise
        except JiyiError as exc:
            if _debug(ctx):
                raise
            raise CliError(str(exc)) from None
        except Exception as exc:
            if _debug(ctx):
                raise
            raise CliError(f"{type(exc).__name__}: {exc} (run with --debug for the traceback)") from None


def _debug(ctx: click.Context) -> bool:
    obj = ctx.obj if isinstance(ctx.obj, dict) else {}
    return bool(obj.get("debug")) or os.environ.get("JIYI_DEBUG", "").lower() in {"1", "true", "yes", "on"}


@contextmanager
def open_memory(**extra: Any) -> Iterator[Any]:
    """A Memory built from the global options; JiyiErrors become clean CLI errors."""
    from jiyi.memory import Memory

    obj = dict(click.get_current_context().find_root().obj or {})
    obj.update(extra)
    try:
        with Memory(**obj) as mem:
            yield mem
    except JiyiError as exc:
        if _debug(click.get_current_context()):
            raise
        raise CliError(str(exc)) from None


def cli_settings() -> Any:
    """The Settings the global options, the environment and the config file give."""
    from jiyi.config import load_settings

    return load_settings(**dict(click.get_current_context().find_root().obj or {}))


@contextmanager
def open_backends(settings: Any) -> Iterator[tuple[Any, Any]]:
    """The store and embedder ``settings`` configure, without a Memory (for the maintenance
    commands that walk every tenant); the store is closed after; JiyiErrors become clean CLI errors."""
    from jiyi import registry

    store = None
    try:
        store = registry.create("store", settings.store_backend(), settings)
        embedder = registry.create("embedder", settings.embedder, settings)
        yield store, embedder
    except JiyiError as exc:
        raise CliError(str(exc)) from None
    finally:
        if store is not None:
            store.close()


def json_option(fn: F) -> F:
    return click.option("--json", "as_json", is_flag=True, help="Print JSON instead of a table.")(fn)


def user_option(fn: F) -> F:
    return click.option("--user", "-u", "user_id", required=True, help="The user whose memories to use.")(fn)


def emit_json(data: Any) -> None:
    click.echo(json.dumps(data, ensure_ascii=False, indent=2, default=str))


def console() -> Any:
    from rich.console import Console

    return Console(soft_wrap=True, highlight=False)


def fail(message: str) -> None:
    click.echo(f"Error: {one_line(message)}", err=True)
    sys.exit(1)
