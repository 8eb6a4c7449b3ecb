"""A write that fails for good is visible, and can be retried or dropped on purpose;
one tenant's backlog does not hold another's sync add."""

from __future__ import annotations

from jiyi.memory import Memory
from jiyi.records import Scope


def _broken_job(mem: Memory, user: str = "u1") -> str:
    """A job as an older version could have queued it: its timestamp cannot be processed."""
    msg = {"role": "user", "content": "明天我要去北京", "timestamp": "not a time", "id": "m1", "name": None}
    return mem.store.enqueue(Scope(mem.scope_tenant, user), "add",
                             {"messages": [msg], "session_id": None, "agent_id": None, "metadata": {}},
                             mem.clock.now())


def test_a_job_failing_for_good_shows_in_flush_stats_and_the_failed_list(mem: Memory) -> None:
    job_id = _broken_job(mem)
    assert mem.flush(timeout=30) is False
    (failed,) = mem.failed_jobs()
    assert failed.id == job_id and failed.scope.user_id == "u1" and failed.attempts == 5
    assert "ValueError" in (failed.error or "")
    assert mem.stats()["failed_jobs"] == 1 and mem.stats()["pending_jobs"] == 0
    assert mem.retry_failed() == 1
    assert mem.flush(timeout=30) is False and mem.failed_jobs()[0].attempts == 5  # fails again, visibly
    assert mem.drop_failed([job_id]) == 1
    assert mem.failed_jobs() == [] and mem.flush(timeout=30) is True and mem.stats()["failed_jobs"] == 0


def test_failed_jobs_are_per_tenant(make_memory: object) -> None:
    acme = make_memory(tenant="acme")  # type: ignore[operator]
    globex = make_memory(tenant="globex")  # type: ignore[operator]
    _broken_job(acme)
    acme.flush(timeout=30)
    assert len(acme.failed_jobs()) == 1 and globex.failed_jobs() == [] and globex.stats()["failed_jobs"] == 0
    assert globex.drop_failed() == 0 and globex.retry_failed() == 0 and len(acme.failed_jobs()) == 1


def test_a_sync_add_does_not_drain_another_tenants_backlog(make_memory: object) -> None:
    acme = make_memory(tenant="acme")  # type: ignore[operator]
    globex = make_memory(tenant="globex")  # type: ignore[operator]
    for i in range(30):
        acme.add(f"第{i}条：我周末喜欢去西湖边散步", user_id=f"a{i % 3}")
    before = acme.store.pending_jobs()
    result = globex.add("我住在杭州", user_id="g1", sync=True)
    assert result.events and not result.pending
    assert acme.store.pending_jobs() == before == 30  # none of acme's jobs ran first


def test_a_sync_add_still_waits_for_its_own_users_earlier_writes(mem: Memory) -> None:
    mem.add("我住在上海", user_id="u1")
    mem.add("我住在杭州", user_id="u2")
    mem.add("我搬到北京了", user_id="u1", sync=True)
    assert mem.store.pending_jobs(Scope(mem.scope_tenant, "u1")) == 0
    assert mem.store.pending_jobs(Scope(mem.scope_tenant, "u2")) == 1
