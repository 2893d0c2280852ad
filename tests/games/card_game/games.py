"""Whole bot games step by step, for the tests that look at every state, view and event of a game."""

from __future__ import annotations

from collections.abc import Iterator
from typing import NamedTuple

from rajas.games.card_game.engine import BOTS, Decision, State, apply, new_game
from rajas.games.card_game.engine.state import Event


class Step(NamedTuple):
    before: State
    decision: Decision | None  # None: the deal
    after: State
    events: list[Event]


def bot_game(players: int, seed: str, bot: str = "random", limit: int = 2000) -> Iterator[Step]:
    g, events = new_game(players, seed)
    yield Step(g, None, g, events)
    bots = [BOTS[bot](f"{seed}:{s}") for s in range(players)]
    for _ in range(limit):
        if g.is_over:
            return
        d = bots[g.current](g)
        after, events = apply(g, d)
        yield Step(g, d, after, events)
        g = after
    raise AssertionError("the game did not end")
