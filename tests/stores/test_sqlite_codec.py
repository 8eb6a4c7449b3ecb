"""The SQLite row codec: its shortcuts decode exactly what the general path does."""

from __future__ import annotations

import json
from datetime import datetime, timezone

from hypothesis import given
from hypothesis import strategies as st

from jiyi.records import Kind, MemoryRecord, Status, Visibility
from jiyi.stores.sqlite.codec import (
    SELECT_MEMORY,
    _json_tuple,
    _string_tuple,
    record_row,
    row_record,
)

TEXT = st.lists(st.sampled_from(['a', '用', '"', '\\', ',', ' ', '", "', '["', '"]', '\x00', '\n', 'é']),
                max_size=6).map("".join)


@given(st.lists(TEXT, max_size=5).map(tuple))
def test_string_tuples_decode_like_json(values: tuple[str, ...]) -> None:
    encoded = _json_tuple(values)
    assert _string_tuple(encoded) == tuple(json.loads(encoded)) == values


def test_foreign_json_lists_still_decode() -> None:
    assert _string_tuple('["a","b"]') == ("a", "b")  # no space after the comma: json.loads path
    assert _string_tuple('[ "a" ]') == ("a",)
    assert _string_tuple("[]") == ()


@given(st.lists(TEXT, max_size=3).map(tuple), st.dictionaries(TEXT, TEXT, max_size=2))
def test_a_record_survives_its_row(entities: tuple[str, ...], metadata: dict[str, str]) -> None:
    at = datetime(2025, 3, 1, 12, 30, 5, 123456, tzinfo=timezone.utc)
    rec = MemoryRecord(id="m1", tenant="t", user_id="u", content="用户住在杭州", kind=Kind.FACT, created_at=at,
                       updated_at=at, entities=entities, source_ids=entities[:1], links=entities[1:],
                       status=Status.SUPERSEDED, visibility=Visibility.SENSITIVE, valid_from=at, metadata=metadata)
    row = record_row(rec)
    assert len(SELECT_MEMORY.split(", ")) == len(row)
    assert row_record(row) == rec
