"""A pet's death told by its name alone (write/pets.py)."""

from __future__ import annotations

import pytest

from jiyi.write.pets import mentions_a_death, pet_gone

PETS = ("芝麻", "Juniper", "布丁")


@pytest.mark.parametrize(("text", "name"), [
    ("芝麻昨天早上没动了 哭了一晚上", "芝麻"),
    ("用户：布丁2026年3月30日凌晨走了", "布丁"),
    ("布丁去喵星了", "布丁"),
    ("Juniper passed away last night", "Juniper"),
    ("juniper crossed the rainbow bridge this morning", "Juniper"),
])
def test_a_death_said_of_a_pets_name_is_its_loss(text: str, name: str) -> None:
    assert mentions_a_death(text)
    assert pet_gone(text, PETS) == name


@pytest.mark.parametrize("text", [
    "芝麻糊吃没了",                     # another word that starts with the name
    "阿杰昨天走了 回老家了",             # no pet's name
    "带布丁去打疫苗 它一路都没动",        # the name, no death after it
    "my grandma passed away last week",
    "Juniper passed the vet check",     # "passed" with an object
])
def test_what_tells_no_death_of_a_named_pet_is_none(text: str) -> None:
    assert pet_gone(text, PETS) is None
