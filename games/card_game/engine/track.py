"""Fame, coins, karma and managers as they come in, and the score track they turn: three fame turn the leftmost
card still showing its day side, six coins the rightmost, and each card turned gives its reward at once."""

from __future__ import annotations

from .cards import catalogue
from .state import COIN_SOURCES, FAME_SOURCES, Work

FAME_PER_CARD = 3
COINS_PER_CARD = 6
THREE = 3  # the third karma chip or manager turns into something else at once


def gain_fame(w: Work, amount: int, source: str) -> None:
    """Fame for the player to move; every third chip goes back and turns a card ("direct (!)")."""
    p = w.me
    w.emit({"type": "gained", "player": w.current, "what": "fame", "amount": amount, "source": source})
    for _ in range(amount):
        p.fame += 1
        p.fame_from[FAME_SOURCES.index(source)] += 1
        if p.fame >= FAME_PER_CARD and not all(p.flipped):
            p.fame -= FAME_PER_CARD
            turn_card(w, "fame")


def gain_coins(w: Work, amount: int, source: str) -> None:
    """Coins for the player to move; every sixth goes back with the others and turns a card."""
    p = w.me
    w.emit({"type": "gained", "player": w.current, "what": "coins", "amount": amount, "source": source})
    for _ in range(amount):
        p.coins += 1
        p.coins_from[COIN_SOURCES.index(source)] += 1
        if p.coins >= COINS_PER_CARD and not all(p.flipped):
            p.coins -= COINS_PER_CARD
            turn_card(w, "coins")


def gain_karma(w: Work, amount: int) -> None:
    """Karma chips, one at a time: the third makes all three go back for a manager."""
    p = w.me
    w.emit({"type": "gained", "player": w.current, "what": "karma", "amount": amount, "source": ""})
    for _ in range(amount):
        p.karma += 1
        if p.karma == THREE:
            p.karma = 0
            w.emit({"type": "karma_three", "player": w.current})
            gain_manager(w, 1)


def gain_manager(w: Work, amount: int) -> None:
    """Managers from the supply, one at a time: the third makes all three go back, unused, for two fame."""
    p = w.me
    for _ in range(amount):
        if w.managers_supply == 0:
            w.emit({"type": "no_manager_left", "player": w.current})
            continue
        w.managers_supply -= 1
        p.managers += 1
        w.emit({"type": "manager_gained", "player": w.current})
        if p.managers == THREE:
            p.managers = 0
            w.managers_supply += THREE
            w.emit({"type": "managers_three", "player": w.current})
            gain_fame(w, 2, "managers")


def turn_card(w: Work, by: str) -> None:
    """Turns the leftmost (fame) or rightmost (coins) card not yet turned and pushes its reward."""
    p = w.me
    order = range(len(p.flipped)) if by == "fame" else range(len(p.flipped) - 1, -1, -1)
    position = next(i for i in order if not p.flipped[i])
    p.flipped[position] = True
    if by == "fame":
        p.fame_flips += 1
    else:
        p.coin_flips += 1
    reward = catalogue().score_track[p.track[position]]
    w.emit({"type": "track_turned", "player": w.current, "position": position, "reward": reward, "by": by})
    w.stack.append(("reward", reward))
    if all(p.flipped) and not w.end_triggered:
        w.end_triggered = True
        w.emit({"type": "game_end_triggered", "player": w.current})
