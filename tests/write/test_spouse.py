"""A wedding keeps the partner's name from what it supersedes (write/spouse.py), on real SQLite."""

from __future__ import annotations

from datetime import timedelta

import pytest

from jiyi import Kind, Memory
from jiyi.clock import FrozenClock
from jiyi.write.spouse import partner_name


@pytest.mark.parametrize(("texts", "name"), [
    (["my fiancee is lorcan, he's irish"], "lorcan"),  # lowercase chat, the clause ends with the name
    (["My girlfriend Priya is a vet"], "Priya"),
    (["我未婚夫叫周屿 在设计院上班"], "周屿"),
    (["my boyfriend is irish and loud"], None),  # the clause goes on: what he is, not who
    (["my sister Ana is a vet"], None),  # not a partner
])
def test_the_partners_name_is_read_from_how_they_were_told(texts: list[str], name: str | None) -> None:
    assert partner_name(texts) == name


@pytest.mark.parametrize(("before", "wedding", "name"), [
    ("my fiancee is lorcan, he's irish", "we did it!! married 🥂", "lorcan"),
    ("我男朋友周屿在设计院上班", "我们今天领证啦", "周屿"),
])
def test_the_wedding_names_the_spouse_the_old_memory_named(mem: Memory, clock: FrozenClock, before: str,
                                                           wedding: str, name: str) -> None:
    mem.add([{"role": "user", "content": before, "id": "m1"}], user_id="u", sync=True)
    clock.set(clock.now() + timedelta(days=30))
    mem.add([{"role": "user", "content": wedding, "id": "m2"}], user_id="u", sync=True)
    wedding = [r for r in mem.get_all(user_id="u") if r.kind is not Kind.EPISODE and ("领证" in r.content
                                                                                     or "married" in r.content)]
    assert wedding and all(name in r.content for r in wedding), [r.content for r in mem.get_all(user_id="u")]
    assert name in mem.build_context("我对象/my partner", user_id="u")
