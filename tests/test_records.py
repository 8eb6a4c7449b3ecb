"""The memory record itself: ``replace`` behaves as ``dataclasses.replace``."""

from __future__ import annotations

import dataclasses
from datetime import datetime, timezone

import pytest

from jiyi.records import Kind, MemoryRecord, Status

T0 = datetime(2025, 3, 5, 9, 0, tzinfo=timezone.utc)


def test_replace_copies_every_field_but_the_changed_ones() -> None:
    rec = MemoryRecord("a", "acme", "alice", "用户对花生过敏", Kind.FACT, T0, T0, entities=("花生",),
                       source_ids=("m1",), metadata={"role": "user"}, strength=1.4)
    new = rec.replace(hit_count=3, status=Status.SUPERSEDED)
    assert new == dataclasses.replace(rec, hit_count=3, status=Status.SUPERSEDED)
    assert (rec.hit_count, rec.status) == (0, Status.ACTIVE)  # the original is untouched
    assert new.metadata is rec.metadata and rec.replace() == rec and rec.replace() is not rec
    with pytest.raises(dataclasses.FrozenInstanceError):
        new.content = "x"  # type: ignore[misc]


def test_replace_refuses_an_unknown_field() -> None:
    rec = MemoryRecord("a", "acme", "alice", "x", Kind.FACT, T0, T0)
    with pytest.raises(TypeError, match="no field colour"):
        rec.replace(colour="red")
