"""The end: the sixth card turned ends the game after the current series of turns; whoever turned all six wins,
ties broken by fame (2 each) and coins (1 each) left, then karma, then shared."""

from __future__ import annotations

from dataclasses import replace

from rajas.games.card_game.engine import BOTS, Options, apply, breakdown, check_state, new_game, standings
from rajas.games.card_game.engine.cards import TRACK_REWARDS

from .builders import dice_cards, do, goods_card, ship, table

LAST_IS_KARMA = tuple(TRACK_REWARDS.index(r) for r in ("manager", "dice2", "extra_turn", "coins2_or_palace",
                                                        "fame_or_ship", "karma2"))
FIVE = (True, True, True, True, True, False)


def about_to_finish(players: int, current: int, start_player: int = 0, turn: int | None = None):  # type: ignore[no-untyped-def]
    die = dice_cards("purple", 1, {ship(3)})[0]
    offer = [ship(3), goods_card(("tea", 2)), goods_card(("tea", 3)), goods_card(("silk", 2)), goods_card(("silk", 3))]
    return table(players, current=current, start_player=start_player, turn=turn, offer=offer,
                 hands={current: [die]}, numbers={die: 3},
                 seat={current: {"coins": 4, "track": LAST_IS_KARMA, "flipped": FIVE}})


def test_the_sixth_card_ends_the_game_once_the_series_of_turns_is_complete() -> None:
    g = about_to_finish(3, current=1)  # turn 1 of the first series: seat 2 still plays
    g, _ = do(g, "ship", ship(3), g.players[1].hand[0])
    assert g.end_triggered and not g.is_over and g.current == 2
    g, _ = do(g, "goods", goods_card(("tea", 2)))
    assert g.is_over and g.result is not None and g.result[0].seat == 1 and g.result[0].winner


def test_the_series_ends_before_the_start_player_plays_again_not_at_the_rounds_end() -> None:
    g = about_to_finish(2, current=1)  # the last turn of the first series
    g, _ = do(g, "ship", ship(3), g.players[1].hand[0])
    assert g.is_over and g.round == 1 and g.turn == 1  # no second series


def test_among_several_players_with_six_cards_fame_counts_two_and_a_coin_one() -> None:
    g = table(3)
    players = list(g.players)
    players[0] = replace(players[0], flipped=(True,) * 6, fame=1, coins=3, karma=2)  # 5
    players[1] = replace(players[1], flipped=(True,) * 6, fame=2, coins=2, karma=0)  # 6
    players[2] = replace(players[2], flipped=FIVE, fame=2, coins=5)
    result = standings(replace(g, players=tuple(players)))
    assert [(s.seat, s.place, s.winner) for s in result] == [(1, 1, True), (0, 2, False), (2, 3, False)]


def test_then_karma_breaks_the_tie_and_then_the_players_share_the_win() -> None:
    g = table(3)
    players = list(g.players)
    players[0] = replace(players[0], flipped=(True,) * 6, fame=1, coins=2, karma=1)
    players[1] = replace(players[1], flipped=(True,) * 6, fame=2, coins=0, karma=2)
    players[2] = replace(players[2], flipped=(True,) * 6, fame=2, coins=0, karma=1)
    result = standings(replace(g, players=tuple(players)))
    assert [(s.seat, s.place) for s in result] == [(1, 1), (0, 2), (2, 2)]
    players[1] = replace(players[1], karma=1)
    result = standings(replace(g, players=tuple(players)))
    assert [s.place for s in result] == [1, 1, 1] and all(s.winner for s in result)


def test_the_breakdown_says_where_fame_and_coins_came_from() -> None:
    g = about_to_finish(2, current=1)
    g, _ = do(g, "ship", ship(3), g.players[1].hand[0])
    b = breakdown(g)[1]
    assert b["coins"] == {"ships": 3} and b["turned_by_coins"] == 1
    assert b["rewards"][-1] == "karma2" and len(b["rewards"]) == 6


def test_a_round_limit_set_by_the_room_ends_the_game_after_that_round() -> None:
    g, _ = new_game(3, "limit", options=Options(round_limit=2))
    bots = [BOTS["random"](f"limit:{s}") for s in range(3)]
    while not g.is_over:
        g, _ = apply(g, bots[g.current](g))
    assert g.round <= 2 and g.result is not None and g.result[0].place == 1


def test_a_planned_track_game_plays_to_its_end() -> None:
    g, _ = new_game(4, "planned game", options=Options(planned_track=True))
    bots = [BOTS["greedy"](f"planned:{s}") for s in range(4)]
    while not g.is_over:
        g, _ = apply(g, bots[g.current](g))
        check_state(g)
    assert any(all(p.flipped) for p in g.players)
