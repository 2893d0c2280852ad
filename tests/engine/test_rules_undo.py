"""Undo within the turn (docs/rules-decisions.md, "Undo"): a player takes back decisions of their own turn
until the turn passes or new information appears (dice rolled), Board Game Arena's rule."""

from __future__ import annotations

import pytest
from rajas.games.dice_charmers.engine import Decision, GameState, NotYourTurn, apply, legal_decisions
from rajas.games.dice_charmers.engine.effects import SHAPES_ROAD_BONUS
from rajas.games.dice_charmers.engine.state import PHASE_PICK, PHASE_REROLL, PHASE_RESOLVE
from rajas.games.dice_charmers.engine.undo import (
    MAX_TURN_DECISIONS,
    NothingToUndo,
    TurnHistory,
    UndoAfterRoll,
    can_take_back,
    record,
    sets_barrier,
    take_back,
)

from .builders import (
    ELEPHANT,
    GREEN_A,
    ORANGE_A,
    PURPLE_MIXED,
    PURPLE_SAME,
    decide,
    game,
    resolving,
    set_dice,
    sheet_of,
    turn_of,
)


def _play(history: TurnHistory | None, g: GameState, d: Decision) -> tuple[GameState, TurnHistory | None]:
    """What the server does with a decision: apply it and keep the turn's history."""
    after, _ = apply(g, d)
    return after, record(history, g, d, after)


def _first(g: GameState, kind: str) -> Decision:
    return next(d for d in legal_decisions(g) if d.kind == kind)


def test_taking_a_die_can_be_taken_back_and_the_die_is_in_the_middle_again() -> None:
    g = game(3, seed=5, start=0)
    set_dice(g, {GREEN_A: "straight"})
    g2, h = _play(None, g, decide("die", GREEN_A))
    assert g2.phase == PHASE_RESOLVE and g2.where[GREEN_A] == 0
    assert can_take_back(h, g2) == 1

    back, h2, events = take_back(h, g2, 0)

    assert back.phase == PHASE_PICK and back.current == 0
    assert back.where == g.where and back.faces == g.faces  # the die and its twin are in the middle again
    assert back.to_dict() == g.to_dict()
    assert h2 is None and can_take_back(h2, back) == 0
    assert events == [{"type": "took_back", "player": 0, "decision": ["die", [GREEN_A], -1], "left": 0}]


def test_a_road_drawn_can_be_taken_back_while_the_turn_goes_on() -> None:
    """The road released a choice (goods of the player's choice still to take): the turn has not passed."""
    g = game(3, seed=5)
    resolving(g, 0, ("road", SHAPES_ROAD_BONUS), ("goods_choice", 1))
    road = _first(g, "road")
    g2, h = _play(None, g, road)
    assert g2.current == 0 and g2.phase == PHASE_RESOLVE
    assert g2.players[0].roads != g.players[0].roads

    back, _, events = take_back(h, g2, 0)

    assert back.players[0].roads == g.players[0].roads
    assert back.to_dict() == g.to_dict()
    assert road in legal_decisions(back)  # the same choices are open again
    assert events[0]["decision"] == road.to_wire()


def test_several_decisions_are_taken_back_one_by_one_back_to_the_start_of_the_turn() -> None:
    g = game(3, seed=5)
    resolving(g, 0, ("goods_choice", 1), ("road", SHAPES_ROAD_BONUS), ("goods_choice", 1))
    seen = [g]
    h: TurnHistory | None = None
    for kind in ("goods", "road"):
        nxt, h = _play(h, seen[-1], _first(seen[-1], kind))
        seen.append(nxt)
    assert seen[-1].current == 0 and can_take_back(h, seen[-1]) == 2

    state = seen[-1]
    for earlier in reversed(seen[:-1]):
        state, h, _ = take_back(h, state, 0)
        assert state.to_dict() == earlier.to_dict()
    with pytest.raises(NothingToUndo):
        take_back(h, state, 0)


