"""One end-to-end run through Memory on the tiny sets, and the CLI around it."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from jiyi.cli import cli
from jiyi.eval.report import format_report
from jiyi.eval.run import EvalOptions, run_eval


def test_end_to_end_locomo(locomo_file: Path) -> None:
    result = run_eval(locomo_file, EvalOptions(ks=(1, 10)))
    data = result.to_dict()
    assert data["questions_total"] == 3
    # every hit maps back to a turn of the conversation
    turns = {f"D1:{i}" for i in (1, 2, 3)} | {"D2:1", "D2:2"}
    assert all(set(h) <= turns for r in result.results for h in r.ranked)
    assert data["overall"]["n"] == 2 and data["categories"]["adversarial"]["n"] == 1
    assert data["apart"] == ["adversarial"]
    # five turns (and a few facts drawn from them): the top 10 hold every turn
    assert data["overall"]["recall"]["@10"] == 1.0
    assert data["categories"]["single_hop"]["mrr"] > 0  # the Pepper turn is among the hits
    assert data["search_ms"]["p95"] > 0 and data["ingest"]["turns"] == 5
    text = format_report(data)
    assert "overall" in text and "adversarial *" in text and "2 repaired" in text


def test_end_to_end_zh_reports(zh_file: Path) -> None:
    data = run_eval(zh_file, EvalOptions(ks=(1, 3))).to_dict()
    assert data["knowledge_update"]["n"] == 1
    assert data["abstention"]["abstention"]["n"] == 1
    assert data["categories"]["abstention"]["n"] == 0  # no evidence: not in recall averages
    assert data["overall"]["n"] == 2


def test_cli_eval_writes_json(locomo_file: Path, tmp_path: Path) -> None:
    out = tmp_path / "r.json"
    res = CliRunner().invoke(cli, ["eval", "--data", str(locomo_file), "--k", "1,5", "--json", str(out),
                                   "--limit-questions", "2", "--conversations", "0"], catch_exceptions=False)
    assert res.exit_code == 0, res.output
    assert "R@5" in res.output
    saved = json.loads(out.read_text(encoding="utf-8"))
    assert saved["questions_total"] == 2 and len(saved["questions"]) == 2


def test_kept_stores_are_reused_and_give_the_same_rankings(locomo_file: Path, tmp_path: Path) -> None:
    stores = tmp_path / "stores"
    first = run_eval(locomo_file, EvalOptions(ks=(1, 10), stores_dir=stores))
    (folder,) = [p for p in stores.iterdir() if p.is_dir()]
    assert (folder / "ingested.json").exists() and (folder / "eval.db").exists()
    size = (folder / "eval.db").stat().st_size
    again = run_eval(locomo_file, EvalOptions(ks=(1, 10), stores_dir=stores))
    assert [r.ranked for r in again.results] == [r.ranked for r in first.results]
    assert again.runs[0].ingest_seconds == first.runs[0].ingest_seconds  # recorded, not re-measured
    from jiyi import Memory

    with Memory(path=folder / "eval.db", home=str(folder), background_worker=False) as mem:
        user = mem.users()[0]
        assert len(mem.get_all(user_id=user, kinds=["episode"])) == 5  # not added twice
    assert (folder / "eval.db").stat().st_size >= size
    (folder / "ingested.json").unlink()  # as if the first run died mid-ingest: the store is made again
    third = run_eval(locomo_file, EvalOptions(ks=(1, 10), stores_dir=stores))
    assert [r.ranked for r in third.results] == [r.ranked for r in first.results]


def test_cli_rejects_bad_ranges(locomo_file: Path) -> None:
    res = CliRunner().invoke(cli, ["eval", "--data", str(locomo_file), "--conversations", "3-1"])
    assert res.exit_code != 0 and "backwards" in res.output
