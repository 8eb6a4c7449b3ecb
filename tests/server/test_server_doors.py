"""The doors a new user walks through first: `jiyi serve` says where the panel is, /docs works
offline, `jiyi ui-link` says what it assumed, and the servers do not fight over one port."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import time
from pathlib import Path

import httpx
from click.testing import CliRunner
from test_server_cli import JIYI, free_port

from jiyi.cli import cli


def _keys(home: Path, tenant: str) -> str:
    made = subprocess.run([*JIYI, "--home", str(home), "keys", "create", "--tenant", tenant],
                          env=_env(), capture_output=True, text=True, timeout=60, check=False)
    assert made.returncode == 0, made.stderr
    return made.stdout.strip()


def _env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("JIYI_")}
    env["JIYI_EMBEDDER"] = "hash"
    return env


def test_serve_prints_the_panel_url_and_serves_its_api_docs_offline(tmp_path: Path) -> None:
    _keys(tmp_path, "acme")
    port = free_port()
    proc = subprocess.Popen([*JIYI, "--home", str(tmp_path), "serve", "--port", str(port), "--log-level", "warning"],
                            env=_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stderr is not None
        banner = proc.stderr.readline()
        base = f"http://127.0.0.1:{port}"
        assert f"web panel {base}/ui/" in banner and f"API docs {base}/docs" in banner, banner
        deadline = time.monotonic() + 60
        while True:
            try:
                if httpx.get(f"{base}/healthz").status_code == 200:
                    break
            except httpx.TransportError:
                pass
            assert proc.poll() is None and time.monotonic() < deadline
            time.sleep(0.1)
        assert httpx.get(f"{base}/ui/", follow_redirects=True).status_code == 200
        for page in ("/docs", "/redoc"):
            html = httpx.get(base + page).text
            assets = re.findall(r'(?:src|href)="([^"]+)"', html)
            assert assets, html
            for asset in assets:  # every script, style and icon comes from this server
                assert asset.startswith("/"), f"{page} loads {asset} from elsewhere"
                got = httpx.get(base + asset)
                assert got.status_code == 200 and len(got.content) > 1000, asset
        assert httpx.get(f"{base}/openapi.json").json()["info"]["title"] == "jiyi"
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.communicate(timeout=30)


def test_ui_link_names_its_tenant_and_base_and_warns_without_a_key(tmp_path: Path) -> None:
    runner = CliRunner(env=dict.fromkeys(("JIYI_UI_BASE_URL", "JIYI_TENANT", "JIYI_KEYS_DB", "JIYI_HOME")))
    first = runner.invoke(cli, ["--home", str(tmp_path), "ui-link", "--user", "alice"])
    assert first.exit_code == 0, first.output
    assert "of tenant 'default'" in first.stderr and "at http://127.0.0.1:8765 (the default" in first.stderr
    assert "warning: no API key file" in first.stderr and "jiyi keys create --tenant default" in first.stderr
    _keys(tmp_path, "acme")
    other = runner.invoke(cli, ["--home", str(tmp_path), "ui-link", "--user", "alice"])
    assert "no active API key of tenant 'default'" in other.stderr and "'acme'" in other.stderr
    mine = runner.invoke(cli, ["--home", str(tmp_path), "ui-link", "--user", "alice", "--tenant", "acme",
                               "--base-url", "https://mem.example/"])
    assert mine.exit_code == 0 and mine.stdout.startswith("https://mem.example/ui/u/")
    assert "tenant 'acme' (from --tenant) at https://mem.example," in mine.stderr and "warning" not in mine.stderr


def _default_port(*verb: str) -> int:
    out = CliRunner().invoke(cli, [*verb, "--help"]).output
    found = re.search(r"--port INTEGER.*?\[default: (\d+)\]", out, re.DOTALL)
    assert found, out
    return int(found.group(1))


def test_each_server_has_its_own_default_port() -> None:
    ports = {_default_port("serve"), _default_port("mcp"), _default_port("proxy")}
    assert len(ports) == 3, ports
