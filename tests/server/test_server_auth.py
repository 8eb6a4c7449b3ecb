"""API keys, tenants and users: who can reach what."""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import Any

import httpx
import pytest
from click.testing import CliRunner
from server_support import LiveServer, add_sync, error_code, settings_for

from jiyi.cli import cli
from jiyi.errors import ConfigError
from jiyi.server.app import ServerOptions, create_app
from jiyi.server.keys import KeyStore

#: (method, path, json body) for every authenticated route.
ROUTES: list[tuple[str, str, dict[str, Any] | None]] = [
    ("POST", "/v1/memories", {"messages": "hi", "user_id": "u"}),
    ("POST", "/v1/memories/search", {"query": "q", "user_id": "u"}),
    ("GET", "/v1/memories?user_id=u", None),
    ("GET", "/v1/memories/x?user_id=u", None),
    ("PATCH", "/v1/memories/x", {"content": "c", "user_id": "u"}),
    ("DELETE", "/v1/memories/x?user_id=u", None),
    ("POST", "/v1/memories/x/restore", {"user_id": "u"}),
    ("GET", "/v1/memories/x/history?user_id=u", None),
    ("POST", "/v1/context", {"query": "q", "user_id": "u"}),
    ("GET", "/v1/buffer?user_id=u", None),
    ("DELETE", "/v1/buffer?user_id=u", None),
    ("POST", "/v1/sessions/end", {"user_id": "u", "session_id": "s"}),
    ("POST", "/v1/remember", {"content": "c", "user_id": "u"}),
    ("GET", "/v1/users", None),
    ("DELETE", "/v1/users/u", None),
    ("GET", "/v1/users/u/export", None),
    ("POST", "/v1/import", {"records": []}),
    ("POST", "/v1/gc", {}),
    ("POST", "/v1/flush", {}),
    ("GET", "/v1/stats", None),
    ("GET", "/metrics", None),
]


@pytest.mark.parametrize(("method", "path", "body"), ROUTES, ids=[f"{m} {p}" for m, p, _ in ROUTES])
def test_every_route_refuses_a_missing_key(anon: httpx.Client, method: str, path: str,
                                           body: dict[str, Any] | None) -> None:
    resp = anon.request(method, path, json=body)
    assert resp.status_code == 401, resp.text
    assert error_code(resp) == "unauthorized"
    assert resp.headers["www-authenticate"].startswith("Bearer")


@pytest.mark.parametrize("headers", [
    {"Authorization": "Bearer nonsense"},
    {"Authorization": "Bearer jiyi_0123456789ab_notthesecret"},
    {"Authorization": "Basic dXNlcjpwYXNz"},
    {"X-API-Key": "jiyi_0123456789ab_"},
    {"Authorization": "Bearer"},
], ids=["garbage", "unknown-id", "basic-auth", "empty-secret", "empty-bearer"])
def test_wrong_keys_are_refused(server: LiveServer, headers: dict[str, str]) -> None:
    with httpx.Client(base_url=server.url, headers=headers) as client:
        resp = client.post("/v1/memories/search", json={"query": "q", "user_id": "u"})
    assert resp.status_code == 401 and error_code(resp) == "unauthorized"


def test_a_right_id_with_a_wrong_secret_is_refused(server: LiveServer) -> None:
    key_id = server.keys["acme"].split("_")[1]
    with httpx.Client(base_url=server.url, headers={"X-API-Key": f"jiyi_{key_id}_forged"}) as client:
        assert client.get("/v1/users").status_code == 401


def test_x_api_key_header_works_like_bearer(server: LiveServer) -> None:
    with httpx.Client(base_url=server.url, headers={"X-API-Key": server.keys["globex"]}) as client:
        assert client.get("/v1/stats").json()["tenant"] == "globex"


def test_a_revoked_key_stops_working_at_once(server: LiveServer) -> None:
    keystore = KeyStore.in_home(server.home)
    info, key = keystore.create("acme", name="short-lived")
    with httpx.Client(base_url=server.url, headers={"Authorization": f"Bearer {key}"}) as client:
        assert client.get("/v1/users").status_code == 200
        keystore.revoke(info.id)
        assert client.get("/v1/users").status_code == 401


