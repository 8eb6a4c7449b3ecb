"""normalize_candidates gives every plan an end, whatever extractor proposed it."""

from __future__ import annotations

from datetime import datetime, timezone

from jiyi.extractors.protocol import Candidate
from jiyi.records import Kind
from jiyi.write.normalize import normalize_candidates

SAID = datetime(2025, 3, 5, 10, tzinfo=timezone.utc)


def _event(content: str = "用户2025年3月12日要去深圳出差", **kw: object) -> Candidate:
    return Candidate(content=content, kind=Kind.EVENT, **kw)  # type: ignore[arg-type]


def test_a_plan_without_expiry_expires_when_its_window_ends() -> None:
    end = datetime(2025, 3, 13, tzinfo=timezone.utc)
    (c,) = normalize_candidates([_event(valid_until=end)], said_at=SAID)
    assert c.expires_at == end


def test_a_past_event_an_explicit_expiry_and_a_fact_are_left_alone() -> None:
    past = _event("用户2025年2月28日去了三亚", valid_until=datetime(2025, 3, 1, tzinfo=timezone.utc))
    own = _event(valid_until=datetime(2025, 3, 13, tzinfo=timezone.utc), expires_at=datetime(2025, 3, 20, tzinfo=timezone.utc))
    fact = Candidate(content="用户住在杭州", kind=Kind.FACT, valid_until=datetime(2025, 4, 1, tzinfo=timezone.utc))
    out = normalize_candidates([past, own, fact], said_at=SAID)
    assert [c.expires_at for c in out] == [None, datetime(2025, 3, 20, tzinfo=timezone.utc), None]


def test_without_a_time_nothing_is_guessed() -> None:
    (c,) = normalize_candidates([_event(valid_until=datetime(2025, 3, 13, tzinfo=timezone.utc))])
    assert c.expires_at is None
