"""Shared by the browser client tests and tests/web/shoot.py: paths, Chromium settings, the static server."""

from __future__ import annotations

import http.server
import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from tests.chromium import CHROMIUM, CHROMIUM_ARGS

__all__ = ["CHROMIUM", "CHROMIUM_ARGS"]

ROOT = Path(__file__).resolve().parents[2]
CLIENT = ROOT / "client_web"
GAMES = ROOT / "games"
GAME = GAMES / "dice_charmers" / "web"  # the Dice Charmers' drawing, served at /play/dice_charmers/
ARTIFACTS = ROOT / "tests" / "artifacts"


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    """client_web/ at "/" and each game's web/ folder at /play/<id>/, as `rajas serve` lays them out (unversioned)."""

    extensions_map = {
        **http.server.SimpleHTTPRequestHandler.extensions_map,
        ".js": "text/javascript",
        ".mjs": "text/javascript",
    }

    def translate_path(self, path: str) -> str:
        parts = path.split("?", 1)[0].split("/")
        if len(parts) > 3 and parts[1] == "play" and (GAMES / parts[2] / "web").is_dir():
            return str(GAMES / parts[2] / "web" / "/".join(parts[3:]))
        return super().translate_path(path)

    def log_message(self, format: str, *args: Any) -> None:
        pass


def catalogue(path: Path) -> dict[str, str]:
    """The words of one catalogue file (client_web/i18n/<lang>.js, games/<id>/web/i18n/<lang>.js): key -> label."""
    import json
    import re

    return {k: json.loads(v) for k, v in re.findall(r'^  (\w+): ("(?:[^"\\]|\\.)*"),$', path.read_text(), re.M)}


def open_demo(page: Any, base_url: str, fixture: str, lang: str = "en") -> None:
    page.goto(f"{base_url}/play/dice_charmers/demo.html?fixture={fixture}&lang={lang}")
    page.wait_for_function("window.__ready === true", timeout=10_000)


@contextmanager
def rajas_serve(log_name: str = "web-server.log", env: dict[str, str] | None = None) -> Iterator[str]:
    """A real `rajas serve` (in-memory rooms) on a free port, serving this checkout's client_web/; its URL.
    Its output goes to tests/artifacts/`log_name` (under pytest-xdist, with the worker's name in it: each
    worker runs servers of its own); `env` adds RAJAS_* settings."""
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    if worker:
        log_name = f"{Path(log_name).stem}-{worker}{Path(log_name).suffix}"
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = int(sock.getsockname()[1])
    exe = shutil.which("rajas")
    cmd = [exe] if exe else [sys.executable, "-m", "rajas.server.cli"]
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    url = f"http://127.0.0.1:{port}"
    with open(ARTIFACTS / log_name, "w") as log:
        args = [*cmd, "serve", "--host", "127.0.0.1", "--port", str(port)]
        proc = subprocess.Popen(args, stdout=log, stderr=subprocess.STDOUT, cwd=ROOT, env={**os.environ, **(env or {})})
        try:
            deadline = time.monotonic() + 20
            while True:
                if proc.poll() is not None:
                    raise RuntimeError(f"rajas serve exited with {proc.returncode}; see tests/artifacts/{log_name}")
                try:
                    with urllib.request.urlopen(f"{url}/health", timeout=1) as r:
                        if r.status == 200:
                            break
                except OSError:
                    pass
                if time.monotonic() > deadline:
                    raise RuntimeError("rajas serve did not come up within 20 s")
                time.sleep(0.1)
            yield url
        finally:
            proc.terminate()
            try:
                proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(timeout=5)


def app(page: Any) -> dict[str, Any]:
    """The web client's state as it exposes it to tests (`window.__app`)."""
    return page.evaluate("window.__app")


def wait_app(page: Any, cond: str, timeout: float = 15_000) -> None:
    try:
        page.wait_for_function(f"(() => {{ const a = window.__app; return !!a && ({cond}); }})()", timeout=timeout)
    except Exception as e:
        raise AssertionError(f"waited {timeout} ms for {cond}; app state: {app(page)}; errors: {page.errors}") from e


def real_errors(page: Any) -> list[str]:
    # a socket torn down by a reload or a simulated drop is not an error of the app
    return [e for e in page.errors if "WebSocket" not in e and "ERR_" not in e]
