"""Every game's bots, as the platform reaches them (the registry's plug-ins): each kind plays legal decisions, and
the Dice Charmers' plug-in offers its levels without the platform naming them."""

from __future__ import annotations

import pytest
from rajas.games.registry import GAMES


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_every_bot_of_every_game_plays_a_few_legal_decisions(game_id: str) -> None:
    game = GAMES[game_id]
    assert {"greedy", "random"} <= set(game.bots)
    options = game.options({})
    state, _ = game.setup(game.min_players, "bots", ["a"] * game.min_players, game.components(options))
    for kind, make in sorted(game.bots.items()):
        bot, g = make(f"{kind}:0", 0.2), state  # (the think budget every game's bots accept)
        for _ in range(6):  # (a few decisions: the expert's take a tenth of a second at most)
            if game.is_over(g):
                break
            decision = bot(g)
            assert decision in game.legal(g), (game_id, kind)
            g, _ = game.apply(g, decision, game.to_move(g))


def test_the_dice_charmers_offer_the_levels_players_choose_from() -> None:
    from rajas.games.dice_charmers.engine.bots import LEVELS

    assert set(LEVELS) <= set(GAMES["dice_charmers"].bots)
