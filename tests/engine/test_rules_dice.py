"""Dice: which die is suitable, passing, the depot, and karma rerolls."""

from __future__ import annotations

from rajas.games.dice_charmers.engine import GameState, apply, legal_decisions
from rajas.games.dice_charmers.engine.state import PHASE_PICK, PHASE_REROLL, PHASE_RESOLVE

from .builders import (
    BLUE_A,
    BLUE_B,
    ELEPHANT,
    GREEN_A,
    GREEN_B,
    MIDDLE,
    ORANGE_A,
    ORANGE_B,
    PURPLE_MIXED,
    PURPLE_SAME,
    TEA,
    carry_out,
    decide,
    game,
    set_dice,
    sheet_of,
    turn_of,
    types,
)


def _dice_offered(g: GameState) -> set[int]:
    return {d.args[0] for d in legal_decisions(g) if d.kind == "die"}


def _second_seat_after_elephant(players: int = 3) -> GameState:
    """Seat 1 is to take a die; the start player (seat 0) has used a purple die, its twin is on the elephant."""
    g = game(players, seed=21, start=0)
    set_dice(g, where={PURPLE_SAME: 0, PURPLE_MIXED: ELEPHANT})
    turn_of(g, 1)
    return g


def _exhaust_everything(g: GameState, seat: int) -> None:
    """A sheet on which no die can do anything: goods rows full, province full, river ended, palace used up."""
    s = g.sheet
    full = len(s.prices)
    sheet_of(
        g,
        seat,
        circled={"tea": full, "silk": full, "spices": full},
        sold={"tea": full, "silk": full, "spices": full},
        river=[len(s.river_symbol) - 1],
        palace={
            c: s.palace_uses
            for c in ("great_mogul", "maharani", "trader", "raja_man_singh", "master_builder", "portuguese")
        },
        roads=dict(enumerate(s.allowed)),
    )


# --- suitability (decision 5) ---


def test_a_blue_die_whose_symbol_is_used_up_cannot_be_taken() -> None:
    """ "When you have marked the third space of one symbol, dice with this symbol will be of no more use" """
    g = game(3, start=0)
    flag = g.sheet.symbols.index("flag")
    flags = [i for i, s in enumerate(g.sheet.river_symbol) if s == flag]
    sheet_of(g, 0, river=flags[:3])
    set_dice(g, {BLUE_A: "flag", BLUE_B: "lotus"})

    offered = _dice_offered(g)

    assert BLUE_A not in offered
    assert BLUE_B in offered or g.players[0].river_position > max(
        i for i, s in enumerate(g.sheet.river_symbol) if s == g.sheet.symbols.index("lotus")
    )


def test_an_orange_die_whose_character_is_crossed_out_three_times_cannot_be_taken() -> None:
    g = game(3, start=0)
    sheet_of(g, 0, palace={"trader": g.sheet.palace_uses})
    set_dice(g, {ORANGE_A: "trader", ORANGE_B: "raja_man_singh"})

    offered = _dice_offered(g)

    assert ORANGE_A not in offered and ORANGE_B in offered


def test_an_orange_die_whose_action_is_impossible_cannot_be_taken() -> None:
    """A Maharani with no river space ahead does nothing: the die is not suitable."""
    g = game(3, start=0)
    sheet_of(g, 0, river=[len(g.sheet.river_symbol) - 1])
    set_dice(g, {ORANGE_A: "maharani"})

    assert ORANGE_A not in _dice_offered(g)


def test_a_purple_die_whose_goods_rows_are_full_cannot_be_taken() -> None:
    g = game(3, start=0)
    sheet_of(g, 0, circled={"tea": len(g.sheet.prices)})
    set_dice(g, {PURPLE_SAME: ["tea", "tea"], PURPLE_MIXED: ["tea", "silk"]})

    offered = _dice_offered(g)

    assert PURPLE_SAME not in offered
    assert PURPLE_MIXED in offered  # partly usable: gives the silk


def test_a_partly_usable_purple_die_gives_the_good_that_has_room() -> None:
    g = game(3, start=0)
    full = len(g.sheet.prices)
    sheet_of(g, 0, circled={"tea": full})
    set_dice(g, {PURPLE_MIXED: ["tea", "silk"]})

    g2, _ = apply(g, decide("die", PURPLE_MIXED))

    assert g2.players[0].circled == (full, 1, 0)


def test_a_green_die_with_no_legal_road_cannot_be_taken() -> None:
    g = game(3, start=0)
    sheet_of(g, 0, roads=dict(enumerate(g.sheet.allowed)))
    set_dice(g, {GREEN_A: "bend", GREEN_B: "half_roads"})

    offered = _dice_offered(g)

    assert GREEN_A not in offered and GREEN_B not in offered


