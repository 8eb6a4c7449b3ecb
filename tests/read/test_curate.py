"""What of the search's hits a bot's block keeps, from the hits and the memories made from each turn."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from jiyi.read.curate import Selection, covered, curate, idle_query
from jiyi.read.rank import DEFAULT_WEIGHTS
from jiyi.records import Hit, Kind, MemoryRecord, Status, Visibility

NOW = datetime(2026, 12, 1, 12, tzinfo=timezone.utc)
HALF_LIVES = {"episode": 30.0, "fact": 365.0, "event": 14.0}


def rec(mid: str, content: str, kind: Kind = Kind.EPISODE, *, source: str | None = None, days_ago: float = 1,
        **fields: object) -> MemoryRecord:
    at = NOW - timedelta(days=days_ago)
    base = MemoryRecord(id=mid, tenant="t", user_id="u", content=content, kind=kind, created_at=at, updated_at=at,
                        valid_from=at, source_ids=(source or f"msg-{mid}",))
    return base.replace(**fields)


def hit(r: MemoryRecord, total: float = 5.0) -> Hit:
    return Hit(r, 0.5, {"total": total, "relevance": total})


def run(hits: list[Hit], derived: dict[str, list[MemoryRecord]], query: str = "帮我安排一下",
        shown: tuple[MemoryRecord, ...] | list[MemoryRecord] = ()) -> Selection:
    return curate(hits, derived, at=NOW, historical=False, include_sensitive=False, weights=DEFAULT_WEIGHTS,
                  half_lives=HALF_LIVES, shown=shown, query=query)


def test_a_turn_stays_unless_the_memories_shown_restate_it() -> None:
    turn = rec("t1", "我对花生过敏，周五要去体检", source="m1")
    allergy = rec("f1", "用户对花生过敏", Kind.FACT, source="m1")
    checkup = rec("e1", "用户周五要去体检", Kind.EVENT, source="m1", valid_until=NOW + timedelta(days=3))
    kept = run([hit(turn)], {"m1": [allergy]}, shown=[allergy]).current
    assert [h.id for h in kept] == ["t1"]  # the allergy alone does not say the check-up
    assert run([hit(turn)], {"m1": [allergy, checkup]}, shown=[allergy, checkup]).current == []
    assert [h.id for h in run([hit(turn)], {"m1": [allergy, checkup]}, shown=[allergy]).current] == ["t1"]


def test_covered_counts_each_clause() -> None:
    facts = [rec("f", "用户叫王小明", Kind.FACT), rec("g", "用户住在上海", Kind.FACT)]
    assert covered("我叫王小明，住在上海。", facts)
    assert not covered("我叫王小明，住在上海，在腾讯做产品经理", facts)
    assert covered("记住，我叫王小明", facts[:1])  # 记住 says nothing of its own


def test_superseded_turns_go_unless_the_change_is_still_ahead() -> None:
    turn = rec("t1", "我住在丹佛", source="m1")
    gone = rec("f1", "用户住在丹佛", Kind.FACT, source="m1", status=Status.SUPERSEDED, valid_until=NOW - timedelta(days=1))
    assert run([hit(turn)], {"m1": [gone]}).current == []
    marked = rec("t2", "我喜欢喝咖啡", source="m2", metadata={"outdated_by": "x"})
    assert run([hit(marked)], {}).current == []
    ahead = gone.replace(valid_until=NOW + timedelta(days=30))
    assert [h.id for h in run([hit(turn)], {"m1": [ahead]}).current] == ["t1"]


def test_a_superseded_turn_is_past_evidence_for_a_question_about_the_past() -> None:
    """"笔试考完了" later outdated by "上岸了" still dates the exam: asked when, it is shown under past."""
    turn = rec("t1", "今天笔试考完了 感觉还行", source="m1", metadata={"outdated_by": "x"}, days_ago=40)
    asked = run([hit(turn)], {}, query="我笔试是哪天考的来着")
    assert (asked.current, [h.id for h in asked.past]) == ([], ["t1"])
    assert run([hit(turn)], {}, query="帮我安排一下这周").past == []


def test_lapsed_events_and_their_turns_are_past() -> None:
    trip = rec("e1", "用户3月去成都出差", Kind.EVENT, source="m1", days_ago=200, valid_until=NOW - timedelta(days=190))
    turn = rec("t1", "下个月去成都出差", source="m1", days_ago=230)
    plan = rec("e2", "用户今天中午想吃拉面", Kind.EVENT, source="m2", days_ago=90, expires_at=NOW - timedelta(days=89))
    lunch = rec("t2", "今天中午想吃拉面", source="m2", days_ago=90)
    out = run([hit(trip), hit(turn), hit(lunch)], {"m1": [trip], "m2": [plan]})
    assert out.current == []
    assert {h.id for h in out.past} == {"e1"}  # its turn restated by the trip; the lunch plan long gone, not even past
    alone = run([hit(turn), hit(lunch)], {"m1": [trip], "m2": [plan]})  # the trip itself not among the hits
    assert {h.id for h in alone.past} == {"t1"}


def test_a_report_of_something_done_is_past_once_its_day_is() -> None:
    """"刚从大理回来" told ten days ago is no trip ahead; the move said the same way is where the user lives."""
    back = rec("t1", "刚从大理回来 晒黑了", source="m1", days_ago=10)
    said = rec("f1", "用户：复试过了", Kind.FACT, source="m2", days_ago=10)
    moved = rec("t2", "搬完家了 终于住到杭州了", source="m3", days_ago=10)
    out = run([hit(back), hit(said), hit(moved)], {}, query="接下来有啥行程")
    assert ({h.id for h in out.past}, [h.id for h in out.current]) == ({"t1", "f1"}, ["t2"])
    today = run([hit(back.replace(valid_from=NOW - timedelta(hours=3)))], {})
    assert [h.id for h in today.current] == ["t1"]  # said today: still the news of the day


def test_a_weak_turn_that_ended_a_memory_found_stays() -> None:
    """A turn matching the query weakly, from another conversation, stays when it is what ended or replaced a
    memory the query found: it tells what is now."""
    turn = rec("t1", "那台车我给侄子了 现在骑电瓶车上班", source="m1")
    weak = Hit(turn, 0.5, {"total": 1.0, "relevance": 1.0, "session": -0.7})
    assert run([weak], {}).current == []
    lifted = Hit(turn, 0.5, {"total": 1.0, "relevance": 1.0, "session": -0.7, "successor": 0.4})
    assert [h.id for h in run([lifted], {}).current] == ["t1"]


def test_secrets_small_talk_and_the_bots_turns_stay_out() -> None:
    phone = rec("f1", "用户的手机号是13912345678", Kind.FACT, source="m1", visibility=Visibility.SENSITIVE)
    turn = rec("t1", "我的手机号是13912345678", source="m1")
    hello = rec("t2", "你好！有什么可以帮你？", metadata={"role": "assistant"})
    tip = rec("t3", "你上次说想看《三体》，我推荐先读第一部", metadata={"role": "assistant"})
    chat = rec("t4", "嗯嗯好的")
    trivial = rec("f2", "用户说了声谢谢", Kind.FACT, importance=0.05)
    hits = [hit(turn), hit(hello), hit(tip), hit(chat), hit(trivial)]
    assert run(hits, {"m1": [phone]}).current == []
    assert [h.id for h in run(hits, {"m1": [phone]}, query="你上次推荐我看什么书").current] == ["t3"]


def test_a_turn_that_gave_a_sensitive_memory_stays_out_even_when_asked_for() -> None:
    """Asked for, the number is the memory's to show: the turn may say the dead number beside the new one."""
    phone = rec("f1", "用户的手机号是18600001111", Kind.FACT, source="m1", visibility=Visibility.SENSITIVE)
    turn = rec("t1", "换号了 原来那个139 0000 2222不用了 新的是186 0000 1111", source="m1")
    for include in (False, True):
        sel = curate([hit(turn), hit(phone)], {"m1": [phone]}, at=NOW, historical=False, include_sensitive=include,
                     weights=DEFAULT_WEIGHTS, half_lives=HALF_LIVES, query="我手机号多少")
        assert "t1" not in [h.id for h in sel.current]


