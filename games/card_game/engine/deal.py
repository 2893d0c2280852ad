"""Every shuffle of the game, drawn from the verifiable generator (rng.py) in a fixed order a browser can repeat.

The order of draws at setup, and the shuffle itself, are written out in docs/card-game/rules-decisions.md
("How the deal is derived"); tests/games/card_game/test_deal.py recomputes a deal from those words alone.
"""

from __future__ import annotations

from typing import TypeVar

from rajas.games.rng import roll

from .cards import COLOURS, Catalogue

T = TypeVar("T")


def shuffle(state: int, items: list[T]) -> tuple[int, list[T]]:
    """Fisher-Yates from the last index down: for i = len-1 .. 1, j = roll(state, i + 1), swap items i and j."""
    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        state, j = roll(state, i + 1)
        out[i], out[j] = out[j], out[i]
    return state, out


def pair_numbers(state: int, cat: Catalogue) -> tuple[int, tuple[int, ...]]:
    """Each card's dice number: per colour (in the list's order), the colour's numbers - 1,1,..,2,2,..,6 - are
    shuffled and given to that colour's cards in id order. The colour stays with the action side, as printed
    in its corner; which number goes with which action side is known to nobody until the card is seen."""
    numbers = [0] * len(cat.kind)
    for colour in range(len(COLOURS)):
        ids = [c for c in range(len(cat.kind)) if cat.colour[c] == colour]
        pool = [n for n in range(1, 7) for _ in range(cat.dice_per_number)]
        state, pool = shuffle(state, pool)
        for card, number in zip(ids, pool, strict=True):
            numbers[card] = number
    return state, tuple(numbers)
