"""Fixtures: live servers (see server_support.py). The main server is shared by the whole
session, so every test works with its own fresh user ids (the ``uid`` fixture).
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator

import httpx
import pytest
from server_support import LiveServer, start_server

from jiyi.server.app import ServerOptions


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """Two tenants, no rate limit, no in-process worker (``jiyi worker`` tests drain the queue)."""
    live = start_server(tmp_path_factory.mktemp("server"),
                        ServerOptions(worker=False, rate_limit=0, operator_tenants=("acme",)),
                        tenants=("acme", "globex"))
    yield live
    live.stop()


@pytest.fixture(scope="session")
def insecure_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """No keys (--insecure-no-auth), an in-process worker, CORS allowed for one origin."""
    live = start_server(tmp_path_factory.mktemp("insecure"),
                        ServerOptions(insecure_no_auth=True, worker=True,
                                      cors_origins=("https://panel.example",)))
    yield live
    live.stop()


@pytest.fixture(scope="module")
def limited_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """One request per second per key, bursts of 3; small bodies (4 KiB)."""
    live = start_server(tmp_path_factory.mktemp("limited"),
                        ServerOptions(worker=False, rate_limit=1.0, rate_burst=3, max_body_bytes=4096),
                        tenants=("acme", "globex"))
    yield live
    live.stop()


@pytest.fixture
def uid() -> str:
    """A user id no other test uses."""
    return f"u-{uuid.uuid4().hex[:10]}"


@pytest.fixture
def acme(server: LiveServer) -> Iterator[httpx.Client]:
    with server.http("acme") as client:
        yield client


@pytest.fixture
def globex(server: LiveServer) -> Iterator[httpx.Client]:
    with server.http("globex") as client:
        yield client


@pytest.fixture
def anon(server: LiveServer) -> Iterator[httpx.Client]:
    with server.http() as client:
        yield client


