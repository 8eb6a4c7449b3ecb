"""No tenant waits for another: a sync add, ``flush`` and ``delete_all`` wait only for their own scope.

One tenant's message goes to an LLM extractor (a real OpenAI-compatible server on loopback)
that holds its answer until the test lets it go: the evidence is ordering (the other
tenant's call returned while the slow answer was still held), not a clock.
On SQLite and PostgreSQL.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from fake_openai import FakeOpenAI, Recorded, Reply, chat_json
from pg_server import make_postgres, pg_server  # noqa: F401  (pg_server: the session's PostgreSQL)

from jiyi.clock import FrozenClock
from jiyi.memory import Memory
from jiyi.records import Scope
from jiyi.stores.protocol import Store

SLOW = "慢慢说的一段很长的话"  # the slow tenant's marker: its extraction is held
LONG = SLOW + "，" + "我最近在学做菜，周末会去菜市场买新鲜的蔬菜。" * 20
GUARD = 20.0  # seconds a call may take before the test gives up on it (a hang, not a measurement)


class HeldLLM:
    """The fake LLM: answers at once, except a prompt with the marker, held until :meth:`release`."""

    def __init__(self) -> None:
        self.held = threading.Event()  # the slow request has arrived
        self.gate = threading.Event()  # let it go
        self.server = FakeOpenAI(rule=self._rule)

    def _rule(self, request: Recorded) -> Reply | None:
        if request.path.endswith("/chat/completions") and SLOW in request.prompt:
            self.held.set()
            self.gate.wait(60)
        return chat_json({"memories": []})

    def release(self) -> None:
        self.gate.set()


@pytest.fixture
def llm() -> Iterator[HeldLLM]:
    held = HeldLLM()
    with held.server:
        try:
            yield held
        finally:
            held.release()


@pytest.fixture(params=["sqlite", "postgres"])
def shared_store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Store]:
    if request.param == "sqlite":
        from jiyi.stores.sqlite.store import SQLiteStore

        store: Store = SQLiteStore(tmp_path / "jiyi.db")
    else:
        store = make_postgres(request, tmp_path)
    yield store
    store.close()


@pytest.fixture
def open_memory(shared_store: Store, llm: HeldLLM, tmp_path: Path, clock: FrozenClock) -> Iterator[Callable[..., Memory]]:
    """Memories of any tenant over the one store, the LLM extractor on the held fake."""
    opened: list[Memory] = []

    def make(tenant: str, **config: Any) -> Memory:
        config = {"home": tmp_path, "embedder": "hash", "extractor": "llm", "llm_base_url": llm.server.base_url,
                  "llm_model": "fake-model", "llm_api_key": "sk-test", "llm_timeout": 60, "llm_max_retries": 0,
                  "background_worker": False, "tenant": tenant, **config}
        mem = Memory(store=shared_store, clock=clock, **config)
        opened.append(mem)
        return mem

    yield make
    llm.release()
    for mem in opened:
        mem.close()


def in_thread(call: Callable[[], Any]) -> tuple[threading.Thread, list[Any]]:
    out: list[Any] = []
    thread = threading.Thread(target=lambda: out.append(call()), daemon=True)
    thread.start()
    return thread, out


def slow_job_running(llm: HeldLLM, acme: Memory) -> None:
    """acme's long message is queued and a background worker is inside its LLM call."""
    acme.add(LONG, user_id="slow")
    assert llm.held.wait(GUARD), "the worker never asked the LLM about the slow message"


def test_a_sync_add_of_another_tenant_runs_beside_a_long_job(open_memory: Callable[..., Memory],
                                                            llm: HeldLLM) -> None:
    acme, globex = open_memory("acme"), open_memory("globex")
    acme.add(LONG, user_id="slow")
    globex.add("我养了一只猫", user_id="g1")  # queued before the worker starts: claimable beside acme's
    open_memory("acme", background_worker=True)  # the worker (`jiyi worker`) starts on both queues
    assert llm.held.wait(GUARD)
    thread, out = in_thread(lambda: globex.add("我住在杭州", user_id="g1", sync=True))
    thread.join(GUARD)
    assert out and not out[0].pending, "globex's sync add waited for acme's long job"
    assert not llm.gate.is_set() and acme.store.pending_jobs(Scope("acme", "slow")) == 1  # still held
    assert globex.store.pending_jobs(Scope("globex", "g1")) == 0  # its earlier write ran first, in its turn


def test_a_sync_add_of_another_user_runs_beside_a_long_job(open_memory: Callable[..., Memory],
                                                          llm: HeldLLM) -> None:
    mem = open_memory("acme", background_worker=True)
    slow_job_running(llm, mem)
    thread, out = in_thread(lambda: mem.add("我住在杭州", user_id="quick", sync=True))
    thread.join(GUARD)
    assert out and not out[0].pending, "another user's sync add waited for the worker's long job"
    assert not llm.gate.is_set()


def test_flush_runs_and_counts_only_its_own_tenant(open_memory: Callable[..., Memory]) -> None:
    acme, globex = open_memory("acme"), open_memory("globex")
    acme.add("我周末喜欢去西湖边散步", user_id="a1")
    globex.add("我养了一只猫", user_id="g1")
    assert globex.flush(timeout=GUARD) is True
    assert globex.store.pending_jobs(Scope("globex", "g1")) == 0
    assert acme.store.pending_jobs(Scope("acme", "a1")) == 1  # not run in globex's thread


def test_flush_is_idle_while_another_tenant_has_a_long_job(open_memory: Callable[..., Memory],
                                                           llm: HeldLLM) -> None:
    acme, globex = open_memory("acme", background_worker=True), open_memory("globex")
    slow_job_running(llm, acme)
    globex.add("我养了一只猫", user_id="g1")
    assert globex.flush(timeout=GUARD) is True
    assert not llm.gate.is_set()


def test_flush_of_one_user_is_idle_while_another_user_has_a_long_job(open_memory: Callable[..., Memory],
                                                                     llm: HeldLLM) -> None:
    mem = open_memory("acme", background_worker=True)
    slow_job_running(llm, mem)
    mem.add("我养了一只猫", user_id="quick")
    assert mem.flush(timeout=GUARD, user_id="quick") is True
    assert mem.store.pending_jobs(Scope("acme", "quick")) == 0 and not llm.gate.is_set()
    assert mem.flush(timeout=0.2) is False  # the tenant as a whole is not idle: its slow job is held


def test_deleting_a_user_does_not_wait_for_another_users_job(open_memory: Callable[..., Memory],
                                                            llm: HeldLLM) -> None:
    mem = open_memory("acme", background_worker=True)
    slow_job_running(llm, mem)
    mem.add("我住在杭州", user_id="leaving", sync=True)
    for user in ("leaving", "never-seen"):
        thread, out = in_thread(lambda user=user: mem.delete_all(user_id=user))  # type: ignore[misc]
        thread.join(GUARD)
        assert out, f"delete_all of {user!r} waited for another user's job"
    assert mem.get_all(user_id="leaving", status=None) == [] and not llm.gate.is_set()


def test_one_users_writes_keep_their_order(open_memory: Callable[..., Memory], llm: HeldLLM) -> None:
    """A sync add of the slow user waits for its own long job (ordering within a user holds)."""
    mem = open_memory("acme", background_worker=True)
    slow_job_running(llm, mem)
    thread, out = in_thread(lambda: mem.add("我住在杭州", user_id="slow", sync=True))
    time.sleep(0.3)  # give it the chance to overtake (it must not)
    assert not out
    llm.release()
    thread.join(GUARD)
    assert out and not out[0].pending
