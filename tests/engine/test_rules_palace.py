"""The six palace characters, the palace columns, and upgrades with their column bonuses."""

from __future__ import annotations

from typing import Any

from rajas.games.dice_charmers.engine import GameState, apply, legal_decisions

from .builders import (
    GREAT_MOGUL,
    MAHARANI,
    MASTER_BUILDER,
    ORANGE_A,
    PORTUGUESE,
    RAJA_MAN_SINGH,
    TEA,
    TRADER,
    E,
    W,
    carry_out,
    cell,
    decide,
    game,
    set_dice,
    sheet_of,
    turn_of,
    types,
)

CHARACTER_NAMES = ("great_mogul", "maharani", "trader", "raja_man_singh", "master_builder", "portuguese")


def orange(g: GameState, character: str, seat: int = 0) -> tuple[GameState, list[dict[str, Any]]]:
    turn_of(g, seat)
    set_dice(g, {ORANGE_A: character})
    return apply(g, decide("die", ORANGE_A))


def kinds(g: GameState) -> set[str]:
    return {d.kind for d in legal_decisions(g)}


# --- the Great Mogul ---


def test_great_mogul_chooses_one_of_the_other_five_characters() -> None:
    """ "The Great Mogul: Choose from one of the other 5 palace actions" """
    g = game()
    g2, _ = orange(g, "great_mogul")

    chosen = {d.args[0] for d in legal_decisions(g2)}

    assert kinds(g2) == {"palace"}
    assert GREAT_MOGUL not in chosen
    # Portuguese with nothing behind still gives a good, so all five are possible on a fresh sheet
    assert chosen == {MAHARANI, TRADER, RAJA_MAN_SINGH, MASTER_BUILDER, PORTUGUESE}


def test_great_mogul_crosses_out_both_himself_and_the_chosen_character() -> None:
    """ "cross out the chosen palace action and carry out the respective action." """
    g = game()
    g2, _ = orange(g, "great_mogul")

    g3, events = apply(g2, decide("palace", MAHARANI))

    assert g3.players[0].palace[GREAT_MOGUL] == 1
    assert g3.players[0].palace[MAHARANI] == 1
    assert {e["character"] for e in events if e["type"] == "palace_crossed"} == {MAHARANI}
    assert kinds(g3) == {"river"}  # the Maharani's action follows


def test_great_mogul_cannot_choose_a_character_used_three_times() -> None:
    g = game()
    sheet_of(g, 0, palace={"trader": g.sheet.palace_uses})
    g2, _ = orange(g, "great_mogul")
    assert decide("palace", TRADER) not in legal_decisions(g2)


def test_a_palace_bonus_of_choice_may_choose_the_great_mogul() -> None:
    """Decision 23."""
    g = game()
    carry_out(g, 0, ("money", 1), pool=[("palace_any",)])

    chosen = {d.args[0] for d in legal_decisions(g) if d.kind == "palace"}

    assert GREAT_MOGUL in chosen and len(chosen) == 6


# --- the Maharani ---


def test_maharani_advances_one_or_two_spaces_on_the_river() -> None:
    """ "The Maharani: You immediately advance 1 or 2 spaces (your choice) on the river, mark the chosen
    space, and gain the respective earnings." """
    g = game()
    sheet_of(g, 0, river=[0, 2])
    g2, _ = orange(g, "maharani")

    assert sorted(d.args[0] for d in legal_decisions(g2)) == [3, 4]

    g3, events = apply(g2, decide("river", 4))
    assert g3.players[0].river_position == 4
    assert {"type": "river_marked", "player": 0, "space": 4} in events


def test_maharani_counts_every_space_whatever_its_symbol() -> None:
    g = game()
    g2, _ = orange(g, "maharani")
    assert sorted(d.args[0] for d in legal_decisions(g2)) == [0, 1]


def test_maharani_on_the_second_last_space_has_only_the_last_space() -> None:
    g = game()
    last = len(g.sheet.river_symbol) - 1
    sheet_of(g, 0, river=[last - 1])

    g2, events = orange(g, "maharani")

    assert {"type": "river_marked", "player": 0, "space": last} in events
    assert g2.players[0].river_position == last


# --- the Trader ---


