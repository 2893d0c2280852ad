"""Refused decisions leave the state as it was; states and events are plain data that round-trip."""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import msgpack
import pytest
from rajas.games.dice_charmers.engine import (
    Decision,
    GameOver,
    GameState,
    IllegalDecision,
    MalformedDecision,
    NotYourTurn,
    apply,
    legal_decisions,
    new_game,
    pending,
)

from .builders import GREEN_A, decide, game, set_dice, sheet_of


def _random_play(g: GameState, rng: random.Random, steps: int) -> tuple[GameState, list[Decision]]:
    taken = []
    for _ in range(steps):
        if g.is_over:
            break
        d = rng.choice(legal_decisions(g))
        taken.append(d)
        g, _ = apply(g, d)
    return g, taken


# --- errors ---


def test_a_decision_by_the_wrong_seat_raises_not_your_turn() -> None:
    g = game(3, start=0)
    before = g.to_dict()
    d = legal_decisions(g)[0]

    with pytest.raises(NotYourTurn) as err:
        apply(g, d, player=1)

    assert err.value.code == "not_your_turn"
    assert g.to_dict() == before


def test_the_right_seat_may_name_itself() -> None:
    g = game(3, start=2)
    g2, _ = apply(g, legal_decisions(g)[0], player=2)
    assert g2.step == 1


def test_a_decision_not_among_the_legal_ones_raises_illegal_decision() -> None:
    g = game(3, start=0)
    set_dice(g, {GREEN_A: "bend"})
    before = g.to_dict()

    for bad in (decide("pass"), decide("karma", 3), decide("upgrade", 0), decide("die", 9), decide("use", bonus=0)):
        assert bad not in legal_decisions(g)
        with pytest.raises(IllegalDecision) as err:
            apply(g, bad)
        assert err.value.code == "illegal_decision"
    assert g.to_dict() == before


def test_an_illegal_decision_in_the_middle_of_a_turn_changes_nothing() -> None:
    g = game(3, start=0)
    set_dice(g, {GREEN_A: "half_roads"})
    g2, _ = apply(g, decide("die", GREEN_A))
    before = g2.to_dict()

    with pytest.raises(IllegalDecision):
        apply(g2, decide("road", 0, 1 | 4))

    assert g2.to_dict() == before
    assert legal_decisions(g2)


def test_any_decision_after_the_end_raises_game_over() -> None:
    g = game(3, start=0)
    sheet_of(g, 0, fame=21, money=40)
    rng = random.Random(1)
    while not g.is_over:
        g, _ = apply(g, rng.choice(legal_decisions(g)))
    before = g.to_dict()

    with pytest.raises(GameOver) as err:
        apply(g, decide("die", 0))

    assert err.value.code == "game_over"
    assert legal_decisions(g) == []
    assert pending(g)["player"] is None
    assert g.to_dict() == before


@pytest.mark.parametrize(
    "wire",
    [
        None,
        "die",
        [],
        ["die", [1], -1, "extra"],
        ["fly", [], -1],
        ["die", [], -1],
        ["die", [1, 2], -1],
        ["die", ["1"], -1],
        ["die", [1.0], -1],
        ["die", [True], -1],
        ["die", 1, -1],
        ["use", [], "0"],
        {"kind": "road", "args": [1]},
        42,
    ],
)
def test_malformed_wire_decisions_are_refused(wire: Any) -> None:
    with pytest.raises(MalformedDecision) as err:
        Decision.from_wire(wire)
    assert err.value.code == "malformed_decision"


def test_wire_decisions_round_trip() -> None:
    g = game(3)
    for d in legal_decisions(g):
        assert Decision.from_wire(d.to_wire()) == d
        assert Decision.from_wire(json.loads(json.dumps(d.to_wire()))) == d
    assert Decision.from_wire({"kind": "use", "bonus": 2}) == Decision("use", (), 2)


