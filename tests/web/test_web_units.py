"""Panel pieces without a browser: signing, sessions, filters, timeline chains, graph, i18n, CLI, docs."""

from __future__ import annotations

import json
import re
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest
from click.testing import CliRunner

from jiyi.cli import cli
from jiyi.errors import InvalidInput
from jiyi.records import Kind, MemoryRecord, Status, Visibility
from jiyi.web import i18n
from jiyi.web import session as sessions
from jiyi.web.graph import collect_entities, graph_elements
from jiyi.web.listing import ListQuery
from jiyi.web.panel import safe_next
from jiyi.web.signing import (
    SecretFile,
    make_user_link_token,
    parse_ttl,
    read_user_link_token,
    sign,
    unsign,
)
from jiyi.web.timeline import build_axis, build_timeline

T = datetime(2026, 11, 30, 9, tzinfo=timezone.utc)
KEY = b"k" * 32
TEMPLATES = Path(__file__).resolve().parents[2] / "src" / "jiyi" / "web" / "templates"


def rec(mid: str, content: str, *, days_ago: int = 0, **kw: object) -> MemoryRecord:
    at = T - timedelta(days=days_ago)
    return MemoryRecord(id=mid, tenant="t", user_id="u", content=content, kind=kw.pop("kind", Kind.FACT),  # type: ignore[arg-type]
                        created_at=at, updated_at=at, **kw)  # type: ignore[arg-type]


def test_tokens_round_trip_and_refuse_tampering_expiry_and_other_purposes() -> None:
    token = sign(KEY, "session", {"a": 1, "exp": T.timestamp() + 60})
    assert unsign(KEY, "session", token, now=T) == {"a": 1, "exp": T.timestamp() + 60}
    assert unsign(KEY, "user-link", token, now=T) is None  # a cookie is not a link
    assert unsign(b"x" * 32, "session", token, now=T) is None
    assert unsign(KEY, "session", token, now=T + timedelta(seconds=61)) is None
    body, mac = token.split(".")
    forged = sign(KEY, "session", {"a": 2, "exp": T.timestamp() + 60}).split(".")[0] + "." + mac
    assert unsign(KEY, "session", forged, now=T) is None
    for junk in ("", ".", "a.b.c", "!!.??", body, "x" * 5000):
        assert unsign(KEY, "session", junk, now=T) is None


def test_user_links_carry_tenant_user_and_expiry() -> None:
    token = make_user_link_token(KEY, tenant="acme", user_id="小明", expires_at=T + timedelta(hours=1))
    assert read_user_link_token(KEY, token, now=T) == ("acme", "小明", int((T + timedelta(hours=1)).timestamp()))
    assert read_user_link_token(KEY, token, now=T + timedelta(hours=2)) is None
    with pytest.raises(InvalidInput):
        make_user_link_token(KEY, tenant="acme", user_id=" ", expires_at=T)


@pytest.mark.parametrize(("text", "seconds"), [("90", 90), ("30m", 1800), ("24h", 86400), ("7d", 604800),
                                              ("2w", 1209600), (3600, 3600)])
def test_parse_ttl(text: str | int, seconds: int) -> None:
    assert parse_ttl(text) == timedelta(seconds=seconds)


@pytest.mark.parametrize("bad", ["", "abc", "-5m", "0", "91d", "1y"])
def test_parse_ttl_refuses(bad: str) -> None:
    with pytest.raises(InvalidInput):
        parse_ttl(bad)


def test_secret_file_is_created_once_owner_only_and_shared(tmp_path: Path) -> None:
    first = SecretFile.in_home(tmp_path)()
    assert len(first) == 32 and SecretFile.in_home(tmp_path)() == first
    assert (tmp_path / "ui.secret").stat().st_mode & 0o077 == 0


