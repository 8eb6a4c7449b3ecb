"""A promotion told as news names the user's new title (``user/job``)."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from jiyi.extractors.rules import RulesExtractor
from jiyi.records import Message

AT = datetime(2026, 10, 8, 4, 0, tzinfo=timezone.utc)


def jobs(text: str) -> list[str]:
    found = RulesExtractor().extract([Message(role="user", content=text, timestamp=AT)])
    return [c.content for c in found if c.slot == "user/job"]


@pytest.mark.parametrize(("text", "title"), [
    ("升职啦！现在是调度主管了 手下管六个人", "调度主管"),
    ("升组长了 哈哈哈", "组长"),
    ("被提拔成店长了 压力山大", "店长"),
    ("今年终于当上护士长了", "护士长"),
    ("guess who got promoted. senior analyst now, finally", "senior analyst"),
    ("got promoted to team lead!", "team lead"),
    ("got promoted!! QA lead now, 4 people under me", "QA lead"),
    ("升咗做 manager 啦 下个月生效", "manager"),                 # Cantonese, a title in Latin letters
])
def test_a_promotion_names_the_new_title(text: str, title: str) -> None:
    assert any(title in j for j in jobs(text)), jobs(text)


@pytest.mark.parametrize("text", [
    "同事升主管了 我还是老样子",  # someone else's
    "他当上班长了",
    "想升主管 好难",  # a wish
    "升职加薪了 开心",  # no title
    "my boss got promoted to director",
    "hoping to get promoted to manager this year",
    "did you get promoted to lead?",
    "体温升了 有点烧",
])
def test_what_names_no_promotion_of_the_user_gives_no_title(text: str) -> None:
    assert jobs(text) == []
