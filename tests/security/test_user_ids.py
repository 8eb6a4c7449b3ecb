"""The one user-id rule: every door refuses the same ids, so "wa1 " never becomes "wa1"."""

from __future__ import annotations

from pathlib import Path

import pytest

from jiyi.errors import InvalidInput
from jiyi.memory import Memory
from jiyi.userid import check_user_id, user_id_problem

BAD = ["wa1 ", " sp1", "wa\t1", "\twa1", "wa1\x00", "wa1\n", "\nwa1", "", "wa1\r", "wa\u200b1", "\u3000wa1",
       "wa1\u2028", "a" * 129, "wa\x7f1"]
GOOD = ["wa1", "qq1:12345", "qq1:GroupMessage:678|12345", "Alice Smith", "用户一号", "u@example.com", "a" * 128]


@pytest.mark.parametrize("bad", BAD)
def test_refused_with_a_clear_reason(bad: str) -> None:
    assert user_id_problem(bad) is not None
    with pytest.raises(InvalidInput, match="user_id"):
        check_user_id(bad)


@pytest.mark.parametrize("good", GOOD)
def test_accepted_unchanged(good: str) -> None:
    assert check_user_id(good) == good


@pytest.mark.parametrize("bad", BAD)
def test_the_python_api_refuses_every_call(tmp_path: Path, bad: str) -> None:
    with Memory(path=tmp_path / "m.db", home=tmp_path, background_worker=False, embedder="hash") as mem:
        mem.remember("用户住在杭州", user_id="wa1")
        for call in (lambda: mem.add("我住在北京", user_id=bad, sync=True),
                     lambda: mem.remember("用户住在北京", user_id=bad),
                     lambda: mem.search("住在哪", user_id=bad),
                     lambda: mem.get_all(user_id=bad),
                     lambda: mem.delete_all(user_id=bad)):
            with pytest.raises(InvalidInput):
                call()
        assert mem.users() == ["wa1"] and len(mem.get_all(user_id="wa1")) == 1


def test_langchain_adapters_use_the_rule(tmp_path: Path) -> None:
    pytest.importorskip("langchain_core")
    from jiyi.integrations.langchain import JiyiChatMessageHistory, JiyiRetriever

    with Memory(path=tmp_path / "m.db", home=tmp_path, background_worker=False, embedder="hash") as mem:
        for bad in ("wa1 ", " sp1", "a\tb", "x\x00", ""):
            with pytest.raises(ValueError):
                JiyiRetriever(memory=mem, user_id=bad)
            with pytest.raises(InvalidInput):
                JiyiChatMessageHistory(mem, user_id=bad, session_id="s1")
        assert JiyiRetriever(memory=mem, user_id="wa1").user_id == "wa1"


def test_the_astrbot_plugin_owner_ids_always_pass_the_rule() -> None:
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "integrations" / "astrbot_plugin_jiyi"))
    try:
        from scopes import Speaker, owner_id
    finally:
        sys.path.pop(0)
    ids = set()
    for sender in ("12345", "12345 ", " 12345", "12\t345", "12345\n", "x" * 300):
        for scope in ("user", "session", "persona"):
            uid = owner_id(Speaker("qq1", sender, f"qq1:GroupMessage:{sender}", persona="猫娘"), scope)
            assert user_id_problem(uid) is None, repr(uid)
            ids.add((sender, scope, uid))
    # different senders never share an owner id
    assert len({uid for _, _, uid in ids}) == len(ids)
