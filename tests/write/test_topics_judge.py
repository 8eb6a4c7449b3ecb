"""With an LLM configured, the judge sees the old memories a statement of change would close, and decides.

Against the real local OpenAI-compatible server (tests/fake_openai.py): the rules find the
candidates (the job and the employer a "handed in my notice" closes), the judge is shown
them as e1..eN and its verdict is what happens — SUPERSEDE closes the topic, ADD keeps the
old memories current, a broken reply falls back to the rules' supersession.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests/, for `import fake_openai`

from fake_openai import FakeOpenAI, Reply, chat, chat_json
from test_judge import fenced_lines, judge_requests

from jiyi import Kind, Memory
from jiyi.clock import FrozenClock
from jiyi.records import MemoryRecord, Status

MakeMemory = Callable[..., Memory]


def verdict(action: str, target: str | None, reason: str) -> Reply:
    return chat_json({"action": action, "target": target, "reason": reason})


def facts(mem: Memory) -> list[MemoryRecord]:
    return [r for r in mem.get_all(user_id="u", status=None) if r.kind is not Kind.EPISODE]


def say(mem: Memory, clock: FrozenClock, text: str, i: int) -> None:
    clock.set(clock.now() + timedelta(days=3))
    mem.add([{"role": "user", "content": text, "id": f"m{i}"}], user_id="u", sync=True)


def _judged_change(mem: Memory, clock: FrozenClock, fake: FakeOpenAI, reply: Reply) -> list[dict[str, Any]]:
    say(mem, clock, "我在华信科技当设计师", 0)
    fake.requests.clear()
    fake.push(reply)
    say(mem, clock, "那家公司我不待了，上周递了辞呈", 1)
    (req,) = judge_requests(fake)
    return fenced_lines(req.prompt)


def test_the_judge_is_shown_the_memories_the_change_would_close_and_its_supersede_closes_the_topic(
        llm_memory: MakeMemory, clock: FrozenClock, fake_openai: FakeOpenAI) -> None:
    mem = llm_memory()
    lines = _judged_change(mem, clock, fake_openai, verdict("SUPERSEDE", "e1", "用户离职了"))
    shown = {line["content"] for line in lines if line["role"] == "existing"}
    assert any("华信科技" in c for c in shown) and any("设计师" in c for c in shown), lines
    assert "辞呈" in next(line["content"] for line in lines if line["role"] == "candidate")
    records = facts(mem)
    assert not any(r.status is Status.ACTIVE and ("华信" in r.content or "设计师" in r.content) for r in records), \
        [(r.status.value, r.content) for r in records]
    closed = [r for r in records if r.status is Status.SUPERSEDED]
    assert closed and all(r.valid_until is not None for r in closed)
    assert any(h.actor == "llm" for r in closed for h in mem.history(r.id, user_id="u"))


def test_an_add_verdict_keeps_the_old_memories_current(llm_memory: MakeMemory, clock: FrozenClock,
                                                        fake_openai: FakeOpenAI) -> None:
    mem = llm_memory()
    _judged_change(mem, clock, fake_openai, verdict("ADD", None, "只是抱怨，没有离职"))
    records = facts(mem)
    assert any(r.status is Status.ACTIVE and "华信" in r.content for r in records), \
        [(r.status.value, r.content) for r in records]
    assert any(r.status is Status.ACTIVE and "辞呈" in r.content for r in records)


def test_an_unusable_verdict_falls_back_to_the_rules_supersession(llm_memory: MakeMemory, clock: FrozenClock,
                                                                  fake_openai: FakeOpenAI) -> None:
    mem = llm_memory()
    _judged_change(mem, clock, fake_openai, chat("这不是 JSON"))
    records = facts(mem)
    assert not any(r.status is Status.ACTIVE and "华信" in r.content for r in records), \
        [(r.status.value, r.content) for r in records]
    closed = [r for r in records if r.status is Status.SUPERSEDED and "华信" in r.content]
    assert closed and "LLM judge unavailable" in (mem.history(closed[0].id, user_id="u")[-1].reason or "")
