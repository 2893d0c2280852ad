"""Roads in the province: shapes, connection, the edge, buildings, markets and edge bonuses."""

from __future__ import annotations

from typing import Any

from rajas.games.dice_charmers.engine import GameState, apply, legal_decisions
from rajas.games.dice_charmers.engine.effects import BENDS, FORKS, INTERSECTION, SHAPES_ROAD_BONUS, STRAIGHTS
from rajas.games.dice_charmers.engine.invariants import connected_cells
from rajas.games.dice_charmers.engine.state import replaced

from .builders import (
    GREEN_A,
    TRADER,
    E,
    N,
    S,
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

RESIDENCE = cell(2, 2)


def green(g: GameState, face: str, seat: int = 0) -> tuple[GameState, list[dict[str, Any]]]:
    turn_of(g, seat)
    set_dice(g, {GREEN_A: face})
    return apply(g, decide("die", GREEN_A))


def roads_offered(g: GameState) -> list[tuple[int, int]]:
    return [(d.args[0], d.args[1]) for d in legal_decisions(g) if d.kind == "road"]


def edge_bonus(g: GameState, space: int, arm: int) -> Any:
    slot = g.sheet.edge_slot[space][(N, E, S, W).index(arm)]
    return None if slot < 0 else g.sheet.edge_bonus[slot]


def test_the_residence_starts_with_its_roads_drawn() -> None:
    """"The game starts with the roads in the province space of your residence already drawn." """
    g = game()
    assert g.players[0].roads[RESIDENCE] == g.sheet.residence_arms
    assert sum(1 for arms in g.players[0].roads if arms) == 1


def test_a_road_bonus_without_a_printed_shape_draws_a_straight_fork_or_intersection_but_no_bend() -> None:
    """"Draw a straight, fork or intersection on an unoccupied province space; it has to be connected to
    your residence via already-existing roads." A road bonus of a sheet that prints no shape (decision 32)
    offers the three."""
    g = game()
    carry_out(g, 0, ("money", 1), pool=[("road", SHAPES_ROAD_BONUS)])

    shapes = {arms for _, arms in roads_offered(g)}

    assert shapes & set(STRAIGHTS) and shapes & set(FORKS) and INTERSECTION in shapes
    assert not shapes & set(BENDS)


def test_a_new_road_must_connect_to_the_network() -> None:
    """"You always have to draw roads in such a way that there is a connection to the residence." """
    g = game()
    g2, _ = green(g, "straight")
    p = g2.players[0]

    before = p.roads
    for space, arms in roads_offered(g2):
        p.roads = replaced(before, space, arms)
        assert space in connected_cells(g2, p), (space, arms)
    p.roads = before


def test_no_road_to_a_space_the_network_does_not_point_at() -> None:
    """The residence has no road to the south: the space below it cannot be reached yet."""
    g = game()
    assert not g.sheet.residence_arms & S
    g2, _ = green(g, "bend")
    assert cell(3, 2) not in {space for space, _ in roads_offered(g2)}


def test_a_half_road_opens_the_way_to_a_new_space() -> None:
    """Decision 16/18: a half-road may point at an empty space, which a later road can then join."""
    g = game()
    sheet_of(g, 0, roads={cell(2, 1): E | W | S})  # a straight west of the residence, a half-road south
    g2, _ = green(g, "straight")
    assert (cell(3, 1), N | S) in roads_offered(g2)


def test_no_road_runs_off_the_province_edge_where_no_bonus_is_printed() -> None:
    """Decision 17: "An arm may point off the edge only where an edge bonus is printed." """
    g = game()
    west = cell(2, 0)
    assert edge_bonus(g, west, W) is None
    sheet_of(g, 0, roads={cell(2, 1): E | W})
    g2, _ = green(g, "straight")

    assert (west, E | W) not in roads_offered(g2)

    g3, _ = green(game(), "bend")
    assert all(not arms & ~g.sheet.allowed[space] for space, arms in roads_offered(g3))


def test_a_road_may_run_onto_an_edge_bonus() -> None:
    g = game()
    top = cell(0, 2)
    bonus = edge_bonus(g, top, N)
    assert bonus is not None
    sheet_of(g, 0, roads={cell(1, 2): N | S})
    g2, _ = green(g, "straight")
    assert (top, N | S) in roads_offered(g2)


def test_an_edge_bonus_joined_by_a_road_is_received_once_on_the_same_turn() -> None:
    """"If you connect a bonus at the edge of your province via a road to your residence, you receive this
    bonus once on the same turn." """
    g = game()
    top = cell(0, 2)
    bonus = edge_bonus(g, top, N)
    assert bonus == ("money", 3)
    sheet_of(g, 0, roads={cell(1, 2): N | S})
    g2, _ = green(g, "straight")

    g3, events = apply(g2, decide("road", top, N | S))

    assert [e["source"] for e in events if e["type"] == "bonus_released"] == ["edge N2"]
    assert g3.players[0].money == 3
    assert g3.players[0].edges_taken


def test_an_edge_bonus_already_received_gives_nothing_again() -> None:
    g = game()
    top = cell(0, 2)
    slot = g.sheet.edge_slot[top][0]
    sheet_of(g, 0, roads={cell(1, 2): N | S}, edges_taken=1 << slot)
    g2, _ = green(g, "straight")

    g3, events = apply(g2, decide("road", top, N | S))

    assert "bonus_released" not in types(events)
    assert g3.players[0].money == 0


def test_an_erected_building_gives_its_current_upgrade_value_in_fame() -> None:
    """"For each type of building you connect to the road network, you gain as many fame points as
    indicated on the rightmost marked space of the respective row" """
    g = game()
    fort = cell(2, 1)
    assert g.sheet.buildings[g.sheet.cell_building[fort]] == "fort"
    sheet_of(g, 0, levels={"fort": 2})
    g2, _ = green(g, "straight")

    g3, events = apply(g2, decide("road", fort, E | W))

    assert {"type": "building_erected", "player": 0, "cell": fort, "building": g.sheet.cell_building[fort],
            "fame": 2} in events
    assert g3.players[0].fame == 2


def test_a_building_gives_fame_only_once() -> None:
    """"Fame points for buildings or money for markets are not granted a second time for the same province
    space if you expand a road with a half-road." """
    g = game()
    fort = cell(2, 1)
    sheet_of(g, 0, roads={fort: E | W})
    g2, _ = green(g, "half_roads")

    g3, events = apply(g2, decide("half_road", fort, N))

    assert "building_erected" not in types(events)
    assert g3.players[0].fame == 0


def _road_to_market(kind: str) -> tuple[GameState, int, int]:
    """A road ends next to a market of this kind on the Sun sheet: (state, market space, arms to draw)."""
    g = game()
    if kind == "same":
        market = cell(2, 4)
        sheet_of(g, 0, roads={cell(2, 3): E | W})
        arms = S | W
    else:
        market = cell(2, 0)
        sheet_of(g, 0, roads={cell(2, 1): E | W})
        arms = N | E
    assert g.sheet.cell_market[market] == kind
    return g, market, arms


def test_opening_a_same_goods_market_sells_one_to_three_goods_of_one_kind() -> None:
    """"1-3 goods of the same kind: Here you sell 1 to 3 goods of one kind." """
    g, market, arms = _road_to_market("same")
    sheet_of(g, 0, circled={"tea": 4, "silk": 1})
    g2, _ = green(g, "bend")

    g3, events = apply(g2, decide("road", market, arms))

    assert {"type": "market_opened", "player": 0, "cell": market, "market": "same"} in events
    sales = {d.args for d in legal_decisions(g3)}
    assert sales == {(0, 0, 0), (1, 0, 0), (2, 0, 0), (3, 0, 0), (0, 1, 0)}


def test_opening_a_different_goods_market_sells_one_to_three_different_goods() -> None:
    """"1-3 different goods: Here you sell 1 to 3 different goods." """
    g, market, arms = _road_to_market("different")
    sheet_of(g, 0, circled={"tea": 4, "silk": 1, "spices": 1})
    g2, _ = green(g, "bend")

    g3, _ = apply(g2, decide("road", market, arms))

    sales = {d.args for d in legal_decisions(g3)}
    assert (1, 1, 1) in sales and (1, 1, 0) in sales and (0, 0, 0) in sales
    assert all(max(s) <= 1 for s in sales)


def test_a_market_sells_only_goods_in_stock() -> None:
    """"Important: You can sell only goods that you already own." """
    g, market, arms = _road_to_market("same")
    sheet_of(g, 0, circled={"tea": 3}, sold={"tea": 3})
    g2, _ = green(g, "bend")

    g3, events = apply(g2, decide("road", market, arms))

    # only "sell nothing" was possible: it was taken without asking, and the turn is over
    assert g3.current == 1
    assert {"type": "goods_sold", "player": 0, "goods": [0, 0, 0], "money": 0} in events


def test_a_market_sale_earns_the_column_prices() -> None:
    g, market, arms = _road_to_market("different")
    sheet_of(g, 0, circled={"tea": 2, "silk": 1, "spices": 1}, sold={"tea": 1})
    g2, _ = green(g, "bend")
    g3, _ = apply(g2, decide("road", market, arms))

    g4, _ = apply(g3, decide("sell", 1, 1, 1))

    prices = g.sheet.prices
    assert g4.players[0].money == prices[1] + prices[0] + prices[0]


def test_a_market_opens_only_once() -> None:
    g, market, arms = _road_to_market("same")
    sheet_of(g, 0, roads={market: arms}, circled={"tea": 2})
    g2, _ = green(g, "half_roads")

    g3, events = apply(g2, decide("half_road", market, N))

    assert "market_opened" not in types(events)
    assert g3.players[0].money == 0


def test_the_market_sale_is_part_of_the_action_and_comes_before_released_bonuses() -> None:
    """Decision 8: parts of the action (the sale at a newly opened market) happen at once; bonuses after."""
    g = game()
    market = cell(0, 1)
    assert g.sheet.cell_market[market] == "same" and edge_bonus(g, market, N) == ("palace", TRADER)
    sheet_of(g, 0, roads={cell(1, 2): N | W, cell(1, 1): E | N}, circled={"tea": 2})
    g2, _ = green(g, "straight")

    g3, _ = apply(g2, decide("road", market, N | S))

    assert g3.stack == (("sell", "same", 3, 0),)
    assert g3.pool == (("palace", TRADER),)
    assert {d.bonus for d in legal_decisions(g3)} == {-1}


def test_one_half_road_cannot_be_drawn_on_an_empty_space() -> None:
    g = game()
    g2, _ = green(g, "half_roads")
    empty = {c for c, arms in enumerate(g2.players[0].roads) if not arms}
    assert not {d.args[0] for d in legal_decisions(g2) if d.kind == "half_road"} & empty


def test_a_straight_or_bend_cannot_extend_an_already_drawn_space() -> None:
    """"Only half-roads enable you to expand a road ... to a fork or intersection - but not with a straight
    or bend." """
    g = game()
    sheet_of(g, 0, roads={cell(2, 1): E | W})
    g2, _ = green(g, "bend")
    drawn = {c for c, arms in enumerate(g2.players[0].roads) if arms}
    assert not {space for space, _ in roads_offered(g2)} & drawn
