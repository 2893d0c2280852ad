"""The `rajas` command end to end: `rajas serve` in a subprocess, `rajas bots` against it."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from .conftest import free_port

RAJAS = [sys.executable, "-m", "rajas.server.cli"]


@contextmanager
def serving(*extra: str) -> Iterator[str]:
    port = free_port()
    proc = subprocess.Popen([*RAJAS, "serve", "--port", str(port), *extra], env=os.environ.copy())
    try:
        deadline = time.monotonic() + 20
        while True:
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                    break
            except OSError:
                if time.monotonic() > deadline or proc.poll() is not None:
                    raise RuntimeError("rajas serve did not start") from None
                time.sleep(0.1)
        yield f"http://127.0.0.1:{port}"
    finally:
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


@pytest.mark.timeout(600)  # minutes on a loaded machine
@pytest.mark.parametrize("store_kind", ["memory", "redis"])
def test_rajas_bots_against_rajas_serve(store_kind: str, request: pytest.FixtureRequest) -> None:
    extra = ["--redis", request.getfixturevalue("redis_url")] if store_kind == "redis" else []
    with serving(*extra) as url:
        out = subprocess.run(
            [*RAJAS, "bots", "--url", url, "--players", "3", "--games", "3", "--spectators", "1", "--json"],
            capture_output=True,
            text=True,
            timeout=120,
        )
    assert out.returncode == 0, out.stderr
    result = json.loads(out.stdout)
    assert result["games"] == result["completed"] == result["verified"] == 3
    assert result["errors"] == 0 and result["states_match"] is True and result["decisions"] > 100
