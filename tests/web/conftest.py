"""Fixtures for the panel: a seeded live server, and a real headless Chromium driven by Playwright.

The browser is Debian's ``chromium`` (``apt-get install -y chromium``) launched through
Playwright for Python with ``executable_path`` (``pip install playwright``; never
``playwright install``). Browser tests skip, saying so, only when /usr/bin/chromium is
missing; a missing Playwright is an error (CI installs both).
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from web_support import Site, start_site

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
DESKTOP = {"width": 1200, "height": 860}


@pytest.fixture(scope="session")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    live = start_site(tmp_path_factory.mktemp("web"))
    yield live
    live.stop()


@pytest.fixture(scope="module")  # closed per module: sync Playwright keeps an event loop running
def browser() -> Iterator[Any]:
    if not CHROMIUM.exists():
        pytest.skip("browser tests need Debian's chromium at /usr/bin/chromium: apt-get install -y chromium")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        chromium = pw.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def context(browser: Any) -> Iterator[Any]:
    """A fresh browser profile (no cookies) per test."""
    ctx = browser.new_context(viewport=DESKTOP, locale="zh-CN")
    ctx.set_default_timeout(15_000)
    yield ctx
    ctx.close()


@pytest.fixture
def page(context: Any) -> Any:
    pg = context.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda exc: errors.append(str(exc)))
    pg.js_errors = errors
    return pg


@pytest.fixture
def uid() -> str:
    return f"w-{uuid.uuid4().hex[:8]}"
