"""`jiyi bench-service --isolation` runs and reports every call it times (numbers are the bench's, not asserted)."""

from __future__ import annotations

from jiyi.eval.isolation_bench import IsolationOptions, format_isolation, run_isolation_bench


def test_isolation_bench_reports_each_call() -> None:
    report = run_isolation_bench(IsolationOptions(slow_seconds=1.0, slow_messages=1, writes=2, backends=("sqlite",)))
    rows = {r["call"]: r for r in report.backends["sqlite"]}
    assert set(rows) == {"sync add", "sync add, worker's tenant", "flush", "delete_all (no such user)"} and rows["sync add"]["n"] == 2
    assert report.slow_calls_seen["sqlite"] == 1  # the slow tenant's long message did reach the LLM
    text = format_isolation(report)
    assert "sync add" in text and "target" in text
    assert report.to_dict()["target_s"] == 2.0