def test_nothing_can_be_taken_back_after_a_karma_reroll() -> None:
    """The karma roll showed new dice: the player cannot go back to choose differently."""
    g = game(3, seed=21, start=0)
    set_dice(g, where={PURPLE_SAME: 0, PURPLE_MIXED: ELEPHANT})
    turn_of(g, 1)
    sheet_of(g, 1, karma_gained=2)
    g2, h = _play(None, g, decide("karma", ORANGE_A))
    assert g2.phase == PHASE_REROLL and sets_barrier(g, g2)
    assert h is None and can_take_back(h, g2) == 0

    with pytest.raises(UndoAfterRoll):
        take_back(h, g2, 1)
    # rolling again is new information too
    g3, h = _play(h, g2, decide("reroll"))
    with pytest.raises(UndoAfterRoll):
        take_back(h, g3, 1)


def test_a_die_kept_after_a_karma_roll_can_be_taken_back_but_not_the_roll() -> None:
    g = game(3, seed=1, start=0)
    set_dice(g, where={PURPLE_SAME: 0, PURPLE_MIXED: ELEPHANT})
    turn_of(g, 1)
    sheet_of(g, 1, karma_gained=2)
    rolled, h = _play(None, g, decide("karma", GREEN_A))
    kept, h = _play(h, rolled, decide("keep", GREEN_A))
    assert kept.current == 1 and kept.phase == PHASE_RESOLVE  # the road is still to draw

    back, h, _ = take_back(h, kept, 1)

    assert back.to_dict() == rolled.to_dict() and back.phase == PHASE_REROLL
    with pytest.raises(UndoAfterRoll):
        take_back(h, back, 1)


def test_nothing_can_be_taken_back_after_the_turn_passed() -> None:
    g = game(3, seed=5)
    resolving(g, 0, ("road", SHAPES_ROAD_BONUS))  # the road is the last thing of the turn
    g2, h = _play(None, g, _first(g, "road"))
    assert g2.current != 0 and sets_barrier(g, g2)
    assert h is None
    with pytest.raises(NotYourTurn):
        take_back(h, g2, 0)  # seat 0's turn is over
    with pytest.raises(NothingToUndo):
        take_back(h, g2, g2.current)  # the next player has decided nothing yet


def test_another_seat_cannot_take_back_the_players_decision() -> None:
    g = game(3, seed=5, start=0)
    set_dice(g, {GREEN_A: "straight"})
    g2, h = _play(None, g, decide("die", GREEN_A))
    for seat in (1, 2):
        with pytest.raises(NotYourTurn):
            take_back(h, g2, seat)


def test_a_decision_not_meant_to_be_taken_back_sets_a_barrier() -> None:
    """A bot's decision (or any in a room with undo switched off) is never taken back."""
    g = game(3, seed=5, start=0)
    set_dice(g, {GREEN_A: "straight"})
    d = decide("die", GREEN_A)
    g2, _ = apply(g, d)
    assert record(None, g, d, g2, takeable=False) is None


def test_the_history_of_a_turn_never_holds_more_than_the_cap() -> None:
    """Past the cap the oldest decision becomes fixed: the history stays bounded (MAX_TURN_DECISIONS)."""
    assert MAX_TURN_DECISIONS == 32
    g = game(3, seed=5)
    resolving(g, 0, ("goods_choice", 1), ("road", SHAPES_ROAD_BONUS), ("goods_choice", 1))
    h: TurnHistory | None = None
    states = [g]
    for kind in ("goods", "road"):
        d = _first(states[-1], kind)
        after, _ = apply(states[-1], d)
        h = record(h, states[-1], d, after, cap=1)
        states.append(after)
    assert h is not None and len(h.decisions) == 1 and h.base.to_dict() == states[1].to_dict()

    back, h, _ = take_back(h, states[2], 0)

    assert back.to_dict() == states[1].to_dict()
    with pytest.raises(NothingToUndo):
        take_back(h, back, 0)
