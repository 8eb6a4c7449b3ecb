"""The Store contract: one suite, run against every backend in ``conftest.BACKENDS``.

Records, scope isolation, filters, lookups, history, purge and hits here; the search
routes in ``test_contract_search.py``; the job queue, caches and state in
``test_contract_queue.py``.

Only the ``Store`` protocol is used here, so a new backend passes or fails on
behaviour, never on implementation details.
"""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import numpy as np
import pytest

from jiyi.errors import ScopeViolation, WriteConflict
from jiyi.records import EventType, HistoryEvent, Kind, MemoryRecord, Scope, Status, Visibility
from jiyi.stores.filters import record_matches
from jiyi.stores.protocol import ChangeSet, RecordFilter, Store, Upsert

ANY_STATUS = RecordFilter(statuses=None)
MINUTE_3 = datetime(
    2025, 3, 5, 9, 3, tzinfo=timezone.utc
)  # t0 + 3 minutes, for the time-window cases


def full_record(data, id: str = "full", scope: Scope | None = None) -> MemoryRecord:
    """A record with every field away from its default (non-UTC offsets, microseconds, nested metadata)."""
    cst = timezone(timedelta(hours=8))
    return data.record(
        id,
        "用户下周三飞北京 (flight CA1234)",
        scope=scope,
        kind=Kind.EVENT,
        created_at=datetime(2025, 3, 5, 17, 0, 0, 123456, tzinfo=cst),
        updated_at=data.at(5),
        slot="user/行程",
        entities=("北京", "CA1234"),
        importance=0.9,
        confidence=0.65,
        valid_from=datetime(2025, 3, 12, tzinfo=timezone.utc),
        valid_until=data.at(days=8),
        expires_at=data.at(days=9),
        status=Status.SUPERSEDED,
        visibility=Visibility.SENSITIVE,
        hit_count=3,
        last_hit_at=data.at(3),
        strength=1.7,
        source_ids=("m-1", "m-2"),
        session_id="s-1",
        agent_id="agent-7",
        speaker="user",
        links=("old-1",),
        superseded_by="new-1",
        embedding_model="e5-small",
        metadata={"lang": "zh", "nested": {"n": [1, 2.5, None, "三"]}},
    )


# -- records ---------------------------------------------------------------------------


def test_round_trip_of_every_field(store: Store, data) -> None:
    rec = full_record(data)
    data.put(store, rec)
    got = store.get(data.alice, "full")
    assert got == rec
    assert got.created_at.utcoffset() == timedelta(0) and got.created_at == rec.created_at
    assert (
        isinstance(got.kind, Kind)
        and isinstance(got.status, Status)
        and isinstance(got.visibility, Visibility)
    )
    assert (
        isinstance(got.entities, tuple)
        and isinstance(got.source_ids, tuple)
        and isinstance(got.links, tuple)
    )
    assert store.get_many(data.alice, ["full"]) == [rec]
    assert store.list(data.alice, ANY_STATUS) == [rec]


def test_missing_ids_are_none_and_get_many_keeps_order(store: Store, data) -> None:
    data.put(store, data.record("a"), data.record("b"), data.record("c"))
    assert store.get(data.alice, "nope") is None
    assert [r.id for r in store.get_many(data.alice, ["c", "nope", "a", "c"])] == ["c", "a"]
    assert store.get_many(data.alice, []) == []


def test_upsert_replaces_record_and_its_indexes(store: Store, data) -> None:
    old = data.record(
        "a", "用户住在浦东", entities=("浦东",), source_ids=("m1",), slot="user/居住城市"
    )
    data.put(store, data.upsert(old, data.vec(1), "用户 住 浦东"))
    new = old.replace(
        content="用户住在静安", entities=("静安",), source_ids=("m2",), updated_at=data.at(9)
    )
    data.put(store, data.upsert(new, data.vec(0, 1), "用户 住 静安"))
    assert store.get(data.alice, "a") == new
    assert store.count(data.alice, ANY_STATUS) == 1
    assert store.entity_search(data.alice, ["浦东"], 5, RecordFilter()) == []
    assert [i for i, _ in store.entity_search(data.alice, ["静安"], 5, RecordFilter())] == ["a"]
    assert store.find_by_source(data.alice, "m1") == [] and store.find_by_source(
        data.alice, "m2"
    ) == [new]
    assert store.keyword_search(data.alice, ["浦东"], 5, RecordFilter()) == []
    assert [i for i, _ in store.keyword_search(data.alice, ["静安"], 5, RecordFilter())] == ["a"]
    np.testing.assert_allclose(store.vectors(data.alice, ["a"])["a"], data.vec(0, 1), atol=1e-6)


