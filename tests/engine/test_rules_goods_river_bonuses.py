"""Goods and selling, the river bonuses, and how released bonuses are used."""

from __future__ import annotations

from rajas.games.dice_charmers.engine import apply, legal_decisions

from .builders import (
    ELEPHANT,
    PURPLE_MIXED,
    PURPLE_SAME,
    SILK,
    SPICES,
    TEA,
    E,
    W,
    carry_out,
    cell,
    decide,
    game,
    set_dice,
    sheet_of,
    types,
)

# --- selling ---


def test_goods_are_sold_left_to_right_at_the_rising_column_prices() -> None:
    """"You sell your goods in the respective rows from left to right. ... The coin below the respective
    column indicates how much money you get for selling a good of this column." """
    g = game()
    sheet_of(g, 0, circled={"tea": 5}, sold={"tea": 2})
    carry_out(g, 0, ("sell", "any", 2, 1))

    g2, events = apply(g, decide("sell", 2, 0, 0))

    prices = g.sheet.prices
    assert prices == tuple(sorted(prices))  # the columns rise
    assert g2.players[0].sold[TEA] == 4
    assert {"type": "goods_sold", "player": 0, "goods": [2, 0, 0], "money": prices[2] + prices[3]} in events
    assert g2.players[0].money == prices[2] + prices[3]


def test_selling_all_goods_of_a_tent_releases_its_bonus() -> None:
    """"When you have sold all goods of one tent." """
    g = game()
    end, bonus = g.sheet.tents[SILK][0]
    sheet_of(g, 0, circled={"silk": end, "tea": 1}, sold={"silk": end - 1})
    carry_out(g, 0, ("sell", "any", 2, 1))

    _, events = apply(g, decide("sell", 0, 1, 0))

    released = [e for e in events if e["type"] == "bonus_released"]
    assert released[0]["bonus"] == list(bonus) and released[0]["source"] == f"tent {SILK}:{end}"


def test_a_tent_not_yet_sold_out_gives_nothing() -> None:
    g = game()
    end, _ = g.sheet.tents[SPICES][0]
    sheet_of(g, 0, circled={"spices": end}, sold={"spices": end - 2})
    carry_out(g, 0, ("sell", "any", 2, 1))

    _, events = apply(g, decide("sell", 0, 0, 1))

    assert not [e for e in events if e["type"] == "bonus_released" and e["source"].startswith("tent")]


def test_sell_any_bonus_sells_up_to_its_number_of_goods_of_any_kinds() -> None:
    """Decision 14: "Sell any 1, 2, 3 or 1-2 goods of your choice" is up to N goods of any kinds."""
    g = game()
    sheet_of(g, 0, circled={"tea": 3, "silk": 1})
    carry_out(g, 0, ("money", 1), pool=[("sell", "any", 2, 1), ("goods_choice", 1)])

    sales = {d.args for d in legal_decisions(g) if d.kind == "sell"}

    assert sales == {(1, 0, 0), (2, 0, 0), (0, 1, 0), (1, 1, 0)}


def test_sell_same_or_different_bonus_sells_one_kind_or_all_different() -> None:
    g = game()
    sheet_of(g, 0, circled={"tea": 3, "silk": 1, "spices": 1})
    carry_out(g, 0, ("money", 1), pool=[("sell", "same_or_different", 3, 1), ("goods_choice", 1)])

    sales = {d.args for d in legal_decisions(g) if d.kind == "sell"}

    assert {(3, 0, 0), (1, 1, 1), (1, 1, 0)} <= sales
    assert (2, 1, 0) not in sales and (0, 0, 0) not in sales


# --- goods bonuses ---


def test_goods_die_bonus_takes_a_purple_dies_goods_wherever_it_lies() -> None:
    """"It doesn't matter whether the die is lying in the middle of the table, with one of the other
    players, or on top of the elephant. The die stays where it is; you get only the two goods shown on it." """
    g = game(3, start=0)
    set_dice(g, {PURPLE_SAME: ["spices", "spices"], PURPLE_MIXED: ["tea", "silk"]},
             where={PURPLE_SAME: ELEPHANT, PURPLE_MIXED: 2})
    where_before = g.where
    carry_out(g, 1, ("money", 1), pool=[("goods_die",)])

    assert {d.args[0] for d in legal_decisions(g) if d.kind == "goods_die"} == {PURPLE_SAME, PURPLE_MIXED}

    g2, _ = apply(g, decide("goods_die", PURPLE_SAME, bonus=0))
    assert g2.players[1].circled == (0, 0, 2)
    assert g2.where == where_before


