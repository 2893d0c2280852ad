"""The five actions: a dice card, a building paid in dice of its colour, a ship and a palace action paid with an
exact die, a free goods card; karma, jokers and the hand limit of 8."""

from __future__ import annotations

from rajas.games.card_game.engine import Decision, legal_decisions, view
from rajas.games.card_game.engine.cards import TRACK_REWARDS

from .builders import CAT, building, dice_cards, do, goods_card, kinds, palace, ship, table


def test_a_dice_card_goes_from_the_offer_into_the_hand_and_its_number_to_its_owner_alone() -> None:
    card = ship(5)
    g = table(offer=[card, ship(6)], numbers={card: 4})
    g2, events = do(g, "dice", card)
    assert card in g2.players[0].hand and card not in g2.offer
    assert {"card": card, "number": 4} in view(g2, 0)["seats"][0]["hand"]
    assert view(g2, 1)["seats"][0]["hand"] == [card]  # the other player sees the action side only
    private = [e for e in events if e["type"] == "dice_seen"]
    assert private == [{"type": "dice_seen", "to": 0, "cards": [{"card": card, "number": 4}]}]


def test_the_hand_limit_of_eight_makes_the_player_discard_before_the_new_card_comes_in() -> None:
    new = ship(9)
    hand = dice_cards("green", 8, {new, ship(10)})
    g = table(offer=[new, ship(10)], hands={0: hand})
    g2, _ = do(g, "dice", new)
    assert g2.stack[-1] == ("discard", 1) and new in g2.in_play and new not in g2.players[0].hand
    assert all(d.kind == "discard" and len(d.args) == 1 for d in legal_decisions(g2))
    g3, events = do(g2, "discard", hand[0])
    assert sorted(g3.players[0].hand) == sorted([*hand[1:], new])
    assert kinds(events).index("discarded") < kinds(events).index("took_die")


def test_a_building_is_paid_with_dice_of_its_colour_reaching_its_value_and_gives_a_fame_per_building() -> None:
    card = building("red", colour="blue", cost=4)
    blue = dice_cards("blue", 2, {card})
    g = table(offer=[card], hands={0: blue}, numbers={blue[0]: 2, blue[1]: 3})
    g2, _ = do(g, "building", card, 0, *sorted(blue))
    assert g2.players[0].buildings == (card,) and g2.players[0].fame == 1
    assert sorted(g2.discard) == sorted(blue)


def test_dice_of_another_colour_do_not_pay_for_a_building() -> None:
    card = building("red", colour="blue", cost=4)
    green = dice_cards("green", 2, {card})
    g = table(offer=[card], hands={0: green}, numbers={green[0]: 6, green[1]: 6})
    assert not [d for d in legal_decisions(g) if d.kind == "building"]


def test_paying_more_than_a_building_costs_is_allowed_but_never_a_die_that_is_not_needed() -> None:
    card = building("red", colour="blue", cost=6)
    blue = sorted(dice_cards("blue", 2, {card}))
    g = table(offer=[card], hands={0: blue}, numbers={blue[0]: 6, blue[1]: 4})
    payments = {d.args[2:] for d in legal_decisions(g) if d.kind == "building"}
    assert payments == {(blue[0],)}  # the 6 pays 6; 6+4 would give up the 4 for nothing, the 4 is short
    g = table(offer=[card], hands={0: blue}, numbers={blue[0]: 3, blue[1]: 4})
    assert {d.args[2:] for d in legal_decisions(g) if d.kind == "building"} == {tuple(blue)}  # 7 for 6


def test_karma_raises_a_die_for_a_building_one_per_chip_but_never_past_six() -> None:
    card = building("red", colour="green", cost=7)
    green = dice_cards("green", 1, {card})
    six = table(offer=[card], hands={0: green}, numbers={green[0]: 6}, seat={0: {"karma": 2}})
    assert not [d for d in legal_decisions(six) if d.kind == "building"]  # "nooit hoger dan 6"
    card3 = building("red", colour="green", cost=3)
    g = table(offer=[card3], hands={0: green}, numbers={green[0]: 1}, seat={0: {"karma": 2}})
    g2, events = do(g, "building", card3, 0, green[0])
    assert g2.players[0].karma == 0 and next(e for e in events if e["type"] == "paid")["karma"] == 2