def test_upsert_with_none_keeps_vectors_and_keywords_and_a_dict_replaces_them(
    store: Store, data
) -> None:
    rec = data.record("a")
    data.put(store, data.upsert(rec, data.vec(1), "咖啡", context=data.vec(0, 1)))
    assert store.vector_search(data.alice, data.vec(0, 1), 5, RecordFilter(), channel="context")
    data.put(store, Upsert(rec.replace(importance=0.1)))  # vectors=None, keywords=None: keep
    assert store.vector_search(data.alice, data.vec(0, 1), 5, RecordFilter(), channel="context")
    assert set(store.vectors(data.alice, ["a"], "context")) == {"a"}
    assert [i for i, _ in store.keyword_search(data.alice, ["咖啡"], 5, RecordFilter())] == ["a"]
    data.put(store, data.upsert(rec, data.vec(0, 0, 1)))  # a dict is the record's whole vector set
    np.testing.assert_allclose(store.vectors(data.alice, ["a"])["a"], data.vec(0, 0, 1), atol=1e-6)
    assert store.vectors(data.alice, ["a"], "context") == {}
    assert (
        store.vector_search(data.alice, data.vec(0, 1), 5, RecordFilter(), channel="context") == []
    )


def test_same_id_in_two_scopes_are_two_records(store: Store, data) -> None:
    data.put(store, data.record("x", "alice's"))
    data.put(store, data.record("x", "bob's", scope=data.bob))
    assert store.get(data.alice, "x").content == "alice's"
    assert store.get(data.bob, "x").content == "bob's"


# -- scope isolation ---------------------------------------------------------------------


def _seed_three_owners(store: Store, data) -> None:
    """Alice, Bob (same tenant) and another tenant's 'alice': same ids, texts, vectors, everything."""
    for scope in (data.alice, data.bob, data.alice_elsewhere):
        tag = f"{scope.tenant}/{scope.user_id}"
        rec = data.record(
            "m1",
            f"用户对花生过敏 {tag}",
            scope=scope,
            entities=("花生",),
            source_ids=("msg-1",),
            slot="user/过敏",
            session_id="s1",
        )
        data.put(store, data.upsert(rec, data.vec(1, 0.1), "用户 花生 过敏"))
        store.state_set(scope, "buffer", {"owner": tag})


def test_no_read_crosses_users_or_tenants(store: Store, data) -> None:
    _seed_three_owners(store, data)
    flt = RecordFilter()
    for scope in (data.alice, data.bob, data.alice_elsewhere):
        tag = f"{scope.tenant}/{scope.user_id}"
        mine = store.get(scope, "m1")
        assert mine is not None and mine.content.endswith(tag) and mine.scope == scope
        assert all(r.content.endswith(tag) for r in store.get_many(scope, ["m1"]))
        assert [r.content for r in store.list(scope, ANY_STATUS)] == [mine.content]
        assert store.count(scope, ANY_STATUS) == 1
        assert [i for i, _ in store.vector_search(scope, data.vec(1), 10, flt)] == ["m1"]
        assert [i for i, _ in store.keyword_search(scope, ["花生"], 10, flt)] == ["m1"]
        assert [i for i, _ in store.entity_search(scope, ["花生"], 10, flt)] == ["m1"]
        assert [i for i, _ in store.recent(scope, 10, flt)] == ["m1"]
        assert [r.content for r in store.find_by_slot(scope, "user/过敏")] == [mine.content]
        assert [r.content for r in store.find_by_source(scope, "msg-1")] == [mine.content]
        assert {k: [r.content for r in v] for k, v in store.find_by_sources(scope, ["msg-1"]).items()} == {
            "msg-1": [mine.content]}
        assert [e.new for e in store.history(scope, "m1")] == [mine.content]
        assert [row["content"] for row in store.export_rows(scope)] == [mine.content]
        assert store.state_get(scope, "buffer") == {"owner": tag}
        assert len(store.vectors(scope, ["m1"])) == 1
    assert store.users("acme") == ["alice", "bob"] and store.users("globex") == ["alice"]
    assert store.tenants() == ["acme", "globex"]


