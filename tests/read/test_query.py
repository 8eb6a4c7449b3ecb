"""Query understanding: the "current state" intent that makes newer memories win."""

from __future__ import annotations

from datetime import datetime, timezone
from zoneinfo import ZoneInfo

import pytest

from jiyi.read.query import analyze_query

REF = datetime(2025, 6, 1, tzinfo=timezone.utc)


@pytest.mark.parametrize("text", ["用户现在住在哪里？", "用户目前的手机号是多少", "他还喝咖啡吗？", "用户最新的排名是多少",
                                  "Where does Caroline live now?", "Is John still playing basketball?",
                                  "What is her current job?"])
def test_current_state_questions(text: str) -> None:
    assert analyze_query(text, ref=REF).wants_current


@pytest.mark.parametrize("text", ["用户喜欢喝什么咖啡？", "What did Caroline paint in May 2023?", "Who is Nowak?"])
def test_other_questions(text: str) -> None:
    assert not analyze_query(text, ref=REF).wants_current


def test_relative_days_in_a_query_follow_the_users_zone() -> None:
    """上周三 asked just after midnight in Shanghai is last week of the Shanghai calendar."""
    ref = datetime(2025, 3, 9, 16, 30, tzinfo=timezone.utc)  # Monday 2025-03-10 00:30 in Shanghai
    local = analyze_query("我上周三说了什么", ref=ref, tz=ZoneInfo("Asia/Shanghai")).spans[0]
    assert local.start == datetime(2025, 3, 5, tzinfo=ZoneInfo("Asia/Shanghai"))
    utc = analyze_query("我上周三说了什么", ref=ref).spans[0]  # Sunday in UTC: the week before
    assert utc.start == datetime(2025, 2, 26, tzinfo=timezone.utc)
