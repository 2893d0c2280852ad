"""End-to-end fixtures: a real `rajas serve` on a free port and Debian's headless Chromium driven by Playwright."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.web.web_helpers import app, rajas_serve, wait_app

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "tests" / "artifacts"
SCREENSHOTS = ROOT / "docs" / "screenshots"


# Every test of the session comes from 127.0.0.1 to the one shared server: its per-address budgets are opened wide
# (tests/security and tests/server/test_limits.py test them on servers of their own).
WIDE = {
    f"RAJAS_{name}": "1000000"
    for name in ("ROOMS_PER_MINUTE", "ROOMS_PER_ADDRESS", "CONNS_PER_ADDRESS", "LISTED_PER_ADDRESS",
                 "TURN_ROOMS_PER_ADDRESS", "HTTP_CONNS_PER_ADDRESS")
}  # fmt: skip


@pytest.fixture(scope="session")
def server() -> Iterator[str]:
    """A real server (in-memory store) for the whole e2e session; killed afterwards."""
    # bots' decisions barely paced (RAJAS_BOT_PACE): the tests follow them by their state, not by eye
    with rajas_serve("e2e-server.log", env={"RAJAS_BOT_PACE": "0.02", **WIDE}) as url:
        yield url


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


def create_room(page: Any, name: str, seats: int, **choices: str) -> str:
    """Fills in and sends the create form of the home page `page` shows (`choices`: more of its menus, by their
    data-field); the new room's code, once the page holds its first seat."""
    page.fill("[data-field=create-name]", name)
    page.select_option("[data-field=seats]", str(seats))
    for field, value in choices.items():
        page.select_option(f"[data-field={field}]", value)
    page.click("[data-action=create]")
    wait_app(page, "a.role === 'player' && a.seat === 0")
    return str(app(page)["code"])
