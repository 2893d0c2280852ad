"""The four die colours: purple goods, green roads, blue river, orange palace."""

from __future__ import annotations

from typing import Any

from rajas.games.dice_charmers.engine import GameState, apply, legal_decisions
from rajas.games.dice_charmers.engine.effects import BENDS, FORKS, INTERSECTION, STRAIGHTS

from .builders import (
    BLUE_A,
    GREEN_A,
    ORANGE_A,
    PURPLE_MIXED,
    PURPLE_SAME,
    SILK,
    SPICES,
    TEA,
    TRADER,
    E,
    N,
    S,
    W,
    carry_out,
    cell,
    decide,
    game,
    options,
    set_dice,
    sheet_of,
    turn_of,
)

RESIDENCE = cell(2, 2)
FORT_WEST = cell(2, 1)  # west of the residence on the Sun sheet


def take(g: GameState, seat: int, die: int, face: Any) -> tuple[GameState, list[dict[str, Any]]]:
    """`seat` takes `die` showing `face` at the start of its turn."""
    turn_of(g, seat)
    set_dice(g, {die: face})
    return apply(g, decide("die", die))


def spaces(g: GameState, symbol: str) -> list[int]:
    sym = g.sheet.symbols.index(symbol)
    return [i for i, s in enumerate(g.sheet.river_symbol) if s == sym]


# --- purple ---


def test_purple_die_circles_the_leftmost_free_goods() -> None:
    """ "To do so, you always have to take the first good that is still available, i.e., the not-yet-circled
    good of the respective kind that is furthest left in your market area." """
    g = game()
    sheet_of(g, 0, circled={"tea": 2})

    g2, events = take(g, 0, PURPLE_SAME, ["tea", "tea"])

    assert g2.players[0].circled == (4, 0, 0)
    assert {"type": "goods_gained", "player": 0, "goods": [2, 0, 0], "wanted": [2, 0, 0]} in events


def test_purple_die_with_two_different_goods_circles_one_of_each() -> None:
    g = game()
    g2, _ = take(g, 0, PURPLE_MIXED, ["silk", "spices"])
    assert g2.players[0].circled == (0, 1, 1)


def test_a_full_goods_row_takes_no_more_goods() -> None:
    """ "Als je alle goederen van een soort al omcirkeld hebt, kun je van die soort verder geen goederen
    meer krijgen." """
    g = game()
    full = len(g.sheet.prices)
    sheet_of(g, 0, circled={"tea": full - 1})

    g2, events = take(g, 0, PURPLE_SAME, ["tea", "tea"])

    assert g2.players[0].circled[TEA] == full
    assert {"type": "goods_gained", "player": 0, "goods": [1, 0, 0], "wanted": [2, 0, 0]} in events


# --- green ---


def test_the_first_road_starts_from_the_residence() -> None:
    """ "Your first road must start from your residence." """
    g = game()
    g2, _ = take(g, 0, GREEN_A, "bend")

    roads = options(g2, "road")
    assert roads
    res_nbs = {n for n in g.sheet.neighbour[RESIDENCE] if n >= 0}
    assert {c for c, _ in (d.args for d in roads)} <= res_nbs


def test_a_bend_die_draws_a_bend() -> None:
    g = game()
    g2, _ = take(g, 0, GREEN_A, "bend")
    assert {d.kind for d in legal_decisions(g2)} == {"road"}
    assert all(d.args[1] in BENDS for d in legal_decisions(g2))


def test_a_straight_die_draws_a_straight() -> None:
    g = game()
    g2, _ = take(g, 0, GREEN_A, "straight")
    assert {d.kind for d in legal_decisions(g2)} == {"road"}
    assert all(d.args[1] in STRAIGHTS for d in legal_decisions(g2))


def test_two_half_roads_combine_into_a_straight_or_a_bend_on_a_new_space() -> None:
    """ "The half-roads can be combined to form a straight, or combined to form a bend" """
    g = game()
    g2, _ = take(g, 0, GREEN_A, "half_roads")

    combined = {d.args[1] for d in options(g2, "road")}

    assert combined & set(STRAIGHTS) and combined & set(BENDS)
    assert not combined & ({*FORKS, INTERSECTION})


def test_two_half_roads_may_be_added_one_by_one_to_drawn_roads() -> None:
    """ "... or connected to already-existing roads (straight, bend or fork) in order to form a fork or an
    intersection." """
    g = game()
    north = cell(1, 2)
    sheet_of(g, 0, roads={FORT_WEST: E | W, north: N | S})
    g2, _ = take(g, 0, GREEN_A, "half_roads")
    assert decide("half_road", north, E) in legal_decisions(g2)

    g3, _events = apply(g2, decide("half_road", north, E))
    assert g3.players[0].roads[north] == N | E | S  # a fork
    assert g3.stack == (("half_road",),)
    assert {d.kind for d in legal_decisions(g3)} == {"half_road"}

    g4, _ = apply(g3, decide("half_road", FORT_WEST, N))
    assert g4.players[0].roads[FORT_WEST] == E | W | N  # a fork
    assert g4.current == 1


def test_a_single_half_road_never_half_fills_a_new_space() -> None:
    """ "You are not allowed to mark a new province space only half by drawing one half-road." """
    g = game()
    sheet_of(g, 0, roads={FORT_WEST: E | W})
    g2, _ = take(g, 0, GREEN_A, "half_roads")

    halves = options(g2, "half_road")

    assert halves
    assert all(g2.players[0].roads[c] for c, _ in (d.args for d in halves))


# --- blue ---