def test_another_tenants_key_never_reaches_its_users(acme: httpx.Client, globex: httpx.Client, uid: str) -> None:
    add_sync(acme, uid, "我的银行卡密码是 123456，我住在北京朝阳区")
    mid = acme.get("/v1/memories", params={"user_id": uid}).json()["memories"][0]["id"]

    # same user id, other tenant: nothing to see, nothing to touch
    assert globex.post("/v1/memories/search", json={"query": "银行卡 北京", "user_id": uid,
                                                    "include_sensitive": True}).json()["hits"] == []
    assert globex.get("/v1/memories", params={"user_id": uid, "status": "all"}).json()["memories"] == []
    for resp in (globex.get(f"/v1/memories/{mid}", params={"user_id": uid}),
                 globex.patch(f"/v1/memories/{mid}", json={"content": "hijacked", "user_id": uid}),
                 globex.request("DELETE", f"/v1/memories/{mid}", params={"user_id": uid}),
                 globex.post(f"/v1/memories/{mid}/restore", json={"user_id": uid}),
                 globex.get(f"/v1/memories/{mid}/history", params={"user_id": uid})):
        assert resp.status_code == 404, resp.text
    assert "北京" not in globex.post("/v1/context", json={"query": "北京", "user_id": uid}).json()["context"]
    assert globex.get(f"/v1/users/{uid}/export").text == ""
    assert uid not in globex.get("/v1/users").json()["users"]
    assert globex.delete(f"/v1/users/{uid}").json() == {"deleted": 0}
    globex.post("/v1/gc", json={"dry_run": False, "now": "2100-01-01T00:00:00Z"})

    # and acme's data is untouched
    still = acme.get(f"/v1/memories/{mid}", params={"user_id": uid})
    assert still.status_code == 200 and still.json()["status"] == "active"
    assert "hijacked" not in still.json()["content"]


def test_users_of_one_tenant_are_isolated(acme: httpx.Client, uid: str) -> None:
    other = uid + "-other"
    mid = acme.post("/v1/remember", json={"content": "用户对青霉素过敏", "user_id": uid}).json()["id"]
    assert acme.get(f"/v1/memories/{mid}", params={"user_id": other}).status_code == 404
    assert acme.patch(f"/v1/memories/{mid}", json={"content": "x", "user_id": other}).status_code == 404
    assert acme.post("/v1/memories/search", json={"query": "青霉素", "user_id": other}).json()["hits"] == []
    assert acme.delete(f"/v1/users/{other}").json() == {"deleted": 0}
    assert acme.get(f"/v1/memories/{mid}", params={"user_id": uid}).json()["content"] == "用户对青霉素过敏"


def test_the_server_refuses_to_start_without_keys(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="jiyi keys create"):
        create_app(settings_for(tmp_path), ServerOptions())
    result = CliRunner().invoke(cli, ["--home", str(tmp_path), "serve", "--port", "1"])
    assert result.exit_code != 0 and "jiyi keys create" in result.output
    info, _ = KeyStore.in_home(tmp_path).create("acme")
    KeyStore.in_home(tmp_path).revoke(info.id)
    with pytest.raises(ConfigError):  # revoked keys do not count
        create_app(settings_for(tmp_path), ServerOptions())
    create_app(settings_for(tmp_path), ServerOptions(insecure_no_auth=True))  # the explicit way out


def test_insecure_mode_maps_everything_to_the_default_tenant(insecure_server: LiveServer, uid: str) -> None:
    with insecure_server.http() as client:
        assert client.get("/v1/stats").json()["tenant"] == "default"
        rec = client.post("/v1/remember", json={"content": "用户喜欢爵士乐", "user_id": uid}).json()
        assert rec["tenant"] == "default"
        with_key = client.get("/v1/users", headers={"Authorization": "Bearer jiyi_0123456789ab_whatever"})
        assert uid in with_key.json()["users"]  # keys are ignored, not checked, in this mode


def test_keys_cli_create_list_revoke(tmp_path: Path) -> None:
    runner = CliRunner()
    created = runner.invoke(cli, ["--home", str(tmp_path), "keys", "create", "--tenant", "acme", "--name", "bot"])
    assert created.exit_code == 0, created.output
    key = created.stdout.strip()
    assert key.startswith("jiyi_") and len(key) > 40
    key_id = key.split("_")[1]
    assert KeyStore.in_home(tmp_path).verify(key).tenant == "acme"  # type: ignore[union-attr]

    listed = runner.invoke(cli, ["--home", str(tmp_path), "keys", "list"])
    assert key_id in listed.output and "acme" in listed.output and key.split("_", 2)[2] not in listed.output
    raw = (tmp_path / "keys.db").read_bytes()
    assert key.split("_", 2)[2].encode() not in raw, "only a hash of the secret is stored"
    assert stat.S_IMODE(os.stat(tmp_path / "keys.db").st_mode) == 0o600

    revoked = runner.invoke(cli, ["--home", str(tmp_path), "keys", "revoke", key_id])
    assert revoked.exit_code == 0 and KeyStore.in_home(tmp_path).verify(key) is None
    again = runner.invoke(cli, ["--home", str(tmp_path), "keys", "revoke", key_id])
    assert again.exit_code != 0
    assert key_id in runner.invoke(cli, ["--home", str(tmp_path), "keys", "list", "--all"]).output
    bad = runner.invoke(cli, ["--home", str(tmp_path), "keys", "create", "--tenant", "no spaces please"])
    assert bad.exit_code != 0
