"""Managers: an extra turn at the end of the turn, a joker die, or two dice from the draw pile; each used once,
any number in a turn, at any moment of the player's own turn."""

from __future__ import annotations

from rajas.games.card_game.engine import Decision, legal_decisions, pending

from .builders import dice_cards, do, goods_card, palace, ship, table

ONE = {"seat": {0: {"managers": 1}}, "managers_supply": 11}


def test_a_player_without_a_manager_is_never_asked_to_end_the_turn() -> None:
    g = table(offer=[goods_card(("tea", 2)), goods_card(("tea", 3))])
    g2, _ = do(g, "goods", g.offer[0])
    assert g2.current == 1


def test_a_manager_at_the_end_of_the_turn_buys_one_more_turn() -> None:
    g = table(offer=[goods_card(("tea", 2)), goods_card(("tea", 3))], **ONE)
    g2, _ = do(g, "goods", g.offer[0])
    assert pending(g2, 0)["kind"] == "end_of_turn"
    assert {d.kind for d in legal_decisions(g2)} == {"end", "extra", "draw"}
    g3, _ = do(g2, "extra")
    assert g3.current == 0 and g3.players[0].managers == 0 and g3.managers_supply == 12
    g4, _ = do(g3, "goods", g3.offer[0])
    assert g4.current == 1


def test_ending_the_turn_keeps_the_manager() -> None:
    g = table(offer=[goods_card(("tea", 2)), goods_card(("tea", 3))], **ONE)
    g2, _ = do(g, "goods", g.offer[0])
    g3, _ = do(g2, "end")
    assert g3.current == 1 and g3.players[0].managers == 1


def test_a_manager_draws_two_dice_from_the_draw_pile_as_well_as_the_action() -> None:
    g = table(offer=[goods_card(("tea", 2))], draw=[ship(20), ship(21)], **ONE)
    g2, _ = do(g, "draw")
    assert set(g2.players[0].hand) == {ship(20), ship(21)} and g2.current == 0
    assert pending(g2, 0)["kind"] == "action"  # the turn's action is still to come
    assert Decision("draw") not in legal_decisions(g2)


def test_a_managers_two_dice_keep_the_hand_limit() -> None:
    hand = dice_cards("blue", 7, {ship(20), ship(21)})
    g = table(offer=[goods_card(("tea", 2))], draw=[ship(20), ship(21)], hands={0: hand}, **ONE)
    g2, _ = do(g, "draw")
    assert g2.stack[-1] == ("discard", 1)
    g3, _ = do(g2, "discard", hand[0])
    assert len(g3.players[0].hand) == 8


def test_a_manager_is_a_joker_of_any_number_for_an_exact_payment() -> None:
    g = table(offer=[palace(6), ship(1)], draw=[goods_card(("tea", 2))], **ONE)
    assert Decision("palace", (palace(6), -1)) in legal_decisions(g)
    g2, _ = do(g, "palace", palace(6), -1)
    assert g2.players[0].managers == 0 and g2.players[0].goods == (goods_card(("tea", 2)),)


def test_several_managers_may_be_used_in_one_turn() -> None:
    g = table(offer=[palace(6), ship(1)], draw=[ship(20), ship(21), goods_card(("tea", 2))],
              seat={0: {"managers": 2}}, managers_supply=10)
    g2, _ = do(g, "draw")
    g3, _ = do(g2, "palace", palace(6), -1)
    assert g3.players[0].managers == 0 and g3.managers_supply == 12
