"""Ships: rows of rising numbers, the row discarded by a lower number (Sara's example), every ship reward, the
third ship's manager."""

from __future__ import annotations

import pytest
from rajas.games.card_game.engine import legal_decisions
from rajas.games.card_game.engine.cards import TRACK_REWARDS

from .builders import CAT, dice_cards, do, goods_card, kinds, palace, ship, table


def buy(number: int, ships_before: list[int], offer_extra: list[int] | None = None, seat_fields=None):  # type: ignore[no-untyped-def]
    """Player 0 buys ship `number` with a die of exactly its cost, holding `ships_before` in the row."""
    card = ship(number)
    row = [ship(n) for n in ships_before]
    die = dice_cards("purple", 1, {card, *row, *(offer_extra or [])})[0]
    # A track whose leftmost and rightmost rewards are quiet, so fame and coins from the reward stay visible.
    track = tuple(TRACK_REWARDS.index(r) for r in ("karma2", "manager", "dice2", "extra_turn", "fame_or_ship",
                                                    "coins2_or_palace"))
    g = table(offer=[card, *(offer_extra or [])], hands={0: [die]}, ships={0: row}, numbers={die: CAT.ship_cost[card]},
              seat={0: {"track": track, **(seat_fields or {})}})
    return do(g, "ship", card, die)


def test_ships_lie_in_rising_order() -> None:
    g, _ = buy(17, [3])
    assert [CAT.ship_number[c] for c in g.players[0].ships] == [3, 17]


def test_sara_buys_ship_12_after_3_and_17_and_starts_a_new_row_with_it() -> None:
    g, events = buy(12, [3, 17])
    assert [CAT.ship_number[c] for c in g.players[0].ships] == [12]
    reset = next(e for e in events if e["type"] == "discarded" and e["reason"] == "ship_row_reset")
    assert sorted(d["card"] for d in reset["cards"]) == sorted([ship(3), ship(17)])
    assert ship(3) in g.discard and ship(17) in g.discard


def test_the_third_ship_in_rising_order_gives_its_reward_first_then_goes_with_the_others_for_a_manager() -> None:
    g, events = buy(13, [3, 7])  # 13: three coins
    assert g.players[0].ships == () and g.players[0].managers == 1 and g.players[0].coins == 3
    assert kinds(events).index("ship_placed") < kinds(events).index("three_of_a_kind")
    assert {ship(3), ship(7), ship(13)} <= set(g.discard)


def test_reward_two_karma() -> None:
    g, _ = buy(1, [])
    assert g.players[0].karma == 2


def test_reward_three_coins() -> None:
    g, _ = buy(3, [])
    assert g.players[0].coins == 3


def test_reward_two_coins_and_a_fame() -> None:
    g, _ = buy(4, [])
    assert (g.players[0].coins, g.players[0].fame) == (2, 1)


def test_reward_two_dice_from_the_offer() -> None:
    extra = [palace(2), palace(3), palace(4)]
    g, _ = buy(2, [], extra)
    assert g.stack[-1] == ("take_die",) and g.current == 0
    g, _ = do(g, "take", extra[0])
    g, _ = do(g, "take", extra[1])
    assert set(extra[:2]) <= set(g.players[0].hand)


@pytest.mark.parametrize(("number", "count"), [(5, 1), (15, 2)])
def test_reward_goods_cards_takes_as_many_goods_cards_as_the_ship_shows(number: int, count: int) -> None:
    extra = [goods_card(("tea", 2)), goods_card(("tea", 3)), goods_card(("spices", 2))]
    g, _ = buy(number, [], extra)
    for _ in range(count):
        g, _ = do(g, "take", next(c for c in g.offer if CAT.kind[c] == "goods"))
    assert len(g.players[0].goods) == count


def test_reward_goods_cards_is_empty_handed_without_goods_in_the_offer() -> None:
    g, events = buy(15, [], [palace(2)])
    assert g.players[0].goods == () and "nothing_to_take" in kinds(events)


def test_reward_a_die_and_goods_kept_on_the_ship() -> None:
    extra = [palace(2), palace(3)]
    g, _ = buy(6, [], extra)
    g, _ = do(g, "take", extra[0])
    assert extra[0] in g.players[0].hand and CAT.goods[ship(6)]


def test_reward_a_fame_and_goods_kept_on_the_ship() -> None:
    g, _ = buy(7, [])
    assert g.players[0].fame == 1 and CAT.goods[ship(7)]


def test_reward_a_karma_and_goods_kept_on_the_ship() -> None:
    g, _ = buy(8, [])
    assert g.players[0].karma == 1 and CAT.goods[ship(8)]


def test_reward_a_goods_card_and_a_die_or_only_the_die_without_goods_in_the_offer() -> None:
    extra = [goods_card(("tea", 2)), goods_card(("tea", 3)), palace(2)]
    g, _ = buy(9, [], extra)
    g, _ = do(g, "take", extra[1])  # the goods card first
    g, _ = do(g, "take", extra[2])  # then a die
    assert g.players[0].goods == (extra[1],) and extra[2] in g.players[0].hand
    g, _ = buy(9, [], [palace(2), palace(3)])
    g, _ = do(g, "take", palace(2))
    assert g.players[0].goods == () and palace(2) in g.players[0].hand


def test_reward_a_palace_action_from_the_offer_carried_out_for_free() -> None:
    extra = [palace(3), ship(20)]
    g, _ = buy(10, [], extra)  # the only palace card in the offer is taken and carried out at once
    assert g.players[0].karma == 2 and palace(3) in g.discard  # palace 3: two karma, then a die
    assert g.players[0].hand == (ship(20),)


def test_reward_a_palace_action_is_empty_handed_without_one_in_the_offer() -> None:
    g, events = buy(10, [], [ship(20)])
    assert "nothing_to_take" in kinds(events) and g.players[0].karma == 0


def test_goods_on_a_ship_count_only_while_it_lies_in_the_row() -> None:
    # Ship 16 (die and goods) shows a good; selling goods discards the ship with it.
    good = CAT.goods[ship(16)][0][0]
    name = ("silk", "tea", "spices")[good]
    two = [goods_card((name, 2)), goods_card((name, 3))]
    g = table(ships={0: [ship(16)]}, goods={0: two}, offer=[goods_card((name, 1), coin=1)])
    g2, _ = do(g, "goods", g.offer[0])
    assert ship(16) not in g2.players[0].ships and ship(16) in g2.discard


def test_every_ship_number_from_1_to_28_is_in_the_game_exactly_once() -> None:
    assert sorted(n for n in CAT.ship_number if n) == list(range(1, 29))


def test_no_ship_is_offered_without_a_die_to_pay_for_it() -> None:
    g = table(offer=[ship(12)])
    assert not [d for d in legal_decisions(g) if d.kind == "ship"]