def test_session_cookie_round_trip_and_kinds() -> None:
    op = sessions.operator("acme", "abc123", T)
    back = sessions.decode(KEY, sessions.encode(KEY, op), now=T)
    assert back == op and back.is_operator and back.signed_in
    user = sessions.end_user("acme", "alice", int(T.timestamp()) + 60)
    assert sessions.decode(KEY, sessions.encode(KEY, user), now=T) == user
    assert sessions.decode(KEY, sessions.encode(KEY, user), now=T + timedelta(minutes=2)) is None
    assert not sessions.anonymous(T).signed_in
    assert user.csrf_ok(user.csrf) and not user.csrf_ok("forged") and not user.csrf_ok(None)


@pytest.mark.parametrize(("value", "ok"), [("/ui/memories?x=1", True), ("//evil.example/ui/", False),
                                           ("https://evil.example", False), ("/ui/..//x", False),
                                           ("/v1/users", False), (None, False), ("/ui/\\evil", False)])
def test_safe_next_only_follows_panel_paths(value: str | None, ok: bool) -> None:
    assert (safe_next(value) == value) is ok


def test_list_query_parses_cleans_and_round_trips() -> None:
    lq = ListQuery.parse({"q": [" 北京 "], "kind": ["fact", "nope"], "status": [""], "since": ["2026-01-02"],
                          "until": ["garbage"], "page": ["3"], "per_page": ["7"]})
    assert (lq.q, lq.kinds, lq.status, lq.page, lq.per_page) == ("北京", ("fact",), "", 3, 25)
    assert lq.since is not None and lq.until is None and lq.errors == ("until",)
    again = ListQuery.parse({k: v for k, v in _qs(lq.params(page=3)).items()})
    assert again == lq
    assert ListQuery.parse({}).status == "active"


def _qs(query: str) -> dict[str, list[str]]:
    from urllib.parse import parse_qs

    return parse_qs(query, keep_blank_values=True)


def test_timeline_folds_superseded_chains_and_greys_the_past() -> None:
    old = rec("a", "用户住在上海", days_ago=200, slot="user/city", status=Status.SUPERSEDED, superseded_by="b")
    mid = rec("b", "用户住在杭州", days_ago=100, slot="user/city", status=Status.SUPERSEDED, superseded_by="c")
    new = rec("c", "用户住在北京", days_ago=10, slot="user/city", links=("b",))
    trip = rec("d", "用户去成都出差", days_ago=50, kind=Kind.EVENT, valid_from=T - timedelta(days=45),
               valid_until=T - timedelta(days=44))
    gone = rec("e", "删掉的", days_ago=5, status=Status.DELETED)
    groups = build_timeline([old, mid, new, trip, gone], now=T)
    items = [i for g in groups for i in g.items]
    assert [i.record.id for i in items] == ["c", "d"]
    assert [r.id for r in items[0].was] == ["a", "b"] and not items[0].greyed and items[1].greyed
    assert "e" in [i.record.id for g in build_timeline([gone], now=T, include_deleted=True) for i in g.items]
    axis = build_axis(groups)
    assert len(axis.dots) == 2 and all(20 <= d.x <= 980 for d in axis.dots) and axis.ticks


def test_graph_links_memories_to_typed_entities() -> None:
    recs = [rec("1", "用户的妈妈叫李红", kind=Kind.RELATION, entities=("李红",)),
            rec("2", "李红是医生", entities=("李红",)), rec("3", "电话13812345678", entities=("13812345678",)),
            rec("4", "旧的", entities=("李红",), status=Status.DELETED)]
    ents = collect_entities(recs)
    assert [(e.name, e.type, len(e.memories)) for e in ents] == [("李红", "person", 2), ("13812345678", "number", 1)]
    els = graph_elements(ents)
    assert len(els["nodes"]) == 5 and len(els["edges"]) == 3
    assert {e["data"]["target"] for e in els["edges"]} == {"e0", "e1"}
    assert collect_entities(recs, include_inactive=True)[0].memories[-1].id == "4"


