"""One redaction function: every libpq password form and the usual API keys are masked."""

from __future__ import annotations

import logging

import pytest

from jiyi.redact import MASK, install_log_redaction, redact

URI_SECRETS = ["hunter2", "p@ss/w:rd", "s3cr%40t", "Tr0ub4dor&3", "zq9"]
DSN_SECRETS = [*URI_SECRETS, "a b'c", "with space"]


@pytest.mark.parametrize("secret", URI_SECRETS)
@pytest.mark.parametrize("form", [
    "postgresql://jiyi:{s}@db.example.com:5432/jiyi",
    "postgres://jiyi:{s}@/jiyi?host=/var/run/postgresql",
    "postgresql://jiyi@db/jiyi?password={s}",
    "postgresql:///jiyi?host=/tmp&password={s}&sslmode=require",
    "postgresql://h/jiyi?sslmode=verify-full&sslpassword={s}",
])
def test_every_uri_form_is_masked(form: str, secret: str) -> None:
    out = redact(f"cannot open the PostgreSQL store at {form.format(s=secret)}: connection refused")
    assert secret not in out, out
    assert MASK in out and out.endswith("connection refused")


@pytest.mark.parametrize("secret", DSN_SECRETS)
@pytest.mark.parametrize("form", [
    "host=db.example.com port=5432 dbname=jiyi user=jiyi password='{q}'",
    "host=db password = '{q}' dbname=jiyi",
    "host=db sslpassword='{q}' sslmode=require",
    "PGPASSWORD='{q}' psql",
])
def test_every_quoted_dsn_form_is_masked(form: str, secret: str) -> None:
    quoted = secret.replace("\\", "\\\\").replace("'", "\\'")
    text = f"cannot open the PostgreSQL store at {form.format(s=secret, q=quoted)}: connection refused"
    out = redact(text)
    assert secret not in out and quoted not in out and "space" not in out, out
    assert MASK in out and out.endswith("connection refused")


@pytest.mark.parametrize("secret", ["hunter2", "Tr0ub4dor3", "s3cr%40t"])
def test_unquoted_key_value_dsn(secret: str) -> None:
    out = redact(f"host=db password={secret} dbname=jiyi user=me")
    assert secret not in out and out == f"host=db password={MASK} dbname=jiyi user=me"


@pytest.mark.parametrize("text,secret", [
    ("OpenAI key sk-proj-AbCdEf0123456789xyz was refused", "AbCdEf0123456789xyz"),
    ("Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.payload.sig", "eyJhbGciOiJIUzI1NiJ9"),
    ("api_key=AKIA1234567890 region=x", "AKIA1234567890"),
    ('{"api_key": "live-key-123456", "model": "m"}', "live-key-123456"),
    ("JIYI_LLM_API_KEY=abcd1234efgh", "abcd1234efgh"),
    ("token=ghp_abcdefghijklmnop", "abcdefghijklmnop"),
    ("jiyi key jiyi_0123456789abcdef leaked", "0123456789abcdef"),
])
def test_api_keys_and_tokens(text: str, secret: str) -> None:
    assert secret not in redact(text)


def test_text_without_credentials_is_unchanged() -> None:
    for text in ("postgresql://db.example.com:5432/jiyi?sslmode=require", "no memory 'm1' for user 'u1'",
                 "用户的密码提示是生日", "host=db dbname=jiyi user=jiyi", "https://api.deepseek.com/v1"):
        assert redact(text) == text


def test_log_records_are_redacted(caplog: pytest.LogCaptureFixture) -> None:
    install_log_redaction()
    log = logging.getLogger("jiyi.test_redact")
    with caplog.at_level(logging.INFO, logger="jiyi.test_redact"):
        log.info("opening %s", "postgresql://u@h/db?password=hunter2")
        try:
            raise RuntimeError("failed at host=h password='a b' dbname=x")
        except RuntimeError:
            log.exception("store down")
    text = caplog.text
    assert "hunter2" not in text and "a b'" not in text and MASK in text


def test_postgres_store_errors_use_it() -> None:
    from jiyi.stores.postgres.options import redact as store_redact

    assert "hunter2" not in store_redact("postgresql://u@/db?host=/tmp&password=hunter2")


@pytest.mark.parametrize("store", [
    "postgresql://jiyi@127.0.0.1:9/db?password=Hunter22pw&connect_timeout=2",
    "postgresql://jiyi:Hunter22pw@127.0.0.1:9/db?connect_timeout=2",
    "postgresql:///db?host=127.0.0.1&port=9&sslpassword=Hunter22pw&password=Hunter22pw&connect_timeout=2",
])
@pytest.mark.parametrize("verb", [["list", "-u", "u1"], ["doctor"]])
def test_cli_errors_and_doctor_never_print_the_password(tmp_path: object, store: str, verb: list[str]) -> None:
    pytest.importorskip("psycopg")
    from click.testing import CliRunner

    from jiyi.cli import cli

    result = CliRunner().invoke(cli, ["--store", store, "--home", str(tmp_path), *verb],
                                env={"JIYI_EMBEDDER": "hash"})
    assert result.exit_code != 0
    assert "Hunter22pw" not in result.output and MASK in result.output