def test_users_include_those_with_only_buffered_state(store: Store, data) -> None:
    store.state_set(Scope("acme", "newcomer"), "buffer", [{"role": "user", "content": "你好"}])
    data.put(store, data.record("m"))
    assert store.users("acme") == ["alice", "newcomer"] and store.users("nobody") == []
    assert store.tenants() == ["acme"]


def test_session_members_are_the_other_users_of_the_tenant_in_those_sessions(store: Store, data) -> None:
    carol, other_tenant = Scope("acme", "carol"), Scope("globex", "dave")
    data.put(store, data.record("a1", session_id="group"), data.record("a2", session_id="dm"), data.record("a3"))
    data.put(store, data.record("b1", scope=data.bob, session_id="group"),
             data.record("b2", scope=data.bob, session_id="old"))
    data.put(store, data.record("c1", scope=carol, session_id="group"))
    data.put(store, data.record("d1", scope=other_tenant, session_id="group"))
    assert store.session_members(data.alice, ["group", "dm", "old"]) == {"group": ["bob", "carol"], "old": ["bob"]}
    assert store.session_members(data.alice, ["dm"]) == {}
    assert store.session_members(data.bob, ["group"]) == {"group": ["alice", "carol"]}
    assert store.session_members(data.alice, []) == {}


def test_writes_and_deletes_stay_in_their_scope(store: Store, data) -> None:
    _seed_three_owners(store, data)
    store.record_hits(data.bob, ["m1"], data.at(30))
    store.apply(ChangeSet(data.bob, purge_ids=["m1"]))
    assert store.get(data.bob, "m1") is None
    assert store.get(data.alice, "m1").hit_count == 0
    assert store.get(data.alice_elsewhere, "m1") is not None
    assert store.delete_user(data.alice) == 1
    assert store.get(data.alice_elsewhere, "m1") is not None
    assert store.state_get(data.alice_elsewhere, "buffer") == {"owner": "globex/alice"}
    assert [
        i for i, _ in store.vector_search(data.alice_elsewhere, data.vec(1), 5, RecordFilter())
    ] == ["m1"]


def test_foreign_record_in_change_set_raises_and_writes_nothing(store: Store, data) -> None:
    job = store.enqueue(data.alice, "add", {"n": 1}, data.t0)
    mine, foreign = data.record("mine"), data.record("theirs", scope=data.bob)
    other_tenant = data.record("theirs2", scope=data.alice_elsewhere)
    for intruder in (foreign, other_tenant):
        changes = ChangeSet(
            data.alice,
            [data.upsert(mine, data.vec(1), "花生"), Upsert(intruder)],
            [HistoryEvent(EventType.ADD, "mine", data.t0)],
            purge_ids=[],
            done_job_id=job,
        )
        with pytest.raises(ScopeViolation):
            store.apply(changes)
    for scope in (data.alice, data.bob, data.alice_elsewhere):
        assert store.count(scope, ANY_STATUS) == 0
    assert store.history(data.alice, "mine") == []
    assert store.pending_jobs(data.alice) == 1


def test_an_upsert_expecting_the_stored_version_is_written(store: Store, data) -> None:
    data.put(store, data.record("m1", "喜欢咖啡"))
    read = store.get(data.alice, "m1")
    assert read is not None
    edited = read.replace(content="喜欢茶", updated_at=data.at(minutes=5))
    store.apply(ChangeSet(data.alice, [Upsert(edited, expect=read.updated_at)]))
    got = store.get(data.alice, "m1")
    assert got is not None and got.content == "喜欢茶" and got.updated_at == data.at(minutes=5)