def test_both_languages_have_every_key_and_templates_use_only_known_keys() -> None:
    assert set(i18n.ZH) == set(i18n.EN)
    used = set()
    for path in TEMPLATES.glob("*.html"):
        used |= set(re.findall(r"""\bt\('([a-z_.]+)'""", path.read_text(encoding="utf-8")))
    prefixes = {k for k in used if k.endswith(".")}  # t('kind.' ~ value)
    assert used - prefixes - set(i18n.ZH) == set(), "templates use keys missing from i18n.py"
    for prefix in prefixes:
        assert any(k.startswith(prefix) for k in i18n.ZH), prefix
    assert {f"kind.{k.value}" for k in Kind} | {f"status.{s.value}" for s in Status} <= set(i18n.ZH)
    assert {f"vis.{v.value}" for v in Visibility} <= set(i18n.ZH)
    assert i18n.translate("en", "mem.count", n=3) == "3 match" and i18n.pick("fr") == "zh"


def test_ui_link_cli_prints_a_link_the_server_accepts(tmp_path: Path) -> None:
    result = CliRunner().invoke(cli, ["--home", str(tmp_path), "ui-link", "--user", "alice", "--tenant", "acme",
                                      "--ttl", "2h", "--base-url", "https://bot.example/", "--json"])
    assert result.exit_code == 0, result.output
    out = json.loads(result.output)
    assert out["url"].startswith("https://bot.example/ui/u/") and out["tenant"] == "acme"
    token = out["url"].rsplit("/", 1)[1]
    found = read_user_link_token(SecretFile.in_home(tmp_path)(), token, now=datetime.now(timezone.utc))
    assert found is not None and found[:2] == ("acme", "alice")
    bad = CliRunner().invoke(cli, ["--home", str(tmp_path), "ui-link", "--user", "alice", "--ttl", "forever"])
    assert bad.exit_code != 0 and "ttl" in bad.output


def test_ui_link_command_has_help() -> None:
    result = CliRunner().invoke(cli, ["ui-link", "--help"])
    assert result.exit_code == 0 and "--user" in result.output and "expires" in result.output


def test_the_link_endpoint_is_in_the_openapi_document_and_secured() -> None:
    from jiyi.server.app import openapi_document

    doc = openapi_document()
    op = doc["paths"]["/v1/ui-links"]["post"]
    assert op["summary"] and op["description"] and op["security"]
    assert not any(p.startswith("/ui") for p in doc["paths"]), "panel pages stay out of the API document"


def test_docs_describe_every_page_and_the_command() -> None:
    from jiyi.web.routes import pages

    doc = (Path(__file__).resolve().parents[2] / "docs" / "web.md").read_text(encoding="utf-8")
    shown = {r.path for r in pages.routes if "GET" in getattr(r, "methods", ())} - {
        "/memories/{memory_id}/edit", "/memories/{memory_id}/row", "/lang/{code}", "/u/{token}", "/export"}
    missing = [p for p in sorted(shown) if f"`/ui{p}`" not in doc]
    assert missing == [], f"docs/web.md does not list {missing}"
    assert "jiyi ui-link" in doc and "/v1/ui-links" in doc
    for shot in re.findall(r"\(screenshots/([\w-]+\.png)\)", doc):
        assert (Path(__file__).resolve().parents[2] / "docs" / "screenshots" / shot).is_file(), shot


def test_without_keys_operators_enter_as_the_default_tenant(tmp_path: Path) -> None:
    from fastapi.testclient import TestClient

    from jiyi.config import Settings
    from jiyi.server.app import ServerOptions, create_app

    app = create_app(Settings(home=tmp_path, embedder="hash", tenant="solo"),
                     ServerOptions(insecure_no_auth=True, worker=False))
    with TestClient(app, base_url="http://127.0.0.1") as client:
        form = client.get("/ui/login")
        assert form.status_code == 200 and 'name="key"' not in form.text
        assert form.headers["content-security-policy"].startswith("default-src 'self'")
        csrf = re.search(r'name="csrf" value="([^"]+)"', form.text)
        assert csrf is not None
        home = client.post("/ui/login", data={"csrf": csrf.group(1)})
        assert home.status_code == 200 and "租户 solo" in home.text
