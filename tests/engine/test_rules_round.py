"""Course of the game: rolling, the elephant, clockwise turns, one die each, the two-player rounds."""

from __future__ import annotations

from typing import Any

import pytest
from rajas.games.dice_charmers.engine import Decision, GameState, apply, legal_decisions

from .builders import (
    ELEPHANT,
    MIDDLE,
    PURPLE_MIXED,
    PURPLE_SAME,
    decide,
    game,
    set_dice,
    sheet_of,
    turn_of,
    types,
)


def _first_choice(g: GameState) -> Decision:
    """A simple player: prefers a die from the middle, never spends karma, otherwise the first option."""
    opts = legal_decisions(g)
    for d in opts:
        if d.kind == "die":
            return d
    for d in opts:
        if d.kind not in ("karma", "reroll"):
            return d
    return opts[0]


def _play_round(g: GameState) -> tuple[GameState, list[dict[str, Any]]]:
    """Plays until the round in progress has ended (or the game is over)."""
    events: list[dict[str, Any]] = []
    rnd = g.round
    while not g.is_over and g.round == rnd:
        g, ev = apply(g, _first_choice(g))
        events.extend(ev)
    return g, events


def _round_events(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The events of the round that was played, up to its end."""
    end = types(events).index("round_ended")
    return events[: end + 1]


def test_start_player_rolls_all_eight_dice_into_the_middle() -> None:
    """ "The starting player rolls all 8 dice and chooses one of them." """
    from rajas.games.dice_charmers.engine import new_game

    g, events = new_game(4, seed=7, start_player=2)

    rolled = [e for e in events if e["type"] == "dice_rolled"]
    assert rolled == [{"type": "dice_rolled", "player": 2, "faces": list(g.faces)}]
    assert len(g.faces) == 8
    assert g.where == (MIDDLE,) * 8
    assert g.current == 2 and g.turn == 0


def test_twin_die_goes_onto_the_elephant_on_the_start_players_first_pick() -> None:
    """ "He takes the second die of the same color from the middle of the table and places it on top of
    the elephant. This die is no longer directly available to the other players." """
    g = game(3, start=0)
    set_dice(g, {PURPLE_SAME: ["tea", "tea"]})

    g2, events = apply(g, decide("die", PURPLE_SAME))

    assert g2.where[PURPLE_SAME] == 0  # on the start player's depot
    assert g2.where[PURPLE_MIXED] == ELEPHANT
    loaded = [e for e in events if e["type"] == "elephant_loaded"]
    assert loaded == [{"type": "elephant_loaded", "player": 0, "die": PURPLE_MIXED, "face": g.faces[PURPLE_MIXED]}]
    assert decide("die", PURPLE_MIXED) not in legal_decisions(g2)


def test_a_later_pick_puts_no_die_on_the_elephant() -> None:
    g = game(3, start=0)
    set_dice(g, {PURPLE_SAME: ["tea", "tea"], PURPLE_MIXED: ["tea", "silk"]})
    g, _ = apply(g, decide("die", PURPLE_SAME))
    assert g.current == 1

    # seat 1 spends no karma and takes some other die
    die = next(d for d in legal_decisions(g) if d.kind == "die")
    g2, events = apply(g, die)

    assert "elephant_loaded" not in types(events)
    assert g2.where.count(ELEPHANT) == 1 and g2.where[PURPLE_MIXED] == ELEPHANT


@pytest.mark.parametrize("players", [3, 4, 5])
def test_turns_go_clockwise_from_the_start_player(players: int) -> None:
    """ "After the starting player has finished his turn, the next player in clockwise order chooses one of
    the remaining dice" """
    start = players - 1
    g = game(players, seed=11, start=start)

    _, events = _play_round(g)

    seats = [e["player"] for e in _round_events(events) if e["type"] == "turn_started"]
    assert [g.current, *seats] == [(start + i) % players for i in range(players)]


@pytest.mark.parametrize("players", [3, 4, 5])
def test_each_player_uses_one_die_per_round(players: int) -> None:
    """ "... and so on until all players have used one die. Then the round ends" """
    g = game(players, seed=3, start=0)

    _, events = _play_round(g)

    taken = [e["player"] for e in _round_events(events) if e["type"] in ("die_picked", "die_kept")]
    assert sorted(taken) == list(range(players))


@pytest.mark.parametrize("players", [2, 3, 5])
def test_end_of_round_passes_the_elephant_clockwise_and_rolls_anew(players: int) -> None:
    """ "Then the round ends and the elephant is passed on to the next player in a clockwise direction. He
    becomes the starting player of the new round and rolls all 8 dice again." """
    g = game(players, seed=5, start=1)

    g2, events = _play_round(g)

    kinds = types(events)
    i = kinds.index("round_ended")
    assert kinds[i + 1 : i + 4] == ["elephant_passed", "round_started", "dice_rolled"]
    new_start = (1 + 1) % players
    assert events[i + 1]["player"] == new_start
    assert events[i + 3]["player"] == new_start
    assert g2.round == 2 and g2.start_player == new_start and g2.current == new_start and g2.turn == 0
    assert g2.where == (MIDDLE,) * 8
    assert list(g2.faces) == events[i + 3]["faces"]


def test_two_players_take_dice_alternately_start_other_start_other() -> None:
    """ "In the two-player game, players alternate using one die each until both players have had two
    turns. Then the starting player changes, and the dice are rolled anew." """
    g = game(2, seed=2, start=1)
    assert g.order == (1, 0, 1, 0)

    g2, events = _play_round(g)

    seats = [e["player"] for e in _round_events(events) if e["type"] == "turn_started"]
    assert seats == [0, 1, 0]  # after the start player's first turn
    taken = [e["player"] for e in _round_events(events) if e["type"] in ("die_picked", "die_kept")]
    assert sorted(taken) == [0, 0, 1, 1]
    assert g2.start_player == 0 and g2.order == (0, 1, 0, 1)


def test_two_player_start_player_may_use_karma_on_his_second_pick() -> None:
    """ "Special karma rule: When it is the starting player's second turn to take a die in a round, he now
    also has the possibility to use his collected karma (if he has any)." """
    g = game(2, seed=4, start=0)
    set_dice(g, where={PURPLE_SAME: 0, PURPLE_MIXED: ELEPHANT, 2: 1})
    turn_of(g, 0, turn=2)
    assert g.players[0].karma == 1

    karma = [d for d in legal_decisions(g) if d.kind == "karma"]

    middle = [d for d in range(8) if g.where[d] == MIDDLE]
    assert karma == [decide("karma", d) for d in middle]


def test_two_player_start_player_has_no_karma_on_his_first_pick() -> None:
    g = game(2, seed=4, start=0)
    sheet_of(g, 0, karma_gained=4)

    assert not [d for d in legal_decisions(g) if d.kind == "karma"]


def _crossed(g: GameState, seat: int) -> None:
    """Gives a seat entries that have crossed (the rulebook's 21 fame / 40 money, 2 points past)."""
    sheet_of(g, seat, fame=21, money=40)


def _take_any_die(g: GameState) -> tuple[GameState, list[dict[str, Any]]]:
    events: list[dict[str, Any]] = []
    turn = g.turn
    rnd = g.round
    while not g.is_over and g.turn == turn and g.round == rnd:
        g, ev = apply(g, _first_choice(g))
        events.extend(ev)
    return g, events


def test_two_players_crossing_with_the_start_players_first_die_ends_after_the_other_players_first_die() -> None:
    """Decision 28: "If a player already fulfills the game-end condition with the 1st die, the game ends
    after the current turn" -- both players get the same number of turns."""
    g = game(2, seed=8, start=0)
    _crossed(g, 0)

    g, events = _take_any_die(g)
    assert not g.is_over and g.current == 1
    assert next(e for e in events if e["type"] == "game_end_triggered")["player"] == 0

    g, events = _take_any_die(g)
    assert g.is_over
    assert g.round == 1 and g.turn == 1


def test_two_players_crossing_with_the_second_players_first_die_ends_the_game_at_once() -> None:
    g = game(2, seed=8, start=0)
    _crossed(g, 1)

    g, _ = _take_any_die(g)
    assert not g.is_over
    g, events = _take_any_die(g)

    assert g.is_over and g.turn == 1
    assert "game_over" in types(events)


def test_two_players_crossing_with_the_second_die_completes_the_round() -> None:
    g = game(2, seed=8, start=0)
    g, _ = _take_any_die(g)
    g, _ = _take_any_die(g)
    assert g.turn == 2 and g.current == 0
    _crossed(g, 0)

    g, _ = _take_any_die(g)
    assert not g.is_over and g.turn == 3
    g, events = _take_any_die(g)

    assert g.is_over and g.round == 1
    assert "round_ended" not in types(events)
