"""The Store contract, part 2: embedding model, jobs, embedding cache and state (every backend)."""

from __future__ import annotations

import numpy as np
import pytest

from jiyi.errors import EmbeddingMismatch, ScopeViolation
from jiyi.stores.protocol import ChangeSet, RecordFilter, Store, Upsert

ANY_STATUS = RecordFilter(statuses=None)

# -- embedding model -----------------------------------------------------------------------------


def test_embedding_model_is_adopted_once_and_then_enforced(store: Store, data) -> None:
    assert store.embedding_info() is None
    store.check_embedding("e5-small", data.dim)
    store.check_embedding("e5-small", data.dim)
    assert store.embedding_info() == ("e5-small", data.dim)
    for model, dim in (("bge-m3", data.dim), ("e5-small", 384)):
        with pytest.raises(EmbeddingMismatch) as err:
            store.check_embedding(model, dim)
        assert "e5-small" in str(err.value) and "reembed" in str(err.value)


def test_reset_embedding_drops_vectors_and_adopts_the_new_model(store: Store, data) -> None:
    store.check_embedding("old", data.dim)
    data.put(store, data.upsert(data.record("a"), data.vec(1)))
    assert store.vector_search(data.alice, data.vec(1), 5, RecordFilter())
    store.reset_embedding("new", 4)
    assert store.embedding_info() == ("new", 4)
    assert store.vectors(data.alice, ["a"]) == {}
    assert (
        store.vector_search(data.alice, np.ones(4, dtype=np.float32) / 2, 5, RecordFilter()) == []
    )
    assert store.get(data.alice, "a") is not None
    store.check_embedding("new", 4)


def test_reembed_refills_every_users_vectors_with_the_new_model(store: Store, data) -> None:
    from jiyi.embedders.hashing import HashingEmbedder
    from jiyi.maintain.reembed import reembed
    from jiyi.write.embed import CachedEmbedder

    store.check_embedding("old", data.dim)
    data.put(store, data.upsert(data.record("a", "用户对花生过敏"), data.vec(1)),
             data.upsert(data.record("b", "用户住在杭州"), data.vec(0, 1)))
    data.put(store, data.upsert(data.record("c", "我喜欢猫", scope=data.bob), data.vec(1)))
    new = HashingEmbedder(24)
    report = reembed(store, CachedEmbedder(new, store))
    assert store.embedding_info() == ("hash-24", 24) and (report.users, report.embedded) == (2, 3)
    for scope, mid, text in ((data.alice, "a", "用户对花生过敏"), (data.bob, "c", "我喜欢猫")):
        np.testing.assert_allclose(store.vectors(scope, [mid])[mid], new.embed_passages([text])[0], atol=1e-3)
    query = new.embed_query("用户住在杭州")
    assert store.vector_search(data.alice, query, 1, RecordFilter())[0][0] == "b"
    assert store.get(data.alice, "b").embedding_model == "hash-24"  # type: ignore[union-attr]


def test_vector_of_the_wrong_dimension_is_refused_and_nothing_is_written(
    store: Store, data
) -> None:
    store.check_embedding("e5", data.dim)
    job = store.enqueue(data.alice, "add", {}, data.t0)
    good, bad = (
        data.upsert(data.record("good"), data.vec(1)),
        data.upsert(data.record("bad"), np.ones(3, dtype=np.float32)),
    )
    with pytest.raises(EmbeddingMismatch):
        store.apply(ChangeSet(data.alice, [good, bad], done_job_id=job))
    assert store.count(data.alice, ANY_STATUS) == 0 and store.pending_jobs(data.alice) == 1


# -- jobs ------------------------------------------------------------------------------------------


def test_claimed_jobs_are_never_handed_out_twice(store: Store, data) -> None:
    ids = [store.enqueue(data.alice, "add", {"n": n, "text": "你好"}, data.at(n)) for n in range(3)]
    first = store.claim_jobs(2, "w1", data.at(10))
    second = store.claim_jobs(2, "w2", data.at(10))
    assert [j.id for j in first] == ids[:2] and [j.id for j in second] == ids[2:]
    assert store.claim_jobs(5, "w3", data.at(10)) == []
    job = first[0]
    assert (job.scope, job.kind, job.payload, job.attempts, job.created_at) == (
        data.alice,
        "add",
        {"n": 0, "text": "你好"},
        1,
        data.at(0),
    )
    assert (
        store.pending_jobs() == 3
        and store.pending_jobs(data.alice) == 3
        and store.pending_jobs(data.bob) == 0
    )


def test_an_expired_lease_returns_the_job(store: Store, data) -> None:
    job_id = store.enqueue(data.alice, "add", {}, data.t0)
    assert [j.id for j in store.claim_jobs(1, "crashed", data.at(0), lease_seconds=60)] == [job_id]
    assert store.claim_jobs(1, "w2", data.at(0.5)) == []
    again = store.claim_jobs(1, "w2", data.at(2))
    assert [(j.id, j.attempts) for j in again] == [(job_id, 2)]


def test_failing_job_is_retried_until_attempts_run_out(store: Store, data) -> None:
    job_id = store.enqueue(data.alice, "add", {}, data.t0)
    for attempt in range(1, 6):
        (job,) = store.claim_jobs(1, "w", data.at(attempt))
        assert (job.id, job.attempts) == (job_id, attempt)
        store.fail_job(job_id, f"boom {attempt}", data.at(attempt))
    assert store.claim_jobs(1, "w", data.at(10)) == []
    assert store.failed_jobs() == 1 and store.pending_jobs() == 0


