"""End-to-end fixtures: a real `rajas serve` on a free port and Debian's headless Chromium driven by Playwright."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "tests" / "artifacts"
SCREENSHOTS = ROOT / "docs" / "screenshots"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _serve_command(port: int) -> list[str]:
    exe = shutil.which("rajas")
    if exe:
        return [exe, "serve", "--host", "127.0.0.1", "--port", str(port)]
    return [sys.executable, "-m", "rajas.server.cli", "serve", "--host", "127.0.0.1", "--port", str(port)]


@pytest.fixture(scope="session")
def server() -> Iterator[str]:
    """A real server (in-memory store) for the whole e2e session; killed afterwards."""
    port = _free_port()
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    log = open(ARTIFACTS / "e2e-server.log", "w")  # noqa: SIM115 (closed below)
    proc = subprocess.Popen(_serve_command(port), stdout=log, stderr=subprocess.STDOUT, cwd=ROOT, env=os.environ.copy())
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 20
        while True:
            if proc.poll() is not None:
                pytest.fail(f"rajas serve exited with {proc.returncode}; see tests/artifacts/e2e-server.log")
            try:
                with urllib.request.urlopen(f"{url}/health", timeout=1) as r:
                    if r.status == 200:
                        break
            except OSError:
                pass
            if time.monotonic() > deadline:
                pytest.fail("rajas serve did not come up within 20 s")
            time.sleep(0.1)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=5)
        log.close()


def new_page(browser: Any, width: int = 1280, height: int = 900, mobile: bool = False, motion: bool = True) -> Any:
    """A page in its own browser context (own localStorage: a different person), collecting page errors."""
    context = browser.new_context(
        viewport={"width": width, "height": height},
        device_scale_factor=1,
        is_mobile=mobile,
        has_touch=mobile,
        reduced_motion="no-preference" if motion else "reduce",
    )
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.errors = errors
    page.set_default_timeout(15_000)
    return page
