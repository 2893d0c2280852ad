"""Issue 14: half-roads need a road the player drew; road bonuses print one shape; sell bonuses print an
exact count or a range; crossing out a palace character is part of its action (decisions 5, 14, 18, 32)."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from rajas.games.dice_charmers.engine import SheetError, apply, legal_decisions, load_sheet, parse_sheet
from rajas.games.dice_charmers.engine.effects import (
    BENDS,
    FORKS,
    INTERSECTION,
    SHAPE_FORK,
    SHAPE_INTERSECTION,
    SHAPE_STRAIGHT,
    SHAPES_ROAD_BONUS,
    STRAIGHTS,
)
from rajas.games.dice_charmers.engine.province import road_options
from rajas.games.dice_charmers.engine.resolve import options

from .builders import (
    GREEN_A,
    MAHARANI,
    ORANGE_A,
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
FORT_WEST = cell(2, 1)  # west of the residence on the Sun sheet


def kinds_offered(g: Any) -> set[str]:
    return {d.kind for d in legal_decisions(g)}


def wasted(events: list[dict[str, Any]]) -> list[list[Any]]:
    return [e["bonus"] for e in events if e["type"] == "bonus_wasted"]


# --- 1. a half-road needs a road the player drew ---


def test_a_half_road_bonus_with_no_road_drawn_goes_to_waste() -> None:
    """"If you connect a bonus that you can't use on this turn, it goes to waste - e.g., ... if you would be
    allowed to connect a half-road but haven't yet drawn any roads". On a fresh Sun sheet the money track's
    half-road (at 10 money) is wasted: the residence's printed roads are not roads the player drew."""
    g = game()
    assert (10, ("half_road",)) in g.sheet.money_bonuses

    events = carry_out(g, 0, ("money", 10))

    assert ["half_road"] in wasted(events)
    assert g.players[0].roads[RESIDENCE] == g.sheet.residence_arms
    assert "half_road_drawn" not in types(events)


def test_a_half_road_is_never_added_to_the_residence() -> None:
    """The residence's roads are printed on the sheet: a single half-road extends only a drawn road."""
    g = game()
    assert not g.sheet.residence_arms & S  # the residence could take one more arm
    sheet_of(g, 0, roads={FORT_WEST: E | W})
    carry_out(g, 0, ("money", 1), pool=[("half_road",), ("upgrade",)])

    halves = {d.args for d in legal_decisions(g) if d.kind == "half_road"}

    assert halves and {space for space, _ in halves} == {FORT_WEST}


def test_two_half_roads_with_no_road_drawn_can_only_form_a_straight_or_bend() -> None:
    """The green die's two half-roads on a fresh sheet: combined into a straight or bend next to the
    residence ("Your first road must start from your residence"), never added to the residence."""
    g = game()
    turn_of(g, 0)
    set_dice(g, {GREEN_A: "half_roads"})

    g2, _ = apply(g, decide("die", GREEN_A))

    assert kinds_offered(g2) == {"road"}
    assert all(d.args[1] in (*STRAIGHTS, *BENDS) for d in legal_decisions(g2))


def test_master_builder_with_no_road_drawn_cannot_use_the_residence() -> None:
    """Likewise the Master Builder: with nothing drawn, only a straight or bend from the residence."""
    g = game()
    turn_of(g, 0)
    set_dice(g, {ORANGE_A: "master_builder"})

    g2, _ = apply(g, decide("die", ORANGE_A))

    assert g2.stack == (("half_roads", 2),)
    assert kinds_offered(g2) == {"road"}


def test_two_half_road_bonuses_with_no_road_drawn_may_still_be_combined() -> None:
    """Decision 13 still holds on a fresh sheet: the pair forms a straight or bend; neither goes alone."""
    g = game()
    carry_out(g, 0, ("money", 1), pool=[("half_road",), ("half_road",)])
    assert kinds_offered(g) == {"road"}


# --- 2. road bonuses print one shape ---


