"""Schemathesis over the checked-in OpenAPI document against a real loopback server.

Bounded and seeded (derandomized): every operation gets ``EXAMPLES`` generated requests.
No request may get a 5xx, every status must be one the document lists for the operation,
and the kept-alive session keeps working throughout. Print the case count with ``-s``.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

schemathesis = pytest.importorskip("schemathesis")
from hypothesis import HealthCheck, settings
from live_uvicorn import serve_in_thread

from jiyi.config import Settings
from jiyi.server.app import ServerOptions, create_app
from jiyi.server.keys import KeyStore

OPENAPI = Path(__file__).resolve().parents[2] / "docs" / "openapi.json"
EXAMPLES = 5
RAW = json.loads(OPENAPI.read_text(encoding="utf-8"))
schema = schemathesis.openapi.from_dict(RAW)
COUNTS = {"cases": 0, "server_errors": 0}


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, str]]:
    home = tmp_path_factory.mktemp("fuzz")
    key = KeyStore.in_home(home).create("acme", name="fuzz")[1]
    app = create_app(Settings(home=home, embedder="hash"),
                     ServerOptions(worker=False, rate_limit=0, operator_tenants=("acme",)))
    url, server, thread = serve_in_thread(app)
    yield url, key
    server.should_exit = True
    thread.join(timeout=60)
    print(f"\nschemathesis: {COUNTS['cases']} cases, {COUNTS['server_errors']} server errors")


def _other_route(method: str, path: str) -> bool:
    """Another operation takes ``method`` on a path this one extends: ``DELETE /v1/users/{user_id}``
    answers ``DELETE /v1/users/x/export`` (a user id may hold a slash)."""
    return any(method.lower() in ops and template != path and path.startswith(template.split("{")[0])
               and template.endswith("{user_id}") for template, ops in RAW["paths"].items())


@schema.parametrize()
@settings(max_examples=EXAMPLES, derandomize=True, deadline=None, database=None,
          suppress_health_check=list(HealthCheck))
def test_every_operation_answers_within_its_document(case: object, live: tuple[str, str]) -> None:
    url, key = live
    response = case.call(base_url=url, headers={"Authorization": f"Bearer {key}"})  # type: ignore[attr-defined]
    COUNTS["cases"] += 1
    if response.status_code >= 500:
        COUNTS["server_errors"] += 1
    assert response.status_code < 500, f"{case.method} {case.path}: {response.status_code} {response.text[:300]}"  # type: ignore[attr-defined]
    method, declared = case.method.upper(), case.operation.method.upper()  # type: ignore[attr-defined]
    if method != declared:  # schemathesis tries methods the path does not have
        assert response.status_code == 405 or (method == "HEAD" and declared == "GET") or _other_route(
            method, case.path), f"{method} {case.path}: {response.status_code}"  # type: ignore[attr-defined]
        return
    documented = case.operation.definition.raw.get("responses", {})  # type: ignore[attr-defined]
    assert str(response.status_code) in documented or "default" in documented, (
        f"{case.method} {case.path}: {response.status_code} is not documented: {response.text[:300]}")  # type: ignore[attr-defined]