def test_an_upsert_expecting_an_older_version_writes_nothing_of_its_change_set(store: Store, data) -> None:
    job = store.enqueue(data.alice, "add", {"n": 1}, data.t0)
    data.put(store, data.record("m1", "喜欢咖啡"))
    read = store.get(data.alice, "m1")
    assert read is not None
    # another writer (the worker, a second process) changes it after the read
    store.apply(ChangeSet(data.alice, [Upsert(read.replace(entities=("咖啡",), updated_at=data.at(minutes=1)))]))
    stale = ChangeSet(
        data.alice,
        [data.upsert(data.record("m2", "住在杭州"), data.vec(1), "杭州"),
         Upsert(read.replace(content="喜欢茶", updated_at=data.at(minutes=2)), expect=read.updated_at)],
        [HistoryEvent(EventType.UPDATE, "m1", data.at(minutes=2), "喜欢咖啡", "喜欢茶")],
        done_job_id=job,
        state={"k": 1},
    )
    with pytest.raises(WriteConflict, match="m1"):
        store.apply(stale)
    now = store.get(data.alice, "m1")
    assert now is not None and now.content == "喜欢咖啡" and now.entities == ("咖啡",)
    assert store.get(data.alice, "m2") is None
    assert [e.event for e in store.history(data.alice, "m1")] == [EventType.ADD]
    assert store.state_get(data.alice, "k") is None
    assert store.pending_jobs(data.alice) == 1


def test_two_writers_stamping_the_same_instant_still_conflict(store: Store, data) -> None:
    """A frozen or coarse clock stamps both writes alike: the first one's version still moves on."""
    data.put(store, data.record("m1", "喜欢咖啡"))
    read = store.get(data.alice, "m1")
    assert read is not None
    same = read.updated_at  # both writers' clocks say what the record already says
    first = Upsert(read.replace(entities=("咖啡",), updated_at=same), expect=read.updated_at)
    assert first.record.updated_at > read.updated_at
    store.apply(ChangeSet(data.alice, [first]))
    with pytest.raises(WriteConflict, match="m1"):
        store.apply(ChangeSet(data.alice, [Upsert(read.replace(content="喜欢茶", updated_at=same),
                                                  expect=read.updated_at)]))
    got = store.get(data.alice, "m1")
    assert got is not None and got.content == "喜欢咖啡" and got.entities == ("咖啡",)
    assert got.updated_at == first.record.updated_at  # the version as stamped is the version stored


def test_an_upsert_expecting_a_record_that_is_gone_or_someone_elses_conflicts(store: Store, data) -> None:
    data.put(store, data.record("m1"))
    data.put(store, data.record("b1", scope=data.bob))
    store.apply(ChangeSet(data.alice, purge_ids=["m1"]))
    for scope, mid in ((data.alice, "m1"), (data.alice, "b1")):  # b1 is Bob's: Alice cannot expect it
        with pytest.raises(WriteConflict):
            store.apply(ChangeSet(scope, [Upsert(data.record(mid), expect=data.t0)]))
    assert store.get(data.alice, "m1") is None and store.get(data.alice, "b1") is None
    bob = store.get(data.bob, "b1")
    assert bob is not None and bob.content == "memory b1"


# -- filters ---------------------------------------------------------------------------------


@pytest.fixture
def varied(store: Store, data) -> Store:
    """Six memories of Alice that differ in one filterable field each."""
    data.put(
        store,
        data.upsert(
            data.record("fact", "User likes 100% Arabica_beans", minute=0), data.vec(1), "arabica"
        ),
        data.upsert(
            data.record("pref", "用户喜欢喝咖啡", minute=1, kind=Kind.PREFERENCE),
            data.vec(1, 0.2),
            "咖啡",
        ),
        data.upsert(
            data.record("old", "用户以前住浦东", minute=2, status=Status.SUPERSEDED),
            data.vec(1, 0.3),
            "浦东",
        ),
        data.upsert(
            data.record("secret", "用户手机号 138", minute=3, visibility=Visibility.SENSITIVE),
            data.vec(1, 0.4),
            "手机号",
        ),
        data.upsert(
            data.record("s2", "session two", minute=4, session_id="s2"), data.vec(1, 0.5), "session"
        ),
        data.upsert(
            data.record("ag", "agent memory", minute=5, agent_id="bot-9"), data.vec(1, 0.6), "agent"
        ),
    )
    return store