def test_goods_die_bonus_offers_only_dice_whose_goods_have_room() -> None:
    g = game(3, start=0)
    full = len(g.sheet.prices)
    set_dice(g, {PURPLE_SAME: ["tea", "tea"], PURPLE_MIXED: ["silk", "spices"]})
    sheet_of(g, 0, circled={"tea": full})

    carry_out(g, 0, ("goods_die",))

    assert g.players[0].circled == (full, 1, 1)  # the one usable die was taken without asking


def test_goods_choice_bonus_gives_that_many_different_goods() -> None:
    """"Get 1, 2 or 3 different goods. If you get 3 goods, circle 1 good of each kind. If you get fewer
    goods, you may choose which different goods you want to circle." """
    g = game()
    carry_out(g, 0, ("goods_choice", 2))

    assert {d.args for d in legal_decisions(g)} == {(1, 1, 0), (1, 0, 1), (0, 1, 1)}


def test_three_goods_of_choice_are_one_of_each_kind() -> None:
    g = game()
    carry_out(g, 0, ("goods_choice", 3))
    assert g.players[0].circled == (1, 1, 1)


def test_goods_of_choice_with_a_full_row_give_the_kinds_that_have_room() -> None:
    """Decision 15."""
    g = game()
    sheet_of(g, 0, circled={"tea": len(g.sheet.prices)})
    carry_out(g, 0, ("goods_choice", 3))
    assert g.players[0].circled[SILK:] == (1, 1)


# --- river bonuses ---


def test_river_forward_bonus_sails_to_the_next_space_and_takes_its_earnings() -> None:
    """"Starting from your current position on the river, move forward to the next river space, mark it,
    and gain the earnings from there." """
    g = game()
    nxt = 4
    reward = g.sheet.river_reward[nxt]
    assert reward[0][0] == "money"
    sheet_of(g, 0, river=[0, nxt - 1])

    events = carry_out(g, 0, ("river_forward",))

    assert {"type": "river_marked", "player": 0, "space": nxt} in events
    assert g.players[0].money == reward[0][1]


def test_river_back_bonus_sails_to_the_nearest_unmarked_space_behind() -> None:
    """"Starting from your current position on the river, move back to the next unoccupied river space,
    mark it, and gain the earnings from there." """
    g = game()
    sheet_of(g, 0, river=[0, 3, 4])

    events = carry_out(g, 0, ("river_back",))

    assert next(e["space"] for e in events if e["type"] == "river_marked") == 2
    assert g.players[0].river_position == 4


def test_river_back_of_choice_bonus_offers_every_unmarked_space_behind() -> None:
    """"move back to any yet-unmarked river space" """
    g = game()
    sheet_of(g, 0, river=[1, 3, 6])
    carry_out(g, 0, ("river_back_choice",))

    assert sorted(d.args[0] for d in legal_decisions(g)) == [0, 2, 4, 5]


def test_river_back_with_nothing_behind_goes_to_waste() -> None:
    g = game()
    sheet_of(g, 0, river=[0, 1])
    events = carry_out(g, 0, ("money", 1), pool=[("river_back",)])
    assert {"type": "bonus_wasted", "player": 0, "bonus": ["river_back"]} in events


def test_a_river_space_gives_all_its_earnings() -> None:
    """"As a basic principle, you get all earnings depicted on that target space." """
    g = game()
    last = len(g.sheet.river_symbol) - 1
    reward = g.sheet.river_reward[last]
    assert len(reward) == 2
    sheet_of(g, 0, river=[last - 1])

    events = carry_out(g, 0, ("river_forward",))

    gained = [[e["type"], e["amount"]] for e in events if e["type"] in ("money", "karma")]
    assert [list(r) for r in reward] == gained[: len(reward)]


# --- using bonuses ---


def test_bonuses_are_used_in_the_players_order() -> None:
    """"If you receive several bonuses while carrying out the die action, the order in which you want to
    use them is up to you." """
    g = game()
    carry_out(g, 0, ("money", 1), pool=[("upgrade",), ("goods_choice", 2)])
    assert {d.bonus for d in legal_decisions(g)} == {0, 1}

    g2, _ = apply(g, decide("goods", 0, 1, 1, bonus=1))

    assert g2.pool == (("upgrade",),)
    assert g2.players[0].circled == (0, 1, 1)
    assert {d.kind for d in legal_decisions(g2)} == {"upgrade"}


