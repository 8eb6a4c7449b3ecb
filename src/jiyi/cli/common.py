"""Shared CLI plumbing: global options, opening Memory, printing (rich or --json), errors."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

import click

from jiyi.errors import JiyiError
from jiyi.redact import redact

F = TypeVar("F", bound=Callable[..., Any])


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
        raise click.ClickException(redact(str(exc))) from None


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
    click.echo(f"Error: {redact(message)}", err=True)
    sys.exit(1)
