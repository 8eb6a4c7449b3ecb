"""Store options travel in the URI; stripping them must keep every libpq URI form intact."""

from __future__ import annotations

import pytest

from jiyi.errors import InvalidInput
from jiyi.stores.postgres.options import PostgresOptions


@pytest.mark.parametrize(("uri", "expected"), [
    ("postgresql:///jiyi?host=/run/postgresql&jiyi_vector=halfvec", "postgresql:///jiyi?host=%2Frun%2Fpostgresql"),
    ("postgresql://u:p@db:5432/jiyi?jiyi_pool_max=4", "postgresql://u:p@db:5432/jiyi"),
    ("postgres://db/jiyi?sslmode=require&jiyi_exact_limit=100", "postgres://db/jiyi?sslmode=require"),
    ("postgresql://db/jiyi", "postgresql://db/jiyi"),
])
def test_split_uri_keeps_the_libpq_part(uri: str, expected: str) -> None:
    rest, _ = PostgresOptions.split_uri(uri)
    assert rest == expected


def test_split_uri_reads_options_and_refuses_unknown_ones() -> None:
    _, opts = PostgresOptions.split_uri("postgresql:///j?jiyi_vector=halfvec&jiyi_pool_max=3")
    assert opts.vector_type == "halfvec" and opts.pool_max == 3
    with pytest.raises(InvalidInput, match="jiyi_colour"):
        PostgresOptions.split_uri("postgresql:///j?jiyi_colour=red")


def test_memory_columns_name_every_record_field() -> None:
    import dataclasses

    from jiyi.records import MemoryRecord
    from jiyi.stores.columns import MEMORY_COLUMNS, TIME_COLUMNS, TUPLE_COLUMNS

    fields = {f.name for f in dataclasses.fields(MemoryRecord)}
    assert set(MEMORY_COLUMNS) == fields and len(MEMORY_COLUMNS) == len(fields)
    assert TIME_COLUMNS <= fields and TUPLE_COLUMNS <= fields
