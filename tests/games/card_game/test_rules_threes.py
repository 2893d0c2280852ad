"""Three of a kind: three buildings alike or all three kinds, goods sold alike or all three kinds (Julian's,
Anna's and Simon's examples), three ships, the third karma and the third manager."""

from __future__ import annotations

from rajas.games.card_game.engine import Decision, legal_decisions, pending

from .builders import CAT, building, dice_cards, do, goods_card, ship, table


def build(card: int, **kw):  # type: ignore[no-untyped-def]
    """Player 0 takes building `card`, paid with one die of its colour showing 6 plus jokers as needed."""
    colour = ("purple", "green", "blue", "orange")[CAT.cost_colour[card]]
    avoid = {card} | {c for cs in kw.get("buildings", {}).values() for c in cs} | {
        c for cs in kw.get("goods", {}).values() for c in cs}
    die = dice_cards(colour, 1, avoid)[0]
    managers = 1 if CAT.cost_value[card] > 6 else 0
    seat = {0: {"managers": managers}}
    g = table(offer=[card], hands={0: [die]}, numbers={die: 6}, seat=seat, managers_supply=12 - managers, **kw)
    return do(g, "building", card, managers, die)


def test_julian_gets_a_third_red_and_yellow_card_and_two_managers_for_both_effects() -> None:
    cards = [building("red", "yellow", nth=i) for i in range(3)]
    g, events = build(cards[2], buildings={0: cards[:2]})
    assert g.players[0].buildings == () and g.players[0].managers == 2
    assert set(cards) <= set(g.discard)
    three = next(e for e in events if e["type"] == "three_of_a_kind")
    assert sorted(e["what"] for e in three["effects"]) == ["red", "yellow"]


def test_anna_sets_off_three_red_buildings_and_three_teas_at_once() -> None:
    reds = [building("red", nth=0), building("red", nth=1)]
    teas = [goods_card(("tea", 2)), goods_card(("tea", 1), coin=1)]
    new = building("red", goods=("tea", 3))
    g, _ = build(new, buildings={0: reds}, goods={0: teas})
    p = g.players[0]
    assert p.buildings == () and p.goods == () and p.managers == 1
    assert p.coins_from[1] == 6 and p.coin_flips == 1  # 2 + 1 + 3 for the tea: six coins turn a card


def test_simon_must_choose_between_three_yellows_and_three_different_buildings() -> None:
    yellows = [building("yellow", nth=0), building("yellow", nth=1)]
    reds = [building("red", nth=0), building("red", nth=1)]
    new = building("yellow", "white", nth=0)
    g, _ = build(new, buildings={0: yellows + reds})
    assert g.stack[-1] == ("threes",) and g.current == 0
    options = pending(g, 0)["threes"]
    kinds_offered = sorted({e["kind"] for option in options for e in option})
    assert kinds_offered == ["buildings_different", "buildings_same"]
    assert all(len(option) == 1 for option in options)  # one effect only: a yellow is needed for both
    # He takes three different buildings with the new card and one red card, and keeps the rest.
    choice = next(i for i, o in enumerate(options) if o[0]["kind"] == "buildings_different"
                  and o[0]["cards"] == sorted([new, reds[0]]))
    g2, _ = do(g, "choose", choice)
    assert sorted(g2.players[0].buildings) == sorted([*yellows, reds[1]]) and g2.players[0].managers == 1


def test_three_goods_alike_are_sold_for_their_values_only_and_leave_with_every_card_showing_them() -> None:
    two = [goods_card(("silk", 3)), goods_card(("silk", 2), ("tea", 1))]
    g = table(goods={0: two}, offer=[goods_card(("silk", 1), coin=1)])
    g2, _ = do(g, "goods", g.offer[0])
    p = g2.players[0]
    # The coin on the card, then 3 + 2 + 1 for the silk (not the tea's 1): seven coins, one card turned.
    assert p.goods == () and p.coins_from[:2] == (1, 6) and p.coin_flips == 1 and p.coins == 1


def test_three_different_goods_are_sold_for_the_three_values() -> None:
    g = table(goods={0: [goods_card(("silk", 3)), goods_card(("tea", 2))]}, offer=[goods_card(("spices", 2))])
    g2, _ = do(g, "goods", g.offer[0])
    assert g2.players[0].goods == () and g2.players[0].coins == 1  # 7 coins: one card turned, 1 left


def test_a_card_with_two_goods_can_set_off_two_effects_at_once() -> None:
    have = [goods_card(("silk", 3)), goods_card(("silk", 2)), goods_card(("tea", 3)), goods_card(("tea", 2))]
    g = table(goods={0: have}, offer=[goods_card(("silk", 1), ("tea", 1))])
    g2, events = do(g, "goods", g.offer[0])
    three = next(e for e in events if e["type"] == "three_of_a_kind")
    assert sorted(e["what"] for e in three["effects"]) == ["silk", "tea"]
    assert g2.players[0].goods == ()


def test_goods_needed_by_two_effects_make_the_player_choose_one() -> None:
    have = [goods_card(("silk", 3)), goods_card(("silk", 2)), goods_card(("tea", 3))]
    g = table(goods={0: have}, offer=[goods_card(("silk", 1), ("spices", 2))])
    g2, _ = do(g, "goods", g.offer[0])
    options = pending(g2, 0)["threes"]
    assert {o[0]["kind"] for o in options} == {"goods_same", "goods_different"}


def test_the_third_karma_chip_goes_back_with_the_others_for_a_manager() -> None:
    g = table(offer=[ship(1)], hands={0: dice_cards("green", 1, {ship(1)})}, seat={0: {"karma": 1}},
              numbers={dice_cards("green", 1, {ship(1)})[0]: 1})
    g2, _ = do(g, "ship", ship(1), g.players[0].hand[0])  # ship 1: two karma
    assert g2.players[0].karma == 0 and g2.players[0].managers == 1


def test_the_third_manager_goes_back_unused_with_the_others_for_two_fame() -> None:
    g = table(offer=[ship(1)], hands={0: dice_cards("green", 1, {ship(1)})},
              numbers={dice_cards("green", 1, {ship(1)})[0]: 1}, seat={0: {"karma": 2, "managers": 2}},
              managers_supply=10)
    g2, events = do(g, "ship", ship(1), g.players[0].hand[0])
    p = g2.players[0]
    assert p.managers == 0 and g2.managers_supply == 12 and p.fame_from[2] == 2
    assert [e["type"] for e in events].count("managers_three") == 1


def test_no_effect_is_offered_as_a_decision_when_only_one_set_of_effects_is_possible() -> None:
    g = table(goods={0: [goods_card(("silk", 3)), goods_card(("tea", 2))]}, offer=[goods_card(("spices", 2))])
    g2, _ = do(g, "goods", g.offer[0])
    assert Decision("choose", (0,)) not in legal_decisions(g2)
