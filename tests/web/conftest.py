"""Fixtures for the browser client tests: a static HTTP server for client_web/, a real `rajas serve`, Chromium."""

from __future__ import annotations

import functools
import http.server
import threading
from collections.abc import Iterator
from typing import Any

import pytest
from web_helpers import CLIENT, QuietHandler, rajas_serve


@pytest.fixture(scope="session")
def base_url() -> Iterator[str]:
    handler = functools.partial(QuietHandler, directory=str(CLIENT))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)


@pytest.fixture(scope="session")
def server() -> Iterator[str]:
    """A real `rajas serve` for the tests that play against the server (the client as players use it), one
    per pytest-xdist worker: the tests make rooms of their own, all from 127.0.0.1 (hence the room limit)."""
    with rajas_serve(env={"RAJAS_ROOMS_PER_MINUTE": "1000"}) as url:
        yield url


@pytest.fixture()
def page(browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 1280, "height": 1000}, device_scale_factor=1)
    p = context.new_page()
    errors: list[str] = []
    p.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    p.on("pageerror", lambda e: errors.append(str(e)))
    p.console_errors = errors
    try:
        yield p
    finally:
        context.close()
