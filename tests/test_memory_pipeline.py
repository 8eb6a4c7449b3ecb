"""The whole engine through the public API, in Chinese and English, on real SQLite and the real model."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest

from jiyi import EventType, Kind, Memory, NotFound, Status
from jiyi.clock import FrozenClock


def contents(mem: Memory, user_id: str, **kw: object) -> list[str]:
    return [r.content for r in mem.get_all(user_id=user_id, **kw)]  # type: ignore[arg-type]


def test_add_extracts_facts_and_keeps_episodes(mem: Memory) -> None:
    result = mem.add("我叫王小明，住在上海，对花生过敏。", user_id="u1", sync=True)
    kinds = {e.kind for e in result.events}
    assert Kind.EPISODE in kinds
    facts = [r for r in mem.get_all(user_id="u1") if r.kind is not Kind.EPISODE]
    assert any("上海" in r.content for r in facts)
    assert any("花生" in r.content for r in facts)
    episode = mem.get_all(user_id="u1", kinds=["episode"])[0]
    assert episode.content == "我叫王小明，住在上海，对花生过敏。"
    assert episode.source_ids and facts[0].source_ids


def test_message_id_and_timestamp_are_kept(mem: Memory) -> None:
    mem.add([{"role": "user", "content": "I live in Berlin and work as a nurse.", "id": "D1:3",
              "timestamp": "2023-05-08T13:56:00Z", "name": "Caroline"}], user_id="u1", sync=True)
    ep = mem.get_all(user_id="u1", kinds=["episode"])[0]
    assert ep.source_ids == ("D1:3",)
    assert ep.valid_from is not None and ep.valid_from.year == 2023
    assert ep.speaker == "Caroline"


def test_small_talk_is_not_stored(mem: Memory) -> None:
    result = mem.add([{"role": "user", "content": "你好"}, {"role": "assistant", "content": "好的"},
                      {"role": "user", "content": "谢谢"}], user_id="u1", sync=True)
    assert result.events == []
    assert mem.get_all(user_id="u1", status=None) == []


def test_moved_city_supersedes_old(mem: Memory, clock: FrozenClock) -> None:
    mem.add("我住在上海", user_id="u1", sync=True)
    clock.set(clock.now() + timedelta(days=40))
    result = mem.add("我搬到杭州了", user_id="u1", sync=True)
    assert any(e.event is EventType.SUPERSEDE for e in result.events)
    active = [r for r in mem.get_all(user_id="u1") if r.slot]
    assert len(active) == 1 and "杭州" in active[0].content
    old = [r for r in mem.get_all(user_id="u1", status="superseded")]
    assert len(old) == 1 and "上海" in old[0].content
    assert old[0].superseded_by == active[0].id and old[0].id in active[0].links
    assert old[0].valid_until is not None
    hits = mem.search("我住在哪里", user_id="u1", limit=3)
    assert "杭州" in hits[0].content
    history = mem.history(old[0].id, user_id="u1")
    assert [h.event for h in history][-1] is EventType.SUPERSEDE


def test_explicit_correction_supersedes(mem: Memory) -> None:
    mem.add("我住在南京", user_id="u1", sync=True)
    mem.add("不对，我说错了，我住在苏州", user_id="u1", sync=True)
    slotted = [r for r in mem.get_all(user_id="u1") if r.slot]
    assert [("苏州" in r.content) for r in slotted] == [True]


def test_near_duplicate_merges(mem: Memory) -> None:
    mem.add("I am allergic to peanuts.", user_id="u1", sync=True)
    before = [r for r in mem.get_all(user_id="u1") if r.kind is not Kind.EPISODE]
    result = mem.add("I'm allergic to peanuts.", user_id="u1", sync=True)
    after = [r for r in mem.get_all(user_id="u1") if r.kind is not Kind.EPISODE]
    assert len(after) == len(before) >= 1
    assert any(e.event in (EventType.MERGE, EventType.NONE) for e in result.events if e.kind is not Kind.EPISODE)


def test_event_expires(mem: Memory, clock: FrozenClock) -> None:
    # said in the morning, Shanghai time (the default zone): a plan for today's lunch
    mem.add([{"role": "user", "content": "今天中午想吃兰州拉面", "timestamp": "2025-03-05T09:00:00+08:00"}],
            user_id="u1", sync=True)
    assert any("拉面" in h.content for h in mem.search("中午吃什么", user_id="u1"))
    clock.set(clock.now() + timedelta(days=2))  # past its expiry: ranked lower, shown as past for a week
    late = mem.search("中午吃什么", user_id="u1")
    assert all(h.scores.get("lapsed", 0.0) < 0 for h in late if "拉面" in h.content and h.kind is Kind.EVENT)
    assert "拉面" not in mem.build_context("中午吃什么", user_id="u1").split("已经过去")[0]
    clock.set(clock.now() + timedelta(days=6))  # a week on: out of search
    assert not any("拉面" in h.content and h.kind is Kind.EVENT for h in mem.search("中午吃什么", user_id="u1"))
    report = mem.gc(dry_run=True)
    assert report.counts["expire_events"] >= 1
    mem.gc(dry_run=False)
    assert any(r.status is Status.EXPIRED for r in mem.get_all(user_id="u1", status=None))


def test_relative_date_resolved_from_message_time(mem: Memory) -> None:
    mem.add([{"role": "user", "content": "下周三我要去深圳出差", "timestamp": "2025-03-05T10:00:00+08:00"}],
            user_id="u1", sync=True)
    event = next(r for r in mem.get_all(user_id="u1") if r.kind is Kind.EVENT)
    assert event.valid_from is not None
    assert event.valid_from.astimezone().date().isoformat() in ("2025-03-12", "2025-03-11")


def test_search_scores_are_explained(mem: Memory) -> None:
    mem.add("我喜欢爬山和摄影", user_id="u1", sync=True)
    hits = mem.search("周末有什么户外活动推荐", user_id="u1")
    assert hits
    for key in ("relevance", "freshness", "importance", "confidence"):
        assert key in hits[0].scores
    assert any(k.endswith("_raw") for k in hits[0].scores)
    assert hits == sorted(hits, key=lambda h: -h.score)


def test_sensitive_hidden_unless_asked(mem: Memory) -> None:
    mem.add("我的手机号是13812345678", user_id="u1", sync=True)
    plain = mem.search("推荐一家餐厅", user_id="u1", kinds=["fact"])
    assert not any("138" in h.content for h in plain)
    asked = mem.search("我的手机号是多少", user_id="u1", kinds=["fact"])
    assert any("13812345678" in h.content for h in asked)
    allowed = mem.search("推荐一家餐厅", user_id="u1", kinds=["fact"], include_sensitive=True)
    assert any("13812345678" in h.content for h in allowed)


def test_users_are_isolated(mem: Memory) -> None:
    mem.add("我住在上海，我对花生过敏", user_id="alice", sync=True)
    mem.add("我住在北京，我对芒果过敏", user_id="bob", sync=True)
    for user, mine, theirs in (("alice", "上海", "北京"), ("bob", "北京", "上海")):
        hits = mem.search("我住在哪里，对什么过敏", user_id=user, limit=50)
        assert any(mine in h.content for h in hits)
        assert not any(theirs in h.content for h in hits)
        assert all(theirs not in c for c in contents(mem, user, status=None))
    alice_id = mem.get_all(user_id="alice")[0].id
    assert mem.get(alice_id, user_id="bob") is None
    with pytest.raises(NotFound):
        mem.update(alice_id, "hacked", user_id="bob")
    with pytest.raises(NotFound):
        mem.delete(alice_id, user_id="bob")
    with pytest.raises(NotFound):
        mem.history(alice_id, user_id="bob")
    assert mem.get(alice_id, user_id="alice") is not None
    assert mem.delete_all(user_id="bob") > 0
    assert mem.get_all(user_id="alice")


def test_update_delete_restore_history(mem: Memory) -> None:
    rec = mem.remember("用户喜欢喝美式咖啡", user_id="u1")
    updated = mem.update(rec.id, "用户喜欢喝拿铁", user_id="u1")
    assert mem.get(rec.id, user_id="u1").content == updated.content == "用户喜欢喝拿铁"  # type: ignore[union-attr]
    assert any("拿铁" in h.content for h in mem.search("咖啡", user_id="u1"))
    mem.delete(rec.id, user_id="u1")
    assert not any(h.id == rec.id for h in mem.search("咖啡", user_id="u1"))
    mem.restore(rec.id, user_id="u1")
    events = [h.event for h in mem.history(rec.id, user_id="u1")]
    assert events == [EventType.ADD, EventType.UPDATE, EventType.DELETE, EventType.RESTORE]


def test_build_context_fits_budget_and_groups(mem: Memory) -> None:
    mem.add("我叫李雷，住在广州，喜欢吃辣，养了一只猫叫咪咪", user_id="u1", sync=True)
    block = mem.build_context("晚饭吃什么好", user_id="u1", budget_tokens=400)
    assert block.startswith("<memories>") and "过时" in block
    from jiyi.read.tokencount import count_tokens

    assert count_tokens(block) <= 400
    small = mem.build_context("晚饭吃什么好", user_id="u1", budget_tokens=60)
    assert len(small) < len(block)
    assert count_tokens(small) <= 60
    english = mem.build_context("what should I eat tonight", user_id="u1")
    assert "outdated" in english


def test_persistence_across_reopen(make_memory: object) -> None:
    first = make_memory()  # type: ignore[operator]
    first.add("我在字节跳动工作", user_id="u1", sync=True)
    first.close()
    second = make_memory()  # type: ignore[operator]
    assert any("字节" in h.content for h in second.search("我在哪里上班", user_id="u1"))


def test_async_add_then_flush(make_memory: object) -> None:
    mem = make_memory(background_worker=True)  # type: ignore[operator]
    result = mem.add("我养了一只金毛叫旺财", user_id="u1")
    assert result.pending and result.job_id
    assert mem.flush(timeout=60)
    assert any("旺财" in r.content for r in mem.get_all(user_id="u1"))


def test_export_import_roundtrip(make_memory: object, tmp_path: object) -> None:
    src = make_memory()  # type: ignore[operator]
    src.add("我住在成都，喜欢火锅", user_id="u1", sync=True)
    rows = list(src.export(user_id="u1"))
    assert rows and all(r["user_id"] == "u1" and "history" in r for r in rows)
    dst = make_memory(path=tmp_path / "other.db")  # type: ignore[operator,operator]
    assert dst.import_(rows) == len(rows)
    assert sorted(contents(dst, "u1", status=None)) == sorted(contents(src, "u1", status=None))
    assert any("成都" in h.content for h in dst.search("我住哪", user_id="u1"))


def test_short_term_buffer_recalls_before_processing(mem: Memory) -> None:
    mem.add("我上个月去医院看过感冒，医生说多喝水", user_id="u1", session_id="s0", sync=True)
    mem.add("周末想去公园散步", user_id="u1", session_id="s0", sync=True)
    result = mem.add([{"role": "user", "content": "我明天要去医院复查牙齿", "id": "b1"}], user_id="u1",
                     session_id="s1")
    assert result.pending
    hits = mem.search("复查牙齿", user_id="u1")
    assert hits and hits[0].id == "buffer:b1" and hits[0].source_ids == ("b1",)
    mem.flush()
    after = mem.search("复查牙齿", user_id="u1")
    assert not any(h.id.startswith("buffer:") for h in after)
    assert any(h.source_ids == ("b1",) for h in after)


def test_buffer_is_per_user(mem: Memory) -> None:
    mem.add([{"role": "user", "content": "我的猫叫咪咪，今天它生病了", "id": "c1"}], user_id="alice")
    mem.add([{"role": "user", "content": "今天加班到很晚", "id": "c2"}], user_id="bob")
    assert not any("咪咪" in h.content for h in mem.search("猫生病", user_id="bob"))


def test_session_listing_and_buffer_controls(mem: Memory) -> None:
    mem.add("我在学日语", user_id="u1", session_id="s1", sync=True)
    mem.add("我在学吉他", user_id="u1", session_id="s2", sync=True)
    s1 = mem.get_all(user_id="u1", session_id="s1", kinds=["episode"])
    assert [r.content for r in s1] == ["我在学日语"]
    assert [m["content"] for m in mem.recent_messages(user_id="u1", session_id="s2")] == ["我在学吉他"]
    assert mem.clear_buffer(user_id="u1", session_id="s1") == 1
    assert mem.recent_messages(user_id="u1", session_id="s1") == []
    assert len(mem.recent_messages(user_id="u1")) == 1


def test_pet_name_does_not_supersede_the_users_name(mem: Memory) -> None:
    mem.add("我叫小林", user_id="u1", sync=True)
    mem.add("我养了一只橘猫，名字叫团子", user_id="u1", sync=True)
    active = [r for r in mem.get_all(user_id="u1") if r.kind is not Kind.EPISODE]
    assert [r.content for r in active if r.slot == "user/name"] == ["用户名字是小林"]
    assert [r.content for r in active if r.kind is Kind.RELATION] == ["用户的橘猫叫团子"]
    assert mem.get_all(user_id="u1", status="superseded") == []


def test_birthday_is_a_recurring_fact(mem: Memory) -> None:
    mem.add("我的生日是五月二十日", user_id="u1", sync=True)
    facts = [r for r in mem.get_all(user_id="u1") if r.kind is not Kind.EPISODE]
    assert [(r.kind, r.slot, r.content) for r in facts] == [(Kind.FACT, "user/birthday", "用户的生日是5月20日")]
    assert (facts[0].valid_until, facts[0].expires_at) == (None, None)


def test_relative_days_resolve_in_the_configured_zone(make_memory: object, tmp_path: Path) -> None:
    """Default zone Asia/Shanghai: 明天 at 23:30 local is the next Shanghai day. The timestamp is written in UTC, which
    says nothing of the speaker's own clock (tests/write/test_speaker_clock.py: one written with +08:00 is read by it)."""
    late = [{"role": "user", "content": "明天要去医院复查", "timestamp": "2025-03-05T15:30:00Z"}]
    for zone, start in ((None, "2025-03-05T16:00:00+00:00"), ("UTC", "2025-03-06T00:00:00+00:00")):
        config = {"path": tmp_path / f"{zone}.db", **({"timezone": zone} if zone else {})}
        mem: Memory = make_memory(**config)  # type: ignore[operator]
        mem.add(late, user_id="u1", sync=True)
        event = next(r for r in mem.get_all(user_id="u1") if r.kind is Kind.EVENT)
        assert event.valid_from is not None and event.valid_from.isoformat() == start
