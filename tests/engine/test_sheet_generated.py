"""Every sheet that passes validation plays to its end: generated sheets (Sun with its numbers, tracks, bonuses
and province drawn afresh within the schema's limits), each played by random players until the game is over,
by the tracks crossing or at the round limit."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import HealthCheck, assume, event, given, settings
from hypothesis import strategies as st
from rajas.games.dice_charmers.engine import SheetError, apply, legal_decisions, new_game, parse_sheet
from rajas.games.dice_charmers.engine.invariants import check_state
from rajas.games.dice_charmers.engine.turns import ROUND_LIMIT

from .sheets_made import playable


@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(sheet=playable(), players=st.integers(2, 5), seed=st.integers(0, 2**32))
def test_a_generated_sheet_that_passes_validation_plays_to_its_end(
    sheet: dict[str, Any], players: int, seed: int
) -> None:
    try:
        s = parse_sheet(sheet)
    except SheetError as e:
        assume("can never meet" not in str(e))  # refused because its tracks could never meet: rightly so
        raise
    g, events = new_game(players, seed, s)
    rng = random.Random(seed)
    decisions = 0
    while not g.is_over:
        g, events = apply(g, rng.choice(legal_decisions(g)))
        decisions += 1
    check_state(g)
    over = events[-1]
    assert over["type"] == "game_over" and over["reason"] in ("tracks_crossed", "round_limit")
    assert g.round <= ROUND_LIMIT
    event(over["reason"])
    assert (over["reason"] == "round_limit") == (not any(r["crossed"] for r in g.result or []))
    assert decisions < ROUND_LIMIT * players * 60  # every decision marks the sheet or spends karma: bounded