def test_a_blue_die_sails_to_the_next_free_space_with_its_symbol() -> None:
    """ "you advance to the next unoccupied river space with the corresponding symbol. You mark (only!) the
    target space you have reached" """
    g = game()
    flags = spaces(g, "flag")
    start = flags[0] + 1
    sheet_of(g, 0, river=[start])

    g2, events = take(g, 0, BLUE_A, "flag")

    target = next(i for i in flags if i > start)
    marked = [e["space"] for e in events if e["type"] == "river_marked"]
    assert marked[0] == target
    assert g2.players[0].river == 1 << start | 1 << target  # only the target space is marked


def test_a_blue_die_from_the_start_sails_to_the_first_space_with_its_symbol() -> None:
    g = game()
    _g2, events = take(g, 0, BLUE_A, "fish")
    assert next(e["space"] for e in events if e["type"] == "river_marked") == spaces(g, "fish")[0]


def test_the_river_reward_is_taken_at_once() -> None:
    """ "You immediately get the earnings depicted there." """
    g = game()
    lotus = spaces(g, "lotus")[0]
    reward = g.sheet.river_reward[lotus]
    assert reward[0][0] == "money"  # Sun and Moon both start the river with money on the first lotus

    g2, _ = take(g, 0, BLUE_A, "lotus")

    assert g2.players[0].money == reward[0][1]


def test_the_third_marked_space_of_a_symbol_exhausts_dice_with_that_symbol() -> None:
    """ "When you have marked the third space of one symbol, dice with this symbol will be of no more use
    to you." """
    g = game()
    flags = spaces(g, "flag")
    assert len(flags) >= 4
    sheet_of(g, 0, river=flags[:3])
    turn_of(g, 0)
    set_dice(g, {BLUE_A: "flag"})

    assert decide("die", BLUE_A) not in legal_decisions(g)


def test_two_marked_spaces_of_a_symbol_leave_its_dice_usable() -> None:
    g = game()
    flags = spaces(g, "flag")
    sheet_of(g, 0, river=flags[:2])
    turn_of(g, 0)
    set_dice(g, {BLUE_A: "flag"})

    _g2, events = apply(g, decide("die", BLUE_A))

    assert next(e["space"] for e in events if e["type"] == "river_marked") == flags[2]


def test_after_three_flags_the_fourth_flag_can_still_be_reached_by_sailing_forward() -> None:
    """Decision 20: only dice of the symbol are of no more use."""
    g = game()
    flags = spaces(g, "flag")
    before = flags[3] - 1
    sheet_of(g, 0, river=[*flags[:3], before])

    events = carry_out(g, 0, ("river_forward",))

    assert next(e["space"] for e in events if e["type"] == "river_marked") == flags[3]


def test_reaching_the_last_river_space_ends_blue_dice() -> None:
    """ "When you have reached the last river space, you can no longer advance on the river and no longer
    use blue dice." """
    g = game()
    sheet_of(g, 0, river=[len(g.sheet.river_symbol) - 1])
    turn_of(g, 0)
    for face in g.sheet.symbols:
        set_dice(g, {BLUE_A: face})
        assert decide("die", BLUE_A) not in legal_decisions(g)


def test_a_symbol_with_no_space_ahead_is_of_no_use() -> None:
    g = game()
    past_last_lotus = spaces(g, "lotus")[-1] + 1
    assert past_last_lotus < len(g.sheet.river_symbol)
    sheet_of(g, 0, river=[past_last_lotus])
    turn_of(g, 0)
    set_dice(g, {BLUE_A: "lotus"})
    assert decide("die", BLUE_A) not in legal_decisions(g)


# --- orange ---


def test_an_orange_die_crosses_out_the_character_and_carries_out_its_action() -> None:
    """ "Cross out the leftmost space of the chosen action in your palace area and carry out the
    corresponding palace action." """
    g = game()
    sheet_of(g, 0, circled={"tea": 1})

    g2, events = take(g, 0, ORANGE_A, "trader")

    assert g2.players[0].palace[TRADER] == 1
    assert {"type": "palace_crossed", "player": 0, "character": TRADER, "uses": 1} in events
    assert g2.stack == (("trader",),)
    assert {d.kind for d in legal_decisions(g2)} == {"sell", "goods"}


def test_each_palace_action_can_be_used_three_times_by_dice_and_bonuses_alike() -> None:
    """ "You can use each of the six palace actions only three times during the game (regardless of
    whether it is through dice or bonuses)." """
    g = game()
    uses = g.sheet.palace_uses
    assert uses == 3
    sheet_of(g, 0, palace={"trader": uses - 1}, circled={"tea": 1})
    carry_out(g, 0, ("palace", TRADER))
    assert g.players[0].palace[TRADER] == uses
    g.stack, g.pool = (), ()

    turn_of(g, 0)
    set_dice(g, {ORANGE_A: "trader"})
    assert decide("die", ORANGE_A) not in legal_decisions(g)


def test_a_palace_bonus_for_a_character_used_three_times_goes_to_waste() -> None:
    """ "So, if you have already used the Portuguese three times, it is not worth it for you to connect him
    as a bonus, since you can't use him anymore." """
    g = game()
    sheet_of(g, 0, palace={"portuguese": g.sheet.palace_uses}, river=[0, 5])

    events = carry_out(g, 0, ("money", 1), pool=[("palace", 5)])

    assert {"type": "bonus_wasted", "player": 0, "bonus": ["palace", 5]} in events
    assert g.players[0].palace[5] == g.sheet.palace_uses


def test_purple_goods_are_owned_until_sold() -> None:
    g = game()
    sheet_of(g, 0, circled={"silk": 3, "spices": 1}, sold={"silk": 1})
    p = g.players[0]
    assert (p.owned(TEA), p.owned(SILK), p.owned(SPICES)) == (0, 2, 1)