def test_a_player_with_no_usable_die_and_no_karma_passes_automatically() -> None:
    """ "In the rare case that there is no suitable die left on your turn and you don't have any karma, you
    don't carry out any action on this turn." """
    g = game(3, start=0)
    _exhaust_everything(g, 1)
    sheet_of(g, 1, karma_used=1)
    set_dice(g, {PURPLE_SAME: ["tea", "tea"]})

    g2, events = apply(g, decide("die", PURPLE_SAME))

    passed = [e for e in events if e["type"] == "turn_passed"]
    assert passed == [{"type": "turn_passed", "player": 1, "reason": "no usable die"}]
    assert g2.current == 2
    assert 1 not in g2.where


def test_a_player_with_no_usable_die_but_karma_may_decline() -> None:
    """Decision 6: with karma, rerolling is a choice, not a duty."""
    g = _second_seat_after_elephant()
    _exhaust_everything(g, 1)

    opts = legal_decisions(g)
    assert decide("pass") in opts
    assert {d.kind for d in opts} == {"pass", "karma"}

    g2, events = apply(g, decide("pass"))
    assert {"type": "turn_passed", "player": 1, "reason": "declined"} in events
    assert g2.current == 2 and g2.players[1].karma_used == 0


def test_pass_is_not_offered_while_a_die_is_usable() -> None:
    g = _second_seat_after_elephant()
    assert decide("pass") not in legal_decisions(g)


def test_a_taken_die_lies_on_the_players_depot() -> None:
    g = _second_seat_after_elephant()
    set_dice(g, {GREEN_A: "bend"})

    g2, events = apply(g, decide("die", GREEN_A))

    assert g2.where[GREEN_A] == 1
    assert {"type": "die_picked", "player": 1, "die": GREEN_A, "face": g.faces[GREEN_A]} in events
    assert g2.where.count(MIDDLE) == 5 and g2.where.count(ELEPHANT) == 1


def test_a_die_on_a_depot_or_the_elephant_cannot_be_taken() -> None:
    g = _second_seat_after_elephant()
    offered = _dice_offered(g)
    assert PURPLE_SAME not in offered and PURPLE_MIXED not in offered


# --- karma ---


def test_every_player_starts_with_one_karma() -> None:
    """ "At the beginning of the game, you have one karma." """
    g = game(4)
    assert all(p.karma_gained == 1 and p.karma_used == 0 and p.karma == 1 for p in g.players)


def test_karma_is_not_possible_on_the_start_players_first_pick() -> None:
    """Decision 1: the elephant is still empty on the start player's first pick."""
    g = game(3, start=0)
    sheet_of(g, 0, karma_gained=5)
    assert not [d for d in legal_decisions(g) if d.kind in ("karma", "pass")]


def test_karma_is_offered_at_the_start_of_a_later_turn_with_any_middle_die() -> None:
    g = _second_seat_after_elephant()

    karma = [d.args[0] for d in legal_decisions(g) if d.kind == "karma"]

    assert karma == [d for d in range(8) if g.where[d] == MIDDLE]


def test_karma_can_only_be_used_at_the_start_of_a_turn() -> None:
    """ "You can use karma only at the beginning of your turn." """
    g = _second_seat_after_elephant()
    set_dice(g, {GREEN_A: "half_roads"})
    g2, _ = apply(g, decide("die", GREEN_A))
    assert g2.phase == PHASE_RESOLVE and g2.current == 1

    assert not [d for d in legal_decisions(g2) if d.kind in ("karma", "reroll", "keep")]


def test_without_karma_there_is_no_reroll() -> None:
    g = _second_seat_after_elephant()
    sheet_of(g, 1, karma_used=1)
    assert not [d for d in legal_decisions(g) if d.kind == "karma"]


def test_karma_rerolls_the_elephant_die_and_one_middle_die() -> None:
    """ "Then you take the die off the elephant, plus any other die from the middle of the table. Roll both
    dice." """
    g = _second_seat_after_elephant()

    g2, events = apply(g, decide("karma", BLUE_A))

    assert g2.phase == PHASE_REROLL
    assert g2.reroll == (PURPLE_MIXED, BLUE_A)
    rolled = [e for e in events if e["type"] == "karma_rolled"]
    assert len(rolled) == 1 and rolled[0]["dice"] == [PURPLE_MIXED, BLUE_A]
    assert rolled[0]["faces"] == [g2.faces[PURPLE_MIXED], g2.faces[BLUE_A]]
    assert g2.players[1].karma_used == 1 and g2.players[1].karma == 0
    # only the two rolled dice changed
    assert [f for i, f in enumerate(g2.faces) if i not in (PURPLE_MIXED, BLUE_A)] == [
        f for i, f in enumerate(g.faces) if i not in (PURPLE_MIXED, BLUE_A)
    ]


def test_after_a_karma_roll_the_player_keeps_one_of_the_two_dice() -> None:
    g = _second_seat_after_elephant()
    g2, _ = apply(g, decide("karma", BLUE_A))

    kept = {d.args[0] for d in legal_decisions(g2) if d.kind == "keep"}

    assert kept <= {PURPLE_MIXED, BLUE_A} and kept