def test_job_completion_is_atomic_with_its_writes(store: Store, data) -> None:
    job_id = store.enqueue(data.alice, "add", {}, data.t0)
    store.claim_jobs(1, "w", data.t0)
    data.put(store, data.upsert(data.record("a"), data.vec(1), "花生"), job=job_id)
    assert store.pending_jobs() == 0 and store.get(data.alice, "a") is not None
    assert store.claim_jobs(5, "w", data.at(60)) == []
    other = store.enqueue(data.alice, "add", {}, data.t0)
    store.apply(ChangeSet(data.alice, done_job_id=other))  # a job that produced nothing is done too
    assert store.pending_jobs() == 0


def test_a_change_set_cannot_finish_another_users_job(store: Store, data) -> None:
    bobs = store.enqueue(data.bob, "add", {}, data.t0)
    store.apply(ChangeSet(data.alice, done_job_id=bobs))
    assert store.pending_jobs(data.bob) == 1


# -- embedding cache and state ----------------------------------------------------------------------


def test_embedding_cache_is_keyed_by_model_and_hash(store: Store, data) -> None:
    assert store.cache_get("e5", ["h1"]) == {}
    store.cache_put("e5", {"h1": data.vec(1), "h2": data.vec(0, 1)})
    store.cache_put("other", {"h1": data.vec(0, 0, 1)})
    got = store.cache_get("e5", ["h1", "h2", "h3"])
    assert got.keys() == {"h1", "h2"} and got["h1"].dtype == np.float32
    np.testing.assert_allclose(got["h1"], data.vec(1), atol=1e-3)
    np.testing.assert_allclose(store.cache_get("other", ["h1"])["h1"], data.vec(0, 0, 1), atol=1e-3)
    store.cache_put("e5", {"h1": data.vec(1, 1)})
    np.testing.assert_allclose(store.cache_get("e5", ["h1"])["h1"], data.vec(1, 1), atol=1e-3)


def test_state_is_json_per_scope_and_key(store: Store, data) -> None:
    assert store.state_get(data.alice, "buffer") is None
    value = {
        "turns": [{"role": "user", "content": "我住在浦东"}],
        "rounds": 3,
        "ok": True,
        "x": None,
    }
    store.state_set(data.alice, "buffer", value)
    store.state_set(data.alice, "counter", 7)
    assert (
        store.state_get(data.alice, "buffer") == value
        and store.state_get(data.alice, "counter") == 7
    )
    store.state_set(data.alice, "counter", [1, 2])
    assert store.state_get(data.alice, "counter") == [1, 2]
    assert store.state_get(data.bob, "buffer") is None


def test_change_set_state_commits_with_the_records(store: Store, data) -> None:
    store.state_set(data.alice, "extract:s1", {"pending": ["old"]})
    store.apply(ChangeSet(data.alice, state={"extract:s1": {"pending": []}, "summary:s1": 3}))
    assert store.state_get(data.alice, "extract:s1") == {"pending": []}
    assert store.state_get(data.alice, "summary:s1") == 3
    assert store.state_get(data.bob, "summary:s1") is None
    bad = data.record("x", scope=data.bob)  # another user's record: nothing at all is written
    with pytest.raises(ScopeViolation):
        store.apply(ChangeSet(data.alice, upserts=[Upsert(bad)], state={"summary:s1": 9}))
    assert store.state_get(data.alice, "summary:s1") == 3


def test_claims_take_tenants_in_turn_and_each_users_jobs_in_order(store: Store, data) -> None:
    backlog = [store.enqueue(data.alice, "add", {"n": i}, data.at(i)) for i in range(6)]
    late = store.enqueue(data.alice_elsewhere, "add", {}, data.at(10))
    claimed = store.claim_jobs(3, "w", data.at(20))
    assert [j.id for j in claimed] == [backlog[0], late, backlog[1]]
    rest = store.claim_jobs(10, "w", data.at(20))
    assert [j.id for j in rest] == backlog[2:]


def test_a_scoped_claim_takes_only_that_users_jobs(store: Store, data) -> None:
    store.enqueue(data.alice, "add", {}, data.t0)
    bobs = [store.enqueue(data.bob, "add", {}, data.at(i + 1)) for i in range(2)]
    assert [j.id for j in store.claim_jobs(5, "w", data.at(5), scope=data.bob)] == bobs
    assert store.pending_jobs(data.alice) == 1 and store.claim_jobs(5, "w", data.at(5), scope=data.bob) == []


def test_failed_jobs_are_listed_retried_and_dropped_per_tenant(store: Store, data) -> None:
    ids = {}
    for scope in (data.alice, data.bob, data.alice_elsewhere):
        ids[scope] = store.enqueue(scope, "add", {}, data.t0)
    for attempt in range(1, 6):
        for job in store.claim_jobs(5, "w", data.at(attempt)):
            store.fail_job(job.id, f"OverflowError: boom {attempt}", data.at(attempt))
    assert store.failed_jobs() == 3 and store.failed_jobs("acme") == 2 and store.failed_jobs("globex") == 1
    listed = store.list_failed_jobs("acme")
    assert {(j.id, j.scope) for j in listed} == {(ids[data.alice], data.alice), (ids[data.bob], data.bob)}
    assert all(j.attempts == 5 and "boom 5" in (j.error or "") and j.kind == "add" for j in listed)
    assert store.retry_failed_jobs("acme", [ids[data.bob]], data.at(10)) == 1
    assert store.pending_jobs(data.bob) == 1 and store.failed_jobs("acme") == 1
    (job,) = store.claim_jobs(5, "w", data.at(11))
    assert (job.id, job.attempts) == (ids[data.bob], 1)
    assert store.drop_failed_jobs("acme", [ids[data.alice_elsewhere]]) == 0  # another tenant's: untouched
    assert store.drop_failed_jobs("acme", None) == 1 and store.failed_jobs() == 1
    assert store.retry_failed_jobs(None, [], data.at(12)) == 0
