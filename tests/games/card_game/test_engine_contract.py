"""The engine's contract with the platform: determinism, read-only states, plain-data round trips, decisions on
the wire, typed errors, and the undo barrier (`reveals`)."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rajas.games.card_game.engine import (
    Decision,
    GameOver,
    IllegalDecision,
    MalformedDecision,
    NotYourTurn,
    State,
    apply,
    check_state,
    from_dict,
    legal_decisions,
    new_game,
    reveals,
    to_dict,
    to_move,
)

from .builders import do, goods_card, table
from .games import bot_game


def test_the_same_seed_and_contributions_give_the_same_game() -> None:
    a = [(s.decision, s.events, to_dict(s.after)) for s in bot_game(3, "same")]
    b = [(s.decision, s.events, to_dict(s.after)) for s in bot_game(3, "same")]
    assert a == b


def test_each_contribution_changes_the_deal() -> None:
    base, _ = new_game(3, "seed", ["a", "b", "c"])
    again, _ = new_game(3, "seed", ["a", "b", "c"])
    other, _ = new_game(3, "seed", ["a", "b", "d"])
    assert to_dict(base) == to_dict(again)
    assert base.draw != other.draw and base.numbers != other.numbers


def test_states_round_trip_through_plain_data_at_every_step() -> None:
    for step in bot_game(2, "round trip", "greedy"):
        data = json.loads(json.dumps(to_dict(step.after)))
        assert from_dict(data) == step.after
        json.dumps(step.events)


def test_apply_never_changes_the_state_it_was_given() -> None:
    for step in bot_game(2, "untouched"):
        if step.decision is None:
            continue
        before = to_dict(step.before)
        apply(step.before, step.decision)
        assert to_dict(step.before) == before
    g, _ = new_game(2, "frozen")
    with pytest.raises(AttributeError):
        g.round = 3  # type: ignore[misc]


@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 10**9), players=st.integers(2, 4))
def test_every_legal_decision_is_accepted_and_the_invariants_hold(seed: int, players: int) -> None:
    for step in bot_game(players, str(seed)):
        check_state(step.after)
        if not step.after.is_over:
            for d in legal_decisions(step.after)[:8]:
                after, _ = apply(step.after, d)
                check_state(after)


def test_decisions_go_over_the_wire_and_back() -> None:
    g, _ = new_game(4, "wire")
    for d in legal_decisions(g):
        assert Decision.from_wire(json.loads(json.dumps(d.to_wire()))) == d


@pytest.mark.parametrize("wire", [None, [], "dice", [1, [2]], ["fly", []], ["dice", [1, 2]], ["dice", ["1"]],
                                  ["dice", [True]], ["dice", 3], ["end", [], 1]])
def test_a_malformed_decision_is_refused_with_its_code(wire: object) -> None:
    with pytest.raises(MalformedDecision) as err:
        Decision.from_wire(wire)
    assert err.value.code == "malformed_decision"


def test_a_decision_by_another_seat_is_refused_and_changes_nothing() -> None:
    g, _ = new_game(3, "turn")
    with pytest.raises(NotYourTurn) as err:
        apply(g, legal_decisions(g)[0], player=(g.current + 1) % 3)
    assert err.value.code == "not_your_turn"
    assert to_move(g) == g.current


def test_an_illegal_decision_is_refused() -> None:
    g, _ = new_game(2, "illegal")
    with pytest.raises(IllegalDecision) as err:
        apply(g, Decision("dice", (999,)))
    assert err.value.code == "illegal_decision"


def test_nothing_is_decided_once_the_game_is_over() -> None:
    last = list(bot_game(2, "over"))[-1].after
    assert last.is_over and to_move(last) is None and legal_decisions(last) == []
    with pytest.raises(GameOver) as err:
        apply(last, Decision("end"))
    assert err.value.code == "game_over"


def test_a_step_that_passes_the_turn_or_shows_a_number_is_a_barrier_and_a_free_goods_card_is_not() -> None:
    g = table(offer=[goods_card(("tea", 2)), goods_card(("tea", 3))], seat={0: {"managers": 1}}, managers_supply=11)
    g2, _ = do(g, "goods", g.offer[0])
    assert not reveals(g, g2) and g2.current == 0  # the turn is still player 0's: it can be taken back
    g3, _ = do(g2, "end")
    assert reveals(g2, g3)
    g4, _ = do(g2, "draw")  # two dice from the draw pile: seen by the player
    assert reveals(g2, g4)
    d, _ = do(g, "dice", g.offer[0])
    assert reveals(g, d)


def test_every_step_of_a_game_that_draws_or_shows_is_a_barrier() -> None:
    for step in bot_game(3, "barriers"):
        if step.decision is None:
            continue
        drew = step.after.rng != step.before.rng or step.after.draw[:1] != step.before.draw[:1]
        told = any("to" in e for e in step.events)
        if drew or told or step.after.current != step.before.current:
            assert reveals(step.before, step.after)


def test_a_state_is_a_state() -> None:
    g, _ = new_game(2, 5)
    assert isinstance(g, State) and not g.is_over and g.result is None