def test_kara_pays_a_blue_eleven_with_a_blue_five_and_a_manager_as_a_blue_six_joker() -> None:
    card = building("red", "yellow", colour="blue", cost=11)
    five = dice_cards("blue", 1, {card})
    g = table(offer=[card], hands={0: five}, numbers={five[0]: 5}, seat={0: {"managers": 1}}, managers_supply=11)
    assert Decision("building", (card, 1, five[0])) in legal_decisions(g)
    g2, _ = do(g, "building", card, 1, five[0])
    assert g2.players[0].managers == 0 and g2.managers_supply == 12 and g2.players[0].fame == 2


def test_a_ship_must_be_paid_with_exactly_its_number_never_a_sum_and_any_colour() -> None:
    three = ship(3)  # costs 3
    assert CAT.ship_cost[three] == 3
    one, two = dice_cards("orange", 2, {three})
    g = table(offer=[three], hands={0: [one, two]}, numbers={one: 1, two: 2})
    assert not [d for d in legal_decisions(g) if d.kind == "ship"]  # "nooit met een 1 en een 2"
    purple = dice_cards("purple", 1, {three})[0]
    g = table(offer=[three], hands={0: [one, two, purple]}, numbers={one: 1, two: 2, purple: 3})
    assert [d for d in legal_decisions(g) if d.kind == "ship"] == [Decision("ship", (three, purple))]


def test_karma_lets_a_three_pay_a_ship_of_two_or_a_palace_action_of_four() -> None:
    two, four = ship(2), palace(4)
    assert CAT.ship_cost[two] == 2
    die = dice_cards("green", 1, {two, four})[0]
    g = table(offer=[two, four], hands={0: [die]}, numbers={die: 3}, seat={0: {"karma": 1}})
    legal = legal_decisions(g)
    assert Decision("ship", (two, die)) in legal and Decision("palace", (four, die)) in legal
    g2, _ = do(g, "ship", two, die)
    assert g2.players[0].karma == 0 or g2.players[0].managers  # one chip spent (the reward may give karma)


def test_a_palace_action_is_paid_with_exactly_its_number() -> None:
    five = palace(5)
    a, b = dice_cards("blue", 2, {five})
    g = table(offer=[five], hands={0: [a, b]}, numbers={a: 1, b: 4})
    assert not [d for d in legal_decisions(g) if d.kind == "palace"]  # "nooit met een 1 en een 4"
    g = table(offer=[five], hands={0: [a, b]}, numbers={a: 5, b: 4})
    assert [d for d in legal_decisions(g) if d.kind == "palace"] == [Decision("palace", (five, a))]


def test_a_goods_card_is_free_and_a_coin_shown_on_it_comes_at_once() -> None:
    coin_card = goods_card(("silk", 1), coin=1)
    g = table(offer=[coin_card, goods_card(("tea", 2))])
    g2, _ = do(g, "goods", coin_card)
    assert g2.players[0].goods == (coin_card,) and g2.players[0].coins == 1


def test_every_action_card_may_be_taken_as_a_die_instead() -> None:
    offer = [ship(1), palace(2), goods_card(("tea", 2)), building("white", cost=3)]
    g = table(offer=offer)
    assert {d.args[0] for d in legal_decisions(g) if d.kind == "dice"} == set(offer)


def test_a_turn_is_exactly_one_action_then_the_next_player_moves() -> None:
    g = table(offer=[goods_card(("tea", 2)), goods_card(("tea", 2), nth=1)])
    g2, _ = do(g, "goods", g.offer[0])
    assert g2.current == 1


def test_the_hand_limit_is_counted_when_the_dice_come_even_after_a_reward_filled_the_hand() -> None:
    # Ship 9 gives a goods card, then a die. The goods card's coin turns a card whose reward is two dice:
    # those come first and fill the hand, so the ship's die needs a discard of its own.
    coin = goods_card(("silk", 1), coin=1)
    spare = [palace(2), palace(3), palace(4), palace(5)]
    pay = dice_cards("purple", 1, {ship(9), coin, *spare})[0]
    hand = [pay, *dice_cards("orange", 7, {ship(9), coin, *spare})]
    dice_last = tuple(TRACK_REWARDS.index(r) for r in ("karma2", "manager", "extra_turn", "coins2_or_palace",
                                                        "fame_or_ship", "dice2"))
    g = table(offer=[ship(9), coin, *spare], hands={0: hand}, numbers={pay: 3},
              seat={0: {"coins": 5, "track": dice_last}})
    g, _ = do(g, "ship", ship(9), pay)
    while not g.is_over and g.current == 0:
        d = legal_decisions(g)[0]
        g, _ = do(g, d.kind, *d.args)
        assert len(g.players[0].hand) <= 8
    assert len(g.players[0].hand) == 8
