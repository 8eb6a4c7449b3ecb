"""``jiyi bench-service`` end to end at a small size: every figure present and sane (no timing thresholds).

It starts what it needs: an embedded PostgreSQL (or the one ``JIYI_TEST_PG_URL``
names), two ``jiyi serve`` processes, the real e5 model.
"""

from __future__ import annotations

import json
import math
import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from jiyi.cli import cli
from jiyi.eval.service_bench import (
    BACKENDS,
    PATHS,
    BackendResult,
    Latency,
    ServiceBenchOptions,
    ServiceBenchReport,
    format_report,
    split_store_options,
)

MEMORIES, QUERIES = 200, 20


def sane(lat: dict[str, float]) -> None:
    assert lat["n"] == QUERIES
    assert 0 < lat["min"] <= lat["p50"] <= lat["p95"] <= lat["max"] < 60_000
    assert lat["min"] <= lat["mean"] <= lat["max"]


@pytest.mark.slow
def test_bench_service_reports_every_figure(tmp_path: Path) -> None:
    args = ["--home", str(tmp_path), "bench-service", "--memories", str(MEMORIES), "--queries", str(QUERIES),
            "--warmup", "3", "--pool", "40", "--json"]
    if os.environ.get("JIYI_TEST_PG_URL"):
        args += ["--pg-url", os.environ["JIYI_TEST_PG_URL"]]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)

    assert set(report["backends"]) == set(BACKENDS)
    for backend in report["backends"].values():
        assert backend["rows"] == MEMORIES and backend["load_seconds"] > 0
        assert set(backend["latency"]) == set(PATHS)
        for path in PATHS:
            sane(backend["latency"][path])
            assert backend["hits_per_query"][path] == 10  # 200 memories: every search fills its limit
    for path in PATHS:
        ratios = report["ratio_postgres_sqlite"][path]
        assert set(ratios) == {"p50", "p95", "mean"}
        assert all(math.isfinite(r) and r > 0 for r in ratios.values())
    assert 0.5 <= report["overlap_top_k"] <= 1.0  # same data, same ranking: the backends mostly agree
    assert report["postgres"].startswith("PostgreSQL ") and "pgvector" in report["postgres"]
    assert report["environment"]["blas_threads"] == 1
    assert report["pool_texts"] == 40 and (tmp_path / "bench").is_dir()  # the pool is cached in the home


def test_format_report_shows_each_backend_path_and_ratio() -> None:
    lat = {"http": Latency(5, 20.0, 30.0, 22.0, 10.0, 31.0), "embedded": Latency(5, 10.0, 15.0, 11.0, 8.0, 16.0)}
    slow = {"http": Latency(5, 30.0, 60.0, 33.0, 20.0, 61.0), "embedded": Latency(5, 20.0, 15.0, 22.0, 9.0, 17.0)}
    hits = {"http": 10.0, "embedded": 10.0}
    report = ServiceBenchReport(ServiceBenchOptions(memories=1000, queries=5),
                                {"sqlite": BackendResult(1000, 1.5, lat, hits),
                                 "postgres": BackendResult(1000, 4.0, slow, hits)},
                                pool_texts=100, pool_seconds=2.0, postgres="PostgreSQL 18 / pgvector 0.8 (given)",
                                overlap=0.9, environment={"cpus": 2, "blas_threads": 1})
    assert report.ratio("http") == {"p50": 1.5, "p95": 2.0, "mean": 1.5}
    text = format_report(report)
    for row in ("sqlite    http", "sqlite    embedded", "postgres  http", "postgres  embedded",
                "pg/sqlite http", "pg/sqlite embedded"):
        assert row in text
    assert "1.50x" in text and "2.00x" in text and "1,000 memories" in text
    assert json.loads(json.dumps(report.to_dict()))["options"]["pg_url"] is None


def test_store_options_are_kept_away_from_libpq() -> None:
    assert split_store_options("postgresql://u:p@h:5432/db?sslmode=require&jiyi_vector=halfvec&jiyi_pool_max=4") == (
        "postgresql://u:p@h:5432/db?sslmode=require", "jiyi_vector=halfvec&jiyi_pool_max=4")
    # a unix-socket URI keeps its three slashes
    assert split_store_options("postgresql:///jiyi?host=%2Frun%2Fpostgresql&jiyi_exact_limit=0") == (
        "postgresql:///jiyi?host=%2Frun%2Fpostgresql", "jiyi_exact_limit=0")
    assert split_store_options("postgresql://h/db") == ("postgresql://h/db", "")
