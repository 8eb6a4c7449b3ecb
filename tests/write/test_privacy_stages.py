"""The episode and buffer stages mask a secret on their own, whoever calls them."""

from __future__ import annotations

from datetime import datetime, timezone
from pathlib import Path

from jiyi.records import Message, Scope, Visibility
from jiyi.stores.sqlite.store import SQLiteStore
from jiyi.write.buffer import push_to_buffer, read_buffer
from jiyi.write.episodes import draft_episodes

T = datetime(2025, 3, 5, tzinfo=timezone.utc)
SCOPE = Scope("t", "u1")


def test_episodes_mask_and_take_the_level() -> None:
    msgs = [Message("user", "my PIN is 4321", T, id="m1"), Message("user", "call me at 138 1234 5678", T, id="m2"),
            Message("user", "I like tea", T, id="m3")]
    drafts = draft_episodes(msgs, scope=SCOPE, session_id=None, agent_id=None, previous=None, now=T)
    assert [d.record.visibility for d in drafts] == [Visibility.SECRET, Visibility.SENSITIVE, Visibility.NORMAL]
    assert drafts[0].record.content == "my PIN is [secret: PIN]" and "4321" not in drafts[0].content_text
    assert "4321" not in drafts[1].context_text


def test_buffer_masks_and_skips_forget_requests(tmp_path: Path) -> None:
    store = SQLiteStore(tmp_path / "b.db")
    try:
        push_to_buffer(store, SCOPE, "s", [Message("user", "密码是884422", T, id="m1"),
                                           Message("user", "忘记我的住址", T, id="m2"),
                                           Message("assistant", "好的", T, id="m3")], rounds=4)
        assert [i["content"] for i in read_buffer(store, SCOPE)] == ["密码是[已隐藏:密码]", "好的"]
    finally:
        store.close()
