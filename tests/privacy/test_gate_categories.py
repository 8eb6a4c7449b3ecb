"""The sensitive gate opens only the category asked for (jiyi.read.gate), on SQLite and
PostgreSQL: asking for a password shows no phone, email, address or passport; asking for
the phone shows the phone and not the address or email."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from datetime import datetime, timezone
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests/: pg_server

from pg_server import pg_server  # noqa: F401  (the session's PostgreSQL)

from jiyi.memory import Memory
from jiyi.read.gate import asked_categories, decides
from jiyi.records import Kind, MemoryRecord
from jiyi.stores.protocol import Store

PHONE, EMAIL, ADDRESS, PASSPORT = "13907559876", "ke.wen@example.org", "文一西路77号", "E76543210"


@pytest.fixture(params=["sqlite", "postgres"])
def mem(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Memory]:
    store: Store | None = None
    if request.param == "postgres":
        from pg_server import create_schema, drop_schema

        from jiyi.stores.postgres.store import PostgresOptions, PostgresStore

        server = request.getfixturevalue("pg_server")
        name, uri = create_schema(server)
        request.addfinalizer(lambda: drop_schema(server, name))
        store = PostgresStore(uri, PostgresOptions(pool_min=1, pool_max=4))
    m = Memory(home=tmp_path, background_worker=False, embedder="hash",
               **({"store": store} if store is not None else {"path": tmp_path / "jiyi.db"}))
    for text in (f"我的手机号是{PHONE}", f"我的邮箱是{EMAIL}", f"我住在杭州市西湖区{ADDRESS}",
                 f"我的护照号是{PASSPORT}", "我的邮箱密码是Wq7!pLm3"):
        m.add(text, user_id="u1", sync=True)
    yield m
    m.close()
    if store is not None:
        store.close()


def shown(mem: Memory, query: str) -> str:
    hits = " ".join(h.record.content for h in mem.search(query, user_id="u1", limit=20))
    return hits + "\n" + mem.build_context(query, user_id="u1")


def test_asking_for_a_password_opens_nothing_sensitive(mem: Memory) -> None:
    out = shown(mem, "我的邮箱密码是什么？")
    for value in (PHONE, EMAIL, ADDRESS, PASSPORT, "Wq7!pLm3"):
        assert value not in out, value


def test_asking_for_the_phone_opens_only_the_phone(mem: Memory) -> None:
    out = shown(mem, "我的手机号是多少？")
    assert PHONE in out
    for value in (EMAIL, ADDRESS, PASSPORT):
        assert value not in out, value


def test_asking_for_the_address_opens_only_the_address(mem: Memory) -> None:
    out = shown(mem, "what's my home address?")
    assert ADDRESS in out and PHONE not in out and EMAIL not in out


def test_asking_about_the_card_shows_not_its_number(mem: Memory) -> None:
    assert PASSPORT not in shown(mem, "护照快过期了 续签要准备什么材料")
    assert PASSPORT in shown(mem, "我的护照号是多少？")


def test_include_sensitive_still_opens_every_sensitive_category(mem: Memory) -> None:
    out = " ".join(h.record.content for h in mem.search("我的信息", user_id="u1", limit=20, include_sensitive=True))
    assert PHONE in out and EMAIL in out


@pytest.mark.parametrize(("query", "expected"), [
    ("我的银行卡密码是多少", {"card_pin"}), ("what is my wifi password", {"wifi_password"}),
    ("我的邮箱地址", {"email"}), ("我有什么病要注意", {"health"}), ("my passport number?", {"id_number"}),
    ("我身份证号多少", {"id_number"}), ("帮我抄一下身份证", {"id_number"}), ("下个月又要填表 要准备咩证件", set()),
    ("补办身份证要带啥", set()), ("renew my passport, what documents do I need", set()),  # the card, not its number
    ("any bakery you'd recommend downtown", {"diet_health"}), ("楼下那家奶茶店怎么样", {"diet_health"}),  # what to eat
    ("帮我订个酒店", set()),  # a hotel is no drink
    ("下周去成都出差三天", {"outing_health"}),  # a trip for work is a trip
    ("最近想开始晨跑，帮我排个训练计划", {"outing_health"}),  # a run: the knee that limits it
    ("which color should i paint my bedroom?", {"sight_health"}),  # colours: the colour blindness
    ("晚上跟同事撸串 点点啥", {"diet_health"}),  # skewers are food
    ("回老家路上要带点啥", {"outing_health"}), ("any tips for a long road trip?", {"outing_health"}),  # the carsickness
])
def test_asked_categories(query: str, expected: set[str]) -> None:
    assert set(asked_categories(query)) == expected


@pytest.mark.parametrize(("content", "query"), [("用户晕车，坐大巴必吐", "回老家路上要带点啥"),
                                                ("User gets carsick on long drives", "any tips for a long road trip?")])
def test_motion_sickness_decides_a_journey(content: str, query: str) -> None:
    now = datetime(2026, 12, 1, tzinfo=timezone.utc)
    rec = MemoryRecord(id="r", tenant="t", user_id="u", content=content, kind=Kind.FACT, created_at=now, updated_at=now)
    assert decides(rec, asked_categories(query))
    assert not decides(rec, asked_categories("帮我写个周报"))
