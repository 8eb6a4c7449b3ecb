"""A user's one display name is the user (write/names.py), on real SQLite."""

from __future__ import annotations

from jiyi import Kind, Memory
from jiyi.records import Status


def msg(content: str, name: str | None = None) -> dict[str, str]:
    return {"role": "user", "content": content, **({"name": name} if name else {})}


def speakers(mem: Memory, user_id: str = "u") -> dict[str, str | None]:
    return {r.content: r.speaker for r in mem.get_all(user_id=user_id) if r.kind is Kind.EPISODE}


def test_a_name_on_some_of_a_users_messages_is_the_user(mem: Memory) -> None:
    """胡大壮 on the first turn of a chat and on no other: one person, whose quitting ends their habit."""
    mem.add([msg("老铁 我每天两瓶百事 冰的", "胡大壮"), msg("白天在物流公司做调度")], user_id="u", sync=True)
    mem.add([msg("可乐我戒了 一个月了")], user_id="u", sync=True)
    assert set(speakers(mem).values()) == {None}, speakers(mem)
    habit = [r for r in mem.get_all(user_id="u", status=None) if r.kind is not Kind.EPISODE and "百事" in r.content]
    assert habit and all(r.status is not Status.ACTIVE for r in habit), habit
    assert any(r.content.startswith("用户") and "可乐" in r.content for r in mem.get_all(user_id="u"))


def test_names_on_every_message_are_kept(mem: Memory) -> None:
    """A group chat stored under one id, its senders added one message at a time: each keeps their name."""
    for content, name in (("我对花生过敏", "阿A"), ("我家猫叫团子", "小B"), ("今天好累啊 加班到十点", "阿A")):
        mem.add([msg(content, name)], user_id="u", sync=True)
    assert speakers(mem) == {"我对花生过敏": "阿A", "我家猫叫团子": "小B", "今天好累啊 加班到十点": "阿A"}


def test_with_two_names_seen_a_name_is_kept_and_a_message_without_one_is_the_users(mem: Memory) -> None:
    mem.add([msg("我对花生过敏", "阿A"), msg("我家猫叫团子", "小B"), msg("今天好累啊")], user_id="u", sync=True)
    assert speakers(mem) == {"我对花生过敏": "阿A", "我家猫叫团子": "小B", "今天好累啊": None}


def test_names_are_kept_per_user(mem: Memory) -> None:
    mem.add([msg("我住在大连", "老周"), msg("在港口上班")], user_id="u1", sync=True)
    mem.add([msg("我住在青岛", "小林")], user_id="u2", sync=True)
    assert speakers(mem, "u1")["我住在大连"] is None and speakers(mem, "u2")["我住在青岛"] == "小林"


def test_a_place_in_the_display_name_is_no_place_the_user_names(mem: Memory) -> None:
    """苏州老周 selling the Suzhou flat ends what was said of Suzhou, not every memory that opens with the name."""
    told = [msg(t, "苏州老周") for t in ("我是中学的物理老师", "我有高血压 好多年了", "每天早上吃降压药")]
    mem.add(told, user_id="u", sync=True)
    mem.add([msg("苏州的房子卖了 搬去女儿那边住", "苏州老周")], user_id="u", sync=True)
    kept = {r.content for r in mem.get_all(user_id="u") if r.kind is not Kind.EPISODE}
    assert any("物理老师" in c for c in kept) and any("高血压" in c for c in kept), kept


def test_two_memories_alike_only_by_the_display_name_are_not_merged(mem: Memory) -> None:
    """With the name "今天也要早睡的阿梅" before each, a diagnosis and a daily injection embed as near duplicates
    (e5 cosine 0.988, above its 0.98); without it they do not (0.956): both are kept."""
    mem.add([msg("我有糖尿病 好几年了", "今天也要早睡的阿梅"), msg("每天打胰岛素", "今天也要早睡的阿梅")], user_id="u",
            sync=True)
    kept = {r.content for r in mem.get_all(user_id="u") if r.kind is not Kind.EPISODE}
    assert any("糖尿病" in c for c in kept) and any("胰岛素" in c for c in kept), kept
