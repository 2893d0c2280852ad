"""A state the engine returns is read-only by construction: rooms, their clones and the server's caches share
states and the players in them by identity, so a change in place would go unnoticed by all of them. Every
sequence in a returned state is a tuple, and changing one raises."""

from __future__ import annotations

import itertools
import random
from typing import Any

import pytest
from rajas.games.dice_charmers.engine import GameState, apply, legal_decisions, load_sheet, new_game

PLAYER_SEQUENCES = ("fame_from", "money_from", "circled", "sold", "palace", "levels", "roads")
GAME_SEQUENCES = ("order", "faces", "where", "stack", "pool", "players")


def _states(seed: int, players: int = 3, sheet: str = "sun") -> list[GameState]:
    """Every state of one random game, the first included."""
    rnd = random.Random(seed)
    g, _ = new_game(players, seed, load_sheet(sheet))
    out = [g]
    while not g.is_over:
        g, _ = apply(g, rnd.choice(legal_decisions(g)))
        out.append(g)
    return out


def _all_tuples(x: Any) -> bool:
    if isinstance(x, list | dict | set):
        return False
    if isinstance(x, tuple):
        return all(_all_tuples(v) for v in x)
    return True


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_every_sequence_of_every_returned_state_is_a_tuple(seed: int) -> None:
    for g in _states(seed):
        for name in GAME_SEQUENCES:
            value = getattr(g, name)
            assert isinstance(value, tuple), name
            assert name == "players" or _all_tuples(value), name
        for p in g.players:
            for name in PLAYER_SEQUENCES:
                assert isinstance(getattr(p, name), tuple), name
        if g.result is not None:
            assert isinstance(g.result, tuple)


def test_changing_a_returned_state_in_place_raises() -> None:
    g = _states(4)[5]
    p = g.players[g.current]
    attempts = [
        lambda: p.roads.__setitem__(0, 15),  # type: ignore[attr-defined]
        lambda: p.circled.__setitem__(0, 1),  # type: ignore[attr-defined]
        lambda: g.where.__setitem__(0, 0),  # type: ignore[attr-defined]
        lambda: g.players.__setitem__(0, p),  # type: ignore[attr-defined]
        lambda: g.stack.append(("fame", 1)),  # type: ignore[attr-defined]
    ]
    for attempt in attempts:
        with pytest.raises((TypeError, AttributeError)):
            attempt()


def test_a_state_read_back_from_plain_data_is_read_only_too() -> None:
    g = _states(5)[12]
    back = GameState.from_dict(g.to_dict(), g.sheet)
    for name in GAME_SEQUENCES:
        assert isinstance(getattr(back, name), tuple), name
    for p in back.players:
        for name in PLAYER_SEQUENCES:
            assert isinstance(getattr(p, name), tuple), name
    assert back.to_dict() == g.to_dict()


def test_apply_leaves_the_state_it_was_given_unchanged() -> None:
    states = _states(6, players=4, sheet="moon")
    plain = [g.to_dict() for g in states]
    # Replay the same game from its first state: every earlier state still reads as it did.
    rnd = random.Random(6)
    g = states[0]
    while not g.is_over:
        g, _ = apply(g, rnd.choice(legal_decisions(g)))
    assert [s.to_dict() for s in states] == plain


def test_the_players_who_did_not_decide_are_shared_with_the_previous_state() -> None:
    """Why sharing is safe: a player who did not decide is the very same object in the next state."""
    states = _states(7)
    shared = 0
    for before, after in itertools.pairwise(states):
        shared += sum(1 for a, b in zip(before.players, after.players, strict=True) if a is b)
    assert shared > len(states)
