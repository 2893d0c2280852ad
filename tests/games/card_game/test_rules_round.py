"""The round: everyone's two turns, the Startifant turned for the second series with a karma for the start
player, then passed to the left; the offer refilled, an empty offer laid out anew, the discard pile reshuffled."""

from __future__ import annotations

from dataclasses import replace

from rajas.games.card_game.engine import Decision, Options, apply, new_game, view

from .builders import do, goods_card, kinds, palace, ship, table


def take_a_die(g):  # type: ignore[no-untyped-def]
    return apply(g, Decision("dice", (min(g.offer),)))


def test_setup_deals_four_cards_to_each_and_lays_out_12_16_or_20_cards() -> None:
    for players, offer in ((2, 12), (3, 16), (4, 20)):
        g, _ = new_game(players, f"setup {players}")
        assert len(g.offer) == offer and all(len(p.hand) == 4 for p in g.players)
        assert len(g.draw) == 144 - offer - 4 * players and not g.discard
        assert all(sorted(p.track) == list(range(6)) and not any(p.flipped) for p in g.players)
        assert g.managers_supply == 12 and all(p.karma == p.fame == p.coins == 0 for p in g.players)


def test_every_player_has_two_turns_a_round_clockwise_from_the_start_player() -> None:
    g, _ = new_game(3, "round", options=Options(start_player=2))
    seats = []
    while g.round == 1:
        seats.append(g.current)
        g, _ = take_a_die(g)
        while not g.is_over and g.stack:
            g, _ = apply(g, Decision("discard", (g.players[g.current].hand[0],)))
    assert seats == [2, 0, 1, 2, 0, 1]
    assert g.start_player == 0 and g.current == 0  # the Startifant passed to the left


def test_the_startifant_is_turned_before_the_start_players_second_turn_for_one_karma() -> None:
    g, _ = new_game(2, "startifant", options=Options(start_player=0))
    g, _ = take_a_die(g)
    assert view(g, None)["startifant"] == "front"
    g, events = take_a_die(g)
    assert "startifant_turned" in kinds(events) and g.players[0].karma == 1 and g.current == 0
    assert view(g, None)["startifant"] == "back"


def test_the_offer_is_filled_up_at_the_round_end_and_its_unused_cards_stay() -> None:
    g, _ = new_game(2, "refill", options=Options(start_player=0))
    first = set(g.offer)
    for _ in range(4):
        g, _ = take_a_die(g)
    assert g.round == 2 and len(g.offer) == 12
    assert len(first & set(g.offer)) == 8


def test_an_offer_used_up_within_a_round_is_laid_out_anew_with_four_cards() -> None:
    g = table(offer=[goods_card(("tea", 2))], draw=[ship(1), ship(2), ship(3), ship(4), ship(5)])
    g2, events = do(g, "goods", g.offer[0])
    assert sorted(g2.offer) == sorted([ship(1), ship(2), ship(3), ship(4)])
    assert any(e["type"] == "offer_laid" and e["reason"] == "offer_empty" for e in events)


def test_the_discard_pile_is_shuffled_into_a_new_draw_pile_when_the_draw_pile_runs_out() -> None:
    g = table(offer=[palace(6), ship(1)], discard=[ship(20), ship(21)], managers_supply=11,
              seat={0: {"managers": 1}})
    everything_else = list(g.draw)
    g = replace(g, draw=(everything_else[0],), offer=(*g.offer, *everything_else[1:]))
    g2, events = do(g, "draw")  # a manager: two dice from the draw pile, which has one card left
    assert "reshuffled" in kinds(events) and g2.discard == ()
    hand = set(g2.players[0].hand)
    assert everything_else[0] in hand and len(hand & {ship(20), ship(21)}) == 1
    assert len(g2.draw) == 1 and g2.draw[0] in {ship(20), ship(21)}
