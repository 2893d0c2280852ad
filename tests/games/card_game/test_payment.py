"""Building payments, checked against every way of paying: each one listed pays enough with every part needed,
and whenever some payment is possible, one is listed."""

from __future__ import annotations

from itertools import combinations

from hypothesis import given, settings
from hypothesis import strategies as st
from rajas.games.card_game.engine import catalogue
from rajas.games.card_game.engine.payment import building_payments, exact_payments

CAT = catalogue()
BUILDING_CARDS = [c for c in range(144) if CAT.kind[c] == "building"]


def pays(values: list[int], jokers: int, karma: int, cost: int) -> bool:
    return sum(values) + 6 * jokers + min(karma, sum(6 - v for v in values)) >= cost


@settings(max_examples=120, deadline=None)
@given(card=st.sampled_from(BUILDING_CARDS), numbers=st.lists(st.integers(1, 6), min_size=0, max_size=8),
       karma=st.integers(0, 2), managers=st.integers(0, 2))
def test_every_listed_building_payment_pays_with_every_part_needed_and_none_is_missing(
    card: int, numbers: list[int], karma: int, managers: int
) -> None:
    colour = CAT.cost_colour[card]
    hand = [c for c in range(144) if CAT.colour[c] == colour and c != card][: len(numbers)]
    pairing = [0] * 144
    for c, n in zip(hand, numbers, strict=True):
        pairing[c] = n
    cost = CAT.cost_value[card]
    listed = building_payments(CAT, tuple(pairing), hand, karma, managers, card)
    for p in listed:
        values = [pairing[c] for c in p.dice]
        assert p.karma <= karma and p.jokers <= managers and pays(values, p.jokers, p.karma, cost)
        for i in range(len(values)):
            assert not pays(values[:i] + values[i + 1:], p.jokers, p.karma, cost)
        if p.jokers:
            assert not pays(values, p.jokers - 1, p.karma, cost)
    possible = any(pays([pairing[c] for c in dice], j, karma, cost)
                   for r in range(len(hand) + 1) for dice in combinations(hand, r) for j in range(managers + 1)
                   if dice or j)
    assert possible == bool(listed)


@given(numbers=st.lists(st.integers(1, 6), min_size=1, max_size=8), karma=st.integers(0, 2),
       target=st.integers(1, 6))
def test_an_exact_payment_is_one_die_moved_by_at_most_the_karma_held(numbers: list[int], karma: int,
                                                                      target: int) -> None:
    hand = list(range(len(numbers)))
    pairing = tuple(numbers) + (0,) * (144 - len(numbers))
    listed = exact_payments(pairing, hand, karma, 0, target)
    assert {die for die, _ in listed} == {c for c in hand if abs(numbers[c] - target) <= karma}
    assert all(k == abs(numbers[die] - target) for die, k in listed)
