"""Scenario evaluation: does the block a bot gets hold what it needs, and nothing it must not?

``run_scenarios("dev")`` (or a path) replays multi-session chat histories through
``Memory`` and checks probes against ``build_context`` and ``search``; the file format is
in docs/scenarios.md and :mod:`jiyi.eval.scenarios.format`.
"""

from jiyi.eval.scenarios.format import (
    ScenarioFile,
    ScenarioFileError,
    load_scenarios,
    parse_scenarios,
)
from jiyi.eval.scenarios.report import ProbeResult, ScenarioReport, format_report
from jiyi.eval.scenarios.run import ScenarioOptions, run_scenarios

__all__ = ["ProbeResult", "ScenarioFile", "ScenarioFileError", "ScenarioOptions", "ScenarioReport", "format_report",
           "load_scenarios", "parse_scenarios", "run_scenarios"]