@pytest.mark.parametrize(
    "shape,masks", [(SHAPE_STRAIGHT, STRAIGHTS), (SHAPE_FORK, FORKS), (SHAPE_INTERSECTION, (INTERSECTION,))]
)
def test_a_road_bonus_offers_only_its_printed_shape_in_every_legal_rotation(shape: int, masks: Any) -> None:
    """"Daar krijgt ze een splitsing" (there she gets a fork): a road bonus is one printed shape, drawn in
    any rotation and on any space where such a road is legal."""
    g = game()
    sheet_of(g, 0, roads={FORT_WEST: E | W, cell(1, 2): N | S, cell(2, 3): E | W})
    turn_of(g, 0)
    every_shape = road_options(g, SHAPES_ROAD_BONUS)

    offered = {d.args for d in options(g, ("road", shape))}

    assert offered and {arms for _, arms in offered} <= set(masks)
    assert offered == {(space, arms) for space, arms in every_shape if arms in masks}


def test_leilas_flag_space_prints_a_fork_on_both_sheets() -> None:
    for name in ("sun", "moon"):
        assert load_sheet(name).river_reward[3] == (("road", SHAPE_FORK),), name


def test_every_road_bonus_of_both_sheets_prints_its_shape() -> None:
    for name in ("sun", "moon"):
        s = load_sheet(name)
        effects = _effects(s)
        roads = [e for e in effects if e[0] == "road"]
        assert roads and all(e[1] in (SHAPE_STRAIGHT, SHAPE_FORK, SHAPE_INTERSECTION) for e in roads), name


def test_a_road_bonus_without_a_shape_keeps_any_shape() -> None:
    """Sheets written before shapes were printed still load: a road bonus without `shape` means any."""
    d = _sun()
    d["river"]["spaces"][3]["reward"] = [{"kind": "road"}]
    assert parse_sheet(d).river_reward[3] == (("road", SHAPES_ROAD_BONUS),)


def test_a_road_bonus_with_a_bend_or_unknown_shape_is_refused_naming_the_field() -> None:
    for bad in ("bend", "roundabout"):
        d = _sun()
        d["river"]["spaces"][3]["reward"] = [{"kind": "road", "shape": bad}]
        with pytest.raises(SheetError, match=r"river\.spaces\.3\.reward\.0\.road\.shape"):
            parse_sheet(d)


# --- 3. sell bonuses: an exact count or a range ---


def _sales(g: Any) -> set[tuple[int, ...]]:
    return {d.args for d in legal_decisions(g) if d.kind == "sell"}


def test_sell_two_goods_of_choice_sells_exactly_two() -> None:
    """"Sell any 1, 2, 3 or 1-2 goods of your choice": 1-2 is its own icon, so 2 is exactly two (Rajesh's
    river space "2 goederen naar keuze verkopen")."""
    g = game()
    sheet_of(g, 0, circled={"tea": 3, "silk": 1})
    carry_out(g, 0, ("money", 1), pool=[("sell", "any", 2, 2), ("goods_choice", 1)])

    assert _sales(g) == {(2, 0, 0), (1, 1, 0)}


def test_sell_two_different_goods_sells_exactly_two_different_goods() -> None:
    """"Sell 2 different goods." """
    g = game()
    sheet_of(g, 0, circled={"tea": 3, "silk": 1, "spices": 1})
    carry_out(g, 0, ("money", 1), pool=[("sell", "different", 2, 2), ("goods_choice", 1)])

    assert _sales(g) == {(1, 1, 0), (1, 0, 1), (0, 1, 1)}


def test_an_exact_sell_bonus_with_fewer_goods_in_stock_goes_to_waste() -> None:
    """"... if you would be allowed to sell a good but don't have any": three goods to sell with two in
    stock, or two different goods with one kind in stock, cannot be used."""
    g = game()
    sheet_of(g, 0, circled={"tea": 2})
    events = carry_out(g, 0, ("money", 1), pool=[("sell", "any", 3, 3), ("sell", "different", 2, 2)])

    assert wasted(events) == [["sell", "any", 3, 3], ["sell", "different", 2, 2]]
    assert g.players[0].sold == (0, 0, 0)


