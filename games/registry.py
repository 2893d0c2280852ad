"""The games the platform offers: one line per game. Nothing else in the platform names a game."""

from __future__ import annotations

from rajas.games.card_game.game import GAME as CARD_GAME
from rajas.games.dice_charmers.game import GAME as DICE_CHARMERS
from rajas.games.interface import Game

GAMES: dict[str, Game] = {g.id: g for g in (DICE_CHARMERS, CARD_GAME)}
DEFAULT = DICE_CHARMERS.id  # a room whose settings name no game plays this one


def game(game_id: str | None) -> Game:
    """The game of that id; KeyError for one not offered here."""
    return GAMES[game_id or DEFAULT]