@pytest.mark.parametrize(
    ("flt", "expected"),
    [
        (RecordFilter(), ["ag", "s2", "secret", "pref", "fact"]),
        (ANY_STATUS, ["ag", "s2", "secret", "old", "pref", "fact"]),
        (RecordFilter(statuses=(Status.SUPERSEDED,)), ["old"]),
        (RecordFilter(statuses=()), []),
        (RecordFilter(kinds=(Kind.PREFERENCE,)), ["pref"]),
        (RecordFilter(kinds=(Kind.EVENT,)), []),
        (RecordFilter(session_id="s2"), ["s2"]),
        (RecordFilter(agent_id="bot-9"), ["ag"]),
        (RecordFilter(include_sensitive=False), ["ag", "s2", "pref", "fact"]),
        (RecordFilter(created_after=MINUTE_3), ["ag", "s2", "secret"]),  # inclusive
        (RecordFilter(created_before=MINUTE_3), ["pref", "fact"]),  # exclusive
        (RecordFilter(text="arabica_"), ["fact"]),  # case-insensitive; "_" is literal
        (RecordFilter(text="100%"), ["fact"]),
        (RecordFilter(text="0%A"), []),  # "%" is literal, not a wildcard
        (RecordFilter(text="咖啡"), ["pref"]),
    ],
)
def test_list_and_count_apply_the_filter(
    varied: Store, data, flt: RecordFilter, expected: list[str]
) -> None:
    assert [r.id for r in varied.list(data.alice, flt)] == expected
    assert varied.count(data.alice, flt) == len(expected)
    everything = varied.list(data.alice, ANY_STATUS)  # the shared reference semantics agree
    assert [r.id for r in everything if record_matches(r, flt)] == expected


def test_list_pages_newest_first(varied: Store, data) -> None:
    everything = [r.id for r in varied.list(data.alice, ANY_STATUS)]
    pages = [varied.list(data.alice, ANY_STATUS, limit=4, offset=o) for o in (0, 4, 8)]
    assert [r.id for page in pages for r in page] == everything
    assert [len(p) for p in pages] == [4, 2, 0]


def test_search_routes_apply_the_filter(varied: Store, data) -> None:
    flt = RecordFilter(include_sensitive=False, kinds=(Kind.FACT,))
    tokens = ["arabica", "咖啡", "浦东", "手机号", "session", "agent"]
    expected = {"fact", "s2", "ag"}
    assert {i for i, _ in varied.vector_search(data.alice, data.vec(1), 10, flt)} == expected
    assert {i for i, _ in varied.keyword_search(data.alice, tokens, 10, flt)} == expected
    assert {i for i, _ in varied.recent(data.alice, 10, flt)} == expected
    assert {
        i
        for i, _ in varied.vector_search(data.alice, data.vec(1), 10, RecordFilter(session_id="s2"))
    } == {"s2"}
    assert {
        i
        for i, _ in varied.vector_search(data.alice, data.vec(1), 10, RecordFilter(agent_id="none"))
    } == set()
    window = RecordFilter(created_after=data.at(1), created_before=data.at(4))
    assert {i for i, _ in varied.vector_search(data.alice, data.vec(1), 10, window)} == {
        "pref",
        "secret",
    }


# -- lookups by slot and source ----------------------------------------------------------


def test_find_by_slot_returns_active_only_and_find_by_source_any_status(store: Store, data) -> None:
    data.put(
        store,
        data.record("old", slot="user/city", status=Status.SUPERSEDED, source_ids=("m1",)),
        data.record("cur", slot="user/city", source_ids=("m1", "m2")),
        data.record("other", slot="user/phone"),
    )
    assert [r.id for r in store.find_by_slot(data.alice, "user/city")] == ["cur"]
    assert store.find_by_slot(data.alice, "user/none") == []
    assert {r.id for r in store.find_by_source(data.alice, "m1")} == {"old", "cur"}
    assert [r.id for r in store.find_by_source(data.alice, "m2")] == ["cur"]