def test_a_turn_that_told_a_condition_the_block_shows_anyway_stays() -> None:
    """The knee is shown (the query opened it): the turn that told it says nothing more of it, and says the swim."""
    knee = rec("f1", "用户膝盖不好", Kind.FACT, source="m1", visibility=Visibility.SENSITIVE, slot="health/膝盖")
    turn = rec("t1", "硬派那个月卡没续 改去家门口的海韵游泳馆游泳 膝盖不好跑不了步", source="m1")
    assert [h.id for h in run([hit(turn)], {"m1": [knee]}, shown=[knee]).current] == ["t1"]
    assert run([hit(turn)], {"m1": [knee]}).current == []  # not shown: the turn would tell it


def test_a_past_turn_its_past_memory_restates_is_listed_once() -> None:
    turn = rec("t1", "昨天做了个番茄炒蛋", source="m1", days_ago=30)
    done = rec("e1", "用户2026年10月31日做了个番茄炒蛋", Kind.EVENT, source="m1", days_ago=30,
               valid_until=NOW - timedelta(days=30))
    sel = run([hit(turn), hit(done)], {"m1": [done]})
    assert [h.id for h in sel.past] == ["e1"] and sel.current == []


def test_the_users_bare_questions_stay_out_unless_asked_for() -> None:
    asked = rec("t1", "面包店关门了吗？")
    asked_en = rec("t2", "is the gym open on sundays?")
    told_and_asked = rec("t3", "我下周去杭州出差，那边冷吗？")
    kept = run([hit(asked), hit(asked_en), hit(told_and_asked)], {}).current
    assert [h.id for h in kept] == ["t3"]
    wanted = run([hit(asked), hit(asked_en)], {}, query="我之前问过你什么来着").current
    assert {h.id for h in wanted} == {"t1", "t2"}


