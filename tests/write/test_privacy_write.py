"""Secrets and personal values through the whole write and read path, on a real SQLite file.

Raw turns are masked and take the level of what they say; secrets never reach a block
or a search; with a key, values are sealed and opened for the owner; the database file's
bytes never hold a secret; forget by message deletes what it names, for its sender only.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from jiyi.maintain.reseal import reseal
from jiyi.memory import Memory
from jiyi.privacy.seal import Keyring, generate_key
from jiyi.records import EventType, Kind, Status, Visibility

MakeMemory = Callable[..., Memory]

SECRETS = {  # what a user says → the value that must never be stored in clear nor reach a prompt
    "记住我的支付密码是 884422": "884422",
    "我的银行卡号是 6222 0212 3456 7890 128": "6222 0212 3456 7890 128",
    "家里 WiFi 密码是 qwerty789": "qwerty789",
    "My bank PIN is 4321": "4321",
    "my API key is sk-proj-abcdEFGH1234ijklMNOP5678": "sk-proj-abcdEFGH1234ijklMNOP5678",
    "验证码 384912，五分钟内有效": "384912",
}
SENSITIVE = {
    "我的手机号是13912345678": "13912345678",
    "我的身份证号是11010519491231002X": "11010519491231002X",
    "我家住在上海市浦东新区张江路123号5栋2单元301室": "张江路123号",
}
QUERIES = ["推荐一家餐厅", "我的支付密码是多少", "what is my PIN", "我的银行卡号", "wifi密码", "my API key",
           "验证码是多少", "帮我订个外卖"]


@pytest.fixture
def memory(make_memory: MakeMemory) -> MakeMemory:
    def make(**config: Any) -> Memory:
        return make_memory(**{"embedder": "hash", **config})
    return make


def say_all(mem: Memory, texts: list[str], user: str = "u1") -> None:
    for i, text in enumerate(texts):
        mem.add({"role": "user", "content": text, "id": f"{user}-{i}"}, user_id=user, session_id="s", sync=True)
    mem.add("我喜欢吃川菜，也爱喝奶茶", user_id=user, session_id="s", sync=True)


def file_bytes(path: Path) -> bytes:
    return b"".join(p.read_bytes() for p in path.parent.glob(path.name + "*"))


def holds(data: bytes, value: str) -> bool:
    """Is ``value`` in ``data`` as written text, not as a run inside a longer word or number?

    "4321" turns up by chance inside timestamps' microseconds (…09.843210) and hex ids; a value
    stored in clear is bordered by what was typed around it (a space, punctuation, a CJK character).
    """
    return re.search(rb"(?<![0-9A-Za-z])" + re.escape(value.encode()) + rb"(?![0-9A-Za-z])", data) is not None


@pytest.mark.parametrize("keyed", [False, True])
def test_secrets_never_reach_a_block_or_a_search(memory: MakeMemory, keyed: bool) -> None:
    mem = memory(**({"encryption_key": generate_key()} if keyed else {}))
    say_all(mem, [*SECRETS, *SENSITIVE])
    for query in QUERIES:
        for sensitive in (False, True):
            block = mem.build_context(query, user_id="u1", include_sensitive=sensitive)
            hits = mem.search(query, user_id="u1", include_sensitive=sensitive)
            shown = block + "".join(h.content for h in hits)
            for value in SECRETS.values():
                assert value not in shown, (query, value)
            assert all(h.record.visibility is not Visibility.SECRET for h in hits)
            if not sensitive and query in ("推荐一家餐厅", "帮我订个外卖"):  # unrelated: no sensitive value either
                assert "13912345678" not in shown and "11010519491231002X" not in shown
    assert "川菜" in mem.build_context("推荐一家餐厅", user_id="u1")  # the ordinary memory still comes


@pytest.mark.parametrize("keyed", [False, True])
def test_raw_turns_are_masked_and_inherit_the_level(memory: MakeMemory, keyed: bool) -> None:
    mem = memory(**({"encryption_key": generate_key()} if keyed else {}))
    mem.add({"role": "user", "content": "记住我的支付密码是 884422", "id": "p1"}, user_id="u1", sync=True)
    mem.add({"role": "user", "content": "我的手机号是13912345678", "id": "p2"}, user_id="u1", sync=True)
    store = mem.store
    from jiyi.records import Scope
    raw = {r.source_ids[0]: r for r in store.list(Scope("default", "u1"), _every()) if r.kind is Kind.EPISODE}
    assert raw["p1"].content == "记住我的支付密码是 [已隐藏:支付密码]" and raw["p1"].visibility is Visibility.SECRET
    assert raw["p2"].visibility is Visibility.SENSITIVE
    assert ("13912345678" in raw["p2"].content) is not keyed  # without a key a sensitive value is kept as typed
    facts = [r for r in mem.get_all(user_id="u1") if r.kind is not Kind.EPISODE]
    secret = next(r for r in facts if r.visibility is Visibility.SECRET)
    assert secret.slot == "secret/支付密码"
    # the owner reads the value back with the key; without one it was never kept
    assert ("884422" in secret.content) is keyed
    assert all("884422" not in r["content"] for r in mem.recent_messages(user_id="u1"))


def _every() -> Any:
    from jiyi.stores.protocol import RecordFilter
    return RecordFilter(statuses=None)


def test_findable_on_purpose(memory: MakeMemory) -> None:
    for config in ({}, {"encryption_key": generate_key()}):
        mem = memory(path=None, **config)
        say_all(mem, list(SENSITIVE), user=f"u{len(config)}")
        hits = mem.search("我的手机号是多少", user_id=f"u{len(config)}", include_sensitive=True)
        assert any("13912345678" in h.content for h in hits[:3])
        block = mem.build_context("我的手机号是多少", user_id=f"u{len(config)}", include_sensitive=True)
        assert "13912345678" in block


@pytest.mark.parametrize("keyed", [False, True])
def test_no_plaintext_secret_in_the_database_file(memory: MakeMemory, tmp_path: Path, keyed: bool) -> None:
    path = tmp_path / "bytes.db"
    mem = memory(path=path, **({"encryption_key": generate_key()} if keyed else {}))
    say_all(mem, [*SECRETS, *SENSITIVE])
    mem.add("I changed my password to s3cret!pass", user_id="u1", sync=False)  # waits in the queue
    mem.close()
    data = file_bytes(path)
    for value in SECRETS.values():
        assert not holds(data, value), value
    assert not holds(data, "s3cret!pass")
    for value in SENSITIVE.values():  # sensitive values: sealed with a key, kept as typed without
        assert (value.encode() in data) is not keyed, value


def test_remember_update_export_import(memory: MakeMemory, tmp_path: Path) -> None:
    key = generate_key()
    mem = memory(encryption_key=key)
    rec = mem.remember("用户的门禁密码是 2580", user_id="u1")
    assert rec.visibility is Visibility.SECRET and "2580" in rec.content  # the owner's own read
    stored = mem.store.get(rec.scope, rec.id)
    assert stored is not None and "2580" not in stored.content and "sealed" in stored.metadata
    edited = mem.update(rec.id, "用户的门禁密码是 1379", user_id="u1")
    stored = mem.store.get(rec.scope, rec.id)
    assert stored is not None and "1379" not in stored.content and "1379" in edited.content
    assert all("1379" not in (h.new or "") + (h.old or "") for h in mem.history(rec.id, user_id="u1"))
    rows = list(mem.export(user_id="u1"))
    assert any("1379" in r["content"] for r in rows) and all("sealed" not in r["metadata"] for r in rows)
    other = memory(path=tmp_path / "other.db")  # no key: the imported secret is masked, not kept
    other.import_([{**r, "user_id": "u9"} for r in rows])
    (got,) = [r for r in other.get_all(user_id="u9", status=None)]
    assert "1379" not in got.content and got.visibility is Visibility.SECRET


def test_rotation_and_reseal(memory: MakeMemory, tmp_path: Path) -> None:
    old, new = generate_key(), generate_key()
    path = tmp_path / "rot.db"
    mem = memory(path=path, encryption_key=old)
    say_all(mem, ["记住我的支付密码是 884422", "我的手机号是13912345678"])
    mem.close()
    rotated = memory(path=path, encryption_key=f"{new},{old}")  # new first: it seals, the old one still opens
    assert any("884422" in r.content for r in rotated.get_all(user_id="u1"))
    report = reseal(rotated.store, rotated.embedder, Keyring.from_text(f"{new},{old}"), rotated.clock.now())
    assert report.resealed >= 3 and report.masked == 0
    rotated.close()
    only_new = memory(path=path, encryption_key=new)
    assert any("884422" in r.content for r in only_new.get_all(user_id="u1"))
    only_old = memory(path=path, encryption_key=old)  # the old key alone opens nothing now
    assert not any("884422" in r.content for r in only_old.get_all(user_id="u1"))


def test_reseal_masks_values_stored_before_a_key(memory: MakeMemory, tmp_path: Path) -> None:
    path = tmp_path / "late.db"
    mem = memory(path=path)
    say_all(mem, ["我的手机号是13912345678"])
    mem.close()
    key = generate_key()
    keyed = memory(path=path, encryption_key=key)
    report = reseal(keyed.store, keyed.embedder, Keyring.from_text(key), keyed.clock.now())
    assert report.masked >= 2
    assert any("13912345678" in h.content for h in keyed.search("我的手机号是多少", user_id="u1",
                                                                include_sensitive=True))
    keyed.close()
    from jiyi.records import Scope
    with Memory(path=path, embedder="hash", background_worker=False) as plain:
        assert all("13912345678" not in r.content for r in plain.store.list(Scope("default", "u1"), _every()))


# ---------------------------------------------------------------- forget by message

@pytest.mark.parametrize(("said", "request_", "gone", "kept"), [
    ("我家住在上海市浦东新区张江路123号", "忘记我的住址", "张江路", "川菜"),
    ("My address is 42 Wallaby Way, Sydney", "forget my address", "Wallaby", "川菜"),
    ("我的手机号是13912345678", "把我的手机号删了", "1391234", "川菜"),
    ("my phone number is (415) 555-0132", "Please delete my phone number.", "555-0132", "川菜"),
])
def test_forget_by_message(memory: MakeMemory, said: str, request_: str, gone: str, kept: str) -> None:
    mem = memory()
    say_all(mem, [said])
    say_all(mem, [said], user="u2")  # another user with the same data
    result = mem.add({"role": "user", "content": request_, "id": "f1"}, user_id="u1", session_id="s", sync=True)
    assert result.forget and result.forgotten
    assert any(gone in e.memory for e in result.forgotten) or mem.keyring is not None
    left = mem.get_all(user_id="u1", status=None)
    assert all(gone not in r.content for r in left if r.status is not Status.DELETED)
    assert any(kept in r.content for r in left if r.status is Status.ACTIVE)
    assert not any(request_ in r.content for r in left)  # the request itself is not a memory
    assert not any(request_ in m["content"] for m in mem.recent_messages(user_id="u1"))
    deleted = next(r for r in left if r.status is Status.DELETED)
    (event,) = [h for h in mem.history(deleted.id, user_id="u1") if h.event is EventType.DELETE]
    assert event.reason is not None and event.reason.startswith("forgotten by message") and event.actor == "user"
    other = mem.get_all(user_id="u2")  # never another user
    assert any(gone in r.content for r in other)
    assert mem.search(gone, user_id="u1", include_sensitive=True) == [] or all(
        gone not in h.content for h in mem.search(gone, user_id="u1", include_sensitive=True))


@pytest.mark.parametrize("request_", ["忘记我说过的所有话", "forget everything"])
def test_forget_everything_is_reported_and_scoped(memory: MakeMemory, request_: str) -> None:
    mem = memory()
    say_all(mem, ["我家住在上海市浦东新区张江路123号", "我对花生过敏"])
    say_all(mem, ["我对花生过敏"], user="u2")
    before = len(mem.get_all(user_id="u1"))
    result = mem.add(request_, user_id="u1", sync=True)
    assert result.forget == ["everything"] and len(result.forgotten) == before
    assert mem.get_all(user_id="u1") == [] and mem.recent_messages(user_id="u1") == []
    assert mem.get_all(user_id="u2") != []
    assert mem.build_context("我能吃花生吗", user_id="u1") == ""


def test_async_add_names_the_request_at_once(memory: MakeMemory) -> None:
    mem = memory()
    say_all(mem, ["我的邮箱是 zhang.san@example.com"])
    result = mem.add("不要记我的邮箱了", user_id="u1")
    assert result.pending and result.forget == ["email"] and result.forgotten == []
    assert mem.flush(30)
    assert all("zhang.san" not in r.content for r in mem.get_all(user_id="u1"))


def test_a_value_told_sensitive_stays_so_in_what_is_made_of_it(memory: MakeMemory) -> None:
    """The keyword stays behind in the turn ("passport no."), the number goes on into a memory: still sensitive."""
    mem = memory()
    say_all(mem, ["can you fill the renewal form? passport no. R5520913K, it expires in april 2027"])
    made = [r for r in mem.get_all(user_id="u1") if "R5520913K" in r.content]
    assert made and all(r.visibility.value == "sensitive" for r in made), [(r.kind, r.visibility, r.content) for r in made]
    assert "R5520913K" not in mem.build_context("help me plan a weekend trip", user_id="u1")