def test_trader_sells_up_to_two_goods_of_choice_or_takes_one_good() -> None:
    """ "The Trader: You may immediately sell up to 2 goods of your choice. If you are not willing or able
    to sell any goods, you get one good of your choice" """
    g = game()
    sheet_of(g, 0, circled={"tea": 3, "silk": 1})
    g2, _ = orange(g, "trader")

    sales = {d.args for d in legal_decisions(g2) if d.kind == "sell"}
    goods = {d.args for d in legal_decisions(g2) if d.kind == "goods"}

    assert sales == {(1, 0, 0), (2, 0, 0), (0, 1, 0), (1, 1, 0)}
    assert goods == {(1, 0, 0), (0, 1, 0), (0, 0, 1)}


def test_trader_selling_two_goods_earns_their_column_prices() -> None:
    g = game()
    sheet_of(g, 0, circled={"tea": 3}, sold={"tea": 1})
    g2, _ = orange(g, "trader")

    g3, _ = apply(g2, decide("sell", 2, 0, 0))

    prices = g.sheet.prices
    assert g3.players[0].money == prices[1] + prices[2]
    assert g3.players[0].sold[TEA] == 3


def test_trader_with_nothing_to_sell_takes_a_good() -> None:
    g = game()
    g2, _ = orange(g, "trader")
    assert kinds(g2) == {"goods"}

    g3, _ = apply(g2, decide("goods", 0, 0, 1))
    assert g3.players[0].circled == (0, 0, 1)


# --- Raja Man Singh ---


def test_raja_man_singh_gives_one_money_and_an_upgrade() -> None:
    """ "Raja Man Singh: You get 1 money. Record it on your money track and immediately make an upgrade of
    one of your buildings" """
    g = game()
    g2, _events = orange(g, "raja_man_singh")

    assert g2.players[0].money == 1
    assert kinds(g2) == {"upgrade"}
    assert sorted(d.args[0] for d in legal_decisions(g2)) == list(range(len(g.sheet.buildings)))

    g3, _ = apply(g2, decide("upgrade", 2))
    assert g3.players[0].levels[2] == 2


def test_raja_man_singh_with_every_building_at_the_top_still_gives_the_money() -> None:
    """Decision 25."""
    g = game()
    top = g.sheet.max_level
    sheet_of(g, 0, levels=dict.fromkeys(g.sheet.buildings, top))

    g2, events = orange(g, "raja_man_singh")

    assert g2.players[0].money == 1
    assert g2.current == 1  # the upgrade had nothing to do; the turn is over
    assert {"type": "bonus_wasted", "player": 0, "bonus": ["upgrade"]} in events


# --- the Master Builder ---


def test_master_builder_gives_two_half_roads_like_the_green_die() -> None:
    """ "The Master Builder: You immediately get 2 half-roads. You can build them in the same way as the 2
    half-roads on the green dice." """
    g = game()
    sheet_of(g, 0, roads={cell(2, 1): E | W})
    g2, _ = orange(g, "master_builder")
    builder = set(legal_decisions(g2))

    g = game()
    sheet_of(g, 0, roads={cell(2, 1): E | W})
    turn_of(g, 0)
    set_dice(g, {2: "half_roads"})
    g3, _ = apply(g, decide("die", 2))

    assert builder == set(legal_decisions(g3))
    assert {"road", "half_road"} <= {d.kind for d in builder}


# --- the Portuguese ---


def test_portuguese_sails_back_to_one_of_the_two_nearest_unmarked_spaces() -> None:
    """ "From your current position, you move 1 or 2 unoccupied spaces back on the river ... When you move
    backwards, you don't include already-marked spaces in the count" """
    g = game()
    sheet_of(g, 0, river=[0, 3, 5, 6])
    g2, _ = orange(g, "portuguese")

    back = sorted(d.args[0] for d in legal_decisions(g2) if d.kind == "river")

    assert back == [2, 4]  # 5 and 3 are marked and not counted


def test_portuguese_does_not_move_the_current_position() -> None:
    """ "your current position on the river is considered the starting point again, of course - that is,
    the rightmost marked river space." """
    g = game()
    sheet_of(g, 0, river=[0, 3, 5, 6])
    g2, _ = orange(g, "portuguese")

    g3, _ = apply(g2, decide("river", 2))

    assert g3.players[0].river_position == 6
    assert g3.players[0].river == sum(1 << i for i in (0, 2, 3, 5, 6))


def test_portuguese_may_take_a_good_instead() -> None:
    """ "If there is no unoccupied space on the river that you can move back to, or if you don't want to
    move back, you obtain a good of your choice." """
    g = game()
    sheet_of(g, 0, river=[0, 3, 5, 6])
    g2, _ = orange(g, "portuguese")
    assert {(1, 0, 0), (0, 1, 0), (0, 0, 1)} <= {d.args for d in legal_decisions(g2) if d.kind == "goods"}

    g3, _ = apply(g2, decide("goods", 0, 1, 0))
    assert g3.players[0].circled == (0, 1, 0)
    assert g3.players[0].river == g.players[0].river