def test_find_by_sources_answers_each_source_like_find_by_source(store: Store, data) -> None:
    data.put(
        store,
        data.record("old", status=Status.SUPERSEDED, source_ids=("m1",), minute=1),
        data.record("cur", source_ids=("m1", "m2"), minute=2),
        *(data.record(f"bulk{i}", source_ids=(f"b{i}",), minute=3) for i in range(600)),
    )
    data.put(store, data.record("bobs", scope=data.bob, source_ids=("m1",)))
    asked = ["m1", "m2", "none", "m1", *(f"b{i}" for i in range(600))]  # duplicates, a miss, > one IN list
    found = store.find_by_sources(data.alice, asked)
    assert set(found) == set(asked) - {"none"}
    for sid in ["m1", "m2", *(f"b{i}" for i in range(0, 600, 37)), "b599"]:  # a sample, across both IN lists
        assert [r.id for r in found[sid]] == [r.id for r in store.find_by_source(data.alice, sid)]
    assert all(len(found[f"b{i}"]) == 1 for i in range(600))
    assert [r.id for r in found["m1"]] == ["cur", "old"]  # newest first, any status, Alice's only
    assert store.find_by_sources(data.alice, []) == {}
    assert [r.id for r in store.find_by_sources(data.bob, ["m1", "m2"])["m1"]] == ["bobs"]


# -- history, purge, delete, hits --------------------------------------------------------------


def test_history_is_ordered_by_time_then_insertion(store: Store, data) -> None:
    rec = data.record("a")
    events = [
        HistoryEvent(EventType.UPDATE, "a", data.at(5), old="x", new="y"),
        HistoryEvent(EventType.ADD, "a", data.at(0), new="x"),
        HistoryEvent(EventType.MERGE, "a", data.at(5), reason="dup", actor="resolver"),
    ]
    store.apply(ChangeSet(data.alice, [Upsert(rec)], events[:2]))
    store.apply(ChangeSet(data.alice, [], events[2:]))
    assert store.history(data.alice, "a") == [events[1], events[0], events[2]]
    assert store.history(data.alice, "nope") == []


def test_purge_removes_everything_but_history(store: Store, data) -> None:
    rec = data.record("a", entities=("花生",), source_ids=("m1",), slot="user/x")
    data.put(
        store,
        data.upsert(rec, data.vec(1), "花生"),
        data.upsert(data.record("keep"), data.vec(1), "花生"),
    )
    store.apply(
        ChangeSet(
            data.alice,
            purge_ids=["a", "never-existed"],
            history=[HistoryEvent(EventType.PURGE, "a", data.at(1))],
        )
    )
    assert store.get(data.alice, "a") is None
    assert store.vectors(data.alice, ["a", "keep"]).keys() == {"keep"}
    assert [i for i, _ in store.vector_search(data.alice, data.vec(1), 5, ANY_STATUS)] == ["keep"]
    assert [i for i, _ in store.keyword_search(data.alice, ["花生"], 5, ANY_STATUS)] == ["keep"]
    assert store.entity_search(data.alice, ["花生"], 5, ANY_STATUS) == []
    assert (
        store.find_by_source(data.alice, "m1") == []
        and store.find_by_slot(data.alice, "user/x") == []
    )
    assert [e.event for e in store.history(data.alice, "a")] == [EventType.ADD, EventType.PURGE]


def test_delete_user_removes_everything_of_that_user(store: Store, data) -> None:
    _seed_three_owners(store, data)
    data.put(store, data.record("gone", scope=data.bob, status=Status.DELETED))
    store.enqueue(data.bob, "add", {}, data.t0)
    store.enqueue(data.alice, "add", {}, data.t0)
    assert store.delete_user(data.bob) == 2
    assert store.count(data.bob, ANY_STATUS) == 0 and store.get(data.bob, "m1") is None
    assert store.vectors(data.bob, ["m1"]) == {}
    assert store.vector_search(data.bob, data.vec(1), 5, ANY_STATUS) == []
    assert store.keyword_search(data.bob, ["花生"], 5, ANY_STATUS) == []
    assert store.entity_search(data.bob, ["花生"], 5, ANY_STATUS) == []
    assert store.history(data.bob, "m1") == [] and store.state_get(data.bob, "buffer") is None
    assert list(store.export_rows(data.bob)) == []
    assert store.pending_jobs(data.bob) == 0 and store.pending_jobs(data.alice) == 1
    assert store.users("acme") == ["alice"]
    assert store.delete_user(data.bob) == 0


