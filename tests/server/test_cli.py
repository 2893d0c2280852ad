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
from contextlib import ExitStack, contextmanager
from typing import Any

import httpx
import pytest

from .conftest import free_port, own_redis_server

RAJAS = [sys.executable, "-m", "rajas.server.cli"]


@contextmanager
def serving(*extra: str, stderr: Any = None) -> Iterator[str]:
    port = free_port()
    proc = subprocess.Popen([*RAJAS, "serve", "--port", str(port), *extra], env=os.environ.copy(), stderr=stderr)
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
    # (the node allows 2 new rooms a minute: the README's example plays its games at 2 tables, by rematch)
    with serving(*extra, "--rooms-per-minute", "2") as url:
        bots = ["bots", "--url", url, "--players", "3", "--games", "4", "--concurrency", "2", "--spectators", "1"]
        out = subprocess.run(
            [*RAJAS, *bots, "--json"],
            capture_output=True,
            text=True,
            timeout=120,
        )
    assert out.returncode == 0, out.stderr
    result = json.loads(out.stdout)
    assert result["games"] == result["completed"] == result["verified"] == 4
    assert result["errors"] == 0 and result["states_match"] is True and result["decisions"] > 100


def serve_refuses(*args: str, env: dict[str, str] | None = None) -> str:
    out = subprocess.run(
        [*RAJAS, "serve", *args], capture_output=True, text=True, timeout=60, env=os.environ.copy() | (env or {})
    )
    assert out.returncode == 2, out.stderr
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in out.stderr, out.stderr  # one clear line, not a traceback
    return lines[0]


@pytest.mark.timeout(120)
def test_serve_refuses_bad_settings_in_one_line_naming_the_setting() -> None:
    assert "--port / RAJAS_PORT=99999" in serve_refuses("--port", "99999")
    assert "RAJAS_PUBLIC_URL='rajas.example.org'" in serve_refuses(env={"RAJAS_PUBLIC_URL": "rajas.example.org"})
    assert "https://" in serve_refuses(env={"RAJAS_PUBLIC_URL": "rajas.example.org"})
    assert "RAJAS_REDIS_URL='localhost:6379'" in serve_refuses("--redis", "localhost:6379")
    assert "RAJAS_SMTP_URL" in serve_refuses(env={"RAJAS_SMTP_URL": "mail.example.org"})
    assert "--log-format / RAJAS_LOG_FORMAT='xml': json or text" in serve_refuses("--log-format", "xml")
    assert "--bot-pace / RAJAS_BOT_PACE=5.0 must be" in serve_refuses("--bot-pace", "5", "--stall", "2")


@pytest.mark.timeout(120)
def test_serve_says_where_it_serves_its_store_its_mail_and_that_memory_rooms_die_with_it(
    tmp_path: Any,
) -> None:
    err = (tmp_path / "stderr").open("w+")
    with serving("--log-format", "text", stderr=err):
        pass
    err.seek(0)
    text = err.read()
    start = next(line for line in text.splitlines() if "rajas serving" in line)
    assert "http://127.0.0.1:" in start and "store memory" in start
    assert "turn e-mails off (no RAJAS_SMTP_URL)" in start
    assert "a restart loses them all" in text and "RAJAS_REDIS_URL" in text


@pytest.mark.timeout(120)
def test_while_the_store_is_away_the_api_answers_json_and_says_so() -> None:
    with ExitStack() as stack:
        redis = stack.enter_context(own_redis_server())
        with serving("--redis", redis) as url:
            created = httpx.post(f"{url}/api/rooms", json={"seats": 2}, timeout=10).json()
            stack.close()  # the redis-server stops; the node goes on
            answer = httpx.get(f"{url}/api/rooms/{created['code']}", timeout=30)
    assert answer.status_code == 503
    assert answer.json()["code"] == "internal" and "store" in answer.json()["message"]


def rajas(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*RAJAS, *args], capture_output=True, text=True, timeout=120)


@pytest.mark.timeout(180)
def test_simulate_says_in_one_line_what_is_wrong_and_shows_people_a_table_and_machines_json(tmp_path: Any) -> None:
    bad = tmp_path / "sheet.json"
    bad.write_text('{"x": 1}')
    out = rajas("simulate", "--games", "3", "--sheet", str(bad))
    assert out.returncode == 2 and out.stderr.count("\n") == 1 and "--sheet" in out.stderr, out.stderr
    assert out.stdout == ""  # no statistics of games that never ran
    out = rajas("simulate", "--games", "-1")
    assert out.returncode == 2 and "--games: -1: give 1 or more" in out.stderr
    table = rajas("simulate", "--games", "2", "--players", "2")
    assert table.returncode == 0 and "decisions_per_s" in table.stdout and not table.stdout.startswith("{")
    machine = json.loads(rajas("simulate", "--games", "2", "--players", "2", "--json").stdout)
    assert machine["games"] == 2 and machine["errors"] == 0


def test_verify_takes_the_address_a_player_copies() -> None:
    from rajas.server.fairness import log_address

    assert log_address("https://rajas.example.org/games/g7Kq2") == "https://rajas.example.org/api/games/g7Kq2"
    assert log_address("http://h:8000/?room=abc-defg-hjkm") == "http://h:8000/api/rooms/abc-defg-hjkm/log"
    kept = "https://rajas.example.org/api/games/g7Kq2"
    assert log_address(kept) == kept
