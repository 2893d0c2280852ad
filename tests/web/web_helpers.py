"""Shared by the browser client tests and tests/web/shoot.py: paths, Chromium settings, the static server."""

from __future__ import annotations

import http.server
from pathlib import Path
from typing import Any

from tests.chromium import CHROMIUM, CHROMIUM_ARGS

__all__ = ["CHROMIUM", "CHROMIUM_ARGS"]

ROOT = Path(__file__).resolve().parents[2]
CLIENT = ROOT / "client_web"
ARTIFACTS = ROOT / "tests" / "artifacts"


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map, ".js": "text/javascript"}

    def log_message(self, format: str, *args: Any) -> None:
        pass


def open_demo(page: Any, base_url: str, fixture: str, lang: str = "en") -> None:
    page.goto(f"{base_url}/demo.html?fixture={fixture}&lang={lang}")
    page.wait_for_function("window.__ready === true", timeout=10_000)
