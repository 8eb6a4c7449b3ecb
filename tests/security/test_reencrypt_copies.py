"""``jiyi reencrypt`` after values were stored without a key: every copy the engine keeps is
masked or sealed (the record, its entities and entity rows, the keyword index, the history
texts, the buffer and the extraction window), so the file holds none of the digits, and the
values still come back opened with the key."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import datetime, timezone
from pathlib import Path

import pytest
from click.testing import CliRunner

from jiyi.cli import cli
from jiyi.maintain.reseal import reseal
from jiyi.memory import Memory
from jiyi.privacy.seal import Keyring
from jiyi.records import Scope
from jiyi.stores.protocol import RecordFilter, Store

PHONE = "13907551234"
SSN = "219-09-9999"
CARD_NO_LUHN = "6222030011223344556"  # fails Luhn: a card only by the word before it


def file_bytes(home: Path) -> bytes:
    return b"".join(p.read_bytes() for p in home.rglob("*") if p.is_file() and p.name != "keys")


def test_reencrypt_seals_every_copy_stored_before_the_key(tmp_path: Path) -> None:
    with Memory(home=tmp_path, background_worker=False) as mem:
        mem.add("我的手机号是13907551234", user_id="u1", sync=True)
        mem.add("my SSN is 219-09-9999", user_id="u1", sync=True, session_id="s1")
        fact = next(r for r in mem.get_all(user_id="u1") if r.slot == "user/phone")
        mem.update(fact.id, "用户的手机号是13907551234，工作日可以打", user_id="u1")  # a history old/new pair
    assert PHONE.encode() in file_bytes(tmp_path)  # sensitive values are kept as typed without a key

    key = CliRunner().invoke(cli, ["--home", str(tmp_path), "new-encryption-key"]).output.strip()
    out = CliRunner().invoke(cli, ["--home", str(tmp_path), "reencrypt", "--json"],
                             env={"JIYI_ENCRYPTION_KEY": key}, catch_exceptions=False)
    assert out.exit_code == 0, out.output
    assert json.loads(out.output)["masked"] >= 3

    raw = file_bytes(tmp_path)
    for value in (PHONE, SSN, "2190"):
        assert value.encode() not in raw, value
    with Memory(home=tmp_path, encryption_key=key, background_worker=False) as mem:
        contents = " ".join(r.content for r in mem.get_all(user_id="u1"))
        assert PHONE in contents and SSN in contents  # opened with the key


def test_a_card_number_without_luhn_is_sealed_from_the_start(tmp_path: Path) -> None:
    with Memory(home=tmp_path, background_worker=False) as mem:
        mem.add(f"我的银行卡号是{CARD_NO_LUHN}", user_id="u1", sync=True)
        assert all(CARD_NO_LUHN not in r.content for r in mem.get_all(user_id="u1"))
        assert {r.visibility.value for r in mem.get_all(user_id="u1")} == {"secret"}  # the turn too
    assert CARD_NO_LUHN.encode() not in file_bytes(tmp_path)


@pytest.fixture(params=["sqlite", "postgres"])
def any_store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Store]:
    if request.param == "sqlite":
        from jiyi.stores.sqlite.store import SQLiteStore

        opened: Store = SQLiteStore(tmp_path / "jiyi.db")
    else:
        from pg_server import create_schema, drop_schema

        from jiyi.stores.postgres.store import PostgresOptions, PostgresStore

        server = request.getfixturevalue("pg_server")
        name, uri = create_schema(server)
        request.addfinalizer(lambda: drop_schema(server, name))
        opened = PostgresStore(uri, PostgresOptions(pool_min=1, pool_max=4))
    yield opened
    opened.close()


def test_reseal_leaves_no_copy_in_any_store(any_store: Store, tmp_path: Path) -> None:
    """Through the Store protocol, on SQLite and PostgreSQL: records, entities, entity search,
    keyword search, history texts, buffer and extraction window hold no value after reseal."""
    mem = Memory(store=any_store, home=tmp_path, embedder="hash", background_worker=False)
    mem.add("我的手机号是13907551234", user_id="u1", sync=True)
    mem.add("my SSN is 219-09-9999", user_id="u1", sync=True, session_id="s1")
    fact = next(r for r in mem.get_all(user_id="u1") if r.slot == "user/phone")
    mem.update(fact.id, "用户的手机号是13907551234，工作日可以打", user_id="u1")
    key = CliRunner().invoke(cli, ["new-encryption-key"]).output.strip()
    ring = Keyring.from_text(key)
    scope = Scope(mem.scope_tenant, "u1")
    report = reseal(any_store, mem.embedder, ring, datetime.now(timezone.utc))
    assert report.masked >= 3

    dump = json.dumps([*any_store.export_rows(scope), any_store.state_get(scope, "buffer"),
                       any_store.state_get(scope, "extract:-"), any_store.state_get(scope, "extract:s1")],
                      ensure_ascii=False, default=str)
    for value in (PHONE, SSN):
        assert value not in dump, value
        assert any_store.entity_search(scope, [value], 10, RecordFilter(statuses=None)) == []
    assert any_store.keyword_search(scope, [PHONE], 10, RecordFilter(statuses=None)) == []
    opened = Memory(store=any_store, home=tmp_path, embedder="hash", background_worker=False,
                    encryption_key=key)
    assert PHONE in " ".join(r.content for r in opened.get_all(user_id="u1"))
