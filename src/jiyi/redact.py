"""One redaction function for every boundary: exception messages, logs, HTTP error bodies, the CLI.

:func:`redact` masks credentials wherever they appear in a piece of text:

- the password of a URI's user info (``postgresql://user:secret@host/db``),
- ``password`` / ``sslpassword`` query parameters of a URI (``?host=h&password=secret``),
- ``password=…`` pairs of a libpq key=value DSN, quoted (``password='a b\\'c'``) or not,
- API keys and tokens: ``sk-…`` keys, ``Bearer …`` credentials, ``api_key=…``, ``token=…``,
  ``"api_key": "…"`` in JSON-ish text.

Masking is conservative: when in doubt it masks a little more than the secret, never less.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Mapping

MASK = "***"

#: Names whose value is a credential (key=value, query parameters, JSON keys).
_SECRET_KEYS = (r"(?:ssl)?password|passwd|pgpassword|pwd|passphrase|"
                r"api[_-]?key|apikey|x-api-key|access[_-]?token|refresh[_-]?token|auth[_-]?token|"
                r"client[_-]?secret|secret[_-]?key|secret|token|proxy[_-]?key")

# scheme://user:PASSWORD@host — the user part has no '/', '@' or ':'; the password runs to the last '@'
# of the URI (an unencoded '@', '/' or ':' in a password is masked too; at worst a little more is masked).
_URI_USERINFO = re.compile(r"(?P<pre>^[a-zA-Z][a-zA-Z0-9+.\-]*://[^\s:/@?#]*:)(?P<pw>\S*)@")
# A whole URI, so its query parameters are cut at '&' (inside a URI '&' separates parameters).
_URI = re.compile(r"\b[a-zA-Z][a-zA-Z0-9+.\-]*://[^\s'\"<>]+")
_QUERY_SECRET = re.compile(rf"(?i)(?P<pre>[?&;](?:{_SECRET_KEYS})=)(?P<pw>[^&#\s]*)")
# key=value outside URIs (libpq DSNs, env-style lines, log text): quoted values may hold spaces.
_PAIR_SECRET = re.compile(
    rf"(?i)(?P<pre>(?<![\w\-])[\w\-]*?(?:{_SECRET_KEYS})\s*=\s*)"
    r"(?P<pw>(?!\*\*\*)(?:'(?:[^'\\]|\\.)*'?|\"(?:[^\"\\]|\\.)*\"?|[^\s&,;]+))")
# "api_key": "…" / 'password': '…' (JSON, Python reprs) and "password: …" (YAML-ish, headers).
_COLON_SECRET = re.compile(
    rf"(?i)(?P<pre>(?<![\w\-])[\"']?[\w\-]*?(?:{_SECRET_KEYS})[\"']?\s*:\s*)"
    r"(?P<pw>(?!\*\*\*)(?:\"(?:[^\"\\]|\\.)*\"?|'(?:[^'\\]|\\.)*'?|[^\s,;}\]]+))")
_BEARER = re.compile(r"(?i)\b(?P<pre>(?:bearer|basic|token)\s+)(?P<pw>(?!\*\*\*)[A-Za-z0-9\-._~+/=:]{6,})")
# Provider API keys: OpenAI-style sk-…, and a few other well-known prefixes.
_API_KEY = re.compile(r"\b(?P<pre>sk-(?:proj-|ant-|or-)?|jiyi_|ghp_|gho_|xox[abp]-|AIza)(?P<pw>[A-Za-z0-9_\-]{8,})")


def _mask(m: re.Match[str]) -> str:
    return f"{m.group('pre')}{MASK}"


def _mask_uri(m: re.Match[str]) -> str:
    uri = _URI_USERINFO.sub(lambda u: f"{u.group('pre')}{MASK}@", m.group(0))
    return _QUERY_SECRET.sub(_mask, uri)


def redact(text: object) -> str:
    """``text`` (anything with a ``str``) with every password, API key and token masked as ``***``."""
    s = str(text)
    s = _URI.sub(_mask_uri, s)
    s = _PAIR_SECRET.sub(_mask, s)
    s = _COLON_SECRET.sub(_mask, s)
    s = _BEARER.sub(_mask, s)
    return _API_KEY.sub(_mask, s)


def _redact_arg(value: object) -> object:
    """A log argument with its credentials masked: numbers stay numbers (``%d`` still formats)."""
    if value is None or isinstance(value, (bool, int, float)):
        return value
    text = value if isinstance(value, str) else str(value)
    masked = redact(text)
    return value if masked == text and not isinstance(value, str) else masked


def _redact_record(record: logging.LogRecord) -> None:
    """Mask the record's message and arguments in place, keeping their shape.

    Formatters that read ``record.args`` themselves (uvicorn's access log unpacks five of them)
    keep working: each argument is masked on its own. Only when a credential spans the message
    and its arguments (masking them one by one would leave it whole) are they merged into one
    masked message with no arguments.
    """
    try:
        message = record.getMessage()
    except Exception:  # noqa: BLE001 - a badly formatted record is logged as it is
        return
    if record.exc_info and record.exc_info[0] is not None:
        record.exc_text = redact(logging.Formatter().formatException(record.exc_info))
    masked = redact(message)
    if masked == message:
        return
    msg, args = record.msg, record.args
    record.msg = redact(msg) if isinstance(msg, str) else msg
    if isinstance(args, Mapping):
        record.args = {k: _redact_arg(v) for k, v in args.items()}
    elif isinstance(args, tuple):
        record.args = tuple(_redact_arg(v) for v in args)
    try:
        again = record.getMessage()
    except Exception:  # noqa: BLE001 - masking changed what a format needs: fall back to the merged text
        again = message
    if redact(again) != again or again == message:
        record.msg, record.args = masked, None


class RedactingFilter(logging.Filter):
    """A logging filter (for a handler) that redacts each record's message and traceback."""

    def filter(self, record: logging.LogRecord) -> bool:
        _redact_record(record)
        return True


_installed = False


def install_log_redaction() -> None:
    """Redact every log record this process creates, whoever logs it and whichever handler prints it.

    Wraps the log record factory once (idempotent): the message, its arguments merged in, and the
    traceback text are redacted when the record is made. The servers call this at start.
    """
    global _installed
    if _installed:
        return
    previous = logging.getLogRecordFactory()

    def factory(*args: object, **kwargs: object) -> logging.LogRecord:
        record = previous(*args, **kwargs)
        _redact_record(record)
        return record

    logging.setLogRecordFactory(factory)
    _installed = True