def test_a_wire_decision_the_engine_never_listed_is_parsed_but_not_kept() -> None:
    from rajas.games.dice_charmers.engine.decisions import _made

    listed = legal_decisions(game(3))[0]
    assert Decision.from_wire(listed.to_wire()) is listed  # the engine's own object: found by identity
    known = len(_made)
    for space in range(1000, 1100):  # any integers a client sends: each parsed, none remembered
        assert Decision.from_wire(["road", [space, 3]]) == Decision("road", (space, 3))
    assert len(_made) == known


def test_new_game_refuses_a_wrong_number_of_players() -> None:
    for n in (1, 6):
        with pytest.raises(ValueError):
            new_game(n, 1)


# --- serialisation ---


def _reload(g: GameState) -> GameState:
    return GameState.from_dict(g.to_dict(), g.sheet)


@pytest.mark.parametrize("players,sheet", [(2, "sun"), (3, "moon"), (5, "sun")])
def test_state_round_trips_losslessly_mid_turn(players: int, sheet: str) -> None:
    """Same legal decisions, same future when the same decisions are applied."""
    g, _ = new_game(players, 77, sheet)
    rng = random.Random(players)
    checked_mid_turn = 0
    for _ in range(150):
        if g.is_over:
            break
        r = _reload(g)
        assert r.to_dict() == g.to_dict()
        assert legal_decisions(r) == legal_decisions(g)
        assert pending(r) == pending(g)
        if g.phase != "pick":
            checked_mid_turn += 1
        d = rng.choice(legal_decisions(g))
        g1, ev1 = apply(g, d)
        r1, ev2 = apply(r, d)
        assert ev1 == ev2
        assert g1.to_dict() == r1.to_dict()
        g = g1
    assert checked_mid_turn > 0


def test_state_from_another_sheet_is_refused() -> None:
    from rajas.games.dice_charmers.engine import load_sheet

    g = game(3, sheet="sun")
    with pytest.raises(ValueError):
        GameState.from_dict(g.to_dict(), load_sheet("moon"))


def test_state_round_trips_through_msgpack_and_json() -> None:
    g, _ = new_game(4, "seed", "moon")
    g, _ = _random_play(g, random.Random(3), 40)
    d = g.to_dict()

    packed = msgpack.unpackb(msgpack.packb(d), raw=False, strict_map_key=False)
    via_json = json.loads(json.dumps(d))

    for data in (packed, via_json):
        r = GameState.from_dict(data, g.sheet)
        assert r.to_dict() == d
        assert legal_decisions(r) == legal_decisions(g)


def test_to_dict_does_not_share_mutable_parts_with_the_state() -> None:
    g = game(3)
    d = g.to_dict()
    snapshot = copy.deepcopy(d)
    d["players"][0]["roads"][0] = 15
    d["faces"][0] = 5
    assert g.to_dict() == snapshot


def _lists(x: object) -> object:
    if isinstance(x, dict):
        return {k: _lists(v) for k, v in x.items()}
    return [_lists(v) for v in x] if isinstance(x, list | tuple) else x


def test_events_and_pending_are_plain_data() -> None:
    """Pending decisions are the engine's own tuples (a decision is a named tuple): json writes each as the
    array of its wire form."""
    g, events = new_game(3, 5, "sun")
    all_events = list(events)
    rng = random.Random(5)
    for _ in range(60):
        if g.is_over:
            break
        p = pending(g)
        assert json.loads(json.dumps(p)) == _lists(p)
        assert _lists(p["options"]) == [d.to_wire() for d in p["options"]]
        g, ev = apply(g, rng.choice(legal_decisions(g)))
        all_events.extend(ev)
    assert json.loads(json.dumps(all_events)) == all_events
    assert msgpack.unpackb(msgpack.packb(all_events), raw=False, strict_map_key=False) == all_events


def test_apply_never_changes_the_state_passed_in() -> None:
    """The engine is pure: "The state passed in is never changed"."""
    g, _ = new_game(3, 9, "sun")
    rng = random.Random(9)
    for _ in range(80):
        if g.is_over:
            break
        before = g.to_dict()
        d = rng.choice(legal_decisions(g))
        g2, _ = apply(g, d)
        assert g.to_dict() == before
        g = g2
