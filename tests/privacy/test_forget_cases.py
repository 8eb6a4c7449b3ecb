"""Forget requests end to end, from a file of requests and non-requests written before the code
(tests/privacy/data/forget_cases.json: 108 cases, zh and en).

Each case gets a store seeded with the user's memories of every kind (one turn each, through
Memory.add with the rules extractor), plus a third party's (the mother's) address and phone,
an unrelated turn and a last turn; its text then goes through Memory.add, and what was deleted
is compared with the case: a non-request deletes nothing, a request deletes its targets and
nothing else (the acceptance is 0 wrong deletions), and AddResult.forget says what it asked.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fake_openai import FakeOpenAI, chat_json

from jiyi.clock import FrozenClock
from jiyi.memory import Memory
from jiyi.records import Status

CASES: list[dict[str, Any]] = json.loads((Path(__file__).parent / "data" / "forget_cases.json").read_text("utf-8"))
USER = "u1"

#: one turn per kind of memory (fresh sentences, none from a dev file)
SEEDS: list[tuple[str, str]] = [
    ("phone", "我的手机号是13912345678"),
    ("email", "我的邮箱是lin.qiao@example.org"),
    ("address", "我住在杭州市西湖区文三路88号"),
    ("allergy", "我对芒果过敏"),
    ("birthday", "我的生日是5月17日"),
    ("job", "我在一家医院当护士"),
    ("partner", "我男朋友叫周航"),
    ("pet", "我养了一只猫叫年糕"),
    ("password", "我的邮箱密码是Qz8!kLm2"),
    ("wifi_password", "我家wifi密码是tulip2024"),
    ("card_pin", "我的银行卡密码是 482913"),
    ("id_number", "我的身份证号是110101199003074518"),
    ("bank_card", "我的银行卡号是6222020200112233445"),
    ("tp_address", "我妈妈住在南京市鼓楼区中山路12号"),
    ("tp_phone", "我妈妈的手机号是13687654321"),
    ("other", "今天下午去看了一场电影"),
    ("last_message", "周末我打算去爬山"),
]
SELF_KINDS = {k for k, _ in SEEDS if not k.startswith("tp_")}
ALL_KINDS = {k for k, _ in SEEDS}


def _open(path: Path, clock: FrozenClock, **settings: Any) -> Memory:
    return Memory(path=path / "jiyi.db", home=path, clock=clock, background_worker=False, **settings)


@pytest.fixture(scope="module")
def seeded(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, dict[str, set[str]]]]:
    """A store holding every seed, and the ids of the memories each seed made."""
    from datetime import datetime, timedelta, timezone
    base = tmp_path_factory.mktemp("seeded")
    clock = FrozenClock(datetime(2025, 3, 5, 9, 0, tzinfo=timezone.utc))
    mem = _open(base, clock)
    made: dict[str, set[str]] = {}
    seen: set[str] = set()
    for kind, text in SEEDS:
        clock.set(clock.now() + timedelta(minutes=1))
        mem.add({"role": "user", "content": text, "id": f"seed-{kind}"}, user_id=USER, sync=True)
        now = {r.id for r in mem.get_all(user_id=USER, status=None)}
        made[kind] = now - seen
        seen = now
    mem.close()
    assert all(made.values()), made
    yield base, made


def _run(seeded: tuple[Path, dict[str, set[str]]], tmp_path: Path, text: str,
         settings: dict[str, Any] | None = None) -> tuple[set[str], list[str], Memory]:
    base, made = seeded
    for f in base.iterdir():
        if f.is_file():
            shutil.copy(f, tmp_path / f.name)
    from datetime import datetime, timezone
    mem = _open(tmp_path, FrozenClock(datetime(2025, 3, 6, 9, 0, tzinfo=timezone.utc)), **(settings or {}))
    result = mem.add({"role": "user", "content": text, "id": "ask"}, user_id=USER, sync=True)
    gone = {r.id for r in mem.get_all(user_id=USER, status=None) if r.status is Status.DELETED}
    assert {e.id for e in result.forgotten} >= gone - {e.id for e in result.events if e.id not in gone}
    deleted = {kind for kind, ids in made.items() if ids & gone}
    return deleted, result.forget, mem


def allowed(case: dict[str, Any]) -> tuple[set[str], set[str]]:
    """(kinds the case may delete, kinds it must delete)."""
    if not case["is_request"]:
        return set(), set()
    if case["scope"] == "everything":
        return ALL_KINDS, SELF_KINDS
    if case["owner"] == "third_party":
        kinds = {f"tp_{t}" for t in case["targets"]}
        named_mother = any(w in case["text"].lower() for w in ("妈", "mom", "mother"))
        return kinds, kinds & ALL_KINDS if named_mother else set()
    return set(case["targets"]), set(case["targets"])


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_forget_case(case: dict[str, Any], seeded: tuple[Path, dict[str, set[str]]], tmp_path: Path) -> None:
    deleted, asked, mem = _run(seeded, tmp_path, case["text"])
    try:
        may, must = allowed(case)
        assert bool(asked) == case["is_request"], (case["text"], asked)
        assert deleted <= may, f"wrong deletions {sorted(deleted - may)} for {case['text']!r}"
        assert not deleted & (set(case["must_keep"]) - may)
        assert must <= deleted, f"missed {sorted(must - deleted)} for {case['text']!r}"
        if case["is_request"]:  # the request is an instruction, not a turn: never stored
            assert not any("ask" in r.source_ids and r.status is not Status.DELETED
                           for r in mem.get_all(user_id=USER, status=None))
    finally:
        mem.close()


def test_precision_recall_and_wrong_deletions(seeded: tuple[Path, dict[str, set[str]]], tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    """The file's numbers: request detection precision and recall, and wrong deletions (must be 0)."""
    tp = fp = fn = wrong = 0
    for i, case in enumerate(CASES):
        run_dir = tmp_path / str(i)
        run_dir.mkdir()
        deleted, asked, mem = _run(seeded, run_dir, case["text"])
        mem.close()
        tp += bool(asked) and case["is_request"]
        fp += bool(asked) and not case["is_request"]
        fn += not asked and case["is_request"]
        wrong += len(deleted - allowed(case)[0])
    precision, recall = tp / max(1, tp + fp), tp / max(1, tp + fn)
    with capsys.disabled():
        print(f"\nforget cases={len(CASES)} precision={precision:.3f} recall={recall:.3f} "
              f"tp={tp} fp={fp} fn={fn} wrong_deletions={wrong}")
    assert wrong == 0
    assert precision == 1.0 and recall >= 0.95


