"""Paying for an action with dice cards: a building's colour and sum, a ship's or palace action's exact number,
karma to move a die by one, and managers as jokers."""

from __future__ import annotations

from itertools import combinations
from typing import NamedTuple

from .cards import Catalogue

JOKER = -1  # the die argument of an exact payment made with a manager instead of a dice card
JOKER_VALUE = 6  # a joker's declared value on a building: the most it may be ("van 1 tot 6")


class Payment(NamedTuple):
    dice: tuple[int, ...]  # hand cards, sorted
    jokers: int
    karma: int


def building_payments(
    cat: Catalogue, numbers: tuple[int, ...], hand: list[int] | tuple[int, ...], karma: int, managers: int, card: int
) -> list[Payment]:
    """Every payment of the building `card` in which each part is needed: dice of its colour, jokers and karma
    reaching at least its value, such that leaving out any die, any joker or any karma falls short."""
    colour, cost = cat.cost_colour[card], cat.cost_value[card]
    mine = sorted(c for c in hand if cat.colour[c] == colour)
    out: list[Payment] = []
    for size in range(len(mine) + 1):
        for dice in combinations(mine, size):
            values = [numbers[c] for c in dice]
            total = sum(values)
            for jokers in range(managers + 1):
                k = max(0, cost - total - JOKER_VALUE * jokers)
                if k > karma or k > sum(6 - v for v in values):
                    continue
                if jokers and total + JOKER_VALUE * (jokers - 1) + min(k, sum(6 - v for v in values)) >= cost:
                    continue  # a joker too many
                if any(total - v + JOKER_VALUE * jokers + min(k, sum(6 - u for u in values) - (6 - v)) >= cost
                       for v in values):
                    continue  # a die too many
                if not dice and not jokers:
                    continue  # (a building always costs something)
                out.append(Payment(dice, jokers, k))
    return out


def building_payment_karma(
    cat: Catalogue, numbers: tuple[int, ...], hand: list[int] | tuple[int, ...], karma: int, managers: int,
    card: int, dice: tuple[int, ...], jokers: int,
) -> int | None:
    """The karma the building payment (dice, jokers) uses, or None if it is not one of its legal payments."""
    for p in building_payments(cat, numbers, hand, karma, managers, card):
        if p.dice == dice and p.jokers == jokers:
            return p.karma
    return None


def exact_payments(numbers: tuple[int, ...], hand: list[int] | tuple[int, ...], karma: int, managers: int,
                   value: int) -> list[tuple[int, int]]:
    """(die, karma) for every way to show exactly `value` with one die: a dice card moved by karma (one chip per
    step), or a manager's joker (die JOKER). Never the sum of two dice."""
    out = [(c, abs(numbers[c] - value)) for c in sorted(hand) if abs(numbers[c] - value) <= karma]
    if managers:
        out.append((JOKER, 0))
    return out
