"""The API's documents stay true: docs/openapi.json, route docs, CLI help, schemas vs records."""

from __future__ import annotations

import dataclasses
import json
import typing
from pathlib import Path

import pytest
from click.testing import CliRunner

from jiyi.cli import cli
from jiyi.client.calls import ERRORS as CLIENT_ERRORS
from jiyi.records import EventType, Kind, MemoryRecord, Status, Visibility
from jiyi.server import schemas
from jiyi.server.app import openapi_document
from jiyi.server.errors import ERROR_MAP, HTTP_CODES

OPENAPI = Path(__file__).resolve().parents[2] / "docs" / "openapi.json"
REGENERATE = "regenerate it: jiyi openapi -o docs/openapi.json"


def test_checked_in_openapi_matches_the_app() -> None:
    assert OPENAPI.is_file(), f"docs/openapi.json is missing; {REGENERATE}"
    checked_in = json.loads(OPENAPI.read_text(encoding="utf-8"))
    assert checked_in == openapi_document(), f"docs/openapi.json drifted; {REGENERATE}"


def test_every_issue_endpoint_exists() -> None:
    paths = openapi_document()["paths"]
    wanted = {"/v1/memories": {"post", "get"}, "/v1/memories/search": {"post"},
              "/v1/memories/{memory_id}": {"get", "patch", "delete"}, "/v1/memories/{memory_id}/history": {"get"},
              "/v1/context": {"post"}, "/v1/remember": {"post"}, "/v1/users/{user_id}": {"delete"},
              "/v1/users/{user_id}/export": {"get"}, "/v1/gc": {"post"}, "/healthz": {"get"}, "/metrics": {"get"}}
    for path, methods in wanted.items():
        assert path in paths and methods <= set(paths[path]), path


def test_every_route_is_documented_and_secured() -> None:
    doc = openapi_document()
    for path, ops in doc["paths"].items():
        for method, op in ops.items():
            assert op.get("summary") and op.get("description"), f"{method.upper()} {path} needs a docstring"
            if path != "/healthz":
                assert op.get("security"), f"{method.upper()} {path} must require an API key"
    assert set(doc["components"]["securitySchemes"]) == {"bearer", "apiKey"}


@pytest.mark.parametrize("args", [["serve"], ["worker"], ["keys"], ["keys", "create"], ["keys", "list"],
                                  ["keys", "revoke"], ["openapi"]])
def test_every_service_command_has_help(args: list[str]) -> None:
    result = CliRunner().invoke(cli, [*args, "--help"])
    assert result.exit_code == 0
    lines = result.output.split("Options:")[0].strip().splitlines()
    assert len(lines) >= 3 and lines[2].strip(), f"`jiyi {' '.join(args)}` needs a help text"


def test_openapi_cli_writes_the_document(tmp_path: Path) -> None:
    out = tmp_path / "openapi.json"
    assert CliRunner().invoke(cli, ["openapi", "-o", str(out)]).exit_code == 0
    assert json.loads(out.read_text(encoding="utf-8")) == openapi_document()


def test_response_models_mirror_the_records() -> None:
    assert set(schemas.MemoryOut.model_fields) == {f.name for f in dataclasses.fields(MemoryRecord)}
    assert set(schemas.HitOut.model_fields) - set(schemas.MemoryOut.model_fields) == {"score", "scores"}
    assert set(typing.get_args(schemas.KindName)) == {k.value for k in Kind}
    assert set(typing.get_args(schemas.StatusName)) == {s.value for s in Status}
    assert set(typing.get_args(schemas.StatusFilter)) == {s.value for s in Status} | {"all"}
    assert set(typing.get_args(schemas.VisibilityName)) == {v.value for v in Visibility}
    assert set(typing.get_args(schemas.EventName)) == {e.value for e in EventType}


def test_the_client_knows_every_error_code_the_server_sends() -> None:
    server_codes = {code for _, _, code in ERROR_MAP} | set(HTTP_CODES.values()) | {"malformed_json",
                                                                                     "validation_error"}
    generic = {"internal_error", "missing_dependency", "method_not_allowed"}  # stay ServiceError on purpose
    assert server_codes - generic <= set(CLIENT_ERRORS), server_codes - generic - set(CLIENT_ERRORS)
