"""The client benchmark (tests/web/bench_client.py) run briefly on both pages it measures: a spectator's, and a
player's, which takes seat 2 by its device link and makes that seat's moves on its own connection."""

from __future__ import annotations

from typing import Any

import pytest

from tests.web.bench_client import watch


@pytest.mark.parametrize("view", ["spectator", "player"])
def test_the_client_benchmark_times_every_update_of_a_spectators_and_a_players_page(
    browser: Any, server: str, view: str
) -> None:
    out = watch(browser, server, decisions=14, throttle=1.0, seed=5, view=view)
    assert out["view"] == view
    assert out["updates"] == 14, "every decision's update was handled and painted"
    assert 0 < out["js_ms_p50"] <= out["paint_ms_p50"]
    if view == "player":
        assert out["own_moves"] > 0, "the page made its seat's moves"
    else:
        assert out["own_moves"] == 0
