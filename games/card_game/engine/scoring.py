"""The end of the game: standings with the rulebook's tie-break, and where each player's fame and coins came from."""

from __future__ import annotations

from typing import Any

from .cards import catalogue
from .state import COIN_SOURCES, FAME_SOURCES, Standing, State


def _key(g: State, seat: int) -> tuple[int, int, int]:
    p = g.players[seat]
    return (p.turned, 2 * p.fame + p.coins, p.karma)


def standings(g: State) -> tuple[Standing, ...]:
    """Best first. Whoever turned all six cards wins; among several, "Elk roemfiche heeft een waarde 2 en elke
    munt een waarde 1", then the most karma, then they share. Everyone else is placed by cards turned, then
    the same two counts (our extension: the rulebook names only the winner)."""
    seats = sorted(range(g.n), key=lambda s: (tuple(-x for x in _key(g, s)), s))
    out: list[Standing] = []
    for i, seat in enumerate(seats):
        p = g.players[seat]
        place = out[-1].place if i and _key(g, seats[i - 1]) == _key(g, seat) else i + 1
        out.append(Standing(seat, place, p.turned, p.fame, p.coins, 2 * p.fame + p.coins, p.karma, place == 1))
    return tuple(out)


def breakdown(g: State) -> list[dict[str, Any]]:
    """Per seat: fame and coins gained by source, cards turned by fame and by coins, and the rewards turned."""
    track = catalogue().score_track
    out: list[dict[str, Any]] = []
    for p in g.players:
        out.append({
            "fame": {FAME_SOURCES[i]: v for i, v in enumerate(p.fame_from) if v},
            "coins": {COIN_SOURCES[i]: v for i, v in enumerate(p.coins_from) if v},
            "turned_by_fame": p.fame_flips,
            "turned_by_coins": p.coin_flips,
            "rewards": [track[p.track[i]] for i in range(len(p.track)) if p.flipped[i]],
            "fame_left": p.fame,
            "coins_left": p.coins,
            "karma_left": p.karma,
        })
    return out
