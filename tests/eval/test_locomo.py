"""Loading both schemas: dates, roles, captions, categories, evidence repair."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from jiyi.errors import InvalidInput
from jiyi.eval.locomo import load_dataset, parse_session_date, session_of
from jiyi.eval.run import session_messages


def test_parse_both_date_formats() -> None:
    assert parse_session_date("1:56 pm on 8 May, 2023") == datetime(2023, 5, 8, 13, 56, tzinfo=timezone.utc)
    assert parse_session_date("12:09 am on 13 September, 2023") == datetime(2023, 9, 13, 0, 9, tzinfo=timezone.utc)
    assert parse_session_date("12:30 pm on 1 Jan, 2024").hour == 12
    zh = parse_session_date("2025-03-02 09:15")
    assert zh.utcoffset() == timedelta(hours=8)
    assert zh.astimezone(timezone.utc) == datetime(2025, 3, 2, 1, 15, tzinfo=timezone.utc)
    with pytest.raises(InvalidInput):
        parse_session_date("next tuesday")


def test_locomo_schema(locomo_file: Path) -> None:
    ds = load_dataset(locomo_file)
    assert ds.schema == "locomo"
    conv = ds.conversations[0]
    assert [s.number for s in conv.sessions] == [1, 2]
    assert {t.role for s in conv.sessions for t in s.turns} == {"user"}
    photo = conv.sessions[0].turns[2]
    assert photo.text == "Look at this. [shares a photo: a photo of a violin on a wooden table]"
    cats = [q.category for q in conv.questions]
    assert cats == ["single_hop", "multi_hop", "adversarial"]
    assert conv.questions[1].evidence == ("D1:3", "D2:2")  # "D1:3; D2:2" split
    assert conv.questions[2].evidence == ("D1:1",)  # "D:1:1" repaired, "D9" dropped
    assert len(ds.audit.repaired) == 2 and len(ds.audit.unresolved) == 1


def test_zh_schema_roles_and_messages(zh_file: Path) -> None:
    ds = load_dataset(zh_file)
    assert ds.schema == "zh"
    conv = ds.conversations[0]
    roles = {t.speaker: t.role for s in conv.sessions for t in s.turns}
    assert roles == {"林晓雯": "user", "小橙": "assistant"}
    msgs = session_messages(conv.sessions[1])
    assert msgs[0] == {"role": "user", "content": "我上个月搬到杭州西湖区了，地址要改一下", "id": "D2:1",
                       "timestamp": "2025-06-10T20:40:00+08:00", "name": "林晓雯"}
    assert conv.questions[0].evidence == ("D2:1", "D1:1")  # order kept: latest first
    assert not ds.audit.repaired and not ds.audit.unresolved


def test_session_of() -> None:
    assert session_of("D12:3") == "D12"
    assert session_of("D1:30") == "D1"
