"""Schemathesis over the checked-in OpenAPI document against a real loopback server.

Bounded and seeded (derandomized): every operation gets ``EXAMPLES`` generated requests.
No request may get a 5xx, every status must be one the document lists for the operation,
and the kept-alive session keeps working throughout. Requests schemathesis generates as valid
per the document (positive data) must not be refused with 400/422: the document states every
rule the server enforces that JSON Schema can state. A 405 must carry an ``Allow`` header that
lists the path's methods. Print the counts with ``-s``.
"""

from __future__ import annotations

import json
import unicodedata
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import unquote

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
COUNTS = {"cases": 0, "server_errors": 0, "positive": 0, "refused_positive": 0, "not_stateable": 0, "405": 0}
#: Operations whose request rules the document cannot state yet: import rows are free-form objects
#: (every row is validated by the core), the panel link lives in jiyi.web.
NOT_STATEABLE_OPS = {("POST", "/v1/import"), ("POST", "/v1/ui-links")}
ID_FIELDS = ("user_id", "session_id", "agent_id")
#: Code points the core refuses in an id that a portable JSON Schema pattern cannot list (Unicode
#: categories: unassigned, private use, format characters outside the BMP ranges the pattern names).
REFUSED_CATEGORIES = {"Cn", "Co", "Cf", "Cs"}


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
    print(f"\nschemathesis: {COUNTS['cases']} cases, {COUNTS['server_errors']} server errors, "
          f"{COUNTS['positive']} positive, {COUNTS['refused_positive']} positive refused, "
          f"{COUNTS['not_stateable']} refused for rules JSON Schema cannot state, {COUNTS['405']} 405s with Allow")


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
    if response.status_code == 405:  # most are to methods the path does not take
        _assert_allow(case.path, response.headers.get("allow"))  # type: ignore[attr-defined]
    if method != declared:  # schemathesis tries methods the path does not have
        assert response.status_code == 405 or (method == "HEAD" and declared == "GET") or _other_route(
            method, case.path), f"{method} {case.path}: {response.status_code}"  # type: ignore[attr-defined]
        return
    documented = case.operation.definition.raw.get("responses", {})  # type: ignore[attr-defined]
    assert str(response.status_code) in documented or "default" in documented, (
        f"{case.method} {case.path}: {response.status_code} is not documented: {response.text[:300]}")  # type: ignore[attr-defined]
    meta = case.meta  # type: ignore[attr-defined]
    if meta is None or meta.generation.mode.name.lower() != "positive":
        return
    COUNTS["positive"] += 1
    if response.status_code in (400, 422):
        why = _not_stateable(case)
        if why:
            COUNTS["not_stateable"] += 1
            return
        COUNTS["refused_positive"] += 1
        pytest.fail(f"{method} {case.path} valid per the document but refused: {response.status_code} "  # type: ignore[attr-defined]
                    f"{response.text[:300]}; query={case.query!r:.200} body={case.body!r:.300}")  # type: ignore[attr-defined]


def _assert_allow(path: str, allow: str | list[str] | None) -> None:
    """A 405 lists the methods the path really takes (RFC 9110 §15.5.6)."""
    COUNTS["405"] += 1
    assert allow, f"405 on {path} without an Allow header"
    declared = {m.upper() for template, ops in RAW["paths"].items() if _matches(template, path)
                for m in ops if m in {"get", "post", "put", "patch", "delete"}}
    listed = {m.strip().upper() for m in ",".join([allow] if isinstance(allow, str) else allow).split(",")}
    assert declared <= listed, f"405 on {path}: Allow {allow!r} misses {sorted(declared - listed)}"


def _matches(template: str, path: str) -> bool:
    t, p = template.strip("/").split("/"), path.strip("/").split("/")
    return len(t) == len(p) and all(a.startswith("{") or a == b for a, b in zip(t, p))


def _not_stateable(case: object) -> str | None:
    """Why a positive case may still be refused for a rule JSON Schema cannot state, or None."""
    op = (case.operation.method.upper(), case.operation.path)  # type: ignore[attr-defined]
    if op in NOT_STATEABLE_OPS:
        return "operation not described yet"
    query = case.query or {}  # type: ignore[attr-defined]
    body = case.body if isinstance(case.body, dict) else {}  # type: ignore[attr-defined]
    path_params = case.path_parameters or {}  # type: ignore[attr-defined]
    if "{memory_id}" in op[1] and op[0] != "GET":
        in_query, in_body = query.get("user_id"), body.get("user_id")
        if in_query is None and in_body is None:
            return "user_id is required in the query or the body (one of two places)"
        if in_query is not None and in_body is not None and in_query != in_body:
            return "user_id given twice, differently"
    path_params = {k: unquote(v) if isinstance(v, str) else v for k, v in path_params.items()}
    for source in (query, body, path_params):
        for name in ID_FIELDS:
            value = source.get(name)
            if isinstance(value, str) and any(unicodedata.category(c) in REFUSED_CATEGORIES for c in value):
                return f"{name} holds a code point of a refused Unicode category"
    return None
