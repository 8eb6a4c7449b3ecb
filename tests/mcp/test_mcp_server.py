"""``jiyi mcp`` spoken to by the MCP SDK's own client, over stdio (a real subprocess) and HTTP."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

import anyio
import pytest

pytest.importorskip("mcp.server.mcpserver")

from mcp import Client
from mcp.client.stdio import StdioServerParameters
from mcp.types import CallToolResult

from jiyi.memory import Memory

TOOLS = {"add_memory", "search_memory", "list_memories", "update_memory", "delete_memory", "get_context"}


def _env(home: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("JIYI_")}
    env.update(JIYI_HOME=str(home), **extra)
    return env


def stdio(home: Path, *args: str, module: bool = True, **env: str) -> StdioServerParameters:
    """The server as an MCP client launches it: ``python -m jiyi.mcp`` or the ``jiyi mcp`` entry point."""
    argv = ["-m", "jiyi.mcp"] if module else ["-c", "from jiyi.cli import main; main()", "mcp", *args]
    return StdioServerParameters(command=sys.executable, args=argv, env=_env(home, **env))


def run(server: Any, scenario: Callable[[Client], Awaitable[None]]) -> None:
    async def main() -> None:
        async with Client(server, read_timeout_seconds=120) as client:
            await scenario(client)

    anyio.run(main)


def data(result: CallToolResult) -> Any:
    assert not result.is_error, result.content
    if result.structured_content is not None:
        sc = result.structured_content
        return sc.get("result", sc) if set(sc) == {"result"} else sc
    return json.loads(result.content[0].text)  # type: ignore[union-attr]


def text(result: CallToolResult) -> str:
    return "".join(getattr(c, "text", "") for c in result.content)


def test_tools_are_listed_with_optional_user(tmp_path: Path) -> None:
    async def scenario(client: Client) -> None:
        tools = {t.name: t for t in (await client.list_tools()).tools}
        assert set(tools) == TOOLS
        search = tools["search_memory"].input_schema
        assert search["required"] == ["query"]
        assert {"query", "user_id", "limit"} <= set(search["properties"])
        assert tools["delete_memory"].annotations.destructive_hint is True
        assert tools["get_context"].annotations.read_only_hint is True
        assert client.server_info is not None and client.server_info.name == "jiyi"

    run(stdio(tmp_path), scenario)


def test_memory_lifecycle_over_stdio(tmp_path: Path) -> None:
    async def scenario(client: Client) -> None:
        added = data(await client.call_tool("add_memory", {"content": "用户对花生过敏", "user_id": "alice"}))
        mid = added["id"]
        assert added["content"] == "用户对花生过敏"
        await client.call_tool("add_memory", {"content": "用户住在上海浦东", "user_id": "alice"})

        found = data(await client.call_tool("search_memory", {"query": "花生酱能吃吗", "user_id": "alice",
                                                              "limit": 1}))["results"]
        assert [h["content"] for h in found] == ["用户对花生过敏"] and found[0]["score"] > 0

        listed = data(await client.call_tool("list_memories", {"user_id": "alice"}))["results"]
        assert {r["content"] for r in listed} == {"用户对花生过敏", "用户住在上海浦东"}
        assert data(await client.call_tool("list_memories", {"user_id": "bob"}))["results"] == []

        updated = data(await client.call_tool("update_memory", {"memory_id": mid, "content": "用户对花生和腰果过敏",
                                                                "user_id": "alice"}))
        assert updated["id"] == mid and updated["content"] == "用户对花生和腰果过敏"

        ctx = await client.call_tool("get_context", {"query": "腰果", "user_id": "alice"})
        assert not ctx.is_error and "用户对花生和腰果过敏" in text(ctx) and "<memories>" in text(ctx)

        assert data(await client.call_tool("delete_memory", {"memory_id": mid, "user_id": "alice"})) == {
            "deleted": mid}
        listed = data(await client.call_tool("list_memories", {"user_id": "alice"}))["results"]
        assert [r["content"] for r in listed] == ["用户住在上海浦东"]

    run(stdio(tmp_path), scenario)
    with Memory(home=tmp_path, background_worker=False) as mem:  # the store came from JIYI_HOME
        assert [r.content for r in mem.get_all(user_id="alice")] == ["用户住在上海浦东"]


def test_errors_come_back_as_tool_errors(tmp_path: Path) -> None:
    async def scenario(client: Client) -> None:
        no_user = await client.call_tool("search_memory", {"query": "x"})
        assert no_user.is_error and "--default-user" in text(no_user)
        missing = await client.call_tool("delete_memory", {"memory_id": "nope", "user_id": "alice"})
        assert missing.is_error and "no memory 'nope'" in text(missing)
        other = data(await client.call_tool("add_memory", {"content": "用户喜欢爬山", "user_id": "bob"}))
        stolen = await client.call_tool("update_memory", {"memory_id": other["id"], "content": "x", "user_id": "eve"})
        assert stolen.is_error  # another user's id looks exactly like a missing one
        blank = await client.call_tool("add_memory", {"content": "   ", "user_id": "alice"})
        assert blank.is_error and "content" in text(blank)

    run(stdio(tmp_path), scenario)


def test_default_user_from_the_cli_entry_point(tmp_path: Path) -> None:
    async def scenario(client: Client) -> None:
        await client.call_tool("add_memory", {"content": "User prefers short answers"})
        mine = data(await client.call_tool("search_memory", {"query": "short answers"}))["results"]
        assert [h["content"] for h in mine] == ["User prefers short answers"]
        explicit = data(await client.call_tool("list_memories", {"user_id": "someone-else"}))["results"]
        assert explicit == []

    run(stdio(tmp_path, "--default-user", "me", module=False), scenario)
    with Memory(home=tmp_path, background_worker=False) as mem:
        assert [r.content for r in mem.get_all(user_id="me")] == ["User prefers short answers"]


def test_default_user_from_the_environment(tmp_path: Path) -> None:
    async def scenario(client: Client) -> None:
        await client.call_tool("add_memory", {"content": "用户养了一只猫叫团子"})
        ctx = await client.call_tool("get_context", {"query": "猫"})
        assert "团子" in text(ctx)

    run(stdio(tmp_path, JIYI_MCP_DEFAULT_USER="env-user"), scenario)
    with Memory(home=tmp_path, background_worker=False) as mem:
        assert len(mem.get_all(user_id="env-user")) == 1


@pytest.fixture
def http_server(tmp_path: Path) -> Iterator[str]:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen(
        [sys.executable, "-c", "from jiyi.cli import main; main()", "mcp", "--transport", "http",
         "--port", str(port), "--default-user", "web"],
        env=_env(tmp_path), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            assert proc.poll() is None, proc.stderr.read().decode() if proc.stderr else ""
            with socket.socket() as s:
                if s.connect_ex(("127.0.0.1", port)) == 0:
                    break
            time.sleep(0.1)
        yield f"http://127.0.0.1:{port}/mcp"
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def test_streamable_http_transport(http_server: str) -> None:
    async def scenario(client: Client) -> None:
        assert {t.name for t in (await client.list_tools()).tools} == TOOLS
        await client.call_tool("add_memory", {"content": "用户下周三去北京出差"})
        found = data(await client.call_tool("search_memory", {"query": "北京"}))["results"]
        assert found and found[0]["content"] == "用户下周三去北京出差"

    run(http_server, scenario)


def test_a_pinned_server_has_no_user_id_anywhere(tmp_path: Path) -> None:
    with Memory(home=tmp_path, background_worker=False) as mem:
        bob = mem.remember("用户的银行卡放在书桌抽屉里", user_id="bob")

    async def scenario(client: Client) -> None:
        tools = {t.name: t for t in (await client.list_tools()).tools}
        assert set(tools) == TOOLS
        for tool in tools.values():
            assert "user_id" not in json.dumps(tool.input_schema), tool.name
        await client.call_tool("add_memory", {"content": "用户喜欢喝乌龙茶"})
        mine = data(await client.call_tool("list_memories", {}))["results"]
        assert [r["content"] for r in mine] == ["用户喜欢喝乌龙茶"]
        # naming another user is not an option: the argument is refused, bob stays out of reach
        stolen = await client.call_tool("list_memories", {"user_id": "bob"})
        assert stolen.is_error and "pinned to one user" in text(stolen) and "limit, offset" in text(stolen)
        for tool in tools.values():
            assert tool.input_schema["additionalProperties"] is False, tool.name
        gone = await client.call_tool("delete_memory", {"memory_id": bob.id})
        assert gone.is_error and "no memory" in text(gone)
        ctx = await client.call_tool("get_context", {"query": "银行卡在哪"})
        assert "抽屉" not in text(ctx)

    run(stdio(tmp_path, "--user", "alice", module=False), scenario)
    with Memory(home=tmp_path, background_worker=False) as mem:
        assert [r.content for r in mem.get_all(user_id="alice")] == ["用户喜欢喝乌龙茶"]
        assert [r.content for r in mem.get_all(user_id="bob")] == ["用户的银行卡放在书桌抽屉里"]


def test_pinned_from_the_environment_of_the_module(tmp_path: Path) -> None:
    async def scenario(client: Client) -> None:
        search = {t.name: t for t in (await client.list_tools()).tools}["search_memory"]
        assert set(search.input_schema["properties"]) == {"query", "limit"}
        await client.call_tool("add_memory", {"content": "用户在学日语"})

    run(stdio(tmp_path, JIYI_MCP_USER="solo"), scenario)
    with Memory(home=tmp_path, background_worker=False) as mem:
        assert mem.users() == ["solo"]


def test_list_memories_pages_are_checked(tmp_path: Path) -> None:
    async def scenario(client: Client) -> None:
        await client.call_tool("add_memory", {"content": "用户喜欢爬山"})
        for args in ({"limit": 0}, {"limit": 1001}, {"limit": -5}, {"offset": -1}):
            bad = await client.call_tool("list_memories", args)
            assert bad.is_error and ("limit" in text(bad) or "offset" in text(bad)), args
        ok = data(await client.call_tool("list_memories", {"limit": 1000, "offset": 0}))["results"]
        assert len(ok) == 1

    run(stdio(tmp_path, "--user", "me", module=False), scenario)


def test_shared_mode_user_ids_follow_the_one_rule(tmp_path: Path) -> None:
    async def scenario(client: Client) -> None:
        await client.call_tool("add_memory", {"content": "用户住在杭州", "user_id": "wa1"})
        for uid in ("wa1 ", " wa1", "wa\t1", "wa1\x00", "wa1\n", ""):
            r = await client.call_tool("list_memories", {"user_id": uid})
            assert r.is_error and "user_id" in text(r), repr(uid)

    run(stdio(tmp_path, "--default-user", "me", module=False), scenario)
    with Memory(home=tmp_path, background_worker=False) as mem:
        assert mem.users() == ["wa1"]


def test_user_and_default_user_together_are_refused(tmp_path: Path) -> None:
    proc = subprocess.run([sys.executable, "-c", "from jiyi.cli import main; main()", "mcp", "--user", "a",
                           "--default-user", "b"], env=_env(tmp_path), capture_output=True, text=True,
                          timeout=120, stdin=subprocess.DEVNULL, check=False)
    assert proc.returncode != 0 and "--user" in proc.stderr and "Traceback" not in proc.stderr


def test_unknown_arguments_are_refused_by_name(tmp_path: Path) -> None:
    async def scenario(client: Client) -> None:
        for tool in (await client.list_tools()).tools:
            assert tool.input_schema["additionalProperties"] is False, tool.name
        typo = await client.call_tool("add_memory", {"content": "用户养了一只猫", "user": "alice"})
        assert typo.is_error and "add_memory does not take user" in text(typo)
        assert "content, user_id" in text(typo)

    run(stdio(tmp_path, "--default-user", "dflt", module=False), scenario)
    with Memory(home=tmp_path, background_worker=False) as mem:
        assert mem.users() == []


def test_get_context_takes_the_conversation_before_the_query(tmp_path: Path) -> None:
    async def scenario(client: Client) -> None:
        tool = {t.name: t for t in (await client.list_tools()).tools}["get_context"]
        assert "recent" in tool.input_schema["properties"]
        await client.call_tool("add_memory", {"content": "用户常去的拉面店叫风屋"})
        said = ["我们上周去吃了拉面", {"role": "assistant", "content": "那家店怎么样？"}]
        ctx = await client.call_tool("get_context", {"query": "那家店叫什么来着？", "recent": said})
        assert not ctx.is_error and "风屋" in text(ctx)
        # the turns reach Memory.build_context: past its 50 messages it refuses them, by name
        many = await client.call_tool("get_context", {"query": "那家店叫什么来着？", "recent": ["嗯"] * 51})
        assert many.is_error and "recent holds 51 messages" in text(many)

    run(stdio(tmp_path, "--user", "ren", module=False), scenario)
