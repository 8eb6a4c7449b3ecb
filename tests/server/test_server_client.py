"""``JiyiClient`` / ``AsyncJiyiClient`` against the live server: the same calls as ``Memory``, the same answers."""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from server_support import LiveServer

from jiyi.aio import ASYNC_METHODS, AsyncMemory
from jiyi.client import AsyncJiyiClient, AuthError, JiyiClient, RateLimited, ServiceUnavailable
from jiyi.embedders.hashing import HashingEmbedder
from jiyi.errors import InvalidInput, NotFound
from jiyi.memory import Memory
from jiyi.records import AddResult, GcReport, HistoryEvent, Hit, MemoryRecord


@pytest.fixture
def client(server: LiveServer) -> Iterator[JiyiClient]:
    with JiyiClient(server.url, api_key=server.keys["acme"]) as c:
        yield c


@pytest.fixture
def embedded(tmp_path: Path) -> Iterator[Memory]:
    with Memory(home=tmp_path, embedder=HashingEmbedder(), background_worker=False) as mem:
        yield mem


def scenario(mem: Any, user: str) -> dict[str, Any]:
    """Every Memory verb, written once; run on Memory and on JiyiClient, the outputs must agree."""
    out: dict[str, Any] = {}
    added = mem.add([{"role": "user", "content": "记住，我对花生过敏。我住在上海，在腾讯工作。"}], user_id=user,
                    sync=True)
    assert isinstance(added, AddResult) and not added.pending
    out["add"] = sorted((e.event.value, e.kind.value, e.memory) for e in added.events)
    hits = mem.search("花生", user_id=user, limit=5)
    assert hits and all(isinstance(h, Hit) for h in hits)
    out["search"] = sorted((h.content, h.kind.value, h.user_id if hasattr(h, "user_id") else h.record.user_id)
                           for h in hits)
    out["context_mentions"] = "花生" in mem.build_context("花生", user_id=user, budget_tokens=400)
    rec = mem.remember("用户喜欢喝乌龙茶", user_id=user, kind="preference", importance=0.7)
    assert isinstance(rec, MemoryRecord)
    out["remember"] = (rec.content, rec.kind.value, rec.importance, rec.status.value)
    assert mem.get(rec.id, user_id=user) == rec
    assert mem.get("no-such-id", user_id=user) is None
    upd = mem.update(rec.id, "用户喜欢喝普洱茶", user_id=user)
    out["update"] = upd.content
    mem.delete(rec.id, user_id=user)
    out["after_delete"] = mem.get(rec.id, user_id=user).status.value
    out["restore"] = mem.restore(rec.id, user_id=user).status.value
    hist = mem.history(rec.id, user_id=user)
    assert all(isinstance(e, HistoryEvent) for e in hist)
    out["history"] = [(e.event.value, e.old, e.new) for e in hist]
    out["get_all"] = sorted((r.content, r.kind.value) for r in mem.get_all(user_id=user))
    out["get_all_pref"] = [r.content for r in mem.get_all(user_id=user, kinds=["preference"], limit=1)]
    out["all_statuses"] = len(mem.get_all(user_id=user, status=None))
    report = mem.gc(user_id=user)
    assert isinstance(report, GcReport)
    out["gc"] = (report.dry_run, sorted(report.counts))
    rows = list(mem.export(user_id=user))
    out["export"] = sorted((r["content"], len(r["history"])) for r in rows)
    out["users"] = user in mem.users()
    mem.add([{"role": "user", "content": f"第{n}句：我最近在学吉他，每周练三次。"} for n in range(3)], user_id=user,
            session_id="s-guitar", sync=True)
    out["buffer"] = [(m["role"], m["content"], m["session_id"])
                     for m in mem.recent_messages(user_id=user, session_id="s-guitar")]
    summaries = mem.end_session(user_id=user, session_id="s-guitar")
    assert all(isinstance(r, MemoryRecord) and r.kind.value == "summary" for r in summaries)
    out["end_session"] = sorted(r.content for r in summaries)
    out["in_session"] = sorted(r.content for r in mem.get_all(user_id=user, session_id="s-guitar", status=None))
    out["flush"] = mem.flush()
    out["stats_keys"] = sorted(mem.stats())
    out["clear_buffer"] = (mem.clear_buffer(user_id=user, session_id="s-guitar"),
                           mem.recent_messages(user_id=user, session_id="s-guitar"))
    out["delete_all"] = mem.delete_all(user_id=user)
    out["after_forget"] = mem.get_all(user_id=user, status=None)
    out["import"] = mem.import_(rows)
    out["reimported"] = sorted(r.content for r in mem.get_all(user_id=user, status=None))
    return out


