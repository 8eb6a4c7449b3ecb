"""The leak suite: two users with near-identical data, through every door (Python API, REST, the
web panel, MCP, the proxy). Whatever one asks, none of the other's data comes back.

Each user's memories are the same sentences with different values (phone, pet, city, employer),
so a search that crossed users would rank the other's copy as high as the own one.
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests/: fake_openai, live_uvicorn

from fake_openai import FakeOpenAI
from live_uvicorn import serve_in_thread

from jiyi.config import Settings
from jiyi.errors import NotFound
from jiyi.memory import Memory
from jiyi.server.app import ServerOptions, create_app
from jiyi.server.keys import KeyStore

TEMPLATE = ["我的手机号是{phone}", "我养了一只猫叫{pet}", "我住在{city}", "我在{company}上班", "我最喜欢的颜色是{color}"]
USERS = {
    "wa1": {"phone": "13911110001", "pet": "团子甲", "city": "杭州西湖区", "company": "甲壳科技", "color": "靛青"},
    "wa2": {"phone": "13911110002", "pet": "团子乙", "city": "苏州园区", "company": "乙烯化工", "color": "赭石"},
}
QUERIES = ["我的手机号是多少", "我的猫叫什么", "我住在哪", "我在哪上班", "我喜欢什么颜色", "团子", "手机"]


def markers(user: str) -> list[str]:
    return list(USERS[user].values())


def other(user: str) -> str:
    return "wa2" if user == "wa1" else "wa1"


def assert_clean(text: str, user: str, where: str) -> None:
    leaked = [m for m in markers(other(user)) if m in text]
    assert not leaked, f"{where}: {user} saw {other(user)}'s {leaked}"


def seed(mem: Memory) -> dict[str, list[str]]:
    ids: dict[str, list[str]] = {}
    for user, values in USERS.items():
        for line in TEMPLATE:
            mem.add(line.format(**values), user_id=user, sync=True)
        ids[user] = [r.id for r in mem.get_all(user_id=user, status=None)]
    return ids


@dataclass
class Service:
    url: str
    key: str
    memory: Memory
    ids: dict[str, list[str]]

    def http(self) -> httpx.Client:
        return httpx.Client(base_url=self.url, headers={"Authorization": f"Bearer {self.key}"}, timeout=60)


@pytest.fixture(scope="module")
def service(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Service]:
    home = tmp_path_factory.mktemp("leaks")
    key = KeyStore.in_home(home).create("acme", name="leak suite")[1]
    app = create_app(Settings(home=home, embedder="hash"), ServerOptions(worker=False, rate_limit=0))
    url, server, thread = serve_in_thread(app, "uvicorn-leaks")
    mem: Memory = app.state.jiyi.pool.get("acme")
    try:
        yield Service(url, key, mem, seed(mem))
    finally:
        server.should_exit = True
        thread.join(timeout=60)


@pytest.mark.parametrize("user", list(USERS))
def test_python_api(service: Service, user: str) -> None:
    mem = service.memory
    for q in QUERIES:
        hits = mem.search(q, user_id=user, limit=50, include_sensitive=True)
        assert hits and all(h.record.user_id == user for h in hits)
        assert_clean(" ".join(h.content for h in hits), user, f"search {q!r}")
        assert_clean(mem.build_context(q, user_id=user, include_sensitive=True), user, f"context {q!r}")
    assert_clean(json.dumps([r.to_dict() for r in mem.get_all(user_id=user, status=None)], ensure_ascii=False),
                 user, "get_all")
    assert_clean(json.dumps(list(mem.export(user_id=user)), ensure_ascii=False, default=str), user, "export")
    assert_clean(json.dumps(mem.recent_messages(user_id=user), ensure_ascii=False), user, "buffer")
    for mid in service.ids[other(user)]:
        assert mem.get(mid, user_id=user) is None
        with pytest.raises(NotFound):
            mem.history(mid, user_id=user)
        with pytest.raises(NotFound):
            mem.update(mid, "hacked", user_id=user)
        with pytest.raises(NotFound):
            mem.delete(mid, user_id=user)


@pytest.mark.parametrize("user", list(USERS))
def test_rest(service: Service, user: str) -> None:
    with service.http() as client:
        for q in QUERIES:
            r = client.post("/v1/memories/search", json={"query": q, "user_id": user, "limit": 50,
                                                         "include_sensitive": True})
            assert r.status_code == 200 and r.json()["hits"]
            assert_clean(r.text, user, f"REST search {q!r}")
            r = client.post("/v1/context", json={"query": q, "user_id": user, "include_sensitive": True})
            assert r.status_code == 200
            assert_clean(r.text, user, f"REST context {q!r}")
        r = client.get("/v1/memories", params={"user_id": user, "status": "all"})
        assert r.status_code == 200 and len(r.json()["memories"]) >= len(TEMPLATE)
        assert_clean(r.text, user, "REST list")
        mine = {"user_id": user}
        for mid in service.ids[other(user)]:
            for resp in (client.get(f"/v1/memories/{mid}", params=mine),
                         client.get(f"/v1/memories/{mid}/history", params=mine),
                         client.delete(f"/v1/memories/{mid}", params=mine),
                         client.patch(f"/v1/memories/{mid}", params=mine, json={"content": "hacked"})):
                assert resp.status_code == 404, resp.text
                assert_clean(resp.text, user, f"REST {mid}")
        # a look-alike id is refused, not trimmed into the other user
        for look_alike in (f"{user} ", f" {user}", f"{user}\t", f"{user}\n"):
            r = client.get("/v1/memories", params={"user_id": look_alike})
            assert r.status_code == 422, repr(look_alike)
    assert all(service.memory.get(mid, user_id=other(user)) is not None for mid in service.ids[other(user)])


def _panel_as(service: Service, user: str) -> httpx.Client:
    """A panel session opened by an end-user link, as a bot hands it out."""
    with service.http() as api:
        link = api.post("/v1/ui-links", json={"user_id": user, "ttl": "1h"})
    assert link.status_code == 200, link.text
    client = httpx.Client(base_url=service.url, timeout=60, follow_redirects=True)
    assert client.get(link.json()["path"]).status_code == 200
    return client  # (opened by its first request: use it as it is, then close it)


@pytest.mark.parametrize("user", list(USERS))
def test_panel(service: Service, user: str) -> None:
    panel = _panel_as(service, user)
    try:
        for path in ("/ui/memories", "/ui/timeline", "/ui/graph", "/ui/export"):
            r = panel.get(path)
            assert r.status_code == 200, path
            assert_clean(r.text, user, f"panel {path}")
            assert any(m in r.text for m in markers(user)) or path == "/ui/graph", path
        for path in ("/ui/memories", "/ui/timeline", "/ui/export", "/ui/forget"):
            for asked in (other(user), f"{user} ", f" {user}"):
                r = panel.get(path, params={"user": asked})
                assert r.status_code in (403, 422), (path, asked)
                assert_clean(r.text, user, f"panel {path}?user={asked!r}")
        for mid in service.ids[other(user)]:
            r = panel.get(f"/ui/memories/{mid}")
            assert r.status_code == 404
            assert_clean(r.text, user, "panel memory page")
    finally:
        panel.close()


def test_panel_operator_user_ids_are_not_trimmed(service: Service) -> None:
    client = httpx.Client(base_url=service.url, timeout=60, follow_redirects=True)
    with client:
        page = client.get("/ui/login")
        csrf = re.search(r'name="csrf" value="([^"]+)"', page.text)
        assert csrf is not None
        r = client.post("/ui/login", data={"key": service.key, "csrf": csrf.group(1)})
        assert r.status_code == 200
        assert client.get("/ui/memories", params={"user": "wa1"}).status_code == 200
        for asked in ("wa1 ", " wa1", "wa1\t", "wa\x001"):
            r = client.get("/ui/memories", params={"user": asked})
            assert r.status_code == 422, repr(asked)
            assert_clean(r.text, "wa2", "operator panel")  # nothing of wa1 shown for "wa1 "
            assert not any(m in r.text for m in markers("wa1"))


@pytest.fixture(scope="module")
def mcp_home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    home = tmp_path_factory.mktemp("leaks-mcp")
    with Memory(home=home, embedder="hash", background_worker=False) as mem:
        seed(mem)
    return home


@pytest.mark.parametrize("user", list(USERS))
def test_mcp_pinned(mcp_home: Path, user: str) -> None:
    pytest.importorskip("mcp.server.mcpserver")
    import os

    import anyio
    from mcp import Client
    from mcp.client.stdio import StdioServerParameters

    env = {k: v for k, v in os.environ.items() if not k.startswith("JIYI_")}
    env.update(JIYI_HOME=str(mcp_home), JIYI_EMBEDDER="hash", JIYI_MCP_USER=user)
    params = StdioServerParameters(command=sys.executable, args=["-m", "jiyi.mcp"], env=env)
    with Memory(home=mcp_home, embedder="hash", background_worker=False) as mem:
        their_ids = [r.id for r in mem.get_all(user_id=other(user))]

    async def scenario() -> None:
        async with Client(params, read_timeout_seconds=120) as client:
            seen = []
            for q in QUERIES:
                for tool, args in (("search_memory", {"query": q, "limit": 50}), ("get_context", {"query": q})):
                    r = await client.call_tool(tool, args)
                    seen.append("".join(getattr(c, "text", "") for c in r.content))
            r = await client.call_tool("list_memories", {"limit": 1000})
            seen.append("".join(getattr(c, "text", "") for c in r.content))
            text = "\n".join(seen)
            assert_clean(text, user, "MCP")
            assert any(m in text for m in markers(user))
            for mid in their_ids:
                r = await client.call_tool("delete_memory", {"memory_id": mid})
                assert r.is_error
                r = await client.call_tool("update_memory", {"memory_id": mid, "content": "hacked"})
                assert r.is_error

    anyio.run(scenario)
    with Memory(home=mcp_home, embedder="hash", background_worker=False) as mem:
        assert sorted(r.id for r in mem.get_all(user_id=other(user))) == sorted(their_ids)


@pytest.mark.parametrize("user", list(USERS))
def test_proxy(tmp_path: Path, user: str) -> None:
    from jiyi.proxy import ProxyOptions
    from jiyi.proxy import create_app as proxy_app

    with Memory(path=tmp_path / "p.db", home=tmp_path, embedder="hash", background_worker=False) as mem, \
            FakeOpenAI() as upstream:
        seed(mem)
        url, server, thread = serve_in_thread(proxy_app(mem, upstream.base_url, ProxyOptions(recall_timeout=20.0)))
        try:
            for q in QUERIES:
                r = httpx.post(f"{url}/v1/chat/completions", timeout=60, headers={"Authorization": "Bearer sk-x"},
                               json={"model": "m", "user": user, "messages": [{"role": "user", "content": q}]})
                assert r.status_code == 200
                prompt = upstream.requests[-1].prompt
                assert_clean(prompt, user, f"proxy prompt {q!r}")
            assert any(m in "\n".join(req.prompt for req in upstream.requests) for m in markers(user))
        finally:
            server.should_exit = True
            thread.join(timeout=30)
        mem.flush()
        assert_clean(json.dumps([r.content for r in mem.get_all(user_id=other(user))], ensure_ascii=False),
                     other(user), "the other user's memories after the proxy recorded turns")
