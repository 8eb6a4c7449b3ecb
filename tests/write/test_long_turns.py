"""A long message is kept as several episodes, so its end stays findable."""

from __future__ import annotations

from jiyi.memory import Memory
from jiyi.records import Kind


def test_a_long_message_becomes_several_episodes_of_one_turn(mem: Memory) -> None:
    filler = "今天的会议讨论了很多关于季度预算和人员安排的细节问题。" * 60
    text = filler + "另外，我的护照号码放在书房左边第二个抽屉里。"
    mem.add([{"role": "user", "content": text, "id": "long-1"}], user_id="u1", sync=True)
    episodes = [r for r in mem.get_all(user_id="u1", kinds=[Kind.EPISODE], limit=100)]
    assert len(episodes) >= len(text) // 500
    assert all(r.source_ids == ("long-1",) and len(r.content) <= 500 for r in episodes)
    assert "".join(sorted((r.content for r in episodes), key=text.index)) == text
    hits = mem.search("护照放在哪个抽屉", user_id="u1", limit=3)
    assert any("护照" in h.content for h in hits)
    # the same message again adds nothing
    mem.add([{"role": "user", "content": text, "id": "long-1"}], user_id="u1", sync=True)
    assert len(mem.get_all(user_id="u1", kinds=[Kind.EPISODE], limit=100)) == len(episodes)