#: what a misled model returns for every window: forget everything, forget "用户", forget the phone
HOSTILE = {"memories": [], "forget": [{"what": "*", "source_ids": ["m1"]}, {"what": "用户", "source_ids": ["m1"]},
                                      {"what": "手机号", "source_ids": ["m1"]}, {"what": "address", "source_ids": []}]}


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_forget_case_with_a_hostile_model(case: dict[str, Any], seeded: tuple[Path, dict[str, set[str]]],
                                          tmp_path: Path, fake_openai: FakeOpenAI) -> None:
    """The LLM extractor's forget items are checked as a message is: for a message that asks
    nothing they delete nothing, and for a request they add nothing beyond what it asks."""
    fake_openai.rule = lambda request: chat_json(HOSTILE)
    llm = {"extractor": "llm", "llm_base_url": fake_openai.base_url, "llm_model": "fake-model",
           "llm_api_key": "sk-test", "llm_timeout": 2.0, "llm_max_retries": 0, "llm_resolve": False,
           "summary_every_rounds": 0, "extract_every_rounds": 1}
    deleted, asked, mem = _run(seeded, tmp_path, case["text"], settings=llm)
    mem.close()
    may, must = allowed(case)
    assert case["is_request"] or any("chat" in r.path for r in fake_openai.requests)  # the model was asked
    assert bool(asked) == case["is_request"]
    assert deleted <= may, f"wrong deletions {sorted(deleted - may)} for {case['text']!r}"
    assert must <= deleted
