"""A relative's memory reads with the relative first; the user's own and a pet's do not change."""

import pytest

from jiyi.read.owner import person_first


@pytest.mark.parametrize(("stored", "shown"), [
    ("用户的爸爸高血压，每天吃药", "爸爸高血压，每天吃药（用户的爸爸）"),
    ("用户的同事阿伟对花生过敏", "同事阿伟对花生过敏（用户的同事）"),
    ("用户的老公在深圳做程序员", "老公在深圳做程序员（用户的老公）"),
    ("用户那个大学同学，在杭州开花店", "大学同学，在杭州开花店（用户的同学）"),  # counted and described
    ("用户家那位老邻居天天遛弯", "老邻居天天遛弯（用户的邻居）"),
    ("User's brother Tom lives in Oslo", "Brother Tom lives in Oslo (the user's brother)"),
    ("the user's coworker is vegan", "Coworker is vegan (the user's coworker)"),
])
def test_a_relatives_line_leads_with_the_relative(stored: str, shown: str) -> None:
    assert person_first(stored) == shown


@pytest.mark.parametrize("stored", [
    "用户对芒果过敏",  # the user's own
    "用户的猫叫豆包",  # the user has the cat
    "用户的朋友圈都是广告",  # 朋友 going on into another word
    "用户的哥们请他吃饭",
    "用户在公司和同事吵架了",  # the user's own line that names a colleague later
    "User's dog is called Biscuit",
    "User lives in Leeds",
])
def test_the_users_own_line_and_a_pets_stay_as_stored(stored: str) -> None:
    assert person_first(stored) == stored