def test_portuguese_with_nothing_behind_takes_a_good() -> None:
    g = game()
    sheet_of(g, 0, river=[0, 1, 2])
    g2, _ = orange(g, "portuguese")
    assert kinds(g2) == {"goods"}


# --- palace columns ---


def test_a_complete_palace_column_releases_its_bonus() -> None:
    """ "When you have marked a complete column at the palace" -- each character of the area once."""
    g = game()
    members, bonuses = g.sheet.areas[g.sheet.character_area[TRADER]]
    others = [CHARACTER_NAMES[c] for c in members if c != TRADER]
    sheet_of(g, 0, palace=dict.fromkeys(others, 1), circled={"tea": 1})

    _, events = orange(g, "trader")

    released = [e for e in events if e["type"] == "bonus_released"]
    assert [e["bonus"] for e in released] == [list(bonuses[0])]
    assert released[0]["source"].endswith("column 1")


def test_an_incomplete_palace_column_releases_nothing() -> None:
    g = game()
    sheet_of(g, 0, circled={"tea": 1})
    _, events = orange(g, "trader")
    assert "bonus_released" not in types(events)


def test_the_second_palace_column_releases_the_second_bonus() -> None:
    g = game()
    members, bonuses = g.sheet.areas[g.sheet.character_area[TRADER]]
    others = [CHARACTER_NAMES[c] for c in members if c != TRADER]
    sheet_of(g, 0, palace={**dict.fromkeys(others, 2), "trader": 1}, circled={"tea": 1})

    _, events = orange(g, "trader")

    assert [e["bonus"] for e in events if e["type"] == "bonus_released"] == [list(bonuses[1])]


# --- upgrades ---


def test_an_upgrade_raises_one_building_type_by_one() -> None:
    """ "If you get an upgrade, you immediately choose the type of building you want to upgrade, strike off
    the current number and mark the next higher value" """
    g = game()
    carry_out(g, 0, ("money", 1), pool=[("upgrade",)])

    g2, events = apply(g, decide("upgrade", 1, bonus=0))

    assert g2.players[0].levels == tuple([2 if b == 1 else 1 for b in range(len(g.sheet.buildings))])
    assert {"type": "upgraded", "player": 0, "building": 1, "level": 2} in events


def test_a_building_at_the_top_value_cannot_be_upgraded() -> None:
    """ "... (3 fame points maximum)" """
    g = game()
    sheet_of(g, 0, levels={g.sheet.buildings[0]: g.sheet.max_level})
    carry_out(g, 0, ("money", 1), pool=[("upgrade",)])

    assert 0 not in {d.args[0] for d in legal_decisions(g) if d.kind == "upgrade"}


def test_upgrading_every_building_type_once_releases_the_first_column_bonus() -> None:
    """ "As soon as you have upgraded each type of building at least once, you immediately receive the bonus
    depicted below this column." """
    g = game()
    names = g.sheet.buildings
    sheet_of(g, 0, levels=dict.fromkeys(names[1:], 2))
    carry_out(g, 0, ("money", 1), pool=[("upgrade",)])

    _, events = apply(g, decide("upgrade", 0, bonus=0))

    released = [e["bonus"] for e in events if e["type"] == "bonus_released"]
    assert released == [list(g.sheet.upgrade_bonuses[0])]


def test_upgrading_every_building_type_twice_releases_the_second_column_bonus() -> None:
    """ "If you have upgraded all building types twice, you immediately receive the bonus depicted below the
    second column." """
    g = game()
    names = g.sheet.buildings
    sheet_of(g, 0, levels={**dict.fromkeys(names, 3), names[2]: 2})

    # only one building can still be upgraded: the single option is taken without asking (decision 12)
    events = carry_out(g, 0, ("money", 1), pool=[("upgrade",)])

    assert g.players[0].levels[2] == 3
    released = [e for e in events if e["type"] == "bonus_released"]
    assert released[0]["bonus"] == list(g.sheet.upgrade_bonuses[1])
    assert released[0]["source"] == "upgrade column 2"


