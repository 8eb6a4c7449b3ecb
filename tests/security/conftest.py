"""The security suite's fixtures: tests/ on the path, and the session's PostgreSQL."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests/: pg_server, fake_openai, live_uvicorn

from pg_server import pg_server  # noqa: F401  (the session's PostgreSQL, a fixture)