def test_a_sell_bonus_with_count_is_exact_and_with_max_is_up_to() -> None:
    """The sheet format: `count` is an exact number of goods, `max` (as in older sheet files) 1 up to max."""
    d = _sun()
    d["river"]["spaces"][5]["reward"] = [{"kind": "sell", "mode": "any", "count": 2}]
    d["river"]["spaces"][6]["reward"] = [{"kind": "sell", "mode": "different", "max": 2}]
    s = parse_sheet(d)
    assert s.river_reward[5] == (("sell", "any", 2, 2),)
    assert s.river_reward[6] == (("sell", "different", 2, 1),)


@pytest.mark.parametrize(
    "bonus,field",
    [
        ({"kind": "sell", "mode": "any", "count": 4}, "sell.count"),
        ({"kind": "sell", "mode": "any", "count": 0}, "sell.count"),
        ({"kind": "sell", "mode": "any", "max": 5}, "sell.max"),
        ({"kind": "sell", "mode": "any", "count": 2, "max": 2}, "count"),
        ({"kind": "sell", "mode": "any"}, "count"),
        ({"kind": "sell", "mode": "all", "count": 2}, "sell.mode"),
    ],
)
def test_a_bad_sell_bonus_is_refused_naming_the_field(bonus: dict[str, Any], field: str) -> None:
    d = _sun()
    d["river"]["spaces"][5]["reward"] = [bonus]
    with pytest.raises(SheetError) as err:
        parse_sheet(d)
    assert field in str(err.value) and "river.spaces.5.reward.0" in str(err.value), str(err.value)


def test_both_sheets_print_exact_and_ranged_sell_bonuses() -> None:
    for name in ("sun", "moon"):
        sells = [e for e in _effects(load_sheet(name)) if e[0] == "sell"]
        assert any(e[2] == e[3] for e in sells) and any(e[3] < e[2] for e in sells), name


# --- 4. crossing out is part of the palace action ---


def test_an_orange_die_whose_crossing_out_completes_a_palace_column_is_usable_though_its_action_is_not() -> None:
    """"Voor je dat doet kruis je de gekozen actie weg" (before that you cross out the chosen action). A
    Maharani with no river space ahead does nothing, but crossing her out completes the upper area's first
    column: the die can be taken, the column bonus is released, and her empty action goes to waste."""
    g = game(3, start=0)
    sheet_of(g, 0, river=[len(g.sheet.river_symbol) - 1], palace={"great_mogul": 1, "trader": 1})
    turn_of(g, 0)
    set_dice(g, {ORANGE_A: "maharani"})
    assert decide("die", ORANGE_A) in legal_decisions(g)

    g2, events = apply(g, decide("die", ORANGE_A))

    assert g2.players[0].palace[MAHARANI] == 1
    released = [(e["source"], e["bonus"]) for e in events if e["type"] == "bonus_released"]
    assert released == [("palace area 0 column 1", list(g.sheet.areas[0][1][0]))]
    assert ["maharani"] in wasted(events)


def test_a_palace_bonus_whose_crossing_out_completes_a_column_is_used_not_wasted() -> None:
    g = game(3, start=0)
    sheet_of(g, 0, river=[len(g.sheet.river_symbol) - 1], palace={"great_mogul": 1, "trader": 1})

    events = carry_out(g, 0, ("money", 1), pool=[("palace", MAHARANI)])

    assert g.players[0].palace[MAHARANI] == 1
    assert ["palace", MAHARANI] not in wasted(events)


def test_an_orange_die_that_completes_no_column_and_whose_action_can_do_nothing_still_cannot_be_taken() -> None:
    g = game(3, start=0)
    sheet_of(g, 0, river=[len(g.sheet.river_symbol) - 1], palace={"great_mogul": 1})
    turn_of(g, 0)
    set_dice(g, {ORANGE_A: "maharani"})
    assert decide("die", ORANGE_A) not in legal_decisions(g)


# --- helpers ---


def _sun() -> dict[str, Any]:
    return copy.deepcopy(load_sheet("sun").to_json())


def _effects(s: Any) -> list[Any]:
    return (
        [b for b in s.edge_bonus if b]
        + [e for _, e in s.fame_bonuses + s.money_bonuses + s.karma_bonuses]
        + [e for reward in s.river_reward for e in reward]
        + [e for tents in s.tents for _, e in tents]
        + [e for _, column in s.areas for e in column]
        + list(s.upgrade_bonuses)
    )