def test_the_kept_die_goes_to_the_depot_and_the_other_onto_the_elephant() -> None:
    """ "Put the chosen die on your dice-depot tile and the other die on top of the elephant." """
    g = _second_seat_after_elephant()
    sheet_of(g, 1, karma_gained=1)
    g2, _ = apply(g, decide("karma", GREEN_A))
    keep = next(d for d in legal_decisions(g2) if d.kind == "keep")
    other = GREEN_A if keep.args[0] == PURPLE_MIXED else PURPLE_MIXED

    g3, events = apply(g2, keep)

    assert g3.where[keep.args[0]] == 1
    assert g3.where[other] == ELEPHANT
    assert g3.where.count(ELEPHANT) == 1
    kept = [e for e in events if e["type"] == "die_kept"]
    assert kept[0]["die"] == keep.args[0] and kept[0]["elephant"] == other


def test_several_karma_in_one_turn_reroll_the_same_two_dice() -> None:
    """ "you are allowed to use any amount of collected karma on one turn in order to roll the two chosen
    dice multiple times." """
    g = _second_seat_after_elephant()
    sheet_of(g, 1, karma_gained=3)
    g2, _ = apply(g, decide("karma", ORANGE_A))
    assert decide("reroll") in legal_decisions(g2)

    g3, events = apply(g2, decide("reroll"))

    assert g3.phase == PHASE_REROLL and g3.reroll == (PURPLE_MIXED, ORANGE_A)
    assert [e["dice"] for e in events if e["type"] == "karma_rolled"] == [[PURPLE_MIXED, ORANGE_A]]
    assert g3.players[1].karma_used == 2 and g3.players[1].karma == 1


def test_no_further_reroll_once_karma_is_spent() -> None:
    g = _second_seat_after_elephant()
    g2, _ = apply(g, decide("karma", ORANGE_A))
    assert g2.players[1].karma == 0
    assert decide("reroll") not in legal_decisions(g2)


def test_karma_bonuses_at_the_third_fourth_and_fifth_karma_circled() -> None:
    """ "You receive one bonus each when you circle karma for the third, for the fourth, and for the fifth
    time." """

    g = game(3, start=0)
    sheet_of(g, 0, karma_gained=2)

    events = carry_out(g, 0, ("karma", 3))

    released = [e["source"] for e in events if e["type"] == "bonus_released"]
    assert released == [f"karma {at}" for at, _ in g.sheet.karma_bonuses]
    assert [at for at, _ in g.sheet.karma_bonuses] == [3, 4, 5]


def test_the_sixth_karma_gives_no_bonus() -> None:

    g = game(3, start=0)
    sheet_of(g, 0, karma_gained=5)

    events = carry_out(g, 0, ("karma", 1))

    assert g.players[0].karma_gained == 6
    assert "bonus_released" not in types(events)


def test_karma_beyond_the_karma_track_is_lost() -> None:
    """Decision 31."""

    g = game(3, start=0)
    spaces = g.sheet.karma_spaces
    sheet_of(g, 0, karma_gained=spaces, karma_used=2)

    events = carry_out(g, 0, ("karma", 1))

    assert g.players[0].karma_gained == spaces
    karma = [e for e in events if e["type"] == "karma"]
    assert karma[0]["amount"] == 0 and karma[0]["lost"] == 1


def test_used_karma_can_be_circled_again_up_to_the_track_length() -> None:
    """Crossed-out karma stays on the track: a full track takes no more, whatever has been used."""

    g = game(3, start=0)
    sheet_of(g, 0, karma_gained=4, karma_used=4)

    carry_out(g, 0, ("karma", 1))

    assert g.players[0].karma_gained == 5 and g.players[0].karma == 1


def test_a_karma_reroll_needs_a_die_on_the_elephant() -> None:
    """Decision 2: if the start player used no die, nobody can use karma that round."""
    g = game(3, start=0)
    turn_of(g, 1)
    assert ELEPHANT not in g.where

    assert not [d for d in legal_decisions(g) if d.kind == "karma"]


def test_rerolled_dice_that_cannot_be_used_pass_the_turn_when_no_karma_is_left() -> None:
    """Decision 4: the elephant's die stays on the elephant and the other returns to the middle."""
    g = _second_seat_after_elephant()
    _exhaust_everything(g, 1)

    g2, events = apply(g, decide("karma", GREEN_A))

    assert {"type": "turn_passed", "player": 1, "reason": "rerolled dice unusable"} in events
    assert g2.where[PURPLE_MIXED] == ELEPHANT and g2.where[GREEN_A] == MIDDLE
    assert g2.current == 2 and g2.phase == PHASE_PICK
    assert g2.players[1].circled[TEA] == len(g.sheet.prices)


def test_after_an_unusable_karma_roll_a_player_with_karma_left_may_stop_rerolling() -> None:
    g = _second_seat_after_elephant()
    _exhaust_everything(g, 1)
    sheet_of(g, 1, karma_gained=3)

    g2, _ = apply(g, decide("karma", GREEN_A))

    assert g2.phase == PHASE_REROLL
    assert decide("pass") in legal_decisions(g2)
    g3, _ = apply(g2, decide("pass"))
    assert g3.current == 2, "the turn passes; the unusable dice stay where they are"
    assert g3.players[1].karma_used == 1
