"""The score track: three fame turn the leftmost card, six coins the rightmost, each card's reward, and the
planned-track variant."""

from __future__ import annotations

from rajas.games.card_game.engine import Decision, Options, apply, legal_decisions, new_game, pending, view
from rajas.games.card_game.engine.cards import TRACK_REWARDS

from .builders import dice_cards, do, goods_card, palace, ship, table

QUIET = ("karma2", "manager", "dice2", "extra_turn", "fame_or_ship", "coins2_or_palace")


def track(*rewards: str) -> tuple[int, ...]:
    return tuple(TRACK_REWARDS.index(r) for r in rewards)


def coins_table(coins: int, rewards: tuple[str, ...] = QUIET, **kw):  # type: ignore[no-untyped-def]
    """Player 0 about to gain three coins (ship 3) holding `coins`."""
    die = dice_cards("purple", 1, {ship(3), *kw.get("offer", [])})[0]
    return table(offer=[ship(3), *kw.pop("offer", [])], hands={0: [die]}, numbers={die: 3},
                 seat={0: {"coins": coins, "track": track(*rewards), **kw.pop("fields", {})}}, **kw)


def test_three_fame_go_back_and_turn_the_leftmost_card_not_yet_turned() -> None:
    g = table(offer=[ship(7)], hands={0: dice_cards("green", 1, {ship(7)})},
              numbers={dice_cards("green", 1, {ship(7)})[0]: 1},
              seat={0: {"fame": 2, "track": track(*QUIET), "flipped": (True, False, False, False, False, False)}})
    g2, events = do(g, "ship", ship(7), g.players[0].hand[0])  # ship 7: one fame
    assert g2.players[0].fame == 0 and g2.players[0].flipped[1]
    turned = next(e for e in events if e["type"] == "track_turned")
    assert (turned["position"], turned["by"], turned["reward"]) == (1, "fame", "manager")
    assert g2.players[0].managers == 1


def test_six_coins_go_back_and_turn_the_rightmost_card_not_yet_turned() -> None:
    g2, events = do(coins_table(4), "ship", ship(3), coins_table(4).players[0].hand[0])
    p = g2.players[0]
    # 4 + 3 = 7: six go back, one stays, and the rightmost card's reward (two coins, no palace card on offer).
    assert p.coins == 1 + 2 and p.flipped == (False,) * 5 + (True,)
    assert next(e for e in events if e["type"] == "track_turned")["by"] == "coins"


def test_reward_two_coins_or_a_palace_action_for_free() -> None:
    g = coins_table(4, offer=[palace(4)], goods={0: [goods_card(("tea", 2))]})
    g2, _ = do(g, "ship", ship(3), g.players[0].hand[0])
    assert pending(g2, 0)["kind"] == "track_choice"
    coins, _ = do(g2, "choose", 0)
    assert coins.players[0].coins == 1 + 2
    free, _ = do(g2, "choose", 1)  # palace 4 for free: a coin for the one tea
    assert free.players[0].coins == 1 + 1 and palace(4) in free.discard


def test_reward_two_coins_when_no_palace_action_lies_in_the_offer() -> None:
    g = coins_table(4)
    g2, _ = do(g, "ship", ship(3), g.players[0].hand[0])
    assert g2.players[0].coins == 3 and g2.current == 1


def test_reward_a_fame_or_a_free_ship_from_the_offer_with_its_reward() -> None:
    g = coins_table(4, rewards=("karma2", "manager", "dice2", "extra_turn", "coins2_or_palace", "fame_or_ship"),
                    offer=[ship(13)])
    g2, _ = do(g, "ship", ship(3), g.players[0].hand[0])
    fame, _ = do(g2, "choose", 0)
    assert fame.players[0].fame == 1
    boat, _ = do(g2, "choose", 1)
    assert boat.players[0].ships == (ship(3), ship(13)) and boat.players[0].coins == 1 + 3


def test_reward_two_karma() -> None:
    g = coins_table(4, rewards=("manager", "dice2", "extra_turn", "coins2_or_palace", "fame_or_ship", "karma2"))
    g2, _ = do(g, "ship", ship(3), g.players[0].hand[0])
    assert g2.players[0].karma == 2


def test_reward_a_manager() -> None:
    g = coins_table(4, rewards=("karma2", "dice2", "extra_turn", "coins2_or_palace", "fame_or_ship", "manager"))
    g2, _ = do(g, "ship", ship(3), g.players[0].hand[0])
    assert g2.players[0].managers == 1


def test_reward_two_dice_from_the_offer() -> None:
    g = coins_table(4, rewards=("karma2", "manager", "extra_turn", "coins2_or_palace", "fame_or_ship", "dice2"),
                    offer=[palace(2), palace(3), palace(5)])
    g2, _ = do(g, "ship", ship(3), g.players[0].hand[0])
    g2, _ = do(g2, "take", palace(2))
    g2, _ = do(g2, "take", palace(3))
    assert set(g2.players[0].hand) == {palace(2), palace(3)}


def test_reward_an_extra_turn_at_the_end_of_the_turn() -> None:
    g = coins_table(4, rewards=("karma2", "manager", "dice2", "coins2_or_palace", "fame_or_ship", "extra_turn"),
                    offer=[palace(2), palace(3)])
    g2, events = do(g, "ship", ship(3), g.players[0].hand[0])
    assert g2.current == 0 and g2.turn == g.turn and g2.turn_no == g.turn_no + 1
    assert any(e["type"] == "turn_started" and e["extra"] for e in events)
    g3, _ = do(g2, "dice", palace(2))
    assert g3.current == 1


def test_coins_past_six_turn_one_card_and_the_rest_stays() -> None:
    g = coins_table(5, rewards=("manager", "dice2", "extra_turn", "coins2_or_palace", "fame_or_ship", "karma2"))
    g2, _ = do(g, "ship", ship(3), g.players[0].hand[0])
    assert g2.players[0].coins == 2 and sum(g2.players[0].flipped) == 1


def test_nobody_sees_a_score_track_reward_before_its_card_is_turned() -> None:
    g, _ = new_game(3, "secret tracks")
    for audience in (0, 1, None):
        assert all(r is None for s in view(g, audience)["seats"] for r in s["track"])


def test_the_planned_variant_lets_each_player_lay_out_their_own_track_in_sight_of_all() -> None:
    g, _ = new_game(2, "planned", options=Options(start_player=1, planned_track=True))
    assert pending(g, 1)["kind"] == "plan_track" and g.current == 1
    for seat in (1, 0):
        for reward in (5, 4, 3, 2, 1, 0):
            assert g.current == seat
            g, _ = apply(g, Decision("place", (reward,)))
    assert g.players[0].track == (5, 4, 3, 2, 1, 0) and g.current == 1
    assert view(g, None)["seats"][0]["track"][0] == "extra_turn"
    assert all(d.kind != "place" for d in legal_decisions(g))