def test_the_client_answers_like_memory(client: JiyiClient, embedded: Memory, uid: str) -> None:
    remote = scenario(client, uid)
    local = scenario(embedded, uid)
    assert remote == local
    assert remote["add"] and remote["context_mentions"] and remote["history"][0][0] == "ADD"


def test_the_async_client_answers_like_async_memory(server: LiveServer, tmp_path: Path, uid: str) -> None:
    async def run(mem: Any) -> tuple[Any, ...]:
        await mem.add("我周末常去西湖边跑步", user_id=uid, sync=True)
        hits = await mem.search("跑步", user_id=uid)
        rec = await mem.remember("用户养了一只柯基", user_id=uid)
        got = await mem.get(rec.id, user_id=uid)
        await mem.update(rec.id, "用户养了两只柯基", user_id=uid)
        hist = await mem.history(rec.id, user_id=uid)
        rows = await mem.export(user_id=uid)
        missing = await mem.get("nope", user_id=uid)
        forgot = await mem.delete_all(user_id=uid)
        return (sorted(h.content for h in hits), got == rec, [e.event.value for e in hist],
                sorted(r["content"] for r in rows), missing, forgot, await mem.users())

    async def both() -> tuple[Any, Any]:
        async with AsyncJiyiClient(server.url, api_key=server.keys["globex"]) as remote:
            r = await run(remote)
        async with AsyncMemory(home=tmp_path, embedder=HashingEmbedder(), background_worker=False) as local:
            return r, await run(local)

    remote, local = asyncio.run(both())
    assert remote == local and remote[0] and remote[2] == ["ADD", "UPDATE"]


def _params(fn: Any) -> list[str]:
    return [p for p in inspect.signature(fn).parameters if p != "self"]


def test_clients_have_memorys_methods_and_argument_names() -> None:
    public = {n for n, v in inspect.getmembers(Memory, inspect.isfunction) if not n.startswith("_")}
    for cls in (JiyiClient, AsyncJiyiClient):
        missing = public - set(dir(cls))
        assert not missing, f"{cls.__name__} lacks {missing}"
        for name in public - {"close"}:
            expected = [p for p in _params(getattr(Memory, name)) if p != "trace"]  # traces stay in-process
            assert _params(getattr(cls, name)) == expected, name
    for name in (*ASYNC_METHODS, "export", "close"):
        assert inspect.iscoroutinefunction(getattr(AsyncJiyiClient, name)), name


def test_errors_come_back_as_memorys_exception_classes(client: JiyiClient, uid: str) -> None:
    with pytest.raises(NotFound) as nf:
        client.update("no-such-id", "x", user_id=uid)
    assert nf.value.status == 404 and nf.value.code == "not_found"  # type: ignore[attr-defined]
    with pytest.raises(InvalidInput):
        client.search("   ", user_id=uid)  # refused by the core
    with pytest.raises(InvalidInput) as bad:
        client.search("q", user_id=uid, limit=0)  # refused by the schema
    assert bad.value.code == "validation_error"  # type: ignore[attr-defined]
    with pytest.raises(InvalidInput):
        client.add([{"role": "robot", "content": "hi"}], user_id=uid)
    with pytest.raises(InvalidInput):
        list(client.export(user_id="bad\x00id"))


def test_auth_rate_limit_and_unreachable_errors(server: LiveServer, limited_server: LiveServer) -> None:
    with JiyiClient(server.url, api_key="jiyi_0123456789ab_wrong") as c, pytest.raises(AuthError) as auth:
        c.users()
    assert auth.value.status == 401
    with JiyiClient(server.url) as c, pytest.raises(AuthError):
        c.stats()
    with JiyiClient(limited_server.url, api_key=limited_server.keys["globex"]) as c:
        with pytest.raises(RateLimited) as limited:
            for _ in range(10):
                c.users()
    assert limited.value.retry_after >= 1
    with JiyiClient("http://127.0.0.1:9", timeout=2) as c, pytest.raises(ServiceUnavailable):
        c.users()


def test_export_streams_and_get_all_pages(client: JiyiClient, uid: str) -> None:
    for i in range(5):
        client.remember(f"用户收藏的第{i}本书", user_id=uid, kind="preference")
    rows = client.export(user_id=uid)
    assert isinstance(rows, Iterator)
    assert len(list(rows)) == 5
    everything = client.get_all(user_id=uid)
    assert len(everything) == 5
    assert client.get_all(user_id=uid, limit=2, offset=1) == everything[1:3]
