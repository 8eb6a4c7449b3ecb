"""A new job told in parts (an offer, a start date, 报到) names the user's employer, from the day it starts."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from jiyi.extractors.rules import RulesExtractor
from jiyi.records import Message

AT = datetime(2026, 10, 8, 4, 0, tzinfo=timezone.utc)


def employer(text: str) -> list[tuple[str, datetime | None]]:
    found = RulesExtractor().extract([Message(role="user", content=text, timestamp=AT)])
    return [(c.content, c.valid_from) for c in found if c.slot == "user/employer"]


@pytest.mark.parametrize(("text", "org"), [
    ("下个月3号去京东物流报到 岗位是仓储主管", "京东"),
    ("offer收到了！下周一去小米上班", "小米"),
    ("offer也拿到了，盘龙区那家医院，下周一正式上班", "盘龙区那家医院"),  # ("offer" read as a name leads no clause)
    ("got the offer from lanternfish games. start date nov 2", "lanternfish games"),
    ("Starting at Copperleaf Health on the 20th, finally", "Copperleaf Health"),
    ("yo i got the spot at ridgeway outfitters, the climbing shop downtown", "ridgeway outfitters"),
])
def test_a_job_started_names_the_employer(text: str, org: str) -> None:
    found = employer(text)
    assert len(found) == 1 and org in found[0][0], found


def test_a_start_on_a_day_to_come_holds_from_that_day() -> None:
    [(content, since)] = employer("got the offer from lanternfish games. start date nov 2")
    assert since is not None and since.astimezone(timezone.utc).date().isoformat() >= "2026-11-01", (content, since)


@pytest.mark.parametrize("text", [
    "didn't get the offer from lanternfish games in the end",  # denied
    "my brother is starting at Copperleaf Health next week",  # someone else's
    "如果拿到字节的offer我就去报到",  # hedged
    "starting at 9am tomorrow, wish me luck",  # a time, no employer
    "明天去公司上班吗",  # asked
    "被浙大录取了 下个月报到",  # a school: an admission, no job
    "first weeks at the new place: intense but good",  # the workplace not named
    "大后天飞上海 入职培训三天 第一次见同事本人",  # a training for the job, no employer named
    "got the offer! So happy",  # a feeling after the offer, no name listed
    "My sister started Monday at Google",  # someone else's job
    "started yesterday at the gym, legs dead",
])
def test_what_names_no_new_job_of_the_user_gives_no_employer(text: str) -> None:
    assert employer(text) == []


@pytest.mark.parametrize(("text", "org"), [
    ("3 weeks at Tidemark Labs now, chaos but fun", "Tidemark Labs"),  # time there tells the job
    ("first day at Harrow Dental done, feet are dead", "Harrow Dental"),
    ("signed full time with Brightwell, a Leeds startup", "Brightwell"),
    ("offer到手了！高新区那家游戏公司，下周一正式上班", "高新区那家游戏公司"),  # pointed at by where it is and its noun
    ("signed the offer!! Tidewell, infra team, starting nov 2", "Tidewell"),  # the name listed after the offer
    ("Started Monday at SportsFix in Sandyford, mostly rugby lads", "SportsFix"),  # a day between the verb and its place
    ("Starting next week at Harbourline", "Harbourline"),
    ("Started at the new place this week — a private paediatric clinic in Islington.", "paediatric clinic in Islington"),
])
def test_a_job_told_by_its_first_days_or_its_contract_names_the_employer(text: str, org: str) -> None:
    found = employer(text)
    assert len(found) == 1 and org in found[0][0] and "now" not in found[0][0], found




def test_someone_elses_new_job_is_not_the_users_employer() -> None:
    assert employer("Priya's got a new job at Tesco") == []  # round 33: the clause is Priya's
    assert [c for c, _ in employer("Finally got the job at Tesco!")] == ["User works at Tesco"]