def test_record_hits_counts_and_strengthens_up_to_a_cap(store: Store, data) -> None:
    data.put(
        store, data.record("a", strength=1.0), data.record("b", strength=2.95), data.record("c")
    )
    store.record_hits(data.alice, ["a", "b"], data.at(10))
    store.record_hits(data.alice, ["a"], data.at(20))
    a, b, c = store.get_many(data.alice, ["a", "b", "c"])
    assert (a.hit_count, a.last_hit_at) == (2, data.at(20)) and a.strength == pytest.approx(1.2)
    assert (b.hit_count, b.last_hit_at) == (1, data.at(10)) and b.strength == pytest.approx(3.0)
    assert (c.hit_count, c.last_hit_at, c.strength) == (0, None, 1.0)
    store.record_hits(data.alice, [], data.at(30))  # nothing to do, no error
    store.record_hits(data.alice, ["c", "b", "c", "c"], data.at(40))  # an id listed n times counts n times
    b, c = store.get_many(data.alice, ["b", "c"])
    assert (c.hit_count, c.last_hit_at) == (3, data.at(40)) and c.strength == pytest.approx(1.3)
    assert (b.hit_count, b.strength) == (2, pytest.approx(3.0))


def test_an_upsert_from_a_copy_read_before_a_hit_keeps_the_hit(store: Store, data) -> None:
    data.put(store, data.record("m1"), data.record("m2"), data.record("m3"), data.record("m4"))
    read = store.get_many(data.alice, ["m1", "m2", "m3", "m4"])  # a writer reads ...
    store.record_hits(data.alice, ["m1", "m1", "m2"], data.at(minutes=3))  # ... searches hit meanwhile ...
    for batch in ([read[0]], read):  # ... and it writes its copies back (alone, and as a bulk change set)
        store.apply(ChangeSet(data.alice, [Upsert(r.replace(content=f"{r.content}!")) for r in batch]))
        got = {r.id: r for r in store.get_many(data.alice, ["m1", "m2", "m3"])}
        assert got["m1"].content.endswith("!") and got["m1"].hit_count == 2
        assert got["m1"].last_hit_at == data.at(minutes=3) and got["m1"].strength == pytest.approx(1.2)
        assert got["m3"].hit_count == 0 and got["m3"].last_hit_at is None
    assert got["m2"].hit_count == 1 and got["m2"].strength == pytest.approx(1.1)


def test_export_rows_holds_every_status_with_history(store: Store, data) -> None:
    records = [
        full_record(data, "f"),
        data.record("d", status=Status.DELETED),
        data.record("a", minute=1),
    ]
    data.put(store, *records)
    rows = {row["id"]: row for row in store.export_rows(data.alice)}
    assert rows.keys() == {"f", "d", "a"}
    for rec in records:
        row = dict(rows[rec.id])
        history = row.pop("history")
        assert MemoryRecord.from_dict(row) == rec
        assert history == [
            HistoryEvent(EventType.ADD, rec.id, rec.created_at, new=rec.content).to_dict()
        ]


def test_secret_visibility_round_trips_and_is_left_out_with_sensitive(varied: Store, data) -> None:
    """``secret`` (jiyi.privacy) is stored as such and, like ``sensitive``, left out when
    ``include_sensitive=False``: by listings and by every search route."""
    data.put(varied, data.upsert(data.record("pin", "用户的PIN码是[已隐藏:PIN码]", minute=6,
                                             visibility=Visibility.SECRET), data.vec(1, 0.7), "PIN码"))
    got = varied.get(data.alice, "pin")
    assert got is not None and got.visibility is Visibility.SECRET
    hidden = RecordFilter(include_sensitive=False)
    assert "pin" in {r.id for r in varied.list(data.alice, RecordFilter())}
    assert "pin" not in {r.id for r in varied.list(data.alice, hidden)}
    assert "pin" not in {i for i, _ in varied.vector_search(data.alice, data.vec(1, 0.7), 10, hidden)}
    assert "pin" not in {i for i, _ in varied.keyword_search(data.alice, ["PIN码"], 10, hidden)}
    assert "pin" not in {i for i, _ in varied.recent(data.alice, 10, hidden)}
    assert "pin" in {i for i, _ in varied.keyword_search(data.alice, ["PIN码"], 10, RecordFilter())}
