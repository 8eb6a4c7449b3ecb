"""``jiyi bench`` end to end at tiny sizes: every figure is there and sane (no timing thresholds)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click
import pytest
from click.testing import CliRunner

from jiyi.cli import cli
from jiyi.cli.bench import parse_sizes
from jiyi.eval.bench import STEPS, BenchOptions, run_bench
from jiyi.eval.benchreport import format_report
from jiyi.eval.benchstore import LARGE_USER, PROBE_SIZE, PROBE_USER, user_sizes
from jiyi.eval.benchwrite import WritePlan
from jiyi.eval.synth import VectorPool, generate, queries

SIZES = (150, 400)


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    folder = tmp_path_factory.mktemp("bench")
    opts = BenchOptions(sizes=SIZES, others=4, queries=6, pool_size=30, embedder="hash", compare=("numpy",),
                        workdir=folder, paused=2,
                        writes=WritePlan(single=4, batched=20, batch=10, embedded_single=2, embedded_batched=4))
    return run_bench(opts)


def sane(stat: dict[str, float]) -> None:
    assert stat["n"] > 0 and 0.0 <= stat["p50"] <= stat["p95"] < 60_000


def test_every_search_figure_is_reported_per_size(report: dict[str, Any]) -> None:
    assert [lv["n"] for lv in report["levels"]] == list(SIZES)
    for lv in report["levels"]:
        for part in ("total", *STEPS, "hits", "other"):
            sane(lv["search_ms"][part])
        for key in ("probe_ms", "paused_ms", "numpy_paused_ms", "vector_route_ms", "vector_list_ms", "numpy_ms",
                    "numpy_deep_ms"):
            sane(lv[key])
        assert lv["paused_ms"]["n"] == 2
        parts = sum(lv["search_ms"][p]["p50"] for p in ("vector", "context", "keyword", "rank"))
        assert parts <= lv["search_ms"]["total"]["p95"] * 4  # parts belong to the total, not elsewhere
        assert lv["memories"] == lv["n"] + PROBE_SIZE + lv["others_total"] and lv["users"] == 6
        assert lv["index"] == "exact"  # far below the IVF threshold
        assert lv["recall_at_10"] == {"k10": 1.0, "k200": 1.0, "k1000": 1.0}  # exact search is exact
        assert lv["build_rows_per_s"] > 0 and lv["disk_bytes_per_memory"] > 384
        cold = lv["cold_open"]
        assert cold["first_search_s"] > 0 and cold["next_vector_search_ms"] > 0 and "rss_bytes_per_memory" in cold
    sane(report["query_embedding_ms"])
    assert report["pool"]["texts"] == 30 and report["pool"]["model"] == "hash-384"


def test_write_throughput_covers_both_paths_modes_and_embedding(report: dict[str, Any]) -> None:
    writes = report["writes"]
    for path in ("episode", "extraction"):
        for mode in ("single", "batched"):
            for emb in ("without_embedding", "with_embedding"):
                run = writes[path][mode][emb]
                assert run["messages_per_s"] > 0 and run["memories"] >= 1
    assert writes["episode"]["batched"]["without_embedding"]["batch"] == 10
    # the episode path keeps every non-trivial turn; extraction adds memories on top of them
    assert writes["episode"]["batched"]["without_embedding"]["memories"] >= 20
    assert writes["extraction"]["batched"]["without_embedding"]["memories"] > 20


def test_text_report_shows_every_row_with_ratios(report: dict[str, Any]) -> None:
    text = format_report(report)
    for label in ("all routes + ranking", "vector (content)", "keyword (bm25)", "entity", "recency",
                  "fusion + ranking", "hit recording", "numpy brute force", "probe user", "0.2 s apart", "recall@10",
                  "disk, bytes/memory", "RSS, bytes/memory", "cold open", "episode path, batched",
                  "extraction path, single"):
        assert label in text, label
    assert "1.00x" in text  # numpy against itself
    assert f"int8 pass {report['machine']['int8']}" in text
    assert json.loads(json.dumps(report)) == report  # JSON-ready


def test_store_layout_has_a_large_a_probe_and_uneven_others() -> None:
    sizes = user_sizes(100_000, seed=1)
    assert sizes[LARGE_USER] == 100_000 and sizes[PROBE_USER] == PROBE_SIZE and len(sizes) == 102
    others = [v for k, v in sizes.items() if k not in (LARGE_USER, PROBE_USER)]
    assert min(others) >= 10 and max(others) <= 5_000 and max(others) > 10 * min(others)
    assert sum(user_sizes(1_000, seed=1).values()) < sum(sizes.values())


def test_synthetic_texts_are_chinese_and_english_and_vectors_are_unit() -> None:
    mems = generate(400, seed=3)
    assert {m.lang for m in mems} == {"zh", "en"}
    assert any("用户" in m.content for m in mems) and any(m.content.startswith("User") for m in mems)
    pool = VectorPool.build(lambda ts: __import__("numpy").eye(len(ts), 16, dtype="float32"), 12)
    vecs = pool.vectors_for(mems[:50], __import__("numpy").random.default_rng(0))
    assert vecs.shape == (50, 16)
    assert abs(float((vecs * vecs).sum(axis=1).mean()) - 1.0) < 1e-5
    assert len(set(queries(40, 1))) == 40


def test_sizes_parse_with_suffixes() -> None:
    assert parse_sizes("1k,10k,100k") == (1_000, 10_000, 100_000)
    assert parse_sizes("500, 1M") == (500, 1_000_000)
    with pytest.raises(click.BadParameter):
        parse_sizes("3")
    with pytest.raises(click.BadParameter):
        parse_sizes("lots")


def test_cli_prints_json(tmp_path: Path) -> None:
    result = CliRunner().invoke(cli, ["bench", "--sizes", "100", "--users", "2", "--queries", "5", "--pool", "20",
                                      "--embedder", "hash", "--no-writes", "--no-cold-open", "--json",
                                      "--dir", str(tmp_path), "--out", str(tmp_path / "r.json")])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output[result.output.index("{"):])
    assert data["levels"][0]["n"] == 100 and "writes" not in data
    assert json.loads((tmp_path / "r.json").read_text())["levels"][0]["n"] == 100