def test_bonuses_are_used_after_the_die_action() -> None:
    """"After you have carried out the actual die action, you cross out the bonus and use it." """
    g = game()
    carry_out(g, 0, ("goods_choice", 2), pool=[("upgrade",)])
    assert g.stack == (("goods_choice", 2),)
    assert {d.bonus for d in legal_decisions(g)} == {-1}


def test_bonuses_released_while_using_a_bonus_join_the_pending_bonuses() -> None:
    """Chained bonuses: an upgrade that completes the column releases the column bonus."""
    g = game()
    names = g.sheet.buildings
    sheet_of(g, 0, levels=dict.fromkeys(names[1:], 2))
    carry_out(g, 0, ("money", 1), pool=[("upgrade",), ("goods_choice", 2)])

    g2, events = apply(g, decide("upgrade", 0, bonus=0))

    assert g.sheet.upgrade_bonuses[0] in g2.pool
    assert ("goods_choice", 2) in g2.pool
    assert "bonus_released" in types(events)


def test_fame_money_and_karma_bonuses_are_used_at_once() -> None:
    """Decision 9."""
    g = game()
    carry_out(g, 0, ("goods_choice", 1), pool=[("upgrade",), ("fame", 2), ("money", 3), ("karma", 1)])
    assert g.players[0].fame == 0  # not yet: the action itself still waits for a decision

    g2, _ = apply(g, decide("goods", 1, 0, 0))

    p = g2.players[0]
    assert (p.fame, p.money, p.karma_gained) == (2, 3, 2)
    assert g2.pool == (("upgrade",),)


def test_a_bonus_that_cannot_be_used_goes_to_waste() -> None:
    """"If you connect a bonus that you can't use on this turn, it goes to waste - e.g., if you would be
    allowed to sell a good but don't have any" """
    g = game()
    events = carry_out(g, 0, ("money", 1), pool=[("sell", "any", 2, 1)])

    assert {"type": "bonus_wasted", "player": 0, "bonus": ["sell", "any", 2, 1]} in events
    assert g.current == 1


def test_an_unusable_bonus_waits_for_the_goods_another_bonus_brings() -> None:
    """Decision 10: a sell bonus unusable now may become usable after a goods bonus used first."""
    g = game()
    carry_out(g, 0, ("money", 1), pool=[("sell", "any", 2, 1), ("goods_choice", 2)])
    assert {d.bonus for d in legal_decisions(g)} == {1}

    g2, events = apply(g, decide("goods", 1, 1, 0, bonus=1))

    assert "bonus_wasted" not in types(events)
    assert {d.kind for d in legal_decisions(g2)} == {"sell"}


def test_a_single_option_is_taken_without_asking() -> None:
    """Decision 12."""
    g = game()
    sheet_of(g, 0, levels={**dict.fromkeys(g.sheet.buildings, g.sheet.max_level), g.sheet.buildings[1]: 1})
    events = carry_out(g, 0, ("money", 1), pool=[("upgrade",)])
    assert {"type": "upgraded", "player": 0, "building": 1, "level": 2} in events


def test_two_half_road_bonuses_may_be_combined_into_a_straight_or_bend() -> None:
    """"Special case: If you manage on the same turn to release 2 half-roads as bonuses (column bonus at the
    palace + bonus on the money track), you may also combine these to form a straight or a bend." """
    g = game()
    carry_out(g, 0, ("money", 1), pool=[("half_road",), ("half_road",)])
    combined = [d for d in legal_decisions(g) if d.kind == "road"]
    assert combined and all(d.bonus == 0 for d in combined)

    g2, events = apply(g, combined[0])

    assert [e["bonus"] for e in events if e["type"] == "bonus_used"] == [["half_road"], ["half_road"]]
    assert g2.players[0].roads[combined[0].args[0]] == combined[0].args[1]


def test_a_single_half_road_bonus_only_extends_a_drawn_road() -> None:
    """"Connect a half-road to an already-existing road in your province, thus building a fork or
    intersection." """
    g = game()
    sheet_of(g, 0, roads={cell(2, 1): E | W})  # a straight drawn west of the residence
    carry_out(g, 0, ("money", 1), pool=[("half_road",), ("upgrade",)])
    halves = [d for d in legal_decisions(g) if d.bonus == 0]
    assert halves and {d.kind for d in halves} == {"half_road"}
    assert all(g.players[0].roads[d.args[0]] for d in halves)
