"""Palace actions 2-6, each carried out at once and then discarded."""

from __future__ import annotations

from rajas.games.card_game.engine import legal_decisions

from .builders import CAT, building, dice_cards, do, goods_card, kinds, palace, ship, table


def pay(action: int, **kw):  # type: ignore[no-untyped-def]
    card = palace(action)
    offer = [card, *kw.pop("offer", [])]
    die = dice_cards("orange", 1, set(offer) | {c for cs in kw.get("ships", {}).values() for c in cs}
                     | {c for cs in kw.get("goods", {}).values() for c in cs}
                     | {c for cs in kw.get("buildings", {}).values() for c in cs}
                     | set(kw.get("draw", [])))[0]
    g = table(offer=offer, hands={0: [die]}, numbers={die: action}, **kw)
    return do(g, "palace", card, die)


def test_the_palace_card_is_discarded_once_its_action_is_carried_out() -> None:
    g, events = pay(4)
    assert palace(4) in g.discard and palace(4) not in g.in_play
    assert kinds(events).index("palace_action") < [i for i, e in enumerate(events) if e["type"] == "discarded"][-1]


def test_palace_2_gives_two_offer_cards_as_dice() -> None:
    g, _ = pay(2, offer=[ship(20), ship(21), ship(22)])
    g, _ = do(g, "take", ship(20))
    g, _ = do(g, "take", ship(21))
    assert {ship(20), ship(21)} <= set(g.players[0].hand)


def test_palace_3_gives_two_karma_and_an_offer_card_as_a_die() -> None:
    g, _ = pay(3, offer=[ship(20), ship(21)])
    g, _ = do(g, "take", ship(21))
    assert g.players[0].karma == 2 and ship(21) in g.players[0].hand


def test_palace_4_gives_a_coin_for_every_good_on_the_players_goods_building_and_ship_cards() -> None:
    two_goods = goods_card(("silk", 1), ("tea", 2))
    g, _ = pay(4, goods={0: [two_goods]}, buildings={0: [building("red", goods=("silk", 2))]}, ships={0: [ship(7)]})
    assert g.players[0].coins == 4 and g.players[0].goods == (two_goods,)  # the cards stay


def test_palace_5_gives_a_karma_and_the_reward_of_the_last_ship_of_a_row_of_the_players_choice() -> None:
    g, _ = pay(5, ships={0: [ship(1)], 1: [ship(2), ship(13)]})
    assert {d.args for d in legal_decisions(g)} == {(0,), (1,)}
    g, _ = do(g, "copy", 1)  # ship 13: three coins
    assert g.players[0].coins == 3 and g.players[0].karma == 1
    assert g.players[1].ships == (ship(2), ship(13))  # the ship stays where it is


def test_palace_5_without_a_ship_anywhere_gives_the_karma_alone() -> None:
    g, _ = pay(5)
    assert g.players[0].karma == 1 and g.current == 1


def test_palace_6_carries_out_the_draw_piles_top_card_for_free() -> None:
    top = building("yellow", "white")
    g, events = pay(6, draw=[top])
    assert g.players[0].buildings == (top,) and g.players[0].fame == 2 and "top_card_taken" in kinds(events)


def test_palace_6_lays_a_ship_in_rising_order_and_gives_its_reward() -> None:
    g, _ = pay(6, draw=[ship(3)], ships={0: [ship(17)]})
    assert g.players[0].ships == (ship(3),) and ship(17) in g.discard and g.players[0].coins == 3


def test_palace_6_carries_out_a_palace_card_on_top_and_discards_it() -> None:
    g, _ = pay(6, draw=[palace(4, 1)], goods={0: [goods_card(("tea", 2))]})
    assert g.players[0].coins == 1 and palace(4, 1) in g.discard


def test_palace_6_with_a_goods_card_on_top_puts_it_in_the_goods_row() -> None:
    top = goods_card(("spices", 1), coin=1)
    g, _ = pay(6, draw=[top])
    assert g.players[0].goods == (top,) and g.players[0].coins == 1
    assert CAT.kind[top] == "goods"
