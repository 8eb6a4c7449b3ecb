"""Query understanding: the "current state" intent that makes newer memories win."""

from __future__ import annotations

from datetime import datetime, timezone

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