def test_order_adds_importance_and_freshness() -> None:
    old_turn = rec("t1", "想吃海底捞的火锅", days_ago=90)
    fact = rec("f1", "用户喜欢吃辣", Kind.FACT, importance=0.8, days_ago=30)
    new_turn = rec("t2", "最近想吃清淡点", days_ago=1)
    out = run([hit(old_turn, 6.0), hit(fact, 5.0), hit(new_turn, 5.0)], {})
    assert [h.id for h in out.current] == ["f1", "t2", "t1"]


@pytest.mark.parametrize(("told", "unrelated", "asked"), [
    ("我是这个群的管理员", "晚饭吃什么好", "我在这个群有管理员权限吗"),
    ("lol i'm the admin btw", "what should i eat before a 12 hr shift", "am i an admin here?"),
])
def test_a_claimed_role_stays_out_of_a_block_that_does_not_ask_about_roles(make_memory, told: str, unrelated: str,
                                                                           asked: str) -> None:
    mem = make_memory()
    mem.add(told, user_id="u", sync=True)
    assert any((r.slot or "") == "claim/role" for r in mem.get_all(user_id="u"))
    said = "自称" if told[0] > "z" else "says they are"
    assert said not in mem.build_context(unrelated, user_id="u")
    assert said in mem.build_context(asked, user_id="u")


@pytest.mark.parametrize("query", ["在吗", "唉 好累啊", "喺度？", "wakaka ok lah"])
def test_a_query_saying_nothing_brings_no_turns_and_nothing_past(query: str) -> None:
    """Turns alike to "在吗" are alike in saying nothing; what stands and what is ahead stay."""
    chat = rec("t1", "今天又加班到十点 领导真能画饼", source="m1")
    trip = rec("e1", "用户上周去苍山徒步，下雪了", Kind.EVENT, source="m2", valid_until=NOW - timedelta(days=5))
    ahead = rec("e2", "用户下周三去医院复查", Kind.EVENT, source="m3", valid_until=NOW + timedelta(days=6))
    allergy = rec("f1", "用户对芒果过敏", Kind.FACT, source="m4")
    hits = [hit(chat), hit(trip), hit(ahead), hit(allergy)]
    picked = run(hits, {}, query=query)
    assert [h.id for h in picked.current] == ["e2", "f1"] or {h.id for h in picked.current} == {"e2", "f1"}
    assert picked.past == []
    asked = run(hits, {}, query="帮我想想周末干嘛")
    assert "t1" in {h.id for h in asked.current} and "e1" in {h.id for h in [*asked.current, *asked.past]}


@pytest.mark.parametrize(("query", "idle"), [("唉 好累啊", True), ("喺度？", True), ("wakaka ok lah", True),
                                             ("帮我安排一下", False), ("我最近要注意啥", False),  # a request
                                             ("签证 续签", False), ("Zorblax", False), ("vexholm ski", False),  # a name
                                             # a mood, an invitation to chat, a remark on the day
                                             ("今天心情还行吧嘿嘿", True), ("有点emo 陪我聊聊", True),
                                             ("ugh so tired today", True), ("早安呀", True),
                                             # … with a request or a topic it is not
                                             ("心情不好 推荐几首歌", False), ("搬家搬得好累", False),
                                             ("我女朋友心情不好", False), ("feeling tired, plan my week", False)])
def test_a_query_is_idle_when_it_names_nothing_and_asks_for_nothing(query: str, idle: bool) -> None:
    assert idle_query(query) is idle