def test_a_second_upgrade_of_one_type_releases_no_column_bonus() -> None:
    g = game()
    sheet_of(g, 0, levels={g.sheet.buildings[0]: 2})
    carry_out(g, 0, ("money", 1), pool=[("upgrade",)])

    _, events = apply(g, decide("upgrade", 0, bonus=0))

    assert "bonus_released" not in types(events)


def test_the_same_character_as_a_bonus_uses_a_palace_space() -> None:
    """Decision 23: "If you get the Portuguese as a bonus at the edge, you cross him out at the palace" """
    g = game()
    sheet_of(g, 0, river=[0, 1, 2, 3])

    carry_out(g, 0, ("money", 1), pool=[("palace", PORTUGUESE)])

    assert g.players[0].palace[PORTUGUESE] == 1
    assert g.stack == (("portuguese",),)
    assert kinds(g) == {"goods"}  # nothing unmarked behind: a good instead


def test_great_mogul_with_every_other_character_used_up_is_taken_only_for_his_palace_column() -> None:
    """Decision 5: with every other character used up his action does nothing, but crossing him out (done
    "before" the action) completes his area's column: the die can be taken for that; once he is used up
    too, it cannot."""
    g = game()
    sheet_of(g, 0, palace={n: g.sheet.palace_uses for n in CHARACTER_NAMES[1:]})
    turn_of(g, 0)
    set_dice(g, {ORANGE_A: "great_mogul"})
    assert decide("die", ORANGE_A) in legal_decisions(g)

    g2, events = apply(g, decide("die", ORANGE_A))

    assert g2.players[0].palace[0] == 1
    assert [e["source"] for e in events if e["type"] == "bonus_released"] == ["palace area 0 column 1"]
    assert {"type": "bonus_wasted", "player": 0, "bonus": ["great_mogul"]} in events

    g3 = game()
    sheet_of(g3, 0, palace=dict.fromkeys(CHARACTER_NAMES, g3.sheet.palace_uses))
    turn_of(g3, 0)
    set_dice(g3, {ORANGE_A: "great_mogul"})
    assert decide("die", ORANGE_A) not in legal_decisions(g3)


def test_great_mogul_is_taken_when_the_crossing_he_lends_completes_a_column_only_after_his_own() -> None:
    """Decision 5: the Great Mogul is crossed out first, then the action he lends is chosen. With the Trader used
    up, the Maharani unable to move (no river space ahead) and the lower area used up, his die still does
    something: after his crossing, the Maharani's completes the upper area's first column. The palace bonus of
    choice offers him for the same reason."""
    g = game(3, start=0)
    used = {n: g.sheet.palace_uses for n in ("trader", "raja_man_singh", "master_builder", "portuguese")}
    sheet_of(g, 0, river=[len(g.sheet.river_symbol) - 1], palace=used)
    turn_of(g, 0)
    set_dice(g, {ORANGE_A: "great_mogul"})
    assert decide("die", ORANGE_A) in legal_decisions(g)

    g2, events = apply(g, decide("die", ORANGE_A))  # (the Maharani, his only choice, is carried out at once)
    assert (g2.players[0].palace[GREAT_MOGUL], g2.players[0].palace[MAHARANI]) == (1, 1)
    assert [e["source"] for e in events if e["type"] == "bonus_released"] == ["palace area 0 column 1"]

    bonus = game(3, start=0)
    sheet_of(bonus, 0, river=[len(bonus.sheet.river_symbol) - 1], palace=used)
    events = carry_out(bonus, 0, ("money", 1), pool=[("palace_any",)])  # (his is the only choice: made at once)
    crossed = [e["character"] for e in events if e["type"] == "palace_crossed"]
    assert crossed == [GREAT_MOGUL, MAHARANI]
    assert [e["bonus"] for e in events if e["type"] == "bonus_wasted"] == [["maharani"]]  # her move, not the bonus
    assert [e["source"] for e in events if e["type"] == "bonus_released"] == ["palace area 0 column 1"]


def test_master_builder_halves_reach_an_edge_bonus() -> None:
    """Leila's Master Builder: "Or you connect the two half-roads to already-existing roads in order to get
    access to adjacent spaces or to bonuses at the edge of your province" """
    g = game()
    west = cell(2, 0)
    assert g.sheet.edge_bonus[g.sheet.edge_slot[west][3]] is None  # no bonus west of row 2 on the Sun sheet
    sheet_of(g, 0, roads={cell(2, 1): E | W, west: E | 1})  # west space: a bend from the east going north
    g2, _ = orange(g, "master_builder")

    assert decide("half_road", west, W) not in legal_decisions(g2)
