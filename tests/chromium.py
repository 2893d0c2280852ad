"""Debian's headless Chromium for the browser tests (tests/web, tests/e2e) and the screenshot aid."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = "/usr/bin/chromium"
# The machine has no network but loopback: without the background-networking flags Chromium keeps trying.
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def launch() -> Iterator[Any]:
    """One headless Chromium driven by Playwright, closed afterwards (never `playwright install`)."""
    if not Path(CHROMIUM).exists():
        pytest.skip("Debian's chromium is not installed")
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        try:
            yield b
        finally:
            b.close()
