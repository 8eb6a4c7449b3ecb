"""A user's one display name is on all their messages (write/names.py), on real SQLite."""

from __future__ import annotations

from jiyi import Kind, Memory


def add(mem: Memory, content: str, name: str | None = None, user_id: str = "u") -> None:
    msg = {"role": "user", "content": content, **({"name": name} if name else {})}
    mem.add([msg], user_id=user_id, sync=True)


def speakers(mem: Memory, user_id: str = "u") -> dict[str, str | None]:
    return {r.content: r.speaker for r in mem.get_all(user_id=user_id) if r.kind is Kind.EPISODE}


def test_a_message_without_a_name_is_the_named_users_own(mem: Memory) -> None:
    add(mem, "老铁 我每天两瓶百事 冰的", name="胡大壮")
    add(mem, "可乐我戒了 一个月了")
    said = speakers(mem)
    assert said["可乐我戒了 一个月了"] == "胡大壮", said
    habit = [r for r in mem.get_all(user_id="u", status=None) if r.kind is not Kind.EPISODE and "百事" in r.content]
    assert habit and all(r.status.value != "active" for r in habit), habit  # the quitting ends it: one person


def test_with_two_names_seen_a_message_without_one_stays_unnamed(mem: Memory) -> None:
    add(mem, "我对花生过敏", name="阿A")
    add(mem, "我家猫叫团子", name="小B")
    add(mem, "今天好累啊 加班到十点")
    assert speakers(mem)["今天好累啊 加班到十点"] is None


def test_names_are_kept_per_user(mem: Memory) -> None:
    add(mem, "我住在大连", name="老周", user_id="u1")
    add(mem, "我住在青岛", user_id="u2")
    assert speakers(mem, "u2")["我住在青岛"] is None
